package source

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/ident"
)

// Titles are short; a "title" longer than this is an abstract whose title
// line is missing, and guessing would pair every later title with the wrong
// abstract.
const maxTitle = 400

// parseProfile reads an author profile page:
//
//	Xiaoxi Jiang
//	Publications
//	<title>
//	<abstract>
//	...
//
// The page's owner is an author of every paper on it.
func parseProfile(name string, lines []line) (graph.Document, error) {
	doc := graph.Document{Source: name, Format: string(FormatProfile)}
	if len(lines) < 2 || !strings.EqualFold(lines[1].text, "Publications") {
		return doc, fmt.Errorf("%s:1: profile page must start with a name line and a \"Publications\" line", name)
	}
	owner := ident.CleanText(lines[0].text)
	if err := checkName(owner); err != nil {
		return doc, fmt.Errorf("%s:%d: page owner %v", name, lines[0].n, err)
	}
	body := lines[2:]
	for i := 0; i < len(body); i += 2 {
		t := body[i]
		if len(t.text) > maxTitle {
			return doc, fmt.Errorf("%s:%d: expected a paper title, found a %d-character paragraph (is a title missing above it?)", name, t.n, len(t.text))
		}
		if i+1 >= len(body) {
			return doc, fmt.Errorf("%s:%d: title %q has no abstract line after it", name, t.n, short(t.text))
		}
		doc.Records = append(doc.Records, graph.Record{
			Title: t.text, Abstract: body[i+1].text, Authors: []string{owner}, Line: t.n,
		})
	}
	if len(doc.Records) == 0 {
		return doc, fmt.Errorf("%s:%d: profile page lists no publications", name, lines[1].n)
	}
	return doc, nil
}

var (
	yearLine   = regexp.MustCompile(`^arXiv\s*((?:19|20)\d\d)$`)
	atLeast    = regexp.MustCompile(`(?i)^at least \d+ records`)
	attributed = regexp.MustCompile(`(?i)^publications and source records attributed to (.+?)\.?$`)
)

// parseSubjects reads an arXiv-subjects listing:
//
//	arXiv subjects
//	Xiaoxi Jiang
//	Publications and source records attributed to Xiaoxi Jiang.
//	At least 19 recordsLinked to original sources
//	arXiv2026
//	<title>
//	<abstract>
//	cs.LG↗
//	...
//
// Blank lines between fields are ignored. The listed person is an author of
// every record.
func parseSubjects(name string, lines []line) (graph.Document, error) {
	doc := graph.Document{Source: name, Format: string(FormatSubjects)}
	if len(lines) < 2 {
		return doc, fmt.Errorf("%s:1: subjects listing has no owner line after \"arXiv subjects\"", name)
	}
	owner := ident.CleanText(lines[1].text)
	if err := checkName(owner); err != nil {
		return doc, fmt.Errorf("%s:%d: listing owner %v", name, lines[1].n, err)
	}
	i := 2
	for ; i < len(lines) && !yearLine.MatchString(lines[i].text); i++ {
		l := lines[i]
		switch {
		case atLeast.MatchString(l.text):
		case attributed.MatchString(l.text):
			if who := attributed.FindStringSubmatch(l.text)[1]; ident.NameKey(who) != ident.NameKey(owner) {
				doc.Warnings = append(doc.Warnings, fmt.Sprintf("%s:%d: attributed to %q but the listing names %q", name, l.n, who, owner))
			}
		default:
			return doc, fmt.Errorf("%s:%d: unexpected header line %q (want \"Publications and source records attributed to …\", \"At least N records…\" or a record's \"arXivYYYY\")", name, l.n, short(l.text))
		}
	}
	for i < len(lines) {
		y := lines[i]
		m := yearLine.FindStringSubmatch(y.text)
		if m == nil {
			return doc, fmt.Errorf("%s:%d: expected a record's \"arXivYYYY\" line, found %q", name, y.n, short(y.text))
		}
		year, _ := strconv.Atoi(m[1])
		i++
		// title, then an optional abstract, then the subject line
		var fields []line
		for i < len(lines) && !yearLine.MatchString(lines[i].text) {
			fields = append(fields, lines[i])
			i++
			if isSubjectLine(fields[len(fields)-1].text) && len(fields) >= 2 {
				break
			}
		}
		if len(fields) < 2 {
			return doc, fmt.Errorf("%s:%d: record is incomplete: want title, abstract and subject lines after %q", name, y.n, y.text)
		}
		subj := fields[len(fields)-1]
		if !isSubjectLine(subj.text) {
			return doc, fmt.Errorf("%s:%d: expected a subject code such as \"cs.LG↗\", found %q", name, subj.n, short(subj.text))
		}
		if len(fields) > 3 {
			return doc, fmt.Errorf("%s:%d: record has %d lines between title and subject; want one abstract line", name, fields[1].n, len(fields)-2)
		}
		title := fields[0]
		if len(title.text) > maxTitle {
			return doc, fmt.Errorf("%s:%d: expected a paper title, found a %d-character paragraph", name, title.n, len(title.text))
		}
		rec := graph.Record{Title: title.text, Year: year, Authors: []string{owner}, Line: y.n}
		if len(fields) == 3 {
			rec.Abstract = fields[1].text
		}
		rec.Subjects = subjectCodes(subj.text)
		doc.Records = append(doc.Records, rec)
	}
	if len(doc.Records) == 0 {
		return doc, fmt.Errorf("%s:%d: subjects listing has no records", name, lines[len(lines)-1].n)
	}
	return doc, nil
}

func subjectCodes(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '↗' || r == ' ' || r == '\t' || r == ',' })
}

// isSubjectLine: one or more arXiv category codes ("cs.LG↗", "cs.LG↗ stat.ML↗",
// "quant-ph"), each of the code shape and either dotted or a known archive.
func isSubjectLine(s string) bool {
	codes := subjectCodes(s)
	if len(codes) == 0 || len(codes) > 20 {
		return false
	}
	for _, c := range codes {
		if !ident.LooksLikeSubject(c) {
			return false
		}
		if _, known := ident.SubjectName(ident.CanonicalSubject(c)); !known && !strings.Contains(c, ".") {
			return false
		}
	}
	return true
}

func checkName(n string) error {
	switch {
	case n == "":
		return fmt.Errorf("name is empty")
	case len(n) > 200:
		return fmt.Errorf("name is %d characters long; want a person's name", len(n))
	}
	return nil
}

func short(s string) string {
	if len(s) <= 60 {
		return s
	}
	return s[:60] + "…"
}
