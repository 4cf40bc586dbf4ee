package source_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/source"
)

func TestArXivLines(t *testing.T) {
	for _, file := range []string{"sample.jsonl", "sample.jsonl.gz"} {
		data, err := os.ReadFile("../../testdata/arxiv/" + file)
		if err != nil {
			t.Fatal(err)
		}
		docs, bad := readAll(t, file, data)
		if len(docs) != 5 || len(bad) != 2 {
			t.Fatalf("%s: %d documents, %d failures (%v); want 5 and 2", file, len(docs), len(bad), bad)
		}
		if !strings.Contains(bad[0].Error(), file+":5: malformed JSON") || !strings.Contains(bad[1].Error(), file+":6: record \"2503.00002\" has no title") {
			t.Errorf("failures: %v", bad)
		}
		first := docs[0].Records[0]
		if first.ArXivID != "1812.06145" || first.Year != 2018 || strings.Join(first.Authors, "; ") != "Mahdi Abavisani; Hamid Reza Vaezi Joze; Vishal M. Patel" ||
			strings.Join(first.Subjects, " ") != "cs.CV cs.AI cs.HC cs.LG stat.ML" || strings.Contains(first.Abstract, "\n") || first.Line != 1 {
			t.Errorf("first record: %+v", first)
		}
		if first.Date != "" { // no versions: ingest takes the id's month
			t.Errorf("first record's date %q, want none", first.Date)
		}
		old := docs[3].Records[0]
		if old.Date != "1999-01-01" { // the first of its two versions
			t.Errorf("old-style record's date %q, want 1999-01-01", old.Date)
		}
		if old.ArXivID != "hep-th/9901001" || old.Year != 1999 || old.Title != "Strings on branes" || old.Abstract != "We study strings on branes." ||
			strings.Join(old.Authors, "; ") != "Ann Smith; Bo Li; Carl Doe" || old.DOI != "10.1016/S0370-2693(99)00001-X" || old.Venue != "Phys. Lett. B 450 (1999) 1" {
			t.Errorf("old-style record: %+v", old)
		}
		num := docs[4].Records[0]
		if num.ArXivID != "2503.00003" || num.Year != 2025 || num.Authors[0] != "Dee Dee" || num.Line != 7 {
			t.Errorf("numeric-id record: %+v", num)
		}
	}
}

// Without a failure handler, the first bad line ends the read with its
// file and line.
func TestArXivStopsWithoutHandler(t *testing.T) {
	data, _ := os.ReadFile("../../testdata/arxiv/sample.jsonl")
	n := 0
	err := source.Read("s.jsonl", bytes.NewReader(data), func(graph.Document) error { n++; return nil }, nil)
	if err == nil || !strings.Contains(err.Error(), "s.jsonl:5:") || n != 4 {
		t.Errorf("got %d documents and %v", n, err)
	}
}

func TestArXivHugeLine(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"id": "2503.00009", "title": "Fine", "authors": "A B", "categories": "cs.LG", "abstract": "ok"}` + "\n")
	b.WriteString(`{"id": "2503.00010", "title": "Huge", "authors": "A B", "categories": "cs.LG", "abstract": "`)
	b.Write(bytes.Repeat([]byte("x"), 9<<20))
	b.WriteString("\"}\n")
	b.WriteString(`{"id": "2503.00011", "title": "After", "authors": "A B", "categories": "cs.LG", "abstract": "ok"}` + "\n")
	docs, bad := readAll(t, "huge.jsonl", b.Bytes())
	if len(docs) != 2 || len(bad) != 1 || !strings.Contains(bad[0].Error(), "huge.jsonl:2: line longer than") {
		t.Errorf("documents %d, failures %v", len(docs), bad)
	}
}

func FuzzArXivLine(f *testing.F) {
	data, err := os.ReadFile("../../testdata/arxiv/sample.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	for _, l := range bytes.Split(data, []byte("\n")) {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		in := append([]byte(`{"id": "1", "title": "t", "categories": "cs.LG"}`+"\n"), line...)
		fuzzRead(t, in, func(d graph.Document) {
			if len(d.Records) != 1 || d.Records[0].Title == "" || len(d.Records[0].Authors) == 0 {
				t.Fatalf("bad document %+v", d)
			}
		})
	})
}
