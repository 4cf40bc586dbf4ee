package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func copySeeds(t *testing.T, dst string) {
	t.Helper()
	files, _ := filepath.Glob("../../testdata/seeds/*.txt")
	if len(files) != 3 {
		t.Fatalf("seed pages: %v", files)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// seededStore ingests the seed pages into a new data folder and returns
// the folder of the pages and the data folder.
func seededStore(t *testing.T) (seeds, data string) {
	t.Helper()
	seeds = t.TempDir()
	copySeeds(t, seeds)
	data = filepath.Join(t.TempDir(), "d")
	if code, _, errs := runKG(t, "ingest", "--data", data, seeds); code != 0 {
		t.Fatalf("ingest the seed pages: %s", errs)
	}
	return seeds, data
}

func runKG(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runKGWithInput(t, nil, args...)
}

// runKGWithInput runs kg with stdin reading from in (nil: empty).
func runKGWithInput(t *testing.T, in io.Reader, args ...string) (int, string, string) {
	t.Helper()
	if in == nil {
		in = strings.NewReader("")
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), args, stdio{in: in, out: &out, err: &errb})
	return code, out.String(), errb.String()
}

func TestIngestReportsFailuresAndKeepsTheRest(t *testing.T) {
	in := t.TempDir()
	copySeeds(t, in)
	bad := filepath.Join(in, "zz_broken.txt")
	os.WriteFile(bad, []byte("Ann Author\nPublications\nA title\nAn abstract.\nA title without abstract\n"), 0o644)
	os.WriteFile(filepath.Join(in, ".hidden"), []byte("ignored"), 0o644)
	data := filepath.Join(t.TempDir(), "kg-data")

	code, out, _ := runKG(t, "ingest", "--data", data, in)
	if code != 1 {
		t.Errorf("exit status %d, want 1 (one document failed)", code)
	}
	for _, want := range []string{"documents: 4 read, 1 failed", "18 added", "zz_broken.txt:5: title"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runKG(t, "stats", "--data", data)
	if code != 0 {
		t.Fatalf("stats exit %d", code)
	}
	var st map[string]int
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if st["papers"] != 18 || st["authors"] != 2 || st["subjects"] != 5 || st["repositories"] != 10 {
		t.Errorf("stats: %v", st)
	}
	// again: nothing changes
	os.Remove(bad)
	code, out, _ = runKG(t, "ingest", "--data", data, "--json", in)
	var sum map[string]any
	if err := json.Unmarshal([]byte(out), &sum); err != nil || code != 0 {
		t.Fatalf("second ingest: exit %d, %v\n%s", code, err, out)
	}
	if sum["Added"].(float64) != 0 || sum["Merged"].(float64) != 0 || sum["Edges"].(float64) != 0 {
		t.Errorf("second ingest changed the graph: %v", sum)
	}
}

func TestHelpAndUsage(t *testing.T) {
	if code, out, _ := runKG(t, "--help"); code != 0 || !strings.Contains(out, "kg serve") {
		t.Errorf("--help: %d %q", code, out)
	}
	for _, cmd := range []string{"serve", "ingest", "stats"} {
		code, _, errOut := runKG(t, cmd, "--help")
		if code != 0 || !strings.Contains(errOut, "--data") && !strings.Contains(errOut, "-data") {
			t.Errorf("%s --help: %d %q", cmd, code, errOut)
		}
	}
	if code, _, errOut := runKG(t, "frobnicate"); code != 2 || !strings.Contains(errOut, "unknown command") {
		t.Errorf("unknown command: %d %q", code, errOut)
	}
	if code, _, _ := runKG(t, "ingest", "--data", t.TempDir()); code != 2 {
		t.Errorf("ingest without paths: exit %d, want 2", code)
	}
	if code, _, errOut := runKG(t, "ingest", "--data", t.TempDir(), "/no/such/file"); code != 1 || !strings.Contains(errOut, "/no/such/file") {
		t.Errorf("missing file: %d %q", code, errOut)
	}
}

// serve on an empty data folder loads the seeds and answers over HTTP, then
// shuts down when its context ends (startServe checks the shutdown).
func TestServeLoadsSeeds(t *testing.T) {
	seeds := t.TempDir()
	copySeeds(t, seeds)
	base := startServe(t, "--data", filepath.Join(t.TempDir(), "d"), "--seeds", seeds)
	resp, err := http.Get(base + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	resp, err = http.Post(base+"/graphql", "application/json", strings.NewReader(`{"query":"{ stats { papers authors } }"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"papers":18`) {
		t.Errorf("stats over HTTP: %s", b)
	}
}

func TestIngestDryRun(t *testing.T) {
	in := t.TempDir()
	copySeeds(t, in)
	data := filepath.Join(t.TempDir(), "d")
	code, out, _ := runKG(t, "ingest", "--dry-run", "--data", data, in)
	if code != 0 || !strings.Contains(out, "dry run") || !strings.Contains(out, "18 added, 11 merged") {
		t.Fatalf("dry run: exit %d\n%s", code, out)
	}
	// the same counts as a real run, which then writes them
	code, real, _ := runKG(t, "ingest", "--data", data, in)
	if code != 0 || strings.TrimPrefix(out, "dry run: nothing is written\n") != real {
		t.Errorf("dry run and real run differ:\n%s\n---\n%s", out, real)
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	in := t.TempDir()
	copySeeds(t, in)
	data := filepath.Join(t.TempDir(), "d")
	if code, _, _ := runKG(t, "ingest", "--dry-run", "--data", data, in); code != 0 {
		t.Fatal(code)
	}
	_, out, _ := runKG(t, "stats", "--data", data)
	var st map[string]int
	json.Unmarshal([]byte(out), &st)
	if st["papers"] != 0 {
		t.Errorf("dry run wrote %d papers", st["papers"])
	}
}

// An interrupted ingest stops between documents, says how to finish, and
// the same command completes it without duplicates.
func TestIngestInterruptedThenCompleted(t *testing.T) {
	in := t.TempDir()
	copySeeds(t, in)
	data := filepath.Join(t.TempDir(), "d")
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // interrupted before the first document
	var out, errb bytes.Buffer
	if code := run(ctx, []string{"ingest", "--data", data, in}, stdio{in: strings.NewReader(""), out: &out, err: &errb}); code != 130 || !strings.Contains(errb.String(), "Run the same command again") {
		t.Fatalf("interrupted: exit %d, %q", code, errb.String())
	}
	if code, _, _ := runKG(t, "ingest", "--data", data, in); code != 0 {
		t.Fatalf("second run: exit %d", code)
	}
	_, o, _ := runKG(t, "stats", "--data", data)
	var st map[string]int
	json.Unmarshal([]byte(o), &st)
	if st["papers"] != 18 || st["authors"] != 2 {
		t.Errorf("after completing: %v", st)
	}
}
