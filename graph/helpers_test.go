package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/source"
	"github.com/researchkg/kg/nlp"
	"github.com/researchkg/kg/store"
)

// MustOpen opens an in-memory store, closed when the test ends.
func MustOpen(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(store.DefaultOptions("").WithInMemory(true))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { closeStore(tb, db) })
	return db
}

// seedFiles lists the seed pages shipped in testdata.
func seedFiles(tb testing.TB) []string {
	tb.Helper()
	files, err := filepath.Glob("../testdata/seeds/*.txt")
	if err != nil || len(files) != 3 {
		tb.Fatalf("seed pages: got %v (%v), want 3 files", files, err)
	}
	sort.Strings(files)
	return files
}

// ingestFiles reads and ingests files in order.
func ingestFiles(tb testing.TB, svc *graph.Service, files ...string) []graph.IngestResult {
	tb.Helper()
	var out []graph.IngestResult
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			tb.Fatal(err)
		}
		err = source.Read(filepath.Base(f), fh, func(d graph.Document) error {
			r, err := svc.Ingest(context.Background(), d)
			out = append(out, r)
			return err
		}, func(error) {}) // malformed records in fixtures are the readers' tests' business
		fh.Close()
		if err != nil {
			tb.Fatalf("ingest %s: %v", f, err)
		}
	}
	return out
}

var extractor = nlp.New()

func view(tb testing.TB, svc *graph.Service) *graph.View {
	tb.Helper()
	v, err := svc.View(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(v.Close)
	return v
}

// checksum is the store's checksum; a failure fails the test (two failed
// checksums would otherwise compare equal).
func checksum(tb testing.TB, db interface{ Checksum() (uint64, error) }) uint64 {
	tb.Helper()
	c, err := db.Checksum()
	if err != nil {
		tb.Fatalf("checksum: %v", err)
	}
	return c
}

// closeStore closes a store and fails the test on its error, which carries
// the last background commit's.
func closeStore(tb testing.TB, db interface{ Close() error }) {
	tb.Helper()
	if err := db.Close(); err != nil {
		tb.Errorf("close the store: %v", err)
	}
}

// mustStats is v.Stats; an error fails the test.
func mustStats(tb testing.TB, v *graph.View) graph.Stats {
	tb.Helper()
	st, err := v.Stats()
	if err != nil {
		tb.Fatalf("stats: %v", err)
	}
	return st
}

// heavyUnderRace skips a test of quality on the whole arXiv file under the
// race detector, which makes it ten times slower and finds nothing in it
// (one goroutine does the work); .ci/run runs these tests without -race.
func heavyUnderRace(t *testing.T) {
	t.Helper()
	if raceDetector {
		t.Skip("slow under -race; .ci/run runs it without: go test -run '" + t.Name() + "$' ./graph")
	}
}
