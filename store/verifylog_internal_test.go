package store

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
)

// A kill -9 inside the copy of an entry into the write-ahead log's mapped
// memory can leave the entry's tail written and a part before it not (Go's
// memmove stores a long copy's head and last bytes after its middle).
// Such a log is a write a crash cut short, not damage: Verify passes it and
// the store opens with every commit before it. A byte changed in an entry
// with entries after it is damage, named.
func TestTornLogEntryIsNoDamage(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(DefaultOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	const commits = 8
	for i := range commits {
		if err := db.Update(ctx, func(tx graph.Tx) error {
			id, err := tx.NewID(graph.KindPaper)
			if err != nil {
				return err
			}
			if _, err := tx.AddCounter("papers", 1); err != nil {
				return err
			}
			// an abstract of a few kB: the entry is copied by memmove's long path
			return tx.PutNode(graph.Node{ID: id, Label: "Paper " + strings.Repeat("word ", 800+i)})
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Sync(); err != nil {
		t.Fatal(err)
	}
	// a copy taken while the store is open: a log longer than its entries
	copyOf := func(t *testing.T) (string, string) {
		cp := filepath.Join(t.TempDir(), "copy")
		if out, err := exec.Command("cp", "-a", dir, cp).CombinedOutput(); err != nil {
			t.Fatalf("cp -a: %v %s", err, out)
		}
		logs, _ := filepath.Glob(filepath.Join(cp, "*.mem"))
		if len(logs) != 1 {
			t.Fatalf("write-ahead logs %v, want one", logs)
		}
		return cp, logs[0]
	}
	// the entries of a log: where each begins and how long it is
	entries := func(t *testing.T, path string) (offs, lens []int64) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		st, _ := f.Stat()
		r := bufio.NewReader(io.NewSectionReader(f, 20, st.Size()-20))
		off := int64(20)
		for {
			n, ok, _ := logEntry(r)
			if !ok {
				return offs, lens
			}
			offs, lens = append(offs, off), append(lens, n)
			off += n
		}
	}
	patch := func(t *testing.T, path string, at int64, b []byte) {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt(b, at); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	papers := func(t *testing.T, cp string) int64 {
		ro, err := Open(DefaultOptions(cp).WithReadOnly(true))
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		defer ro.Close()
		r, err := ro.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		n, err := r.Counter("papers")
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	t.Run("torn last entry", func(t *testing.T) {
		cp, log := copyOf(t)
		offs, lens := entries(t, log)
		if len(offs) < commits {
			t.Fatalf("%d entries in the log, want at least %d", len(offs), commits)
		}
		// the last entry written (a transaction's end): its middle lost,
		// its head and its checksum written
		last := len(offs) - 1
		if lens[last] < 16 {
			t.Fatalf("the last entry is %d bytes", lens[last])
		}
		patch(t, log, offs[last]+8, make([]byte, lens[last]-12))
		rep, err := Verify(cp, nil)
		if err != nil || len(rep.Damaged) > 0 {
			t.Fatalf("a torn last write reported: %+v %v", rep.Damaged, err)
		}
		if n := papers(t, cp); n != commits-1 {
			t.Errorf("papers counter %d after the torn write, want %d (the transactions before it)", n, commits-1)
		}
	})

	t.Run("damaged entry with entries after it", func(t *testing.T) {
		cp, log := copyOf(t)
		offs, lens := entries(t, log)
		patch(t, log, offs[1]+lens[1]/2, []byte("XYZ"))
		rep, err := Verify(cp, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Damaged) != 1 || !strings.Contains(rep.Damaged[0].What, "does not match its checksum, and data follows") {
			t.Fatalf("damage in the log's second entry: %+v, want it named", rep.Damaged)
		}
		if _, err := Open(DefaultOptions(cp).WithReadOnly(true)); err == nil || !strings.Contains(err.Error(), "damaged") {
			t.Errorf("open of a damaged log: %v, want it refused as damaged", err)
		}
	})
}
