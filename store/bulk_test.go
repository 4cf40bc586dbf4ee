package store_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/store"
)

// workload writes a seeded mix of everything a Tx writes, in 60
// transactions whose later writes depend on what they read: nodes,
// edges made and deleted, counters up and down to zero, terms and values
// set and deleted, pairs, list entries. A store that answers one read
// wrongly ends with other keys.
func workload(t *testing.T, db *store.DB, seed uint64) {
	t.Helper()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(seed, 1))
	var nodes []graph.NodeID
	for round := range 60 {
		err := db.Update(ctx, func(tx graph.Tx) error {
			for range 3 {
				id, err := tx.NewID(graph.Kind(1 + r.IntN(3)))
				if err != nil {
					return err
				}
				if err := tx.PutNode(graph.Node{ID: id, Label: fmt.Sprintf("node %d", len(nodes))}); err != nil {
					return err
				}
				nodes = append(nodes, id)
			}
			for range 12 {
				a, b := nodes[r.IntN(len(nodes))], nodes[r.IntN(len(nodes))]
				et := graph.EdgeType(1 + r.IntN(3))
				switch r.IntN(6) {
				case 0, 1, 2:
					created, err := tx.PutEdge(a, et, b, float64(r.IntN(4)))
					if err != nil {
						return err
					}
					if created {
						if _, err := tx.AddCounter(fmt.Sprintf("deg/%d", b), 1); err != nil {
							return err
						}
						if err := tx.PutListEntry(b, et, []byte(fmt.Sprintf("%05d", a))); err != nil {
							return err
						}
					}
				case 3:
					existed, err := tx.DeleteEdge(a, et, b)
					if err != nil {
						return err
					}
					if existed {
						if _, err := tx.AddCounter(fmt.Sprintf("deg/%d", b), -1); err != nil {
							return err
						}
						if err := tx.DeleteListEntry(b, et, []byte(fmt.Sprintf("%05d", a))); err != nil {
							return err
						}
					}
				case 4:
					// what the graph does with what it reads: a term per edge it finds
					n := 0
					if err := tx.Edges(a, et, graph.Out, func(graph.NodeID, float64) bool { n++; return true }); err != nil {
						return err
					}
					term := fmt.Sprintf("t%d", r.IntN(50))
					if n%2 == 0 {
						if err := tx.PutTerm(graph.IdxSearch, term, a); err != nil {
							return err
						}
					} else if err := tx.DeleteTerm(graph.IdxSearch, term, a); err != nil {
						return err
					}
				case 5:
					if _, err := tx.AddPair(graph.CoAuthor, a, b, int64(r.IntN(3)-1)); err != nil {
						return err
					}
				}
			}
			// nodes and lookups rewritten from what they held: a read that
			// found an earlier flush's value after a later flush wrote a newer
			// one (a bulk load's readBack) ends with other labels
			for range 2 {
				n, err := tx.Node(nodes[r.IntN(len(nodes))])
				if err != nil {
					return err
				}
				n.Label += "'"
				if err := tx.PutNode(n); err != nil {
					return err
				}
			}
			lk := fmt.Sprintf("k%d", r.IntN(20))
			to := nodes[r.IntN(len(nodes))]
			if id, err := tx.Lookup(graph.IdxSearch, lk); err == nil {
				to = nodes[(slices.Index(nodes, id)+1)%len(nodes)]
			} else if !errors.Is(err, graph.ErrNotFound) {
				return err
			}
			if err := tx.PutLookup(graph.IdxSearch, lk, to); err != nil {
				return err
			}
			key := fmt.Sprintf("v%d", r.IntN(30))
			if r.IntN(3) == 0 {
				return tx.DeleteValue(graph.ValProfile, key)
			}
			var old []byte
			if v, err := tx.Value(graph.ValProfile, key); err == nil {
				old = v
			} else if !errors.Is(err, graph.ErrNotFound) {
				return err
			}
			return tx.PutValue(graph.ValProfile, key, append(old[:len(old):len(old)], byte(round)))
		})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
}

// storeSum opens a closed store and returns its checksum (every key and
// value but metadata) and the next id it gives.
func storeSum(t *testing.T, dir string) (uint64, graph.NodeID) {
	t.Helper()
	db, err := store.Open(store.DefaultOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sum, err := db.Checksum()
	if err != nil {
		t.Fatal(err)
	}
	var next graph.NodeID
	if err := db.Update(context.Background(), func(tx graph.Tx) error {
		next, err = tx.NewID(graph.KindPaper)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return sum, next
}

// A bulk load leaves the store a transactional run leaves, key for key,
// ids included: written once at the end, and written in many flushes (a
// budget so small that every commit flushes, so that later commits read
// through to Badger and delete what earlier flushes wrote; or the heap
// near the memory limit at every commit).
func TestBulkEqualsTransactional(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		dirs := map[string]string{}
		for _, mode := range []string{"transactional", "bulk", "bulk, a flush a commit", "bulk, pressed for memory"} {
			dir := filepath.Join(t.TempDir(), "d")
			db, err := store.Open(store.DefaultOptions(dir))
			if err != nil {
				t.Fatal(err)
			}
			if mode != "transactional" {
				if err := db.BeginBulk(0); err != nil {
					t.Fatal(err)
				}
				if strings.Contains(mode, "flush") {
					store.SetBulkBudgetBytes(db, 1) // every commit passes it
				}
			}
			restore := func() {}
			if strings.Contains(mode, "pressed") {
				restore = store.PressEveryCommit()
			}
			workload(t, db, seed)
			if mode != "transactional" {
				if flushes := store.BulkFlushes(db); (mode == "bulk") != (flushes == 0) || mode != "bulk" && flushes < 60 {
					t.Fatalf("%s: %d flushes in 60 commits", mode, flushes)
				}
			}
			restore()
			if err := db.EndBulk(); err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			dirs[mode] = dir
		}
		wantSum, wantNext := storeSum(t, dirs["transactional"])
		for mode, dir := range dirs {
			if mode == "transactional" {
				continue
			}
			if sum, next := storeSum(t, dir); sum != wantSum || next != wantNext {
				t.Errorf("seed %d, %s: checksum %x and next id %v; transactional %x and %v", seed, mode, sum, next, wantSum, wantNext)
			}
		}
	}
}

// While a bulk load runs, the store's folder holds its marker; a store
// left with it (the process killed) is refused by every Open but the one
// that starts the load over, which drops what the killed load left.
// The heap is pressed only under a soft memory limit it nears.
func TestHeapPressed(t *testing.T) {
	old := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(old)
	if store.HeapPressed() {
		t.Error("pressed without a memory limit")
	}
	debug.SetMemoryLimit(1 << 40)
	if store.HeapPressed() {
		t.Error("pressed under a limit of 1 TiB")
	}
	runtime.GC() // the live heap is known from the first collection on
	debug.SetMemoryLimit(1)
	pressed := store.HeapPressed()
	debug.SetMemoryLimit(old)
	if !pressed {
		t.Error("not pressed under a limit of one byte")
	}
}

// A tier is flushed for pressure only when it is worth a flush and a
// collection has run wholly since the last flush (before, the live heap
// still counts the tier written).
func TestFlushForPressure(t *testing.T) {
	yes, no := func() bool { return true }, func() bool { return false }
	for _, c := range []struct {
		size, budget    int64
		cycles, atFlush uint64
		pressed         func() bool
		want            bool
	}{
		{200, 800, 12, 10, yes, true},
		{200, 800, 12, 10, no, false},
		{100, 800, 12, 10, yes, false}, // an eighth of the budget: not worth it
		{200, 800, 11, 10, yes, false}, // one collection since: it may have begun before
		{200, 800, 10, 10, yes, false},
	} {
		if got := store.FlushForPressure(c.size, c.budget, c.cycles, c.atFlush, c.pressed); got != c.want {
			t.Errorf("size %d of %d, %d collections after %d: %v, want %v", c.size, c.budget, c.cycles, c.atFlush, got, c.want)
		}
	}
}

func TestBulkMarker(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "d")
	db, err := store.Open(store.DefaultOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.BeginBulk(0); err != nil {
		t.Fatal(err)
	}
	store.SetBulkBudgetBytes(db, 1)
	workload(t, db, 4) // flushes as it goes: Badger holds a part of it
	if _, err := os.Stat(filepath.Join(dir, store.BulkMarker)); err != nil {
		t.Fatalf("no marker while the load runs: %v", err)
	}
	db.Close() // as a kill: the load never ends

	for _, opts := range []store.Options{store.DefaultOptions(dir), store.DefaultOptions(dir).WithReadOnly(true)} {
		_, err := store.Open(opts)
		if graph.ErrorCode(err) != graph.Conflict || !errors.Is(err, store.ErrBulkInterrupted) ||
			!strings.Contains(err.Error(), store.BulkMarker) || !strings.Contains(err.Error(), "kg ingest again") {
			t.Errorf("open (read-only %v) of an unfinished load: %v; want CONFLICT naming the marker and the command", opts.ReadOnly, err)
		}
	}

	db, err = store.Open(store.DefaultOptions(dir).WithBulkRestart(true))
	if err != nil {
		t.Fatal(err)
	}
	if !db.Interrupted() {
		t.Fatal("Interrupted() is false on a store with the marker")
	}
	if err := db.BeginBulk(0); err != nil {
		t.Fatal(err)
	}
	workload(t, db, 5)
	if err := db.EndBulk(); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := os.Stat(filepath.Join(dir, store.BulkMarker)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the marker is still there after the load ended: %v", err)
	}

	clean := filepath.Join(t.TempDir(), "clean")
	cdb, err := store.Open(store.DefaultOptions(clean))
	if err != nil {
		t.Fatal(err)
	}
	workload(t, cdb, 5)
	cdb.Close()
	gotSum, gotNext := storeSum(t, dir)
	wantSum, wantNext := storeSum(t, clean)
	if gotSum != wantSum || gotNext != wantNext {
		t.Errorf("the load started over: checksum %x next %v; a clean run: %x %v", gotSum, gotNext, wantSum, wantNext)
	}
}

// A bulk load needs an empty store on disk, and begins before any write.
func TestBulkRefusals(t *testing.T) {
	if err := MustOpen(t).BeginBulk(0); graph.ErrorCode(err) != graph.Invalid {
		t.Errorf("in memory: %v, want INVALID", err)
	}
	dir := filepath.Join(t.TempDir(), "d")
	db := mustOpenWith(t, store.DefaultOptions(dir))
	workload(t, db, 6)
	if err := db.BeginBulk(0); graph.ErrorCode(err) != graph.Invalid {
		t.Errorf("on a store with a graph: %v, want INVALID", err)
	}
	if holds, err := db.HoldsGraph(); err != nil || !holds {
		t.Errorf("HoldsGraph: %v %v, want true", holds, err)
	}
}
