package graph_test

// People in small fixtures: a large collaboration's co-authors and names
// given as initials.

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/researchkg/kg/graph"
)

// Co-author weights stay exact for large collaborations, whose pairs are
// counted at query time instead of stored, including a paper that crosses
// the threshold when a second source lists more authors.
func TestLargeCollaborationCoauthors(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, nil)
	ctx := context.Background()
	names := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("Author Number%03d", i)
		}
		return out
	}
	docs := []graph.Document{
		{Source: "big", Records: []graph.Record{{Title: "A Huge Survey", Authors: names(150), Line: 1}}},
		{Source: "small", Records: []graph.Record{{Title: "A Small Note", Authors: names(3), Line: 1}}},
		{Source: "grow1", Records: []graph.Record{{Title: "Growing Paper", Authors: names(100), Line: 1}}},
		{Source: "grow2", Records: []graph.Record{{Title: "Growing paper", Authors: names(120), Line: 1}}},
	}
	for _, d := range docs {
		if _, err := svc.Ingest(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	check := func() {
		t.Helper()
		v := view(t, svc)
		a0, _ := v.AuthorByName("Author Number000")
		cs, err := v.CoAuthors(a0.ID, 1000)
		if err != nil {
			t.Fatal(err)
		}
		w := map[string]int{}
		for _, c := range cs {
			w[c.Author.Label] = c.Weight
		}
		// 000 and 001: huge survey, small note, growing paper
		if len(cs) != 149 || w["Author Number001"] != 3 || w["Author Number110"] != 2 || w["Author Number140"] != 1 {
			t.Errorf("co-authors %d; weights 001=%d 110=%d 140=%d; want 149, 3, 2, 1",
				len(cs), w["Author Number001"], w["Author Number110"], w["Author Number140"])
		}
		if cs[0].Weight != 3 {
			t.Errorf("not sorted by weight: %+v", cs[:3])
		}
		a5, _ := v.AuthorByName("Author Number005")
		shared, _ := v.SharedPapers(a0.ID, a5.ID)
		if len(shared) != 2 {
			t.Errorf("shared papers of 000 and 005: %d, want 2", len(shared))
		}
	}
	check()
	before := checksum(t, db)
	for _, d := range docs {
		if _, err := svc.Ingest(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	if after := checksum(t, db); after != before {
		t.Error("re-ingest changed the store")
	}
	check()
}

// "H. Schütze" is Hinrich Schütze only on a paper whose other authors have
// written with him, and only when no other full name fits.
func TestInitialsMergeWithinCoauthorCircle(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, nil)
	ctx := context.Background()
	// Bolesław Lis: a rare name, so his three papers are one person
	// though "Six" shares no co-author with the others (a common name
	// with no evidence in common would be two people)
	papers := []graph.Record{
		{Title: "One", Authors: []string{"Hinrich Schütze", "Bolesław Lis"}},
		{Title: "Two", Authors: []string{"H. Schütze", "Bolesław Lis"}},           // circle of Lis: Hinrich
		{Title: "Three", Authors: []string{"H. Schütze", "Carl Doe"}},             // no circle: someone else
		{Title: "Four", Authors: []string{"Hans Smith", "Heidi Smith", "Eve"}},    //
		{Title: "Five", Authors: []string{"H. Smith", "Eve"}},                     // two Smiths fit: ambiguous
		{Title: "Six", Authors: []string{"Sch{\"u}tze, Hinrich", "Bolesław Lis"}}, // BibTeX spelling (reader turns it; here raw)
	}
	for i, r := range papers {
		r.Line = i + 1
		if _, err := svc.Ingest(ctx, graph.Document{Source: "s", Records: []graph.Record{r}}); err != nil {
			t.Fatal(err)
		}
	}
	v := view(t, svc)
	h, _ := v.AuthorByName("Hinrich Schütze")
	pg, _ := v.Papers(h.ID, 10, "")
	if pg.Total != 2 || !slices.Contains(h.Aliases, "H. Schütze") {
		t.Errorf("Hinrich Schütze: %d papers, aliases %v; want One and Two, alias H. Schütze", pg.Total, h.Aliases)
	}
	hs, err := v.AuthorByName("H. Schütze")
	if err != nil || hs.ID == h.ID {
		t.Errorf("H. Schütze on paper Three must stay separate: %+v %v", hs, err)
	}
	if a, err := v.AuthorByName("H. Smith"); err != nil || a.Label != "H. Smith" {
		t.Errorf("ambiguous initials must not merge: %+v %v", a, err)
	}
	st := mustStats(t, v)
	// Hinrich, Lis, H. Schütze, Carl Doe, Hans, Heidi, Eve, H. Smith, and
	// "Sch{\"u}tze, Hinrich" as written (turning names is the BibTeX reader's job)
	if st.Authors != 9 {
		t.Errorf("authors: %d, want 9", st.Authors)
	}
	before := checksum(t, db)
	for i, r := range papers {
		r.Line = i + 1
		svc.Ingest(ctx, graph.Document{Source: "s", Records: []graph.Record{r}})
	}
	if after := checksum(t, db); after != before {
		t.Error("re-ingest changed the store")
	}
}

// Initials resolved one way on a paper stay that way when the paper is read
// again after the co-author circle grew (found on the arXiv file: 3 of
// 47,919 records changed on a second ingest).
func TestInitialsDecisionIsStable(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, nil)
	ctx := context.Background()
	docs := []graph.Document{
		{Source: "a", Records: []graph.Record{{Title: "Early", Authors: []string{"A. Smith", "Bo Li"}, Line: 1}}},
		{Source: "b", Records: []graph.Record{{Title: "Later", Authors: []string{"Alice Smith", "Bo Li"}, Line: 1}}},
	}
	for _, d := range docs {
		if _, err := svc.Ingest(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	before := checksum(t, db)
	for _, d := range docs {
		res, err := svc.Ingest(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		if res.PapersSame != 1 || res.EdgesAdded != 0 || res.AuthorsAdded != 0 {
			t.Errorf("%s again: %+v", d.Source, res)
		}
	}
	if after := checksum(t, db); after != before {
		t.Error("second ingest changed the store")
	}
}
