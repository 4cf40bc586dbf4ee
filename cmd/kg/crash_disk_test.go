package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mountTmpfs mounts a tmpfs of sizeMB at a new folder, unmounted when the
// test ends; it skips, saying why, where mounting is not allowed (CI runs
// as root; a developer's machine may not).
func mountTmpfs(t *testing.T, sizeMB int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "small")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%dm", sizeMB), "tmpfs", dir).CombinedOutput()
	if err != nil {
		t.Skipf("needs a small filesystem: mount -t tmpfs failed (run as root): %v %s", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir
}

// kg ingest into a filesystem too small for the input stops cleanly
// (no SIGBUS inside Badger, no goroutine dump), says how much space there
// is and what to do, and leaves a store that opens read-only; run again
// on a larger disk, it completes with the graph a clean ingest makes.
// Writing transactionally (--bulk-mb -1) it stops between documents,
// keeping those written; a first ingest, a bulk load, writes only at its
// end: it checks that its tables fit first, and leaves the store empty.
func TestIngestStopsOnAFullDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	input := crashInput(t, 3000)
	clean := filepath.Join(t.TempDir(), "clean")
	if out, err := kgCommand(t, "ingest", "--data", clean, "--log-level", "warn", input).CombinedOutput(); err != nil {
		t.Fatalf("clean ingest: %v\n%.2000s", err, out)
	}
	for _, mode := range []struct {
		name  string
		args  []string
		wants []string
	}{
		{"bulk", nil, []string{"nothing of it is stored"}},
		{"transactional", []string{"--bulk-mb", "-1"}, []string{"papers stored"}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			small := mountTmpfs(t, 208) // the reserve is ~192 MB: ~16 MB to write in
			data := filepath.Join(small, "kg-data")
			cmd := kgCommand(t, append(append([]string{"ingest", "--data", data, "--log-level", "warn"}, mode.args...), input)...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err := cmd.Run()
			msg := stderr.String()
			if strings.Contains(msg, "fatal error") || strings.Contains(msg, "goroutine ") || strings.Contains(msg, "SIGBUS") {
				t.Fatalf("ingest on a full disk crashed:\n%.2000s", msg)
			}
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Fatalf("ingest on a small disk: %v, want exit status 1 (was the input too small to fill %s?)\n%.2000s", err, small, msg)
			}
			for _, want := range append([]string{"disk nearly full", "MB free in " + data, "run the same command again"}, mode.wants...) {
				if !strings.Contains(msg, want) {
					t.Errorf("the message lacks %q:\n%.2000s", want, msg)
				}
			}
			t.Logf("on a 208 MB disk: %s", strings.TrimSpace(msg[strings.LastIndex(msg, "kg ingest:"):]))
			readOnlyCommandsWork(t, data, "after the disk filled")

			larger := filepath.Join(t.TempDir(), "larger")
			if out, err := exec.Command("cp", "-a", data, larger).CombinedOutput(); err != nil {
				t.Fatalf("cp -a: %v %s", err, out)
			}
			if out, err := kgCommand(t, append(append([]string{"ingest", "--data", larger, "--log-level", "warn"}, mode.args...), input)...).CombinedOutput(); err != nil {
				t.Fatalf("the same ingest on a larger disk: %v\n%.2000s", err, out)
			}
			if got, want := digestOf(t, larger), digestOf(t, clean); got != want {
				t.Errorf("resumed on a larger disk: digest %s; a clean ingest: %s", got, want)
			}
		})
	}

	// kg restore checks the disk too, and leaves no half-restored folder
	backup := filepath.Join(t.TempDir(), "kg.backup")
	if code, _, errs := runBin(t, "backup", "--data", clean, backup); code != 0 {
		t.Fatalf("backup: %s", errs)
	}
	into := filepath.Join(mountTmpfs(t, 208), "restored")
	code, _, errs := runBin(t, "restore", "--data", into, backup)
	if code != 1 || !strings.Contains(errs, "disk nearly full") {
		t.Errorf("restore onto the full disk: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(into); !os.IsNotExist(err) {
		t.Errorf("a refused restore left %s behind (%v)", into, err)
	}
}
