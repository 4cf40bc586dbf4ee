package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// kg bench without a corpus says so and succeeds (CI and a user's clone
// have no ../shared); on the seed graph every question is answered in
// process without an error, and the table lists each.
func TestBench(t *testing.T) {
	code, _, errs := runKG(t, "bench", "--corpus", filepath.Join(t.TempDir(), "absent.jsonl.gz"))
	if code != 0 || !strings.Contains(errs, "skipped: no corpus") {
		t.Errorf("no corpus: exit %d, %q", code, errs)
	}
	_, data := seededStore(t)
	code, out, errs := runKG(t, "bench", "--data", data, "--only", "kg-floor", "--secs", "0.05", "--clients", "1,2", "--inputs", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, q := range questionNames {
		if q == "path" && !strings.Contains(out, "path") {
			continue // the seed graph may hold no two people joined within 6 hops among those drawn
		}
		if strings.Count(out, "\n"+q+" ") != 2 {
			t.Errorf("the table lacks %s at 1 and 2 clients:\n%s", q, out)
		}
	}
	if code, _, _ := runKG(t, "bench", "--data", data, "--only", "mysql"); code == 0 {
		t.Error("an unknown system was accepted")
	}
}
