package source_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/source"
)

func readDoc(t *testing.T, name string, data []byte) (graph.Document, error) {
	t.Helper()
	var docs []graph.Document
	err := source.Read(name, bytes.NewReader(data), func(d graph.Document) error {
		docs = append(docs, d)
		return nil
	}, nil)
	if err != nil {
		return graph.Document{}, err
	}
	if len(docs) != 1 {
		t.Fatalf("%s: got %d documents, want 1", name, len(docs))
	}
	return docs[0], nil
}

func seed(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "seeds", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSeedPages(t *testing.T) {
	for _, tc := range []struct {
		file    string
		format  string
		records int
		owner   string
	}{
		{"000_2b6da9e22186d8f2.txt", "profile", 4, "Xiaoxi Jiang"},
		{"001_8634e836b4833063.txt", "subjects", 18, "Xiaoxi Jiang"},
		{"002_52a37f432f435296.txt", "profile", 7, "Guanjun Jiang"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			doc, err := readDoc(t, tc.file, seed(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if doc.Format != tc.format || len(doc.Records) != tc.records {
				t.Fatalf("got %s with %d records, want %s with %d", doc.Format, len(doc.Records), tc.format, tc.records)
			}
			for _, r := range doc.Records {
				if len(r.Authors) != 1 || r.Authors[0] != tc.owner {
					t.Errorf("line %d: authors %v, want [%s]", r.Line, r.Authors, tc.owner)
				}
				if r.Title == "" || len(r.Abstract) < 200 || r.Line == 0 {
					t.Errorf("line %d: title %q, abstract of %d bytes", r.Line, r.Title, len(r.Abstract))
				}
				if tc.format == "subjects" && (r.Year != 2026 || len(r.Subjects) != 1) {
					t.Errorf("line %d: year %d subjects %v", r.Line, r.Year, r.Subjects)
				}
			}
		})
	}
	doc, _ := readDoc(t, "listing", seed(t, "001_8634e836b4833063.txt"))
	if r := doc.Records[0]; r.Line != 9 || r.Subjects[0] != "cs.LG" || !strings.HasPrefix(r.Title, "Generative Query Suggestion") {
		t.Errorf("first record: %+v", r)
	}
}

// CRLF, a BOM, extra blank lines and surrounding spaces read the same.
func TestTolerantLayout(t *testing.T) {
	for _, file := range []string{"000_2b6da9e22186d8f2.txt", "001_8634e836b4833063.txt"} {
		orig := seed(t, file)
		want, err := readDoc(t, file, orig)
		if err != nil {
			t.Fatal(err)
		}
		messy := "\uFEFF" + strings.ReplaceAll(string(orig), "\n", "  \r\n\r\n   ")
		got, err := readDoc(t, file, []byte(messy))
		if err != nil {
			t.Fatalf("messy %s: %v", file, err)
		}
		if len(got.Records) != len(want.Records) {
			t.Fatalf("messy %s: %d records, want %d", file, len(got.Records), len(want.Records))
		}
		for i := range got.Records {
			g, w := got.Records[i], want.Records[i]
			if g.Title != w.Title || g.Abstract != w.Abstract || g.Year != w.Year || strings.Join(g.Subjects, ",") != strings.Join(w.Subjects, ",") {
				t.Errorf("messy %s record %d differs: %q vs %q", file, i, g.Title, w.Title)
			}
		}
	}
}

func TestErrorsNameFileAndLine(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"odd.txt", "Ann Author\nPublications\nA title\nIts abstract is here.\nA title alone\n", "odd.txt:5: title \"A title alone\" has no abstract"},
		{"long.txt", "Ann Author\nPublications\n" + strings.Repeat("word ", 100) + "\nabstract\n", "long.txt:3: expected a paper title"},
		{"empty.txt", "Ann Author\nPublications\n\n", "empty.txt:2: profile page lists no publications"},
		{"subj.txt", "arXiv subjects\n\nAnn\n\narXiv2025\n\nTitle\n\nAbstract text.\n\nnot a subject line here\n", "subj.txt:11: expected a subject code"},
		{"header.txt", "arXiv subjects\nAnn\nsomething odd\narXiv2025\nT\nA\ncs.LG↗\n", "header.txt:3: unexpected header line"},
		{"year.txt", "arXiv subjects\nAnn\narXiv2025\nT\nA\ncs.LG↗\nTitle without year\nA\ncs.AI↗\n", "year.txt:7: expected a record's \"arXivYYYY\" line"},
		{"bin.dat", "\x00\x01\x02garbage", "bin.dat:1: unknown format"},
		{"other.txt", "just some text\nwith lines\n", "other.txt:1: unknown format"},
		{"utf.txt", "Ann Author\nPublications\nT\n\xff\xfe bad\n", "utf.txt:4: invalid UTF-8"},
	} {
		_, err := readDoc(t, tc.name, []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
}

func TestSubjectsWithoutAbstract(t *testing.T) {
	doc, err := readDoc(t, "s.txt", []byte("arXiv subjects\nAnn Author\nPublications and source records attributed to Ann Author.\narXiv2024\nA title\ncs.CL↗\narXiv2023\nAnother\nIts abstract.\ncs.LG↗ stat.ML↗\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Records) != 2 || doc.Records[0].Abstract != "" || strings.Join(doc.Records[1].Subjects, " ") != "cs.LG stat.ML" {
		t.Errorf("got %+v", doc.Records)
	}
}

func FuzzRead(f *testing.F) {
	for _, name := range []string{"000_2b6da9e22186d8f2.txt", "001_8634e836b4833063.txt"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "seeds", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 3000)])
	}
	f.Add([]byte("arXiv subjects\nA\narXiv2020\nT\nA\ncs.LG↗\n"))
	f.Add([]byte("N\nPublications\nT\nA\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRead(t, data, func(d graph.Document) {
			if len(d.Records) == 0 {
				t.Fatal("document without records")
			}
			for _, r := range d.Records {
				if r.Title == "" || len(r.Authors) == 0 || r.Line < 1 {
					t.Fatalf("bad record %+v", r)
				}
			}
		})
	})
}
