package main

import (
	"bufio"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// arxivSlice writes records [from, to) of the real arXiv file (skips
// without ../shared).
func arxivSlice(t *testing.T, from, to int) string {
	t.Helper()
	f, err := os.Open(arxivFile)
	if err != nil {
		t.Skipf("needs %s (../shared beside the clone): %v", arxivFile, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "arxiv.jsonl")
	w, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for i := 0; i < to && sc.Scan(); i++ {
		if i >= from {
			w.Write(sc.Bytes())
			w.Write([]byte{'\n'})
		}
	}
	return out
}

// A daily feed added to a store, killed with SIGKILL at random points of
// its ingest and run again: the graph is the one the uninterrupted two
// ingests make, every time (same digest). The kill points are drawn at
// random over the clean run's length (the seed is logged).
func TestIncrementalIngestSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	first, feed := arxivSlice(t, 0, 700), arxivSlice(t, 700, 1000)
	base := filepath.Join(t.TempDir(), "base")
	if code, _, errs := runBin(t, "ingest", "--data", base, first); code != 0 {
		t.Fatalf("first ingest: %s", errs)
	}
	clean := filepath.Join(t.TempDir(), "clean")
	copyDir(t, base, clean)
	start := time.Now()
	if code, _, errs := runBin(t, "ingest", "--data", clean, feed); code != 0 {
		t.Fatalf("clean feed ingest: %s", errs)
	}
	took := time.Since(start)
	want := digestOf(t, clean)

	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 0))
	t.Logf("clean feed ingest %v; kill points drawn with seed %d", took, seed)
	killed := 0
	for round := 0; round < 3; round++ {
		delay := time.Duration(rng.Int64N(int64(took)))
		crashed := filepath.Join(t.TempDir(), "crashed")
		copyDir(t, base, crashed)
		signaled := killAfter(t, delay, "ingest", "--data", crashed, feed)
		if signaled {
			killed++
		}
		code, out, errs := runBin(t, "ingest", "--data", crashed, feed)
		if code != 0 {
			t.Fatalf("kill at %v: ingest again: exit %d: %s", delay, code, errs)
		}
		got := digestOf(t, crashed)
		t.Logf("kill at %v (landed: %v); the re-run: %s", delay, signaled, strings.TrimSpace(out))
		if got != want {
			t.Errorf("kill at %v: the graph after the re-run differs from the uninterrupted ingests (digest %s, want %s)", delay, got, want)
		}
	}
	if killed == 0 {
		t.Log("no kill landed before its ingest finished: the re-runs only checked an ingest of stored records")
	}
}

// copyDir copies a closed store's folder.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", from, to).CombinedOutput(); err != nil {
		t.Fatalf("cp -a: %v %s", err, out)
	}
}

// kg serve --read-only started right after an ingest, asked and stopped,
// again and again (each a new store, each opened several times): it
// answers /healthz and its query every time and exits cleanly. Once a
// read-only serve started right after an ingest of 26,809 records exited
// with a panic in a Badger compaction goroutine; run under -race, this
// loop looks for it and for races in opening and closing.
func TestReadOnlyServeRightAfterIngest(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	input := crashInput(t, 300)
	for round := 0; round < 3; round++ {
		data := filepath.Join(t.TempDir(), "d")
		if code, _, errs := runKG(t, "ingest", "--data", data, input); code != 0 {
			t.Fatalf("round %d: ingest: exit %d: %s", round, code, errs)
		}
		for open := 0; open < 2; open++ {
			t.Run("serve", func(t *testing.T) {
				base := startServe(t, "--data", data, "--read-only", "--seeds", "")
				resp, err := http.Get(base + "/healthz")
				if err != nil {
					t.Fatalf("round %d, open %d: /healthz: %v", round, open, err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("round %d, open %d: /healthz answered %s", round, open, resp.Status)
				}
				resp, err = http.Post(base+"/graphql", "application/json", strings.NewReader(`{"query":"{ stats { papers } }"}`))
				if err != nil {
					t.Fatalf("round %d, open %d: query: %v", round, open, err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if !strings.Contains(string(body), `{"papers":300}`) {
					t.Errorf("round %d, open %d: answered %s, want 300 papers", round, open, body)
				}
			})
		}
	}
}
