package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/source"
)

// The pipeline writes what Ingest in a loop writes: same ids, same store.
func TestPipelineEqualsSequentialIngest(t *testing.T) {
	files := append(seedFiles(t), "../testdata/arxiv/sample.jsonl.gz")
	read := func(fn func(graph.Document) error) {
		for _, f := range files {
			fh, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			err = source.Read(filepath.Base(f), fh, fn, func(error) {})
			fh.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	seqDB := MustOpen(t)
	seq := graph.NewService(seqDB, extractor)
	read(func(d graph.Document) error {
		_, err := seq.Ingest(context.Background(), d)
		return err
	})
	pipeDB := MustOpen(t)
	pipeSvc := graph.NewService(pipeDB, extractor)
	var results []graph.IngestResult
	p := pipeSvc.NewPipeline(context.Background(), 3, func(_ graph.Document, r graph.IngestResult, err error) {
		if err != nil {
			t.Error(err)
		}
		results = append(results, r)
	})
	read(p.Add)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if len(results) != 3+5 {
		t.Errorf("%d results, want 8 (3 pages, 5 arXiv lines)", len(results))
	}
	a, _ := seqDB.Checksum()
	b, _ := pipeDB.Checksum()
	if a != b {
		t.Error("pipeline store differs from sequential ingest")
	}
}

// A cancelled pipeline stops writing and says why; what it wrote stands.
func TestPipelineCancel(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	p := svc.NewPipeline(ctx, 2, func(graph.Document, graph.IngestResult, error) {
		n++
		if n == 2 {
			cancel()
		}
	})
	for i := 0; i < 50; i++ {
		doc := graph.Document{Source: "x", Records: []graph.Record{{Title: "Paper " + string(rune('A'+i%26)) + string(rune('a'+i/26)), Authors: []string{"Ann"}, Line: i + 1}}}
		if err := p.Add(doc); err != nil {
			break
		}
	}
	if err := p.Close(); err == nil {
		t.Error("Close after cancel returned no error")
	}
	v := view(t, svc)
	st, _ := v.Stats()
	if st.Papers < 2 || st.Papers >= 50 {
		t.Errorf("papers written before the cancel: %d", st.Papers)
	}
}
