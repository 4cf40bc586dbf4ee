package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/researchkg/kg/store"
)

// TestMain lets the test binary act as kg in a subprocess (KG_BE_MAIN=1),
// so the crash test can kill a real ingest without building kg first.
func TestMain(m *testing.M) {
	if os.Getenv("KG_BE_MAIN") == "1" {
		os.Exit(run(context.Background(), os.Args[1:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}))
	}
	code := m.Run()
	if kgBin.dir != "" {
		os.RemoveAll(kgBin.dir)
	}
	os.Exit(code)
}

// kgBin is kg built once, without the race detector, for the tests that
// run it as a process of its own (kill it, fill its disk): as users run it,
// and ten times faster than the race-built test binary.
var kgBin struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// kgCommand returns kg with args, to run as a process of its own: the
// binary built from this package, or, if go cannot build here, the test
// binary acting as kg (KG_BE_MAIN).
// killAfter runs kg with args, sends it SIGKILL after delay, and reports
// whether the kill landed (false: it had ended by then).
func killAfter(t *testing.T, delay time.Duration, args ...string) bool {
	t.Helper()
	cmd := kgCommand(t, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(delay)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled()
}

func kgCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	kgBin.once.Do(func() {
		if kgBin.dir, kgBin.err = os.MkdirTemp("", "kg-bin-"); kgBin.err != nil {
			return
		}
		kgBin.path = filepath.Join(kgBin.dir, "kg")
		out, err := exec.Command("go", "build", "-o", kgBin.path, ".").CombinedOutput()
		if err != nil {
			kgBin.err = fmt.Errorf("go build: %v %s", err, out)
		}
	})
	if kgBin.err == nil {
		return exec.Command(kgBin.path, args...)
	}
	t.Logf("running the test binary as kg (%v)", kgBin.err)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), "KG_BE_MAIN=1")
	return cmd
}

const arxivFile = "../../../shared/data/arxiv/arxiv-cs-2025-03_2026-02.jsonl.gz"

// crashInput writes the first n records of the real arXiv file (skips
// without ../shared).
func crashInput(t *testing.T, n int) string {
	t.Helper()
	return arxivSlice(t, 0, n)
}

// runBin runs kg as a process of its own (kgCommand) and returns its exit
// status and output.
func runBin(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := kgCommand(t, args...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("kg %v: %v", args, err)
	}
	return code, out.String(), errb.String()
}

// digestOf is the digest kg stats --digest prints for a store (in a
// process of its own).
func digestOf(t *testing.T, dir string) string {
	t.Helper()
	code, out, errs := runBin(t, "stats", "--data", dir, "--digest")
	var st struct{ Digest string }
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil || st.Digest == "" {
		t.Fatalf("kg stats --digest %s: exit %d %v: %s", dir, code, err, errs)
	}
	return st.Digest
}

// Killing kg ingest with SIGKILL at random points, then running the same
// ingest again, leaves the graph one clean ingest makes (same digest),
// every time: the first ingest into an empty store, which is a bulk load
// (store/bulk.go), written at its end or in a flush after every batch
// (--bulk-mb 1: kills land in flushes and in the merges of their
// levels), and the same written transactionally. A store killed in a
// bulk load is refused by read-only commands, which name its marker and
// the command that starts it over; one killed writing transactionally
// opens with each of them. The kill points are drawn at random over the
// clean run's length (the seed is logged).
func TestIngestSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	input := crashInput(t, 1000)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 0))
	t.Logf("kill points drawn with seed %d", seed)
	var want string
	for _, mode := range []struct {
		name string
		args []string
	}{
		{"bulk", nil},
		{"bulk, a flush a batch", []string{"--bulk-mb", "1"}},
		{"transactional", []string{"--bulk-mb", "-1"}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			ingest := func(dir string) []string {
				return append(append([]string{"ingest", "--data", dir}, mode.args...), input)
			}
			clean := filepath.Join(t.TempDir(), "clean")
			start := time.Now()
			if code, _, errs := runBin(t, ingest(clean)...); code != 0 {
				t.Fatalf("clean ingest: %s", errs)
			}
			took := time.Since(start)
			if got := digestOf(t, clean); want == "" {
				want = got
			} else if got != want {
				t.Fatalf("a clean ingest gives digest %s, the bulk load's %s", got, want)
			}
			killed := 0
			for round := 0; round < 2; round++ {
				delay := time.Duration(rng.Int64N(int64(took)))
				crashed := filepath.Join(t.TempDir(), "crashed")
				if !killAfter(t, delay, ingest(crashed)...) {
					t.Logf("kill at %v: the ingest had ended", delay)
					continue
				}
				killed++
				if _, err := os.Stat(filepath.Join(crashed, store.BulkMarker)); err == nil {
					code, _, errs := runBin(t, "stats", "--data", crashed)
					if code == 0 || !strings.Contains(errs, "unfinished first ingest") || !strings.Contains(errs, store.BulkMarker) ||
						!strings.Contains(errs, "kg ingest again") {
						t.Errorf("kill at %v: kg stats on the unfinished load: exit %d: %s", delay, code, errs)
					}
				} else if _, err := os.Stat(crashed); err == nil {
					readOnlyCommandsWork(t, crashed, fmt.Sprintf("after kill -9 at %v", delay))
				}
				code, out, errs := runBin(t, ingest(crashed)...)
				if code != 0 {
					t.Fatalf("kill at %v: ingest again: exit %d: %s", delay, code, errs)
				}
				t.Logf("kill at %v; the second run: %s", delay, strings.TrimSpace(out))
				if got := digestOf(t, crashed); got != want {
					t.Errorf("kill at %v: the graph after the re-run differs from a clean ingest (digest %s, clean %s)", delay, got, want)
				}
			}
			if killed == 0 {
				t.Logf("no kill landed before its ingest ended (clean run %v)", took)
			}
		})
	}
}

// Hostile lines in a real file: a 100 MB line, truncated JSON, binary
// garbage. Each is reported with its file and line and skipped whole; the
// good records around them land; memory stays bounded by the line limit.
func TestIngestSkipsHostileLines(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	in := filepath.Join(t.TempDir(), "hostile.jsonl")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	good := func(id, title string) {
		f.WriteString(`{"id": "` + id + `", "title": "` + title + `", "authors": "Ann Lee and Bo Chen", "categories": "cs.LG", "abstract": "We study reward models for reinforcement learning."}` + "\n")
	}
	good("2503.00001", "A good paper before")
	f.WriteString(`{"id": "2503.00002", "title": "Huge", "abstract": "`)
	chunk := []byte(strings.Repeat("x", 1<<20))
	for i := 0; i < 100; i++ {
		f.Write(chunk)
	}
	f.WriteString("\"}\n")
	f.WriteString(`{"id": "2503.00003", "title": "Truncated", "authors": "Ann` + "\n")
	f.WriteString("\x00\x01\x02\xff\xfe binary garbage \x1b[31m\n")
	good("2503.00005", "A good paper after")
	f.Close()

	data := filepath.Join(t.TempDir(), "kg-data")
	code, out, _ := runKG(t, "ingest", "--data", data, in)
	if code != 1 {
		t.Errorf("exit %d, want 1 (some lines failed)", code)
	}
	for _, want := range []string{"2 added", "hostile.jsonl:2: line longer than", "hostile.jsonl:3: malformed JSON", "hostile.jsonl:4: malformed JSON"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}

// readOnlyCommandsWork runs every command that opens a store read-only on
// dir (one that was not closed cleanly): each must work, and the store's
// counts must be whole.
// (A subtest, so that the read-only server it starts has stopped when it
// returns.)
func readOnlyCommandsWork(t *testing.T, dir, what string) {
	t.Helper()
	t.Run("read-only commands", func(t *testing.T) { readOnlyCommands(t, dir, what) })
}

func readOnlyCommands(t *testing.T, dir, what string) {
	code, out, errs := runBin(t, "stats", "--data", dir, "--digest")
	if code != 0 {
		t.Fatalf("%s: kg stats: exit %d: %s", what, code, errs)
	}
	var st map[string]any
	if err := json.Unmarshal([]byte(out), &st); err != nil || st["digest"] == nil {
		t.Fatalf("%s: kg stats: %v %s", what, err, out)
	}
	t.Logf("%s: %v papers stored", what, st["papers"])
	backup := filepath.Join(t.TempDir(), "kg.backup")
	if code, _, errs := runBin(t, "backup", "--data", dir, backup); code != 0 {
		t.Errorf("%s: kg backup: exit %d: %s", what, code, errs)
	}
	restored := filepath.Join(t.TempDir(), "restored")
	if code, _, errs := runBin(t, "restore", "--data", restored, backup); code != 0 {
		t.Errorf("%s: kg restore of that backup: exit %d: %s", what, code, errs)
	} else if got := digestOf(t, restored); got != st["digest"] {
		t.Errorf("%s: the backup restores to digest %s, the store has %v", what, got, st["digest"])
	}
	base := startServe(t, "--data", dir, "--read-only", "--seeds", "")
	resp, err := http.Post(base+"/graphql", "application/json", strings.NewReader(`{"query":"{ stats { papers } }"}`))
	if err != nil {
		t.Fatalf("%s: serve --read-only: %v", what, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := fmt.Sprintf(`{"papers":%v}`, st["papers"]); !strings.Contains(string(body), want) {
		t.Errorf("%s: serve --read-only answered %s, want %s", what, body, want)
	}
}

// A copy of the data folder taken with cp -a while kg serve runs (the
// first backup an operator tries) opens with every read-only command.
func TestCopyTakenWhileServing(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	seeds := t.TempDir()
	copySeeds(t, seeds)
	data := filepath.Join(t.TempDir(), "d")
	base := startServe(t, "--data", data, "--seeds", seeds)
	if resp, err := http.Get(base + "/healthz"); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	cp := filepath.Join(t.TempDir(), "copy")
	if out, err := exec.Command("cp", "-a", data, cp).CombinedOutput(); err != nil {
		t.Fatalf("cp -a: %v %s", err, out)
	}
	readOnlyCommandsWork(t, cp, "a copy taken while serving")
}

// flipBytes turns n bytes of a file around the given fraction of its
// length.
func flipBytes(t *testing.T, path string, at float64, n int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := int(float64(len(b)) * at)
	for k := 0; k < n && i+k*7 < len(b); k++ {
		b[i+k*7] ^= 0xff
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// largest returns the largest file of dir matching pattern.
func largest(t *testing.T, dir, pattern string) string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, pattern))
	best, size := "", int64(-1)
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.Size() > size {
			best, size = p, st.Size()
		}
	}
	if best == "" {
		t.Fatalf("no %s in %s", pattern, dir)
	}
	return best
}

// Bytes flipped in a table: kg verify names the file and what it holds
// (exit 1), and kg serve refuses the store instead of answering from it.
// Bytes flipped in the write-ahead log of a store that was not closed
// cleanly: kg verify names it, and opening the store says it is damaged
// instead of replaying the log up to the damage and dropping the rest.
func TestDamagedFilesAreNamed(t *testing.T) {
	seeds, data := seededStore(t)
	if code, out, errs := runKG(t, "verify", "--data", data); code != 0 || !strings.Contains(out, "no damage found") {
		t.Fatalf("verify of a sound store: exit %d\n%s%s", code, out, errs)
	}

	flipped := filepath.Join(t.TempDir(), "flipped")
	if out, err := exec.Command("cp", "-a", data, flipped).CombinedOutput(); err != nil {
		t.Fatalf("cp -a: %v %s", err, out)
	}
	sst := largest(t, flipped, "*.sst")
	flipBytes(t, sst, 0.3, 20)
	code, out, errs := runKG(t, "verify", "--data", flipped)
	if code != 1 || !strings.Contains(out, "DAMAGED "+filepath.Base(sst)+" (") || !strings.Contains(errs, "restore it from a kg backup") {
		t.Errorf("verify of a flipped table: exit %d\n%s%s", code, out, errs)
	}
	code, _, errs = runKG(t, "serve", "--data", flipped, "--read-only", "--addr", "127.0.0.1:0", "--seeds", "")
	if code != 1 || !strings.Contains(errs, "is damaged") || !strings.Contains(errs, filepath.Base(sst)) {
		t.Errorf("serve of a damaged store: exit %d: %s", code, errs)
	}

	// a copy of a serving store has its recent writes in a write-ahead log
	live := filepath.Join(t.TempDir(), "live")
	base := startServe(t, "--data", live, "--seeds", seeds)
	if resp, err := http.Get(base + "/healthz"); err == nil {
		resp.Body.Close()
	}
	cp := filepath.Join(t.TempDir(), "copy")
	if out, err := exec.Command("cp", "-a", live, cp).CombinedOutput(); err != nil {
		t.Fatalf("cp -a: %v %s", err, out)
	}
	wal := largest(t, cp, "*.mem")
	b, _ := os.ReadFile(wal)
	end := len(b)
	for end > 0 && b[end-1] == 0 {
		end--
	}
	flipBytes(t, wal, float64(end)/float64(len(b))/2, 4) // halfway through what it holds
	code, out, errs = runKG(t, "verify", "--data", cp)
	if code != 1 || !strings.Contains(out, "DAMAGED "+filepath.Base(wal)+" (write-ahead log") {
		t.Errorf("verify of a flipped log: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := runKG(t, "stats", "--data", cp); code != 1 || !strings.Contains(errs, "is damaged") {
		t.Errorf("stats of a store whose log is damaged: exit %d: %s", code, errs)
	}
}

// A table damaged while kg serve runs is found by its periodic check, and
// from then on every request gets INTERNAL naming the damage, never an
// answer read from the damaged store; /healthz says 503.
func TestServeStopsAnsweringFromADamagedStore(t *testing.T) {
	_, data := seededStore(t)
	base := startServe(t, "--data", data, "--read-only", "--seeds", "", "--verify-every", "100ms")
	query := func() string {
		resp, err := http.Post(base+"/graphql", "application/json", strings.NewReader(`{"query":"{ stats { papers } }"}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if got := query(); !strings.Contains(got, `"papers":18`) {
		t.Fatalf("before the damage: %s", got)
	}
	sst := largest(t, data, "*.sst")
	f, err := os.OpenFile(sst, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := f.Stat()
	junk := []byte(strings.Repeat("\xff", 20))
	if _, err := f.WriteAt(junk, st.Size()*3/10); err != nil {
		t.Fatal(err)
	}
	f.Close()
	deadline := time.Now().Add(10 * time.Second)
	var got string
	for time.Now().Before(deadline) {
		if got = query(); strings.Contains(got, "INTERNAL") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(got, "INTERNAL") || !strings.Contains(got, "is damaged") || !strings.Contains(got, filepath.Base(sst)) {
		t.Fatalf("after the damage: %s", got)
	}
	resp, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/healthz of a damaged store: %d", resp.StatusCode)
	}
}

// A store that was not closed cleanly, on a read-only filesystem: its log
// cannot be replayed there, and the read-only commands say so in one line,
// with what to run, instead of Badger's "Log truncate required".
func TestCrashedStoreOnReadOnlyMedia(t *testing.T) {
	seeds := t.TempDir()
	copySeeds(t, seeds)
	live := filepath.Join(t.TempDir(), "live")
	base := startServe(t, "--data", live, "--seeds", seeds)
	if resp, err := http.Get(base + "/healthz"); err == nil {
		resp.Body.Close()
	}
	ro := mountTmpfs(t, 64)
	cp := filepath.Join(ro, "copy")
	if out, err := exec.Command("cp", "-a", live, cp).CombinedOutput(); err != nil {
		t.Fatalf("cp -a: %v %s", err, out)
	}
	if out, err := exec.Command("mount", "-o", "remount,ro", ro).CombinedOutput(); err != nil {
		t.Skipf("remount read-only: %v %s", err, out)
	}
	// in a process of its own: Badger keeps files of a failed open mapped,
	// which would keep the filesystem busy
	cmd := kgCommand(t, "stats", "--data", cp)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	code, errs := 0, stderr.String()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 1 || !strings.Contains(errs, "was not closed cleanly") || !strings.Contains(errs, "copy the folder somewhere writable") ||
		strings.Contains(errs, "Log truncate required") || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
		t.Errorf("kg stats of a crashed store on read-only media: exit %d: %s", code, errs)
	}
}
