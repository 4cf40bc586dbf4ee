package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"
	"github.com/rs/zerolog"
)

func checksum(t *testing.T, dir string) uint64 {
	t.Helper()
	db, err := openStore(dir, true, false, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, db)
	sum, err := db.Checksum()
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// A backup restores to the same store, byte for byte; the restored store
// takes new documents without reusing ids; restore refuses a used folder
// and a file that is no backup.
func TestBackupRestore(t *testing.T) {
	_, data := seededStore(t)
	file := filepath.Join(t.TempDir(), "kg.backup")
	if code, _, errs := runKG(t, "backup", "--data", data, file); code != 0 {
		t.Fatalf("backup: %s", errs)
	}
	restored := filepath.Join(t.TempDir(), "b")
	if code, _, errs := runKG(t, "restore", "--data", restored, file); code != 0 {
		t.Fatalf("restore: %s", errs)
	}
	if checksum(t, data) != checksum(t, restored) {
		t.Fatal("restored store differs from the original")
	}
	// through a pipe: kg backup --data A - | kg restore --data B -
	code, stream, errs := runKG(t, "backup", "--data", data, "-")
	if code != 0 || len(stream) == 0 {
		t.Fatalf("backup to stdout: %d, %d bytes: %s", code, len(stream), errs)
	}
	piped := filepath.Join(t.TempDir(), "p")
	if code, _, errs := runKGWithInput(t, strings.NewReader(stream), "restore", "--data", piped, "-"); code != 0 {
		t.Fatalf("restore from stdin: %s", errs)
	}
	if checksum(t, data) != checksum(t, piped) {
		t.Fatal("store restored from stdin differs from the original")
	}
	// new ids continue after the restored ones: a new paper gets a node of
	// its own (a reused id would overwrite a stored node and the count
	// would not grow by one)
	extra := filepath.Join(t.TempDir(), "new.txt")
	os.WriteFile(extra, []byte("Zed Author\nPublications\nA paper only the restored store has\nIts abstract.\n"), 0o644)
	if code, _, errs := runKG(t, "ingest", "--data", restored, extra); code != 0 {
		t.Fatalf("ingest into restored: %s", errs)
	}
	_, out, _ := runKG(t, "stats", "--data", restored)
	if !strings.Contains(out, `"papers": 19`) || !strings.Contains(out, `"authors": 3`) {
		t.Errorf("restored store after one more paper: %s", out)
	}

	if code, _, errs := runKG(t, "restore", "--data", restored, file); code == 0 || !strings.Contains(errs, "not empty") {
		t.Errorf("restore into a used folder: %d %s", code, errs)
	}
	junk := filepath.Join(t.TempDir(), "junk")
	os.WriteFile(junk, []byte("this is not a backup"), 0o644)
	if code, _, errs := runKG(t, "restore", "--data", filepath.Join(t.TempDir(), "c"), junk); code == 0 {
		t.Errorf("restore of junk succeeded: %s", errs)
	}
}

// mustClose closes a store and fails the test on its error, which carries
// the last background commit's.
func mustClose(tb testing.TB, db interface{ Close() error }) {
	tb.Helper()
	if err := db.Close(); err != nil {
		tb.Errorf("close the store: %v", err)
	}
}

// A store killed as it was being created holds no key, not even its
// layout version; its backup restores to an empty store (it was refused
// as "no kg store", found by the SIGKILL test's random kill points).
func TestRestoreEmptyStore(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty")
	bdb, err := badger.Open(badger.DefaultOptions(empty).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	if err := bdb.Close(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "kg.backup")
	if code, _, errs := runKG(t, "backup", "--data", empty, file); code != 0 {
		t.Fatalf("backup of an empty store: %s", errs)
	}
	restored := filepath.Join(t.TempDir(), "r")
	if code, _, errs := runKG(t, "restore", "--data", restored, file); code != 0 {
		t.Fatalf("restore of an empty store's backup: %s", errs)
	}
	if code, out, errs := runKG(t, "stats", "--data", restored); code != 0 || !strings.Contains(out, `"papers": 0`) {
		t.Errorf("stats of the restored empty store: exit %d: %s %s", code, out, errs)
	}
}
