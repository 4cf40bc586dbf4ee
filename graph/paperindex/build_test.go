package paperindex_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/researchkg/kg/graph/paperindex"
)

// An index built as a store's passes give the papers (each paper bare,
// then its values one at a time, papers interleaved) holds and answers
// what New builds from the same papers whole.
func TestBuilderIsNew(t *testing.T) {
	facts := corpus(11, 1500)
	want := paperindex.New(facts)

	b := paperindex.NewBuilder(0)
	type value struct {
		paper uint64
		d     int
		id    uint64
		w     float64
	}
	var values []value
	for _, f := range facts {
		bare := f
		bare.Subjects, bare.Authors, bare.Concepts, bare.Weights = nil, nil, nil, nil
		b.Paper(&bare)
		for _, id := range f.Subjects {
			values = append(values, value{f.ID, paperindex.Subject, id, 0})
		}
		for _, id := range f.Authors {
			values = append(values, value{f.ID, paperindex.Author, id, 0})
		}
		for i, id := range f.Concepts {
			values = append(values, value{f.ID, paperindex.Concept, id, f.Weights[i]})
		}
	}
	// interleave the papers, keeping each paper's own order (a store
	// gives a paper's edges in key order)
	rng := rand.New(rand.NewPCG(12, 13))
	next := map[uint64]int{}
	byPaper := map[uint64][]value{}
	var papers []uint64
	for _, v := range values {
		if byPaper[v.paper] == nil {
			papers = append(papers, v.paper)
		}
		byPaper[v.paper] = append(byPaper[v.paper], v)
	}
	for len(papers) > 0 {
		i := rng.IntN(len(papers))
		p := papers[i]
		v := byPaper[p][next[p]]
		if !b.Add(v.paper, v.d, v.id, v.w) {
			t.Fatalf("Add(%d, %d, %d) refused a paper that was added", v.paper, v.d, v.id)
		}
		if next[p]++; next[p] == len(byPaper[p]) {
			papers = slices.Delete(papers, i, i+1)
		}
	}
	if b.Add(999999, paperindex.Author, 1, 0) || b.Add(facts[0].ID, paperindex.NumDims, 1, 0) {
		t.Fatal("Add took a value for a paper never added or a dimension that is none")
	}
	got := b.Build()
	if err := got.Check(); err != nil {
		t.Fatal(err)
	}
	if got.Live() != want.Live() {
		t.Fatalf("%d live, New %d", got.Live(), want.Live())
	}
	all := paperindex.Everything()
	if a, w := dump(got, &all), dump(want, &all); !slices.Equal(a, w) {
		t.Fatal("rows differ from New's")
	}
	for range 50 {
		s := randomSelection(rng)
		if a, w := got.Papers(&s), want.Papers(&s); !slices.Equal(a, w) {
			t.Fatalf("%+v: %v, New %v", s, a, w)
		}
	}
}
