package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kg authors lists the people of a name (the Jun Yans of the arXiv
// excerpt are several), lists corrections (none yet), and reclusters
// without changing a store that is already clustered.
func TestAuthorsCommand(t *testing.T) {
	data := filepath.Join(t.TempDir(), "kg-data")
	// the excerpt without its record of 3,303 authors
	b, err := os.ReadFile("../../graph/testdata/arxiv-people.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		if len(l) < 50_000 {
			keep = append(keep, l)
		}
	}
	in := filepath.Join(t.TempDir(), "people.jsonl")
	if err := os.WriteFile(in, []byte(strings.Join(keep, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runKG(t, "ingest", "--data", data, in); code != 0 {
		t.Fatalf("ingest exit %d:\n%s\n%s", code, out, errs)
	}
	digest := func() string {
		_, out, _ := runKG(t, "stats", "--data", data, "--digest")
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, `"digest"`) {
				return l
			}
		}
		t.Fatalf("no digest in %s", out)
		return ""
	}
	before := digest()
	code, out, _ := runKG(t, "authors", "--data", data, "Jun", "Yan")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) < 2 || !strings.HasPrefix(lines[0], "author:") || !strings.Contains(lines[0], "\tJun Yan\t") || !strings.Contains(lines[0], "papers") {
		t.Errorf("kg authors Jun Yan: exit %d\n%s", code, out)
	}
	if code, out, _ := runKG(t, "authors", "--data", data, "--corrections"); code != 0 || strings.TrimSpace(out) != "no corrections" {
		t.Errorf("--corrections: exit %d\n%s", code, out)
	}
	if code, out, _ := runKG(t, "authors", "--data", data, "--recluster"); code != 0 || !strings.Contains(out, "clustered every name") {
		t.Errorf("--recluster: exit %d\n%s", code, out)
	}
	if after := digest(); after != before {
		t.Errorf("reclustering a clustered store changed it:\n%s\n%s", before, after)
	}
	if code, _, errs := runKG(t, "authors", "--data", data, "Nobody Atall"); code != 1 || !strings.Contains(errs, "no author named") {
		t.Errorf("unknown name: exit %d: %s", code, errs)
	}
	if code, _, _ := runKG(t, "authors", "--data", data); code != 2 {
		t.Errorf("no name and no flag: exit %d, want 2", code)
	}
}
