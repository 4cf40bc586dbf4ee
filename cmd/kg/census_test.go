package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// kg ingest --write-census writes, by phase and kind of key, the writes
// that reached the store: every paper's node among the records' writes,
// and a second ingest of the same pages writes (almost) nothing.
func TestIngestWriteCensus(t *testing.T) {
	seeds := t.TempDir()
	copySeeds(t, seeds)
	data := filepath.Join(t.TempDir(), "d")
	census := filepath.Join(t.TempDir(), "census.tsv")
	code, out, errs := runKG(t, "ingest", "--json", "--write-census", census, "--data", data, seeds)
	if code != 0 {
		t.Fatalf("ingest: exit %d: %s", code, errs)
	}
	rows := readCensus(t, census)
	var sum struct{ Added int64 }
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("ingest --json: %v: %s", err, out)
	}
	added := sum.Added
	if n := rows["records\tnode"]; n < added || added == 0 {
		t.Errorf("records wrote %d nodes for %d papers added", n, added)
	}
	if rows["records\ttext"] == 0 {
		t.Errorf("no abstract written: %v", rows)
	}
	if code, _, errs := runKG(t, "ingest", "--write-census", census, "--data", data, seeds); code != 0 {
		t.Fatalf("second ingest: exit %d: %s", code, errs)
	}
	again := readCensus(t, census)
	if again["records\tnode"] != 0 || again["records\ttext"] != 0 {
		t.Errorf("a second ingest of the same pages rewrote nodes or texts: %v", again)
	}
}

// readCensus reads a census file into phase+kind → writes+deletes.
func readCensus(t *testing.T, path string) map[string]int64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if lines[0] != "phase\tkind\twrites\tdeletes\tbytes" {
		t.Fatalf("census header %q", lines[0])
	}
	out := map[string]int64{}
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) != 5 {
			t.Fatalf("census row %q", l)
		}
		w, err1 := strconv.ParseInt(f[2], 10, 64)
		d, err2 := strconv.ParseInt(f[3], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("census row %q", l)
		}
		out[f[0]+"\t"+f[1]] = w + d
	}
	return out
}
