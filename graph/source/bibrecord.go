// From a BibTeX entry to a record: fields, author lists ("and" at brace
// depth 0, "Last, First" and "First Last"), arXiv ids in notes, ORCID iDs.

package source

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/ident"
)

var arxivInText = regexp.MustCompile(`(?i)arxiv[:\s/]*((?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?)`)

// bibText renders a field value as text: LaTeX to Unicode, the braces that
// protect case dropped.
func bibText(s string) string {
	return ident.CleanText(strings.NewReplacer("{", "", "}", "").Replace(ident.LatexToText(s)))
}

func bibDocument(name string, e *bibEntry) (graph.Document, error) {
	f := e.fields
	fail := func(why string) (graph.Document, error) {
		return graph.Document{}, fmt.Errorf("%s:%d: entry %q (@%s): %s; skipped", name, e.line, e.key, e.typ, why)
	}
	title := bibText(f["title"])
	if title == "" {
		return fail("no title")
	}
	people := f["author"]
	if strings.TrimSpace(people) == "" {
		people = f["editor"]
	}
	authors := BibNames(people)
	if len(authors) == 0 {
		return fail("no author or editor")
	}
	rec := graph.Record{Title: title, Abstract: bibText(f["abstract"]), Authors: authors, Line: e.line,
		DOI: strings.TrimSpace(f["doi"])}
	rec.AuthorInfo = bibORCIDs(authors, f["orcid-numbers"]+";"+f["orcid"])
	if y := strings.TrimSpace(f["year"]); len(y) >= 4 && allDigitsStr(y[:4]) {
		fmt.Sscanf(y[:4], "%d", &rec.Year)
	}
	rec.Date = bibDate(f, rec.Year)
	if strings.EqualFold(strings.TrimSpace(f["archiveprefix"]), "arxiv") || strings.HasPrefix(strings.ToLower(f["eprinttype"]), "arxiv") {
		rec.ArXivID = strings.TrimSpace(f["eprint"])
	}
	for _, k := range []string{"journal", "booktitle", "howpublished", "note", "url"} {
		if rec.ArXivID != "" {
			break
		}
		if m := arxivInText.FindStringSubmatch(f[k]); m != nil {
			rec.ArXivID = m[1]
		}
	}
	for _, k := range []string{"journal", "booktitle", "publisher", "school", "institution"} {
		if v := bibText(f[k]); v != "" {
			rec.Venue = v
			break
		}
	}
	return graph.Document{Source: name, Format: string(FormatBibTeX), Records: []graph.Record{rec}}, nil
}

// bibDate is an entry's date: biblatex's date field ("2025-07-14",
// "2025-07"; the start of a range), else the year with the month field
// ("jul", "July", "7"). "" when neither says more than the year.
func bibDate(f map[string]string, year int) string {
	if d := strings.TrimSpace(f["date"]); d != "" {
		d, _, _ = strings.Cut(d, "/")
		if _, err := graph.ParseDate(d); err == nil && len(d) > 4 {
			return d
		}
	}
	m := strings.ToLower(strings.Trim(strings.TrimSpace(f["month"]), "{}. "))
	if year == 0 || m == "" {
		return ""
	}
	month := 0
	if allDigitsStr(m) {
		fmt.Sscanf(m, "%d", &month)
	} else {
		for i, name := range []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
			if strings.HasPrefix(m, name) {
				month = i + 1
			}
		}
	}
	if month < 1 || month > 12 {
		return ""
	}
	return fmt.Sprintf("%04d-%02d", year, month)
}

// BibNames splits a BibTeX name list on "and" (outside braces) and turns
// each "Last, First" or "Last, Jr, First" into "First Last [Jr]", LaTeX
// accents rendered: "Sch{\"u}tze, Hinrich and Bo Li" → ["Hinrich Schütze",
// "Bo Li"]. "others" (et al.) is dropped.
func BibNames(s string) []string {
	parts := splitOutsideBraces(s, func(s string, i int) int {
		if strings.IndexByte(" \t\n\r", s[i]) >= 0 && i+4 < len(s) && strings.EqualFold(s[i+1:i+4], "and") && unicode.IsSpace(rune(s[i+4])) {
			return 4 // " and", the next part starting at the space after it
		}
		return 0
	})
	var out []string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" || strings.EqualFold(p, "others") {
			continue
		}
		segs := splitTopLevel(p, ',')
		var name string
		switch len(segs) {
		case 1:
			name = segs[0]
		case 2:
			name = segs[1] + " " + segs[0]
		default:
			name = segs[2] + " " + segs[0] + " " + segs[1]
		}
		if n := bibText(name); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// splitTopLevel splits on sep outside braces, trimming each part.
func splitTopLevel(s string, sep byte) []string {
	out := splitOutsideBraces(s, func(s string, i int) int {
		if s[i] == sep {
			return 1
		}
		return 0
	})
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}

// splitOutsideBraces splits s at the separators found outside braces: at
// each byte i at brace depth 0, sep returns the length of a separator that
// starts there (0: none).
func splitOutsideBraces(s string, sep func(s string, i int) int) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
		default:
			if n := sep(s, i); depth == 0 && n > 0 {
				out = append(out, s[start:i])
				start = i + n
				i += n - 1
			}
		}
	}
	return append(out, s[start:])
}

// bibORCIDs reads the ORCID iDs of a BibTeX entry, as Web of Science
// writes them ("ORCID-Numbers = {Liu, Yang/0000-0002-1825-0097; ...}"),
// and as a plain orcid field of one author's iD; each is given to the
// author whose name it names (or to the only author). Nil when none.
func bibORCIDs(authors []string, field string) []graph.AuthorInfo {
	var info []graph.AuthorInfo
	found := false
	for _, part := range strings.Split(field, ";") {
		name, id := "", ident.ORCIDKey(bibText(part)) // an iD alone, perhaps as a URL
		if id == "" {
			if i := strings.LastIndex(part, "/"); i >= 0 {
				name, id = part[:i], ident.ORCIDKey(bibText(part[i+1:]))
			}
		}
		if id == "" {
			continue
		}
		at := -1
		if n := BibNames(name); len(n) == 1 {
			for i, a := range authors {
				if ident.FoldKey(a) == ident.FoldKey(n[0]) {
					at = i
				}
			}
		} else if strings.TrimSpace(name) == "" && len(authors) == 1 {
			at = 0
		}
		if at < 0 {
			continue
		}
		if info == nil {
			info = make([]graph.AuthorInfo, len(authors))
		}
		info[at].ORCID, found = id, true
	}
	if !found {
		return nil
	}
	return info
}
