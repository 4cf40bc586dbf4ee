package store_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/store"
)

// copyDir copies a store folder as cp -a does, while the store may be
// open.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", from, to).CombinedOutput(); err != nil {
		t.Fatalf("cp -a: %v %s", err, out)
	}
}

// A copy of a store taken while a process writes to it (the first backup
// an operator tries) is a store that was not closed cleanly: its log is
// longer than its last entry. It opens read-only, with every committed
// write, and so does the folder again afterwards.
func TestCopyTakenWhileOpenOpensReadOnly(t *testing.T) {
	dir := t.TempDir()
	db := mustOpenWith(t, store.DefaultOptions(dir))
	ctx := context.Background()
	var ids []graph.NodeID
	for i := range 50 {
		if err := db.Update(ctx, func(tx graph.Tx) error {
			id, err := tx.NewID(graph.KindPaper)
			ids = append(ids, id)
			if err != nil {
				return err
			}
			if _, err := tx.AddCounter("papers", 1); err != nil {
				return err
			}
			return tx.PutNode(graph.Node{ID: id, Label: "Paper " + strings.Repeat("x", i), Year: 2000 + i})
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Sync(); err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(t.TempDir(), "copy")
	copyDir(t, dir, cp)

	// the live folder, read-only, while the writer holds it: refused, saying why
	if _, err := store.Open(store.DefaultOptions(dir).WithReadOnly(true)); err == nil || !strings.Contains(err.Error(), "another kg process") {
		t.Errorf("read-only open of a held store: %v, want an error naming another kg process", err)
	}

	for round := range 2 { // the second open finds the log replayed
		ro, err := store.Open(store.DefaultOptions(cp).WithReadOnly(true))
		if err != nil {
			t.Fatalf("open the copy read-only (round %d): %v", round, err)
		}
		r, err := ro.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := r.Counter("papers"); err != nil || n != 50 {
			t.Errorf("round %d: papers counter %d (%v), want 50", round, n, err)
		}
		for i, id := range ids {
			if n, err := r.Node(id); err != nil || n.Year != 2000+i {
				t.Fatalf("round %d: node %d: %+v %v", round, i, n, err)
			}
		}
		r.Close()
		if err := ro.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// Below the disk reserve a write is refused with DISK_FULL before it
// starts, saying how much is free where; reads go on, and the write works
// once there is room.
func TestWritesRefusedWhenTheDiskIsNearlyFull(t *testing.T) {
	dir := t.TempDir()
	full := mustOpenWith(t, store.DefaultOptions(dir).WithReserveMB(1<<40)) // a reserve no disk has
	ctx := context.Background()
	sp, err := full.DiskSpace()
	if err != nil || !sp.Short() || sp.Dir != dir {
		t.Fatalf("DiskSpace %+v, %v: want short, in %s", sp, err, dir)
	}
	err = full.Update(ctx, func(tx graph.Tx) error {
		t.Error("the transaction ran on a full disk")
		return nil
	})
	if graph.ErrorCode(err) != graph.DiskFull || !errors.Is(err, store.ErrDiskFull) ||
		!strings.Contains(err.Error(), "disk nearly full: ") || !strings.Contains(err.Error(), "MB free in "+dir) {
		t.Fatalf("write on a full disk: %v (code %s)", err, graph.ErrorCode(err))
	}
	r, err := full.Read(ctx)
	if err != nil {
		t.Fatalf("read on a full disk: %v", err)
	}
	r.Close()
	if err := full.Close(); err != nil {
		t.Fatal(err)
	}
	db := mustOpenWith(t, store.DefaultOptions(dir))
	if err := db.Update(ctx, func(tx graph.Tx) error { _, err := tx.AddCounter("x", 1); return err }); err != nil {
		t.Fatalf("write with room: %v", err)
	}
	if sp, err := db.DiskSpace(); err != nil || sp.Short() || sp.Need < 192<<20 {
		t.Errorf("DiskSpace with room: %+v %v (the reserve covers Badger's memtables and a compaction)", sp, err)
	}
}

// Verify reads damaged files as hostile input: whatever a log or a table
// holds, it reports (or not) without a panic, and a log of only zeros
// after its header is sound.
func FuzzVerify(f *testing.F) {
	f.Add([]byte{}, false)
	f.Add(make([]byte, 64), false)
	f.Add(append(make([]byte, 20), 0, 0, 3, 1, 0, 'k', 'v', 0, 0, 0, 0, 9, 9), false)
	f.Add([]byte("not a table at all"), true)
	f.Fuzz(func(t *testing.T, data []byte, table bool) {
		dir := t.TempDir()
		name := "000001.mem"
		if table {
			name = "000001.sst"
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		rep, err := store.Verify(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !table && len(data) >= 20 && strings.Trim(string(data[20:]), "\x00") == "" && len(rep.Damaged) > 0 {
			t.Errorf("a log of zeros reported damaged: %v", rep.Damaged)
		}
		for _, d := range rep.Damaged {
			if d.File != name || d.What == "" {
				t.Errorf("damage without a file or a reason: %+v", d)
			}
		}
	})
}
