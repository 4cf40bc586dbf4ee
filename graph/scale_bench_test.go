package graph_test

import (
	"context"
	"os"
	"runtime"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/store"
)

// Benchmarks on a store built from the 47,919-record arXiv file. Building
// it takes minutes, so they run only when KG_BENCH_DATA names one:
//
//	go run ./cmd/kg ingest --data /tmp/kg-arxiv ../shared/data/arxiv/arxiv-cs-2025-03_2026-02.jsonl.gz
//	KG_BENCH_DATA=/tmp/kg-arxiv go test -run XXX -bench ArXiv ./graph
//
// Each runs with block checksums checked on every read from disk (as kg
// serve opens its store) and without, in the same run.
func arxivStore(b *testing.B, verify bool) (*graph.Service, *graph.Node) {
	b.Helper()
	dir := os.Getenv("KG_BENCH_DATA")
	if dir == "" {
		b.Skip("KG_BENCH_DATA not set: see the comment on arxivStore")
	}
	db, err := store.Open(store.DefaultOptions(dir).WithReadOnly(true).WithVerifyBlocks(verify))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { closeStore(b, db) })
	svc := graph.NewService(db, nil)
	v, err := svc.View(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	a, err := v.AuthorByName("Yang Liu") // the most prolific author of the file: 185 papers
	if err != nil {
		b.Fatal(err)
	}
	return svc, a
}

// checksums runs a benchmark with block checksums checked on reads (as kg
// serve reads) and without.
func checksums(b *testing.B, fn func(b *testing.B, verify bool)) {
	for _, verify := range []bool{false, true} {
		name := "verify=off"
		if verify {
			name = "verify=on"
		}
		b.Run(name, func(b *testing.B) { fn(b, verify) })
	}
}

func BenchmarkArXivCoAuthors(b *testing.B) {
	checksums(b, func(b *testing.B, verify bool) {
		svc, a := arxivStore(b, verify)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			v, _ := svc.View(context.Background())
			cs, err := v.CoAuthors(a.ID, 10)
			if err != nil || len(cs) != 10 {
				b.Fatal(len(cs), err)
			}
			v.Close()
		}
	})
}

// BenchmarkArXivCoAuthorsMany reads the top 20 co-authors of ~1,000
// people in turn (the people search finds for ten common surnames), with
// their names: many reads miss the block cache and go to the table files,
// where checksums are checked.
func BenchmarkArXivCoAuthorsMany(b *testing.B) {
	checksums(b, func(b *testing.B, verify bool) {
		svc, _ := arxivStore(b, verify)
		v, _ := svc.View(context.Background())
		var people []*graph.Node
		for _, name := range []string{"wang", "zhang", "chen", "liu", "yang", "kim", "smith", "lee", "wu", "garcia"} {
			hits, err := v.Search(name, []graph.Kind{graph.KindAuthor}, 100)
			if err != nil {
				b.Fatal(err)
			}
			for _, h := range hits {
				people = append(people, h.Node)
			}
		}
		v.Close()
		if len(people) == 0 {
			b.Skip("no authors")
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			v, _ := svc.View(context.Background())
			if _, err := v.CoAuthors(people[i%len(people)].ID, 20); err != nil {
				b.Fatal(err)
			}
			v.Close()
		}
	})
}

func BenchmarkArXivRelated(b *testing.B) {
	checksums(b, benchRelated)
}

// relatedSeeds opens the store with its index ready and returns the first
// n papers of its most prolific author, as seeds for related work.
func relatedSeeds(b *testing.B, verify bool, n int) (*graph.Service, []graph.NodeID) {
	b.Helper()
	svc, a := arxivStore(b, verify)
	v, _ := svc.View(context.Background())
	page, err := v.Papers(a.ID, n, "")
	v.Close()
	if err != nil || len(page.Papers) == 0 {
		b.Fatal(err)
	}
	if err := svc.PrepareIndex(context.Background()); err != nil {
		b.Fatal(err)
	}
	var ids []graph.NodeID
	for _, p := range page.Papers {
		ids = append(ids, p.ID)
	}
	return svc, ids
}

func benchRelated(b *testing.B, verify bool) {
	svc, seeds := relatedSeeds(b, verify, 1)
	p := seeds[0]
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, _ := svc.View(context.Background())
		rel, err := v.RelatedPapers(p, 10)
		if err != nil || len(rel) == 0 {
			b.Fatal(err)
		}
		v.Close()
	}
}

// BenchmarkArXivNeighborhood is kg bench's neighbourhood question: a
// person's nodes within two hops, the first 50, and the edges among them.
func BenchmarkArXivNeighborhood(b *testing.B) {
	svc, a := arxivStore(b, true)
	b.ReportAllocs()
	for b.Loop() {
		v, _ := svc.View(context.Background())
		g, err := v.Neighborhood(a.ID, 2, nil, 50)
		if err != nil || len(g.Nodes) != 50 {
			b.Fatal(len(g.Nodes), err)
		}
		v.Close()
	}
}

// BenchmarkArXivRelatedWords compares related work for the first papers
// of Yang Liu with the title-word cosine through the words' rows
// (postings) and through each candidate's words (rows).
func BenchmarkArXivRelatedWords(b *testing.B) {
	svc, seeds := relatedSeeds(b, true, 20)
	for _, on := range []bool{true, false} {
		b.Run(map[bool]string{true: "postings", false: "rows"}[on], func(b *testing.B) {
			defer graph.SetRelWordPostings(on)()
			i := 0
			for b.Loop() {
				v, _ := svc.View(context.Background())
				if _, err := v.RelatedPapers(seeds[i%len(seeds)], 10); err != nil {
					b.Fatal(err)
				}
				v.Close()
				i++
			}
		})
	}
}

var indexSink *graph.Service

// BenchmarkArXivFacetIndex builds the facet index from the store (what kg
// serve does at startup) and reports the heap it keeps a paper: at a
// million papers the index is most of what kg serve holds.
func BenchmarkArXivFacetIndex(b *testing.B) {
	svc, _ := arxivStore(b, false)
	ctx := context.Background()
	st, err := view(b, svc).Stats()
	if err != nil {
		b.Fatal(err)
	}
	var kept float64
	for b.Loop() {
		b.StopTimer()
		fresh := graph.NewService(svc.Store(), nil)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		b.StartTimer()
		if err := fresh.PrepareIndex(ctx); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		kept = float64(after.HeapAlloc) - float64(before.HeapAlloc)
		indexSink = fresh // held for -memprofile's in-use view
		b.StartTimer()
	}
	b.ReportMetric(kept/float64(st.Papers), "B/paper")
	b.ReportMetric(kept/(1<<20), "MB")
}
