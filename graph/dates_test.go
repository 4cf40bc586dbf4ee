package graph_test

import (
	"context"
	"testing"

	"github.com/researchkg/kg/graph"
)

func TestParseDate(t *testing.T) {
	for _, c := range []struct {
		in   string
		want graph.Date
		ok   bool
	}{
		{"2025", graph.Date{Year: 2025}, true},
		{"2025-07", graph.Date{Year: 2025, Month: 7}, true},
		{"2025-07-14", graph.Date{Year: 2025, Month: 7, Day: 14}, true},
		{"2024-02-29", graph.Date{Year: 2024, Month: 2, Day: 29}, true},
		{"2025-02-29", graph.Date{}, false},
		{"2025-13", graph.Date{}, false},
		{"2025-00", graph.Date{}, false},
		{"2025-7", graph.Date{}, false},
		{"25-07", graph.Date{}, false},
		{"2025-07-14-01", graph.Date{}, false},
		{"0999", graph.Date{}, false},
		{"", graph.Date{}, false},
		{"２０２５", graph.Date{}, false},
	} {
		got, err := graph.ParseDate(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseDate(%q) = %v, %v; want %v (ok %v)", c.in, got, err, c.want, c.ok)
		}
		if c.ok && got.String() != c.in {
			t.Errorf("ParseDate(%q).String() = %q", c.in, got.String())
		}
	}
	if _, err := graph.ParseMonth("2025"); graph.ErrorCode(err) != graph.Invalid {
		t.Errorf("ParseMonth(2025): %v, want Invalid", err)
	}
	if _, err := graph.ParseMonth("2025-07-14"); graph.ErrorCode(err) != graph.Invalid {
		t.Errorf("ParseMonth(2025-07-14): %v, want Invalid", err)
	}
}

func TestArXivMonth(t *testing.T) {
	for id, want := range map[string]string{
		"2507.01234":     "2025-07",
		"2507.01234v3":   "2025-07",
		"0704.0001":      "2007-04",
		"hep-th/9901001": "1999-01",
		"cs/0512003v2":   "2005-12",
		"2513.01234":     "", // no 13th month
		"not an id":      "",
	} {
		if got := graph.ArXivMonth(id).MonthString(); got != want {
			t.Errorf("ArXivMonth(%q) = %q, want %q", id, got, want)
		}
	}
}

func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2025", "2025-07", "2025-07-14", "2024-02-30", "9999-12-31", "1000-01-01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := graph.ParseDate(s)
		if err != nil {
			return
		}
		if back, err := graph.ParseDate(d.String()); err != nil || back != d {
			t.Fatalf("%q parsed to %v, which reads back as %v (%v)", s, d, back, err)
		}
	})
}

// A paper's date: its arXiv id's month until a source gives the day; the
// earlier of two dates that disagree; never a date outside its year.
func TestPaperDateMerges(t *testing.T) {
	ctx := context.Background()
	svc := graph.NewService(MustOpen(t), nil)
	ingest := func(recs ...graph.Record) {
		t.Helper()
		for i := range recs {
			if _, err := svc.Ingest(ctx, graph.Document{Source: "dates", Format: "test", Records: recs[i : i+1]}); err != nil {
				t.Fatal(err)
			}
		}
	}
	date := func(title string) string {
		t.Helper()
		v, err := svc.View(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		n, err := v.PaperByTitle(title)
		if err != nil {
			t.Fatal(err)
		}
		return graph.PaperDate(n).String()
	}
	rec := func(title, arxiv, date string, year int) graph.Record {
		return graph.Record{Title: title, ArXivID: arxiv, Date: date, Year: year, Authors: []string{"Ann Smith"}}
	}
	ingest(rec("Month From The Id", "2507.01234", "", 2025))
	if d := date("Month From The Id"); d != "2025-07" {
		t.Errorf("from the id: %q, want 2025-07", d)
	}
	ingest(rec("Month From The Id", "2507.01234", "2025-07-14", 2025))
	if d := date("Month From The Id"); d != "2025-07-14" {
		t.Errorf("with a day from a second source: %q, want 2025-07-14", d)
	}
	ingest(rec("Month From The Id", "2507.01234", "2025-06-30", 2025))
	if d := date("Month From The Id"); d != "2025-06-30" {
		t.Errorf("after an earlier date: %q, want 2025-06-30", d)
	}
	ingest(rec("Only A Year", "", "", 2024), rec("Only A Year", "", "2024-03", 0))
	if d := date("Only A Year"); d != "2024-03" {
		t.Errorf("a year, then a month: %q, want 2024-03", d)
	}
	ingest(rec("Wrong Year", "", "2023-05-01", 2024))
	if d := date("Wrong Year"); d != "2024" {
		t.Errorf("a date outside the record's year: %q, want 2024 (the date dropped)", d)
	}
}
