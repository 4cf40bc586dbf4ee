package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
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
	a := checksum(t, seqDB)
	b := checksum(t, pipeDB)
	if a != b {
		t.Error("pipeline store differs from sequential ingest")
	}
}

// A cancelled pipeline stops taking and writing documents; what it reports
// written is exactly what is stored.
func TestPipelineCancel(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan struct{})
	n, written := 0, 0
	p := svc.NewPipeline(ctx, 2, func(_ graph.Document, _ graph.IngestResult, err error) {
		if n++; n == 1 {
			close(first)
		}
		if err == nil {
			written++
		}
	})
	add := func(i int) error {
		return p.Add(graph.Document{Source: "x", Records: []graph.Record{{Title: "Paper " + string(rune('A'+i%26)) + string(rune('a'+i/26)), Authors: []string{"Ann"}, Line: i + 1}}})
	}
	for i := 0; i < 5; i++ {
		if err := add(i); err != nil {
			t.Fatal(err)
		}
	}
	<-first // something is written
	cancel()
	if err := add(5); err == nil {
		t.Error("Add after cancel accepted a document")
	}
	p.Close()
	v := view(t, svc)
	st := mustStats(t, v)
	if st.Papers < 1 || st.Papers != written {
		t.Errorf("%d papers stored, %d reported written", st.Papers, written)
	}
}

// A bad document among good ones fails alone: the pipeline (which writes
// several documents per transaction) stores what Ingest in a loop stores,
// and reports the bad ones as Invalid.
func TestPipelineDropsOnlyBadDocuments(t *testing.T) {
	var docs []graph.Document
	fh, err := os.Open("../testdata/arxiv/sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	err = source.Read("sample.jsonl", fh, func(d graph.Document) error {
		bad := d
		bad.Records = append([]graph.Record{{Title: "A valid first record", Authors: []string{"Ann Lee"}}},
			graph.Record{Title: "Second", Subjects: []string{"not a category!"}, Line: 99})
		docs = append(docs, d, bad)
		return nil
	}, func(error) {})
	if err != nil || len(docs) < 4 {
		t.Fatalf("read: %v (%d documents)", err, len(docs))
	}
	seqDB := MustOpen(t)
	seq := graph.NewService(seqDB, extractor)
	for _, d := range docs {
		seq.Ingest(context.Background(), d)
	}
	pipeDB := MustOpen(t)
	bad := 0
	p := graph.NewService(pipeDB, extractor).NewPipeline(context.Background(), 2, func(_ graph.Document, _ graph.IngestResult, err error) {
		if err != nil {
			if graph.ErrorCode(err) != graph.Invalid {
				t.Errorf("bad document: %v, want Invalid", err)
			}
			bad++
		}
	})
	for _, d := range docs {
		if err := p.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if bad != len(docs)/2 {
		t.Errorf("%d documents failed, want %d", bad, len(docs)/2)
	}
	a := checksum(t, seqDB)
	b := checksum(t, pipeDB)
	if a != b {
		t.Error("pipeline store differs from sequential ingest")
	}
}

// The settle after a pipeline reports each stage in order, counts that
// never pass their totals, the people and profile stages to the end, and
// "settled" last.
func TestSettleReportsProgress(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	type step struct {
		stage       string
		done, total int
	}
	var steps []step
	svc.OnProgress(func(stage string, done, total int) { steps = append(steps, step{stage, done, total}) })
	pipeSeeds(t, svc) // as Pipeline.Close: the documents, then the settle
	if err := svc.SettleConcepts(context.Background()); err != nil {
		t.Fatal(err)
	}
	order := []string{graph.StageRescan, graph.StageRescanRead, graph.StageLink, graph.StageCoOccur, graph.StagePeople, graph.StageProfiles, graph.StageSettleDone}
	rank := map[string]int{}
	for i, s := range order {
		rank[s] = i
	}
	last := map[string]step{}
	prev := -1
	for _, s := range steps {
		r, ok := rank[s.stage]
		if !ok {
			t.Fatalf("unknown stage %q", s.stage)
		}
		if r < prev {
			t.Errorf("stage %q after %q", s.stage, order[prev])
		}
		prev = r
		if s.total > 0 && s.done > s.total || s.done < 0 {
			t.Errorf("%q: %d done of %d", s.stage, s.done, s.total)
		}
		last[s.stage] = s
	}
	for _, st := range []string{graph.StagePeople, graph.StageProfiles} {
		if s, ok := last[st]; !ok || s.total == 0 || s.done != s.total {
			t.Errorf("%q ended at %+v, want all of a positive total", st, s)
		}
	}
	if len(steps) == 0 || steps[len(steps)-1].stage != graph.StageSettleDone {
		t.Errorf("last report %+v, want %q", steps, graph.StageSettleDone)
	}
}

// countingExtractor counts the texts analysed.
type countingExtractor struct {
	graph.TermExtractor
	n atomic.Int64
}

func (c *countingExtractor) Analyze(title, text string) graph.TextAnalysis {
	c.n.Add(1)
	return c.TermExtractor.Analyze(title, text)
}

// The workers tell stored texts from new ones without waiting on the
// writer (textCheck): a second run of the same file analyses nothing, and a
// file that repeats its records in one run gives the graph of one copy.
func TestPipelineSkipsStoredTexts(t *testing.T) {
	f := "../testdata/arxiv/sample.jsonl.gz"
	run := func(svc *graph.Service, copies int) {
		files := make([]string, copies)
		for i := range files {
			files[i] = f
		}
		pipeFiles(t, svc, true, files...)
	}
	ex := &countingExtractor{TermExtractor: extractor}
	once := MustOpen(t)
	svc := graph.NewService(once, ex)
	run(svc, 1)
	first := ex.n.Load()
	if first == 0 {
		t.Fatal("nothing analysed on the first run")
	}
	sum := checksum(t, once)
	run(svc, 1)
	if n := ex.n.Load() - first; n != 0 {
		t.Errorf("second run analysed %d texts, want 0", n)
	}
	if checksum(t, once) != sum {
		t.Error("second run changed the store")
	}
	digest := func(svc *graph.Service) graph.Digest {
		d, err := svc.Digest(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	thrice := graph.NewService(MustOpen(t), extractor)
	run(thrice, 3)
	if digest(thrice) != digest(svc) {
		t.Error("a file read three times in one run differs from one reading")
	}
}
