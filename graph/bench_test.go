package graph_test

import (
	"context"
	"testing"

	"github.com/researchkg/kg/graph"
)

// Benchmarks on the seed graph (18 papers). The arXiv-scale benchmarks come
// with the arXiv reader.

func seedView(b *testing.B) (*graph.Service, *graph.Node) {
	b.Helper()
	db := MustOpen(b)
	svc := graph.NewService(db, extractor)
	ingestFiles(b, svc, seedFiles(b)...)
	v, err := svc.View(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	x, err := v.AuthorByName("Xiaoxi Jiang")
	if err != nil {
		b.Fatal(err)
	}
	return svc, x
}

// BenchmarkCoAuthors is one co-author request: a fresh snapshot, the list,
// and the shared papers of the first co-author.
func BenchmarkCoAuthors(b *testing.B) {
	svc, x := seedView(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, _ := svc.View(context.Background())
		cs, err := v.CoAuthors(x.ID, 10)
		if err != nil || len(cs) != 1 {
			b.Fatal(cs, err)
		}
		if _, err := v.SharedPapers(x.ID, cs[0].Author.ID); err != nil {
			b.Fatal(err)
		}
		v.Close()
	}
}

// BenchmarkNeighborhood is a depth-2 neighbourhood of the most connected
// author (every paper, subject, repository and concept of theirs).
func BenchmarkNeighborhood(b *testing.B) {
	svc, x := seedView(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, _ := svc.View(context.Background())
		g, err := v.Neighborhood(x.ID, 2, nil, 200)
		if err != nil || len(g.Nodes) < 50 {
			b.Fatal(len(g.Nodes), err)
		}
		v.Close()
	}
}

func BenchmarkRelated(b *testing.B) {
	svc, _ := seedView(b)
	v, _ := svc.View(context.Background())
	p, err := v.PaperByTitle("GD2PO")
	v.Close()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, _ := svc.View(context.Background())
		if _, err := v.RelatedPapers(p.ID, 10); err != nil {
			b.Fatal(err)
		}
		v.Close()
	}
}

// BenchmarkIngestSeeds ingests the three seed pages into a fresh store,
// term extraction included.
func BenchmarkIngestSeeds(b *testing.B) {
	files := seedFiles(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		db := MustOpen(b)
		svc := graph.NewService(db, extractor)
		ingestFiles(b, svc, files...)
		closeStore(b, db)
	}
}

// BenchmarkReingestSeeds ingests the seed pages into a store that already
// holds them: the cost of a no-op re-run.
func BenchmarkReingestSeeds(b *testing.B) {
	files := seedFiles(b)
	db := MustOpen(b)
	svc := graph.NewService(db, extractor)
	ingestFiles(b, svc, files...)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ingestFiles(b, svc, files...)
	}
}

// BenchmarkViewOpenClose is the floor under every request: opening and
// discarding a read snapshot. The query benchmarks are reported as ratios
// to it.
func BenchmarkViewOpenClose(b *testing.B) {
	svc, _ := seedView(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, _ := svc.View(context.Background())
		v.Close()
	}
}
