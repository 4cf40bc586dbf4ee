package source

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/ident"
)

// atomEntry is one entry of an arXiv API feed (Atom 1.0 with arXiv's
// extension elements).
type atomEntry struct {
	ID        string `xml:"http://www.w3.org/2005/Atom id"`
	Published string `xml:"http://www.w3.org/2005/Atom published"`
	Updated   string `xml:"http://www.w3.org/2005/Atom updated"`
	Title     string `xml:"http://www.w3.org/2005/Atom title"`
	Summary   string `xml:"http://www.w3.org/2005/Atom summary"`
	Authors   []struct {
		Name string `xml:"http://www.w3.org/2005/Atom name"`
		// RFC 4287 person construct: an IRI (an ORCID iD's, when it is
		// one) and an e-mail address; arXiv adds affiliations
		URI          string   `xml:"http://www.w3.org/2005/Atom uri"`
		Email        string   `xml:"http://www.w3.org/2005/Atom email"`
		Affiliations []string `xml:"http://arxiv.org/schemas/atom affiliation"`
	} `xml:"http://www.w3.org/2005/Atom author"`
	Links []struct {
		Href  string `xml:"href,attr"`
		Rel   string `xml:"rel,attr"`
		Title string `xml:"title,attr"`
	} `xml:"http://www.w3.org/2005/Atom link"`
	Categories []struct {
		Term string `xml:"term,attr"`
	} `xml:"http://www.w3.org/2005/Atom category"`
	Primary struct {
		Term string `xml:"term,attr"`
	} `xml:"http://arxiv.org/schemas/atom primary_category"`
	DOI        string `xml:"http://arxiv.org/schemas/atom doi"`
	JournalRef string `xml:"http://arxiv.org/schemas/atom journal_ref"`
}

const atomNS = "http://www.w3.org/2005/Atom"

// detectAtom recognises an Atom feed from its first element.
func detectAtom(head []byte) bool {
	head = bytes.TrimLeft(head, " \t\r\n\uFEFF")
	return bytes.HasPrefix(head, []byte("<")) && bytes.Contains(head, []byte("<feed")) && bytes.Contains(head, []byte(atomNS))
}

// readAtom streams the entries of an arXiv API Atom feed, one document each.
// An entry that cannot be used (no title, no authors, arXiv's "Error" entry)
// goes to bad with its line; broken XML ends the file (the parser cannot
// resynchronise), entries before it stand.
func readAtom(name string, r io.Reader, fn func(graph.Document) error, bad func(error)) error {
	dec := xml.NewDecoder(r)
	dec.Strict = true
	report := func(err error) error {
		if bad == nil {
			return err
		}
		bad(err)
		return nil
	}
	sawFeed := false
	for {
		line, _ := dec.InputPos()
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			if !sawFeed {
				return fmt.Errorf("%s:1: no Atom <feed> element", name)
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s:%d: broken XML: %w", name, line, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch {
		case se.Name.Local == "feed" && se.Name.Space == atomNS:
			sawFeed = true
		case se.Name.Local == "entry" && se.Name.Space == atomNS:
			line, _ := dec.InputPos()
			var e atomEntry
			if err := dec.DecodeElement(&e, &se); err != nil {
				return fmt.Errorf("%s:%d: broken XML in entry: %w", name, line, err)
			}
			doc, err := atomDocument(name, line, &e)
			if err != nil {
				if err := report(err); err != nil {
					return err
				}
				continue
			}
			if err := fn(doc); err != nil {
				return err
			}
		}
	}
}

func atomDocument(name string, line int, e *atomEntry) (graph.Document, error) {
	id := strings.TrimSpace(e.ID)
	if strings.Contains(id, "/api/errors") || strings.TrimSpace(e.Title) == "Error" && strings.Contains(id, "arxiv.org/api") {
		return graph.Document{}, fmt.Errorf("%s:%d: the feed reports an error: %s", name, line, unwrap(e.Summary))
	}
	rec := graph.Record{
		Title:    unwrap(e.Title),
		Abstract: unwrap(e.Summary),
		Line:     line,
		ArXivID:  id,
		DOI:      strings.TrimSpace(e.DOI),
		Venue:    unwrap(e.JournalRef),
	}
	if rec.Title == "" {
		return graph.Document{}, fmt.Errorf("%s:%d: entry %q has no title", name, line, id)
	}
	var info []graph.AuthorInfo
	for _, a := range e.Authors {
		if n := unwrap(a.Name); n != "" {
			rec.Authors = append(rec.Authors, n)
			var affs []string
			for _, x := range a.Affiliations {
				if x = unwrap(x); x != "" {
					affs = append(affs, x)
				}
			}
			i := graph.AuthorInfo{ORCID: ident.ORCIDKey(a.URI), Affiliation: strings.Join(affs, "; "), Email: strings.TrimSpace(a.Email)}
			info = append(info, i)
			if i != (graph.AuthorInfo{}) {
				rec.AuthorInfo = info
			}
		}
	}
	if rec.AuthorInfo != nil {
		rec.AuthorInfo = info
	}
	if len(rec.Authors) == 0 {
		return graph.Document{}, fmt.Errorf("%s:%d: entry %q has no authors", name, line, id)
	}
	if p := strings.TrimSpace(e.Primary.Term); p != "" {
		rec.Subjects = append(rec.Subjects, p)
	}
	for _, c := range e.Categories {
		if t := strings.TrimSpace(c.Term); t != "" && ident.LooksLikeSubject(t) {
			rec.Subjects = append(rec.Subjects, t) // duplicates are dropped by ingest
		}
	}
	if rec.DOI == "" {
		for _, l := range e.Links {
			if l.Title == "doi" {
				rec.DOI = l.Href
			}
		}
	}
	// published is the first version's time; updated the latest one's
	for _, d := range []string{e.Published, e.Updated} {
		if t, err := time.Parse(time.RFC3339, strings.TrimSpace(d)); err == nil {
			rec.Year = t.Year()
			if d == e.Published {
				rec.Date = graph.DateOfTime(t).String()
			}
			break
		}
	}
	return graph.Document{Source: name, Format: string(FormatAtom), Records: []graph.Record{rec}}, nil
}
