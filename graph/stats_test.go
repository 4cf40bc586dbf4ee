package graph_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/store"
)

// countersFail is the real store whose document-frequency counters cannot
// be read: a disk error met while ranking terms.
type countersFail struct{ *store.DB }

var errDisk = errors.New("read df counter: input/output error")

func (s countersFail) Update(ctx context.Context, fn func(graph.Tx) error) error {
	return s.DB.Update(ctx, func(tx graph.Tx) error { return fn(failingTx{tx}) })
}

func (s countersFail) Read(ctx context.Context) (graph.Reader, error) {
	r, err := s.DB.Read(ctx)
	return failingReader{r}, err
}

type failingTx struct{ graph.Tx }

func (t failingTx) Counter(name string) (int64, error) {
	if strings.HasPrefix(name, "df/") {
		return 0, errDisk
	}
	return t.Tx.Counter(name)
}

type failingReader struct{ graph.Reader }

func (r failingReader) Counter(name string) (int64, error) {
	if strings.HasPrefix(name, "df/") {
		return 0, errDisk
	}
	return r.Reader.Counter(name)
}

// A read error of the corpus statistics fails the document instead of
// storing terms scored with a document frequency of 0.
func TestStatsReadErrorFailsTheDocument(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(countersFail{db}, extractor)
	doc := graph.Document{Source: "one.jsonl", Records: []graph.Record{{
		Title:    "Reward models for agent skills",
		Abstract: "We train reward models with reinforcement learning (RL) for agent skills.",
		Authors:  []string{"Ada Lovelace"},
		Line:     1,
	}}}
	if _, err := svc.Ingest(context.Background(), doc); !errors.Is(err, errDisk) {
		t.Fatalf("ingest with unreadable statistics: err = %v, want %v", err, errDisk)
	}
	v, err := graph.NewService(db, extractor).View(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	st, err := v.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Papers != 0 || st.Concepts != 0 {
		t.Fatalf("a failed document left %d papers and %d concepts", st.Papers, st.Concepts)
	}

	// a query that expands an acronym reports the error, not "not found"
	ingestFiles(t, graph.NewService(db, extractor), seedFiles(t)...)
	fv, err := graph.NewService(countersFail{db}, extractor).View(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer fv.Close()
	if _, err := fv.ConceptByName("agent RL"); !errors.Is(err, errDisk) {
		t.Fatalf("ConceptByName with unreadable statistics: err = %v, want %v", err, errDisk)
	}
	stats := fv.CorpusStats()
	_ = stats.DocFreq("reinforcement")
	if !errors.Is(stats.Err(), errDisk) {
		t.Fatalf("CorpusStats().Err() = %v, want %v", stats.Err(), errDisk)
	}
}
