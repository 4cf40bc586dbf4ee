package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/store"
)

func MustOpen(tb testing.TB) *store.DB {
	tb.Helper()
	return mustOpenWith(tb, store.DefaultOptions("").WithInMemory(true))
}

// mustOpenWith opens a store with opts, closed when the test ends.
func mustOpenWith(tb testing.TB, opts store.Options) *store.DB {
	tb.Helper()
	db, err := store.Open(opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { closeStore(tb, db) })
	return db
}

func TestEdgesBothDirections(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	var a, p1, p2 graph.NodeID
	err := db.Update(ctx, func(tx graph.Tx) error {
		var err error
		a, _ = tx.NewID(graph.KindAuthor)
		p1, _ = tx.NewID(graph.KindPaper)
		p2, err = tx.NewID(graph.KindPaper)
		if err != nil {
			return err
		}
		for _, p := range []graph.NodeID{p1, p2} {
			created, err := tx.PutEdge(a, graph.Authored, p, 1.5)
			if err != nil || !created {
				t.Errorf("PutEdge: created=%v err=%v", created, err)
			}
		}
		again, err := tx.PutEdge(a, graph.Authored, p1, 1.5)
		if again || err != nil {
			t.Errorf("second PutEdge reported created=%v err=%v", again, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := db.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []graph.NodeID
	r.Edges(a, graph.Authored, graph.Out, func(o graph.NodeID, w float64) bool {
		if w != 1.5 {
			t.Errorf("weight %v", w)
		}
		out = append(out, o)
		return true
	})
	var in []graph.NodeID
	r.Edges(p2, graph.Authored, graph.In, func(o graph.NodeID, _ float64) bool { in = append(in, o); return true })
	if len(out) != 2 || out[0] != p1 || len(in) != 1 || in[0] != a {
		t.Errorf("out %v in %v", out, in)
	}
}

// SetEdge writes what PutEdge writes, both directions and the weight,
// without reading: an edge set and then put again with the same weight is
// no new edge, and a changed weight is seen from both ends.
func TestSetEdgeAsPutEdge(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	var p, c graph.NodeID
	if err := db.Update(ctx, func(tx graph.Tx) error {
		p, _ = tx.NewID(graph.KindPaper)
		c, _ = tx.NewID(graph.KindConcept)
		if err := tx.SetEdge(p, graph.Mentions, c, 0.25); err != nil {
			return err
		}
		if created, err := tx.PutEdge(p, graph.Mentions, c, 0.25); err != nil || created {
			t.Errorf("PutEdge after SetEdge: created=%v err=%v", created, err)
		}
		return tx.SetEdge(p, graph.Mentions, c, 0.5)
	}); err != nil {
		t.Fatal(err)
	}
	r, err := db.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if w, ok, err := r.Edge(p, graph.Mentions, c); err != nil || !ok || w != 0.5 {
		t.Errorf("Edge: %v %v %v, want 0.5", w, ok, err)
	}
	var in []float64
	r.Edges(c, graph.Mentions, graph.In, func(o graph.NodeID, w float64) bool {
		if o == p {
			in = append(in, w)
		}
		return true
	})
	if !slices.Equal(in, []float64{0.5}) {
		t.Errorf("incoming %v, want [0.5]", in)
	}
}

func TestUpdateRollsBackOnError(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	boom := errors.New("boom")
	err := db.Update(ctx, func(tx graph.Tx) error {
		if _, err := tx.AddCounter("papers", 5); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
	r, _ := db.Read(ctx)
	defer r.Close()
	if n, _ := r.Counter("papers"); n != 0 {
		t.Errorf("counter after failed update: %d", n)
	}
}

// Concurrent read-modify-write transactions lose no increment.
func TestConcurrentCountersRetry(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 25; j++ {
				if err := db.Update(ctx, func(tx graph.Tx) error { _, err := tx.AddCounter("n", 1); return err }); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	r, _ := db.Read(ctx)
	defer r.Close()
	if n, _ := r.Counter("n"); n != 200 {
		t.Errorf("counter: got %d, want 200", n)
	}
}

func TestReopenKeepsData(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(store.DefaultOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var id graph.NodeID
	err = db.Update(ctx, func(tx graph.Tx) error {
		id, _ = tx.NewID(graph.KindPaper)
		return tx.PutNode(graph.Node{ID: id, Label: "A paper", Year: 2024})
	})
	if err != nil {
		t.Fatal(err)
	}
	// a second process (here: a second Open) is refused with a clear error
	if _, err := store.Open(store.DefaultOptions(dir)); err == nil || !strings.Contains(err.Error(), "another kg process") {
		t.Errorf("second open: got %v, want an error naming another kg process", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpenWith(t, store.DefaultOptions(dir).WithReadOnly(true))
	r, _ := db.Read(ctx)
	defer r.Close()
	n, err := r.Node(id)
	if err != nil || n.Label != "A paper" || n.Year != 2024 {
		t.Errorf("after reopen: %+v, %v", n, err)
	}
	if err := db.Update(ctx, func(graph.Tx) error { return nil }); graph.ErrorCode(err) != graph.Invalid {
		t.Errorf("update on read-only store: got %v", err)
	}
}

// Scans inside a write transaction see its own writes merged, in key order,
// over what was committed before.
func TestScanMergesPendingWrites(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	a := graph.MakeID(graph.KindAuthor, 1)
	p := func(n uint64) graph.NodeID { return graph.MakeID(graph.KindPaper, n) }
	err := db.Update(ctx, func(tx graph.Tx) error {
		for _, n := range []uint64{1, 2, 3} {
			if _, err := tx.PutEdge(a, graph.Mentions, p(n), float64(n)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(ctx, func(tx graph.Tx) error {
		if _, err := tx.DeleteEdge(a, graph.Mentions, p(2)); err != nil {
			return err
		}
		if _, err := tx.PutEdge(a, graph.Mentions, p(4), 4); err != nil {
			return err
		}
		if _, err := tx.PutEdge(a, graph.Mentions, p(1), 10); err != nil {
			return err
		}
		if _, err := tx.PutEdge(a, graph.Mentions, p(0), 0.5); err != nil {
			return err
		}
		var got []string
		if err := tx.Edges(a, graph.Mentions, graph.Out, func(o graph.NodeID, w float64) bool {
			got = append(got, fmt.Sprintf("%d:%g", o.Seq(), w))
			return true
		}); err != nil {
			return err
		}
		if want := "0:0.5 1:10 3:3 4:4"; strings.Join(got, " ") != want {
			t.Errorf("scan in transaction: got %v, want %s", got, want)
		}
		// stop early
		n := 0
		tx.Edges(a, graph.Mentions, graph.Out, func(graph.NodeID, float64) bool { n++; return n < 2 })
		if n != 2 {
			t.Errorf("early stop visited %d", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := db.Read(ctx)
	defer r.Close()
	var after []uint64
	r.Edges(a, graph.Mentions, graph.Out, func(o graph.NodeID, _ float64) bool { after = append(after, o.Seq()); return true })
	if fmt.Sprint(after) != "[0 1 3 4]" {
		t.Errorf("after commit: %v", after)
	}
}

// Transactions that read a paper's authors and add one must see each other:
// Badger alone does not detect this (it tracks keys read, not ranges
// scanned; this test fails without DB's writer lock), so Update serialises
// writers.
func TestUpdateIsSerialisable(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	paper := graph.MakeID(graph.KindPaper, 1)
	db.Update(ctx, func(tx graph.Tx) error {
		_, err := tx.PutEdge(graph.MakeID(graph.KindAuthor, 1), graph.Authored, paper, 0)
		return err
	})
	var wg sync.WaitGroup
	for i := uint64(2); i < 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := db.Update(ctx, func(tx graph.Tx) error {
				n := 0
				tx.Edges(paper, graph.Authored, graph.In, func(graph.NodeID, float64) bool { n++; return true })
				if _, err := tx.PutEdge(graph.MakeID(graph.KindAuthor, i), graph.Authored, paper, 0); err != nil {
					return err
				}
				// a value derived from what was read, under a key of its own
				_, err := tx.AddPair(graph.CoAuthor, graph.MakeID(graph.KindAuthor, i), paper, int64(n))
				return err
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	r, _ := db.Read(ctx)
	defer r.Close()
	// serialisable: the k-th transaction to commit saw k authors, so every
	// count from 1 to 8 appears once; a stale scan would repeat one
	seen := map[int64]bool{}
	for i := uint64(2); i < 10; i++ {
		n, _ := r.Pair(graph.CoAuthor, graph.MakeID(graph.KindAuthor, i), paper)
		if n < 1 || n > 8 || seen[n] {
			t.Errorf("author %d saw %d authors; counts so far %v", i, n, seen)
		}
		seen[n] = true
	}
}

// Atomic undoes exactly the writes of a failed part of a transaction: new
// keys go, overwritten and deleted keys come back, nested parts unwind in
// order, and the rest of the transaction commits.
func TestAtomicUndoesOnlyItsPart(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	a, b := graph.MakeID(graph.KindAuthor, 1), graph.MakeID(graph.KindAuthor, 2)
	if err := db.Update(ctx, func(tx graph.Tx) error {
		_, err := tx.AddCounter("kept", 1)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := db.Update(ctx, func(tx graph.Tx) error {
		if _, err := tx.AddCounter("before", 1); err != nil {
			return err
		}
		err := tx.Atomic(func() error {
			tx.AddCounter("before", 10) // overwrites a pending write
			tx.AddCounter("kept", -1)   // deletes a stored key
			tx.AddPair(graph.CoAuthor, a, b, 3)
			inner := tx.Atomic(func() error {
				tx.AddCounter("inner", 1)
				return nil
			})
			if inner != nil {
				return inner
			}
			if n, _ := tx.Counter("inner"); n != 1 {
				t.Errorf("inner write not visible inside: %d", n)
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Errorf("Atomic returned %v", err)
		}
		if n, _ := tx.Counter("before"); n != 1 {
			t.Errorf("after rollback, inside: before=%d, want 1", n)
		}
		if w, _ := tx.Pending(); w != 1 {
			t.Errorf("pending writes after rollback: %d, want 1", w)
		}
		return tx.Atomic(func() error { _, err := tx.AddCounter("after", 2); return err })
	})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := db.Read(ctx)
	defer r.Close()
	for name, want := range map[string]int64{"kept": 1, "before": 1, "after": 2, "inner": 0} {
		if n, _ := r.Counter(name); n != want {
			t.Errorf("counter %s = %d, want %d", name, n, want)
		}
	}
	if n, _ := r.Pair(graph.CoAuthor, b, a); n != 0 {
		t.Errorf("rolled-back pair = %d", n)
	}
}

// A transaction over Badger's size limit is refused whole, as Invalid.
func TestUpdateTooLarge(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	big := strings.Repeat("x", 200<<10) // 40 of them: over 15% of a 32 MB memtable
	err := db.Update(ctx, func(tx graph.Tx) error {
		for i := 0; i < 40; i++ {
			if err := tx.PutAbstracts(graph.MakeID(graph.KindPaper, uint64(i+1)), []string{big}); err != nil {
				return err
			}
		}
		return nil
	})
	if graph.ErrorCode(err) != graph.Invalid {
		t.Fatalf("got %v, want an Invalid error", err)
	}
	r, _ := db.Read(ctx)
	defer r.Close()
	if abs, _ := r.Abstracts(graph.MakeID(graph.KindPaper, 1)); abs != nil {
		t.Error("part of a refused transaction was written")
	}
}

// Keys naming an id allocated in the transaction skip the snapshot, and
// still see the transaction's own writes.
func TestFreshIDsSeeOwnWrites(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	err := db.Update(ctx, func(tx graph.Tx) error {
		a, _ := tx.NewID(graph.KindAuthor)
		p, _ := tx.NewID(graph.KindPaper)
		if created, _ := tx.PutEdge(a, graph.Authored, p, 0); !created {
			t.Error("first edge of fresh ids not created")
		}
		if created, _ := tx.PutEdge(a, graph.Authored, p, 0); created {
			t.Error("second put of the same edge created it again")
		}
		n := 0
		tx.Edges(p, graph.Authored, graph.In, func(graph.NodeID, float64) bool { n++; return true })
		if n != 1 {
			t.Errorf("scan of a fresh id's edges: %d, want 1", n)
		}
		if c, _ := tx.AddPair(graph.CoAuthor, a, p, 1); c != 1 {
			t.Errorf("pair = %d", c)
		}
		if c, _ := tx.AddPair(graph.CoAuthor, p, a, 1); c != 2 {
			t.Errorf("pair = %d, want 2", c)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A scan of counters inside a write transaction sees its own writes, new
// names among the committed ones, in name order (pending counters are kept
// sorted: graph scans document frequencies while it writes).
func TestCountersInTransaction(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	if err := db.Update(ctx, func(tx graph.Tx) error {
		_, err := tx.AddCounter("df/ab", 2)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(ctx, func(tx graph.Tx) error {
		for name, d := range map[string]int64{"df/ab": 1, "df/abc": 7, "df/aa": 1, "df/b": 4} {
			if _, err := tx.AddCounter(name, d); err != nil {
				return err
			}
		}
		var got []string
		if err := tx.Counters("df/a", func(name string, n int64) bool {
			got = append(got, fmt.Sprintf("%s=%d", name, n))
			return true
		}); err != nil {
			return err
		}
		if want := "df/aa=1 df/ab=3 df/abc=7"; strings.Join(got, " ") != want {
			t.Errorf("counters in the transaction: %v, want %s", got, want)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// closeStore closes a store and fails the test on its error, which carries
// the last background commit's.
func closeStore(tb testing.TB, db interface{ Close() error }) {
	tb.Helper()
	if err := db.Close(); err != nil {
		tb.Errorf("close the store: %v", err)
	}
}

// checksum is the store's checksum; an error fails the test (two failed
// checksums must not compare equal).
func checksum(tb testing.TB, db *store.DB) uint64 {
	tb.Helper()
	c, err := db.Checksum()
	if err != nil {
		tb.Fatalf("checksum: %v", err)
	}
	return c
}

// Opening a store that takes writes and closing it without new nodes
// writes nothing: each such open used to lease ids, and each lease left
// one more small level-0 table for every later read to merge. Ids keep
// rising across opens that do create nodes.
func TestOpenAndCloseWriteNothing(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	newNode := func() graph.NodeID {
		db, err := store.Open(store.DefaultOptions(dir))
		if err != nil {
			t.Fatal(err)
		}
		var id graph.NodeID
		if err := db.Update(ctx, func(tx graph.Tx) error {
			id, _ = tx.NewID(graph.KindPaper)
			return tx.PutNode(graph.Node{ID: id, Label: "A paper"})
		}); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		return id
	}
	first := newNode()
	files := func() []string {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range ents {
			// Badger starts a new, empty value log at each open: the tables
			// are what reads merge
			if info, err := e.Info(); err == nil && strings.HasSuffix(e.Name(), ".sst") {
				out = append(out, fmt.Sprintf("%s %d", e.Name(), info.Size()))
			}
		}
		return out
	}
	before := files()
	for range 3 {
		db, err := store.Open(store.DefaultOptions(dir))
		if err != nil {
			t.Fatal(err)
		}
		r, _ := db.Read(ctx)
		if _, err := r.Node(first); err != nil {
			t.Fatal(err)
		}
		r.Close()
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if after := files(); !slices.Equal(before, after) {
		t.Errorf("three opens and closes without new nodes changed the tables:\n%v\n%v", before, after)
	}
	if second := newNode(); second.Seq() <= first.Seq() {
		t.Errorf("id %s after %s: ids must keep rising across opens", second, first)
	}
}
