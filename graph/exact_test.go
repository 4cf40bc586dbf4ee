package graph_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/source"
)

var errEnough = errors.New("enough")

// ingestArXiv ingests the first n documents of the arXiv file in ../shared
// one at a time, showing each to seen first (nil: nobody); without the
// file it skips the test.
func ingestArXiv(t *testing.T, svc *graph.Service, n int, seen func(graph.Document)) {
	t.Helper()
	ingestArXivWith(t, n, func(d graph.Document) error {
		if seen != nil {
			seen(d)
		}
		_, err := svc.Ingest(context.Background(), d)
		return err
	})
}

// ingestArXivWith gives the first n documents of the arXiv file to add
// (Service.Ingest, a Pipeline's Add); without the file it skips the test.
func ingestArXivWith(t *testing.T, n int, add func(graph.Document) error) {
	t.Helper()
	f, err := os.Open(arxivFile)
	if err != nil {
		t.Skipf("arXiv file not available (%v): it is in ../shared, beside the clone", err)
	}
	defer f.Close()
	i := 0
	err = source.Read("arxiv.jsonl.gz", f, func(d graph.Document) error {
		if i == n {
			return errEnough
		}
		i++
		return add(d)
	}, func(error) {})
	if err != nil && !errors.Is(err, errEnough) {
		t.Fatal(err)
	}
}

// Co-author weights equal, for every pair, the number of distinct papers
// whose authorship edges list both — recounted independently on the first
// 1,500 records of the real arXiv file, among them a paper of 274 authors
// (line 712), whose pairs are counted at query time. Skips without
// ../shared.
func TestCoauthorWeightsExactOnArXiv(t *testing.T) {
	heavyUnderRace(t)
	db := MustOpen(t)
	svc := graph.NewService(db, nil) // weights do not depend on terms
	ctx := context.Background()
	ingestArXiv(t, svc, 1500, nil)
	r, _ := db.Read(ctx)
	defer r.Close()
	type pair struct{ a, b graph.NodeID }
	want := map[pair]int{}
	var papers []graph.NodeID
	r.NodeIDs(graph.KindPaper, 0, func(id graph.NodeID) bool { papers = append(papers, id); return true })
	for _, p := range papers {
		var as []graph.NodeID
		r.Edges(p, graph.Authored, graph.In, func(a graph.NodeID, _ float64) bool { as = append(as, a); return true })
		for i, a := range as {
			for _, b := range as[i+1:] {
				want[pair{min(a, b), max(a, b)}]++
			}
		}
	}
	v := view(t, svc)
	var authors []graph.NodeID
	r.NodeIDs(graph.KindAuthor, 0, func(id graph.NodeID) bool { authors = append(authors, id); return true })
	checked := 0
	for _, a := range authors {
		cs, err := v.CoAuthors(a, 100000)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			k := pair{min(a, c.Author.ID), max(a, c.Author.ID)}
			if want[k] != c.Weight {
				t.Fatalf("%s–%s: weight %d, papers listing both %d", a, c.Author.ID, c.Weight, want[k])
			}
			checked++
		}
	}
	if checked != 2*len(want) {
		t.Errorf("checked %d directed pairs, recount has %d pairs", checked, len(want))
	}
	t.Logf("%d papers, %d authors, %d co-author pairs, all exact", len(papers), len(authors), len(want))
}
