package paperindex_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/researchkg/kg/graph/paperindex"
)

// A synthetic index of the arXiv file's size (47,919 papers), for the
// questions' costs without a store; the figures over a real store and
// HTTP are graph's and schema's benchmarks.
var benchIndex = sync.OnceValues(func() (*paperindex.Index, []paperindex.Facts) {
	facts := corpus(21, 47_919)
	return paperindex.New(facts), facts
})

func BenchmarkTop(b *testing.B) {
	ix, _ := benchIndex()
	name := func(id uint64) string { return fmt.Sprint(id) }
	s := paperindex.Everything()
	s.Any[paperindex.Subject] = []uint64{1001}
	b.ReportAllocs()
	for b.Loop() {
		ix.Top(paperindex.Concept, &s, 20, name)
	}
}

func BenchmarkListRelevance(b *testing.B) {
	ix, _ := benchIndex()
	s := paperindex.Everything().With(paperindex.Concept, 3001)
	b.ReportAllocs()
	for b.Loop() {
		ix.List(&s, paperindex.Relevance, 20, nil)
	}
}

func BenchmarkRelatedOneSeed(b *testing.B) {
	ix, facts := benchIndex()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i = (i + 7919) % len(facts)
		ix.Related(ix.Resolve(&paperindex.Ask{Seeds: []uint64{facts[i].ID}}), 10)
	}
}

func BenchmarkPath(b *testing.B) {
	ix, _ := benchIndex()
	s := paperindex.Everything()
	b.ReportAllocs()
	i := uint64(0)
	for b.Loop() {
		i = (i + 13) % 60
		if _, err := ix.Path(context.Background(), 2001+i, 2060-i, 6, &s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEmerging(b *testing.B) {
	ix, _ := benchIndex()
	s := paperindex.Everything()
	b.ReportAllocs()
	for b.Loop() {
		ix.Emerging(&s, 5)
	}
}
