// Record preparation: validation and normalisation of a record before any
// store access (the pipeline's workers run it ahead of the writer).

package graph

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/people"
)

// preparedDoc is a document's records validated and normalised for
// writing (no store access: the pipeline's workers do it ahead).
type preparedDoc struct {
	preps []prepared
	res   IngestResult // source, format, records, warnings
	err   error        // the first invalid record
}

func prepareDoc(doc Document) preparedDoc {
	pd := preparedDoc{res: IngestResult{Source: doc.Source, Format: doc.Format, Records: len(doc.Records)}}
	pd.preps = make([]prepared, 0, len(doc.Records))
	for i, rec := range doc.Records {
		p, warns, err := prepare(rec)
		if err != nil {
			line := rec.Line
			if line == 0 {
				line = i + 1
			}
			pd.err = Errorf(Invalid, "%s:%d: %v", doc.Source, line, err)
			return pd
		}
		pd.res.Warnings = append(pd.res.Warnings, prefixAll(fmt.Sprintf("%s:%d: ", doc.Source, rec.Line), warns)...)
		pd.preps = append(pd.preps, p)
	}
	pd.res.Warnings = append(pd.res.Warnings, doc.Warnings...)
	return pd
}

func prefixAll(p string, s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = p + x
	}
	return out
}

// prepared is a record rendered and normalised, ready to write.
type prepared struct {
	rec      Record
	title    string // readable title
	titleKey string
	shortKey string // key of the short name before ":", or ""
	abstract string
	authors  []string     // readable names
	info     []AuthorInfo // parallel to authors (nil: none)
	subjects []string     // canonical codes
	repos    []repoRef
	arxiv    string // ArXivKey
	doi      string // DOIKey
	date     string // Date.String(): the record's, else its arXiv id's month; "" when unknown
}

// indexKey is a key of a search-index namespace.
type indexKey struct {
	ns  Index
	key string
}

// paperKeys lists the keys a paper is found by, in the order they decide:
// the arXiv id (without version), else the DOI, else the title key. The
// one statement of that order (paperNode, storedText, mergePaper's
// re-indexing, paperIdentity); empty keys are left for the caller to skip.
func paperKeys(arxiv, doi, titleKey string) []indexKey {
	return []indexKey{{IdxPaperArXiv, arxiv}, {IdxPaperDOI, doi}, {IdxPaperTitle, titleKey}}
}

func (p *prepared) identity() []indexKey { return paperKeys(p.arxiv, p.doi, p.titleKey) }

type repoRef struct {
	url, key      string // "https://github.com/Owner/Repo", "github.com/owner/repo"
	owner, orgKey string
}

var githubRe = regexp.MustCompile(`(?i)github\.com/([a-z0-9](?:[a-z0-9-]{0,38}))/([a-z0-9._-]{1,100})`)

// extractRepositories finds GitHub repository links in text, trailing
// punctuation and ".git" removed, each once.
func extractRepositories(text string) []repoRef {
	var out []repoRef
	seen := map[string]bool{}
	for _, m := range githubRe.FindAllStringSubmatch(text, -1) {
		owner, repo := m[1], strings.TrimRight(m[2], ".-_")
		repo = strings.TrimSuffix(repo, ".git")
		if repo == "" || strings.EqualFold(owner, "orgs") || strings.EqualFold(owner, "features") {
			continue
		}
		key := strings.ToLower("github.com/" + owner + "/" + repo)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, repoRef{
			url: "https://github.com/" + owner + "/" + repo, key: key,
			owner: owner, orgKey: strings.ToLower(owner),
		})
	}
	return out
}

func prepare(rec Record) (prepared, []string, error) {
	var warns []string
	p := prepared{rec: rec}
	p.title = ident.LatexToText(rec.Title)
	p.titleKey = ident.TitleKey(rec.Title)
	if p.titleKey == "" {
		return p, nil, fmt.Errorf("record has no title")
	}
	if short, _, ok := strings.Cut(p.title, ":"); ok && len(short) <= 60 {
		if k := ident.FoldRendered(short); k != "" && k != p.titleKey {
			p.shortKey = k
		}
	}
	p.abstract = ident.LatexToText(rec.Abstract)
	seen := map[string]bool{}
	for i, a := range rec.Authors {
		name := ident.LatexToText(a)
		k := ident.NameKey(name)
		if k == "" || seen[k] {
			continue
		}
		if !people.HasLetter(name) {
			warns = append(warns, fmt.Sprintf("author %q has no letters; left out", ident.Clip(a, 40)))
			continue
		}
		seen[k] = true
		p.authors = append(p.authors, name)
		if i < len(rec.AuthorInfo) && !rec.AuthorInfo[i].empty() {
			for len(p.info) < len(p.authors)-1 {
				p.info = append(p.info, AuthorInfo{})
			}
			p.info = append(p.info, rec.AuthorInfo[i].clean())
		}
	}
	seenSub := map[string]bool{}
	for _, c := range rec.Subjects {
		code := ident.CanonicalSubject(c)
		if code == "" || seenSub[code] {
			continue
		}
		if !ident.LooksLikeSubject(code) {
			return p, nil, fmt.Errorf("subject %q is not an arXiv category code", ident.Clip(c, 40))
		}
		if _, ok := ident.SubjectName(code); !ok {
			warns = append(warns, fmt.Sprintf("unknown arXiv category %q kept with its code as name", code))
		}
		seenSub[code] = true
		p.subjects = append(p.subjects, code)
	}
	p.repos = extractRepositories(rec.Abstract)
	p.arxiv, p.doi = ident.ArXivKey(rec.ArXivID), ident.DOIKey(rec.DOI)
	if rec.ArXivID != "" && p.arxiv == "" {
		warns = append(warns, fmt.Sprintf("arXiv id %q not understood; ignored", ident.Clip(rec.ArXivID, 40)))
	}
	if rec.DOI != "" && p.doi == "" {
		warns = append(warns, fmt.Sprintf("DOI %q not understood; ignored", ident.Clip(rec.DOI, 60)))
	}
	var warn string
	p.date, p.rec.Year, warn = recordDate(rec, p.arxiv)
	if warn != "" {
		warns = append(warns, warn)
	}
	return p, warns, nil
}

// recordDate is a record's date and year: the date its source gave (which
// sets the year when the source gave none), else the month of its arXiv
// id when that agrees with the year. A date that contradicts the year is
// dropped with a warning.
func recordDate(rec Record, arxiv string) (date string, year int, warn string) {
	year = rec.Year
	if rec.Date != "" {
		d, err := ParseDate(strings.TrimSpace(rec.Date))
		switch {
		case err != nil:
			warn = fmt.Sprintf("date %q not understood; ignored", ident.Clip(rec.Date, 40))
		case year != 0 && d.Year != year:
			warn = fmt.Sprintf("date %s is not in the year %d given; ignored", d, year)
		default:
			return d.String(), d.Year, ""
		}
	}
	if d := ArXivMonth(arxiv); d.Year != 0 && (year == 0 || d.Year == year) {
		return d.String(), d.Year, warn
	}
	return "", year, warn
}
