package graph_test

import (
	"context"
	"os"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/store"
)

// Benchmarks on a store built from the 47,919-record arXiv file. Building
// it takes minutes, so they run only when KG_BENCH_DATA names one:
//
//	go run ./cmd/kg ingest --data /tmp/kg-arxiv ../shared/data/arxiv/arxiv-cs-2025-03_2026-02.jsonl.gz
//	KG_BENCH_DATA=/tmp/kg-arxiv go test -run XXX -bench ArXiv ./graph
func arxivStore(b *testing.B) (*graph.Service, *graph.Node) {
	b.Helper()
	dir := os.Getenv("KG_BENCH_DATA")
	if dir == "" {
		b.Skip("KG_BENCH_DATA not set: see the comment on arxivStore")
	}
	db, err := store.Open(store.DefaultOptions(dir).WithReadOnly(true))
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

func BenchmarkArXivCoAuthors(b *testing.B) {
	svc, a := arxivStore(b)
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
}

func BenchmarkArXivRelated(b *testing.B) {
	svc, a := arxivStore(b)
	v, _ := svc.View(context.Background())
	page, err := v.Papers(a.ID, 1, "")
	v.Close()
	if err != nil || len(page.Papers) == 0 {
		b.Fatal(err)
	}
	p := page.Papers[0].ID
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
