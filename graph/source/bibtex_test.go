package source_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/source"
)

func TestBibTeX(t *testing.T) {
	data, err := os.ReadFile("../../testdata/bibtex/sample.bib")
	if err != nil {
		t.Fatal(err)
	}
	docs, bad := readAll(t, "sample.bib", data)
	var titles []string
	for _, d := range docs {
		titles = append(titles, d.Records[0].Title)
	}
	if len(docs) != 3 || len(bad) != 3 {
		t.Fatalf("documents %q, failures %v; want 3 and 3", titles, bad)
	}
	r := docs[0].Records[0]
	if r.Title != "Process Reward Models for Vision-Language Agents" || strings.Join(r.Authors, "; ") != "Hinrich Schütze; Bo Li; Émile Zola" ||
		r.Year != 2026 || r.Date != "2026-03" || r.ArXivID != "2603.01234" || r.DOI != "10.1000/Example.2026.1" ||
		r.Venue != "Association for Computational Linguistics Annual Meeting" || r.Line != 8 {
		t.Errorf("first entry: %+v", r)
	}
	r = docs[1].Records[0]
	if r.Title != "Strings on Branes: a first look" || strings.Join(r.Authors, "; ") != "Ann Smith Jr; José García" ||
		r.Year != 1999 || r.Date != "" || ident.ArXivKey(r.ArXivID) != "hep-th/9901001" {
		t.Errorf("second entry: %+v", r)
	}
	if r := docs[2].Records[0]; r.Title != "Found After a Broken Entry" {
		t.Errorf("resync after the broken entry: %+v", r)
	}
	for i, want := range []string{`sample.bib:27: entry "noauthor2001" (@book): no author or editor; skipped`,
		`sample.bib:32: entry "broken2020": field title: unbalanced braces`, `sample.bib:44: entry "badmacro2022": field title: undefined macro "undefinedmacro"`} {
		if !strings.Contains(bad[i].Error(), want) {
			t.Errorf("failure %d: %v, want %q", i, bad[i], want)
		}
	}
}

// Dates: biblatex's date field (a range's start), else year and month in
// any of the forms BibTeX files use.
func TestBibTeXDates(t *testing.T) {
	for _, c := range []struct{ fields, want string }{
		{`year = 2025, month = jul`, "2025-07"},
		{`year = 2025, month = {July}`, "2025-07"},
		{`year = 2025, month = "7"`, "2025-07"},
		{`year = {2025}, month = {Sept.}`, "2025-09"},
		{`date = {2025-07-14}`, "2025-07-14"},
		{`date = {2025-07-14/2025-07-18}, year = 2025`, "2025-07-14"},
		{`year = 2025, month = {13}`, ""},
		{`month = jul`, ""},
		{`year = 2025`, ""},
	} {
		text := "@article{k, author = {Ann Smith}, title = {T}, " + c.fields + "}"
		docs, bad := readAll(t, "dates.bib", []byte(text))
		if len(docs) != 1 || len(bad) != 0 {
			t.Fatalf("%s: %d documents, failures %v", c.fields, len(docs), bad)
		}
		if got := docs[0].Records[0].Date; got != c.want {
			t.Errorf("%s: date %q, want %q", c.fields, got, c.want)
		}
	}
}

func TestBibNames(t *testing.T) {
	for in, want := range map[string]string{
		`Sch{\"u}tze, Hinrich`:               "Hinrich Schütze",
		`Hinrich Sch{\"u}tze`:                "Hinrich Schütze",
		`{Barnes and Noble} and Ann Smith`:   "Barnes and Noble; Ann Smith",
		`von Neumann, John AND Turing, Alan`: "John von Neumann; Alan Turing",
		`M{\"u}ller, J{\"o}rg and others`:    "Jörg Müller",
		`{\ss}ler, Gro`:                      "Gro ßler",
	} {
		if got := strings.Join(source.BibNames(in), "; "); got != want {
			t.Errorf("BibNames(%q) = %q, want %q", in, got, want)
		}
	}
}

// The real file must read with no crash, and every entry is either a
// document or an explained failure. Skips without ../shared.
func TestRefDB(t *testing.T) {
	data, err := os.ReadFile("../../../shared/data/bibtex/refdb-all.bib")
	if err != nil {
		t.Skipf("refdb-all.bib not available (%v): it is in ../shared, beside the clone", err)
	}
	entries := len(regexp.MustCompile(`(?m)^@[A-Za-z]+\{`).FindAll(data, -1))
	docs, bad := readAll(t, "refdb-all.bib", data)
	for _, e := range bad {
		if !strings.Contains(e.Error(), "refdb-all.bib:") || !strings.Contains(e.Error(), "skipped") {
			t.Errorf("failure not explained with file, line and outcome: %v", e)
		}
	}
	t.Logf("%d entries: %d documents, %d skipped", entries, len(docs), len(bad))
	if len(docs)+len(bad) != entries || len(docs) < entries*95/100 {
		t.Errorf("%d entries, %d documents + %d failures", entries, len(docs), len(bad))
	}
}

func FuzzBibTeX(f *testing.F) {
	data, err := os.ReadFile("../../testdata/bibtex/sample.bib")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	if orcid, err := os.ReadFile("../../testdata/bibtex/orcid.bib"); err == nil {
		f.Add(orcid)
	}
	f.Add([]byte("@article{a, title={{{{{}}}}}, author={x}}"))
	f.Add([]byte("@string(x = \"a\" # x)\n@misc{k, title = x, author = {A}}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := append([]byte("@misc{seed, title={T}, author={A}}\n"), data...)
		fuzzRead(t, in, func(d graph.Document) {
			if r := d.Records[0]; r.Title == "" || len(r.Authors) == 0 {
				t.Fatalf("bad record %+v", r)
			}
		})
	})
}

// ORCID iDs as Web of Science exports them go to the authors they name; a
// one-author entry's orcid field to its author.
func TestBibTeXORCID(t *testing.T) {
	recs := fixtureRecords(t, "bibtex/orcid.bib")
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	got := recs[0].AuthorInfo
	if len(got) != 3 || got[0].ORCID != "0000-0002-1825-0097" || got[1].ORCID != "" || got[2].ORCID != "0000-0001-5109-3700" {
		t.Errorf("WoS ORCID-Numbers: %+v", got)
	}
	if got := recs[1].AuthorInfo; len(got) != 1 || got[0].ORCID != "0000-0002-1694-233X" {
		t.Errorf("orcid field: %+v", got)
	}
}
