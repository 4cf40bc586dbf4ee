package main

import (
	"path/filepath"
	"testing"
)

// The first ingest written as a bulk load leaves the store a
// transactional ingest leaves, key for key and value for value, ids
// included (the store's checksum, not the id-free digest): written at its
// end, and flushed after every batch (--bulk-mb 1, so later batches read
// through to Badger and delete what earlier flushes wrote). On the seed
// pages, the arXiv and BibTeX samples in one run, and on 2,000 records of
// the real arXiv file when ../shared is there.
func TestBulkLoadKeyForKey(t *testing.T) {
	seeds := t.TempDir()
	copySeeds(t, seeds)
	samples := []string{seeds, "../../testdata/arxiv/sample.jsonl.gz", "../../testdata/bibtex/sample.bib"}
	modes := map[string][]string{
		"bulk":                  nil,
		"bulk, a flush a batch": {"--bulk-mb", "1"},
		"transactional":         {"--bulk-mb", "-1"},
	}
	t.Run("samples", func(t *testing.T) {
		sums := map[string]uint64{}
		for mode, args := range modes {
			dir := filepath.Join(t.TempDir(), "d")
			// the samples hold bad records on purpose: exit 1, the rest stored
			if code, _, errs := runKG(t, append(append([]string{"ingest", "--data", dir}, args...), samples...)...); code != 1 {
				t.Fatalf("%s: exit %d, want 1 (the samples' bad records): %s", mode, code, errs)
			}
			sums[mode] = checksum(t, dir)
		}
		sameSums(t, sums)
	})
	t.Run("arXiv", func(t *testing.T) {
		if testing.Short() {
			t.Skip("short")
		}
		input := crashInput(t, 2000)
		sums := map[string]uint64{}
		for mode, args := range modes {
			dir := filepath.Join(t.TempDir(), "d")
			if code, _, errs := runBin(t, append(append([]string{"ingest", "--data", dir}, args...), input)...); code != 0 {
				t.Fatalf("%s: exit %d: %s", mode, code, errs)
			}
			sums[mode] = checksum(t, dir)
		}
		sameSums(t, sums)
	})
}

func sameSums(t *testing.T, sums map[string]uint64) {
	t.Helper()
	want := sums["transactional"]
	for mode, sum := range sums {
		if sum != want {
			t.Errorf("%s: checksum %x, the transactional ingest's %x", mode, sum, want)
		}
	}
	t.Logf("checksum of every mode: %x", want)
}
