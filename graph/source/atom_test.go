package source_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/source"
)

func TestAtomFeed(t *testing.T) {
	data, err := os.ReadFile("../../testdata/atom/query.xml")
	if err != nil {
		t.Fatal(err)
	}
	docs, bad := readAll(t, "query.xml", data)
	if len(docs) != 2 || len(bad) != 1 || !strings.Contains(bad[0].Error(), "query.xml:") || !strings.Contains(bad[0].Error(), "has no title") {
		t.Fatalf("%d documents, failures %v; want 2 and one without title", len(docs), bad)
	}
	r := docs[0].Records[0]
	if docs[0].Format != "atom" || r.ArXivID != "http://arxiv.org/abs/2603.01234v2" || ident.ArXivKey(r.ArXivID) != "2603.01234" ||
		r.Title != "Process Reward Models for Multimodal Reasoning" || !strings.HasPrefix(r.Abstract, "Process reward models (PRMs) score") ||
		strings.Join(r.Authors, "; ") != `Hinrich Sch\"utze; Ann Smith` || strings.Join(r.Subjects, " ") != "cs.CL cs.CL cs.LG" ||
		r.DOI != "10.1000/EXAMPLE.2026.1" || r.Venue != "Proc. Example Conf. 2026" || r.Year != 2026 || r.Line < 10 ||
		r.Date != "2026-03-02" { // published (the first version), not updated
		t.Errorf("first entry: %+v", r)
	}
	if r := docs[1].Records[0]; ident.ArXivKey(r.ArXivID) != "hep-th/9901001" || r.Year != 1999 || r.Subjects[0] != "hep-th" {
		t.Errorf("second entry: %+v", r)
	}
}

func TestAtomErrorEntryAndBrokenXML(t *testing.T) {
	data, _ := os.ReadFile("../../testdata/atom/error.xml")
	docs, bad := readAll(t, "error.xml", data)
	if len(docs) != 0 || len(bad) != 1 || !strings.Contains(bad[0].Error(), "the feed reports an error: incorrect id format") {
		t.Errorf("error feed: %d documents, %v", len(docs), bad)
	}
	full, _ := os.ReadFile("../../testdata/atom/query.xml")
	cut := full[:bytes.Index(full, []byte("<id>http://arxiv.org/abs/hep-th"))+20]
	var got []graph.Document
	err := source.Read("cut.xml", bytes.NewReader(cut), func(d graph.Document) error { got = append(got, d); return nil }, func(error) {})
	if err == nil || !strings.Contains(err.Error(), "cut.xml:") || !strings.Contains(err.Error(), "XML") || len(got) != 1 {
		t.Errorf("truncated feed: %d documents, error %v", len(got), err)
	}
}

func FuzzAtom(f *testing.F) {
	for _, name := range []string{"query.xml", "error.xml", "orcid.xml"} {
		b, err := os.ReadFile("../../testdata/atom/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>t</title><author><name>a</name></author></entry>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRead(t, data, func(d graph.Document) {
			for _, r := range d.Records {
				if r.Title == "" || len(r.Authors) == 0 {
					t.Fatalf("bad record %+v", r)
				}
			}
		})
	})
}

// Atom person constructs carry an ORCID iD (uri), an e-mail and arXiv
// affiliations: each author's are read beside the name.
func TestAtomAuthorInfo(t *testing.T) {
	recs := fixtureRecords(t, "atom/orcid.xml")
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
	want := graph.AuthorInfo{ORCID: "0000-0002-1825-0097", Email: "wei.wang@example.edu", Affiliation: "Department of Chemistry, Example University"}
	if len(recs[0].AuthorInfo) != 2 || recs[0].AuthorInfo[0] != want || recs[0].AuthorInfo[1] != (graph.AuthorInfo{}) {
		t.Errorf("first entry: %+v, want %+v for Wei Wang and nothing for Ann Lee", recs[0].AuthorInfo, want)
	}
	if recs[2].AuthorInfo[0].ORCID != "0000-0002-1825-0097" {
		t.Errorf("http://orcid.org/ iD: %+v", recs[2].AuthorInfo)
	}
}
