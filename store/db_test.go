package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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

// The write path's cache of committed values follows every commit, and
// forgets a failed one: many small transactions over few keys, against a
// model, with the cache far smaller than the keys (so entries are evicted
// and come back).
func TestHotCacheFollowsCommits(t *testing.T) {
	db := mustOpenWith(t, store.DefaultOptions("").WithInMemory(true).WithHotCacheMB(0))
	cached := mustOpenWith(t, store.DefaultOptions("").WithInMemory(true))
	store.SetHotCacheBytes(cached, 4<<10) // ~50 entries
	ctx := context.Background()
	want := map[string]int64{}
	boom := errors.New("boom")
	for i := 0; i < 3000; i++ {
		name := fmt.Sprintf("c%d", (i*7919)%300)
		d := int64(i%5) - 1 // some moves reach 0 and delete the key
		fail := i%11 == 0
		for _, s := range []*store.DB{db, cached} {
			err := s.Update(ctx, func(tx graph.Tx) error {
				if _, err := tx.AddCounter(name, d); err != nil {
					return err
				}
				if fail {
					return boom
				}
				return nil
			})
			if fail != (err != nil) {
				t.Fatalf("update %d: %v", i, err)
			}
		}
		if !fail {
			want[name] += d
		}
	}
	for _, s := range []*store.DB{db, cached} {
		s.Update(ctx, func(tx graph.Tx) error {
			for name, w := range want {
				if n, _ := tx.Counter(name); n != w {
					t.Errorf("%s = %d, want %d", name, n, w)
				}
			}
			return nil
		})
	}
	if checksum(t, db) != checksum(t, cached) {
		t.Error("stores with and without the cache differ")
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

// With the absent-key filter, write transactions read what they read
// without it: keys stored before the filter was built (by an earlier
// process), keys committed since, and term scans up to a word boundary.
func TestKeyFilterReadsTheSame(t *testing.T) {
	store.BuildFilterAtOnce(t)
	dir := t.TempDir()
	ctx := context.Background()
	concept := func(i int) graph.NodeID { return graph.MakeID(graph.KindConcept, uint64(i+1)) }
	db, err := store.Open(store.DefaultOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(ctx, func(tx graph.Tx) error {
		for i := 1; i < 100; i += 2 {
			tx.AddCounter(fmt.Sprintf("df/c%d", i), int64(i))
			tx.PutLookup(graph.IdxConcept, fmt.Sprintf("k%d", i), concept(i))
			tx.AddPair(graph.CoOccurs, concept(i), concept(i+1), int64(i))
		}
		tx.PutTerm(graph.IdxConceptTail, "model reward process", concept(1))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	closeStore(t, db)

	db = mustOpenWith(t, store.DefaultOptions(dir).WithKeyFilter(true))
	tails := func(tx graph.Tx, prefix string) []graph.NodeID {
		var ids []graph.NodeID
		tx.Terms(graph.IdxConceptTail, prefix, func(_ string, id graph.NodeID) bool { ids = append(ids, id); return true })
		return ids
	}
	check := func(stage string, tx graph.Tx, upTo int) {
		for i := 0; i < 200; i++ {
			want := int64(0)
			if i%2 == 1 && i < upTo {
				want = int64(i)
			}
			if n, _ := tx.Counter(fmt.Sprintf("df/c%d", i)); n != want {
				t.Errorf("%s: df/c%d = %d, want %d", stage, i, n, want)
			}
			id, err := tx.Lookup(graph.IdxConcept, fmt.Sprintf("k%d", i))
			if (want != 0) != (err == nil) || want != 0 && id != concept(i) {
				t.Errorf("%s: lookup k%d = %v, %v", stage, i, id, err)
			}
			for _, p := range [][2]graph.NodeID{{concept(i), concept(i + 1)}, {concept(i + 1), concept(i)}} {
				if n, _ := tx.Pair(graph.CoOccurs, p[0], p[1]); n != want {
					t.Errorf("%s: pair %d-%d = %d, want %d", stage, i, i+1, n, want)
				}
			}
		}
		if got := tails(tx, "model reward "); len(got) != 1 || got[0] != concept(1) {
			t.Errorf("%s: concepts ending in 'reward model': %v", stage, got)
		}
		if got := tails(tx, "model "); len(got) != 2 && upTo > 100 {
			t.Errorf("%s: concepts ending in 'model': %v, want 2", stage, got)
		}
		if got := tails(tx, "learning "); len(got) != 0 {
			t.Errorf("%s: concepts ending in 'learning': %v", stage, got)
		}
	}
	err = db.Update(ctx, func(tx graph.Tx) error {
		check("stored before the filter", tx, 100)
		for i := 101; i < 200; i += 2 {
			tx.AddCounter(fmt.Sprintf("df/c%d", i), int64(i))
			tx.PutLookup(graph.IdxConcept, fmt.Sprintf("k%d", i), concept(i))
			tx.AddPair(graph.CoOccurs, concept(i), concept(i+1), int64(i))
		}
		tx.PutTerm(graph.IdxConceptTail, "model language large", concept(2))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(ctx, func(tx graph.Tx) error { check("committed since", tx, 200); return nil }); err != nil {
		t.Fatal(err)
	}
}

// Scans of prefixes whose pending writes are not kept in order (nodes by
// kind) still merge them in key order, from the start asked for, over
// the commit under way (UpdateAsync) and the store.
func TestUnsortedPrefixScanMerges(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	p := func(n uint64) graph.NodeID { return graph.MakeID(graph.KindPaper, n) }
	put := func(tx graph.Tx, ns ...uint64) {
		for _, n := range ns {
			if err := tx.PutNode(graph.Node{ID: p(n), Label: fmt.Sprint(n)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := db.Update(ctx, func(tx graph.Tx) error { put(tx, 2, 9); return nil }); err != nil {
		t.Fatal(err)
	}
	if err := db.UpdateAsync(ctx, func(tx graph.Tx) error { put(tx, 5, 1); return nil }, nil); err != nil {
		t.Fatal(err)
	}
	err := db.Update(ctx, func(tx graph.Tx) error {
		put(tx, 7, 3)
		if err := tx.DeleteNode(p(9)); err != nil {
			return err
		}
		var got []uint64
		tx.NodeIDs(graph.KindPaper, p(1), func(id graph.NodeID) bool { got = append(got, id.Seq()); return true })
		if fmt.Sprint(got) != "[2 3 5 7]" {
			t.Errorf("papers after 1: %v, want [2 3 5 7]", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The filter built while a commit is under way holds that commit's keys
// too (the snapshot it scans was taken before the commit).
func TestKeyFilterBuiltDuringACommit(t *testing.T) {
	store.BuildFilterAfter(t, 1)
	db := mustOpenWith(t, store.DefaultOptions(t.TempDir()).WithKeyFilter(true))
	ctx := context.Background()
	// one miss, and a key written: the commit stays under way
	err := db.UpdateAsync(ctx, func(tx graph.Tx) error {
		tx.Counter("df/absent")
		_, err := tx.AddCounter("df/written", 7)
		return err
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// builds the filter now, while the first commit is in flight
	if err := db.UpdateAsync(ctx, func(tx graph.Tx) error { _, err := tx.AddCounter("df/other", 1); return err }, nil); err != nil {
		t.Fatal(err)
	}
	err = db.Update(ctx, func(tx graph.Tx) error {
		if n, _ := tx.Counter("df/written"); n != 7 {
			t.Errorf("a key of the commit under way when the filter was built reads %d, want 7", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A chain of UpdateAsync on a store with a small hot cache and the
// absent-key filter reads, update by update, what plain Updates read on a
// store with neither: the commit under way updates the cache and the
// filter on its own goroutine while the next update reads them (run with
// -race), and some updates fail and leave nothing.
func TestAsyncChainReadsTheSame(t *testing.T) {
	store.BuildFilterAfter(t, 20)
	plain := mustOpenWith(t, store.DefaultOptions("").WithInMemory(true).WithHotCacheMB(0))
	fast := mustOpenWith(t, store.DefaultOptions(t.TempDir()).WithKeyFilter(true))
	store.SetHotCacheBytes(fast, 4<<10)
	ctx := context.Background()
	id := func(i int) graph.NodeID { return graph.MakeID(graph.KindConcept, uint64(i%40+1)) }
	boom := errors.New("boom")
	// step i reads a window of counters, pairs and lookups that overlaps
	// what the step before wrote, then writes some of them
	step := func(i int, tx graph.Tx) (string, error) {
		var b strings.Builder
		for j := i; j < i+12; j++ {
			n, _ := tx.Counter(fmt.Sprintf("df/t%d", j%97))
			p, _ := tx.Pair(graph.CoOccurs, id(j), id(j*7))
			l, lerr := tx.Lookup(graph.IdxConcept, fmt.Sprintf("k%d", j%53))
			fmt.Fprintf(&b, "%d/%d/%v/%v ", n, p, l, lerr == nil)
		}
		for j := i + 6; j < i+10; j++ {
			if _, err := tx.AddCounter(fmt.Sprintf("df/t%d", j%97), int64(j%3)-1); err != nil {
				return "", err
			}
			if id(j) != id(j*7) {
				if _, err := tx.AddPair(graph.CoOccurs, id(j), id(j*7), 1); err != nil {
					return "", err
				}
			}
			if err := tx.PutLookup(graph.IdxConcept, fmt.Sprintf("k%d", j%53), id(j)); err != nil {
				return "", err
			}
		}
		if i%13 == 0 {
			return "", boom
		}
		return b.String(), nil
	}
	for i := 0; i < 600; i++ {
		var want, got string
		werr := plain.Update(ctx, func(tx graph.Tx) (err error) { want, err = step(i, tx); return err })
		gerr := fast.UpdateAsync(ctx, func(tx graph.Tx) (err error) { got, err = step(i, tx); return err }, func(err error) {
			if err != nil {
				t.Errorf("commit of step %d: %v", i, err)
			}
		})
		if !errors.Is(werr, boom) && werr != nil || !errors.Is(werr, boom) && !errors.Is(gerr, boom) && gerr != nil {
			t.Fatalf("step %d: %v / %v", i, werr, gerr)
		}
		if (werr == nil) != (gerr == nil) || got != want {
			t.Fatalf("step %d read\n%s\nwith the cache and filter, and without\n%s", i, got, want)
		}
	}
	if err := fast.Sync(); err != nil {
		t.Fatal(err)
	}
	if checksum(t, plain) != checksum(t, fast) {
		t.Error("the stores differ at the end")
	}
}

// Whole-graph scans for recounts: AllPairs visits each pair once (not its
// mirror), KindEdges only edges of one type from nodes of one kind;
// SetPair sets both halves of a pair, and 0 removes it.
func TestWholeGraphScans(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	var p1, p2, c1, c2, c3 graph.NodeID
	if err := db.Update(ctx, func(tx graph.Tx) error {
		p1, _ = tx.NewID(graph.KindPaper)
		p2, _ = tx.NewID(graph.KindPaper)
		c1, _ = tx.NewID(graph.KindConcept)
		c2, _ = tx.NewID(graph.KindConcept)
		c3, _ = tx.NewID(graph.KindConcept)
		for _, e := range []struct {
			src, dst graph.NodeID
			w        float64
		}{{p1, c1, 1}, {p1, c2, 0.5}, {p2, c2, 0.25}} {
			if _, err := tx.PutEdge(e.src, graph.Mentions, e.dst, e.w); err != nil {
				return err
			}
		}
		if _, err := tx.PutEdge(c1, graph.Broader, c2, 0); err != nil { // not from a paper
			return err
		}
		if _, err := tx.PutEdge(p1, graph.InSubject, c3, 0); err != nil { // another type
			return err
		}
		if err := tx.SetPair(graph.CoOccurs, c1, c2, 3); err != nil {
			return err
		}
		if err := tx.SetPair(graph.CoOccurs, c3, c1, 2); err != nil {
			return err
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	r, err := db.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var edges []string
	if err := r.KindEdges(graph.KindPaper, graph.Mentions, func(src, dst graph.NodeID, w float64) bool {
		edges = append(edges, fmt.Sprintf("%s→%s %.2f", src, dst, w))
		return true
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{fmt.Sprintf("%s→%s 1.00", p1, c1), fmt.Sprintf("%s→%s 0.50", p1, c2), fmt.Sprintf("%s→%s 0.25", p2, c2)}
	if strings.Join(edges, "; ") != strings.Join(want, "; ") {
		t.Errorf("KindEdges: %v, want %v", edges, want)
	}
	pairs := func(r graph.Reader) []string {
		var out []string
		if err := r.AllPairs(graph.CoOccurs, func(a, b graph.NodeID, n int64) bool {
			out = append(out, fmt.Sprintf("%s-%s %d", a, b, n))
			return true
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got, want := strings.Join(pairs(r), "; "), fmt.Sprintf("%s-%s 3; %s-%s 2", c1, c2, c1, c3); got != want {
		t.Errorf("AllPairs: %s, want %s", got, want)
	}
	r.Close()
	if err := db.Update(ctx, func(tx graph.Tx) error { return tx.SetPair(graph.CoOccurs, c2, c1, 0) }); err != nil {
		t.Fatal(err)
	}
	r, err = db.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got, want := strings.Join(pairs(r), "; "), fmt.Sprintf("%s-%s 2", c1, c3); got != want {
		t.Errorf("AllPairs after a pair set to 0: %s, want %s", got, want)
	}
	if n, _ := r.Pair(graph.CoOccurs, c1, c2); n != 0 {
		t.Errorf("a pair set to 0 reads %d", n)
	}
	var all []string
	if err := r.KindAllEdges(graph.KindPaper, graph.Out, func(id graph.NodeID, et graph.EdgeType, o graph.NodeID, w float64) bool {
		all = append(all, fmt.Sprintf("%s %s %s %.2f", id, et, o, w))
		return true
	}); err != nil {
		t.Fatal(err)
	}
	want = []string{fmt.Sprintf("%s IN_SUBJECT %s 0.00", p1, c3), fmt.Sprintf("%s MENTIONS %s 1.00", p1, c1),
		fmt.Sprintf("%s MENTIONS %s 0.50", p1, c2), fmt.Sprintf("%s MENTIONS %s 0.25", p2, c2)}
	if strings.Join(all, "; ") != strings.Join(want, "; ") {
		t.Errorf("KindAllEdges out of papers: %v, want %v", all, want)
	}
	all = nil
	if err := r.KindAllEdges(graph.KindConcept, graph.In, func(id graph.NodeID, et graph.EdgeType, o graph.NodeID, _ float64) bool {
		all = append(all, fmt.Sprintf("%s %s %s", id, et, o))
		return true
	}); err != nil {
		t.Fatal(err)
	}
	want = []string{fmt.Sprintf("%s MENTIONS %s", c1, p1), fmt.Sprintf("%s MENTIONS %s", c2, p1), fmt.Sprintf("%s MENTIONS %s", c2, p2),
		fmt.Sprintf("%s BROADER %s", c2, c1), fmt.Sprintf("%s IN_SUBJECT %s", c3, p1)}
	if strings.Join(all, "; ") != strings.Join(want, "; ") {
		t.Errorf("KindAllEdges into concepts: %v, want %v", all, want)
	}
}

// OnCommit reports, after each commit, the nodes whose value or edges it
// wrote (an edge by both ends), and nothing for a transaction that failed.
func TestOnCommitReportsChangedNodes(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	var got [][]graph.NodeID
	db.OnCommit(func(ids []graph.NodeID) { got = append(got, slices.Sorted(slices.Values(ids))) })
	var p, a graph.NodeID
	if err := db.Update(ctx, func(tx graph.Tx) error {
		p, _ = tx.NewID(graph.KindPaper)
		a, _ = tx.NewID(graph.KindAuthor)
		if err := tx.PutNode(graph.Node{ID: p, Label: "A paper"}); err != nil {
			return err
		}
		_, err := tx.PutEdge(a, graph.Authored, p, 1)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !slices.Equal(got[0], []graph.NodeID{p, a}) {
		t.Errorf("after a commit writing %s and an edge %s→%s: %v", p, a, p, got)
	}
	if err := db.Update(ctx, func(tx graph.Tx) error {
		_, err := tx.AddCounter("n", 1) // no node, no edge
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(ctx, func(tx graph.Tx) error {
		if err := tx.PutNode(graph.Node{ID: p, Label: "Changed"}); err != nil {
			return err
		}
		return errors.New("given up")
	}); err == nil {
		t.Fatal("a failing update succeeded")
	}
	if len(got) != 1 {
		t.Errorf("commits without nodes or edges, or failed, reported: %v", got[1:])
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

// Snapshots read through the hot cache on a store that takes writes: a
// write is seen by the next snapshot, and a snapshot taken while commits
// land sees each commit whole (two counters every commit raises together
// read equal) and never an older value than the snapshot before it (run
// with -race: commits update the cache on their own goroutine while
// queries read it).
func TestSnapshotsReadThroughHotCacheAcrossCommits(t *testing.T) {
	db := mustOpenWith(t, store.DefaultOptions(t.TempDir()))
	ctx := context.Background()
	id := graph.MakeID(graph.KindConcept, 1)
	read := func() (a, b int64, label string) {
		r, err := db.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		a, _ = r.Counter("df/a")
		b, _ = r.Counter("df/b")
		if n, err := r.Node(id); err == nil {
			label = n.Label
		}
		return a, b, label
	}
	// one at a time: each read comes after a commit of keys the cache holds
	for i := 1; i <= 50; i++ {
		read() // the cache now holds the keys, at their old values
		err := db.Update(ctx, func(tx graph.Tx) error {
			tx.AddCounter("df/a", 1)
			tx.AddCounter("df/b", 1)
			return tx.PutNode(graph.Node{ID: id, Label: fmt.Sprint("v", i)})
		})
		if err != nil {
			t.Fatal(err)
		}
		if a, b, l := read(); a != int64(i) || b != int64(i) || l != fmt.Sprint("v", i) {
			t.Fatalf("after commit %d the next snapshot reads %d, %d, %q", i, a, b, l)
		}
	}
	// and those reads came from memory: a snapshot's first read of a key
	// after its commit goes to Badger, the second to the cache
	before := store.HotHits(db)
	read()
	read()
	if got := store.HotHits(db) - before; got < 3 {
		t.Errorf("two snapshots after the last commit took %d values from the hot cache, want ≥ 3", got)
	}
	// readers while a writer commits asynchronously, as ingest does
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var bad atomic.Int64
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := int64(0)
			for {
				select {
				case <-stop:
					return
				default:
				}
				a, b, _ := read()
				if a != b || a < last {
					if bad.Add(1) == 1 {
						t.Errorf("a snapshot read df/a %d, df/b %d after %d", a, b, last)
					}
				}
				last = a
			}
		}()
	}
	const commits = 400
	for range commits {
		err := db.UpdateAsync(ctx, func(tx graph.Tx) error {
			if _, err := tx.AddCounter("df/a", 1); err != nil {
				return err
			}
			_, err := tx.AddCounter("df/b", 1)
			return err
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Sync(); err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()
	if a, b, _ := read(); a != 50+commits || b != a {
		t.Errorf("at the end a snapshot reads %d, %d; want %d", a, b, 50+commits)
	}
}

// The absent-key filter is built once the misses pay for the scan of the
// store's keys (an eighth of them): a few misses on a store of many keys
// (a small ingest into a large store) do not build it, more do.
func TestFilterWaitsForMissesThatPayForIt(t *testing.T) {
	store.FilterAfter(t, 10)
	dir := t.TempDir()
	ctx := context.Background()
	db := mustOpenWith(t, store.DefaultOptions(dir))
	for b := range 4 {
		if err := db.Update(ctx, func(tx graph.Tx) error {
			for i := range 4000 {
				if _, err := tx.AddCounter(fmt.Sprintf("df/k%d-%d", b, i), 1); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpenWith(t, store.DefaultOptions(dir).WithKeyFilter(true))
	miss := func(from, n int) {
		err := db.Update(ctx, func(tx graph.Tx) error {
			for i := from; i < from+n; i++ {
				if _, err := tx.Counter(fmt.Sprintf("df/absent%d", i)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	miss(0, 200) // 16,000 keys: the filter pays from 2,000 misses
	miss(200, 200)
	if store.HasFilter(db) {
		t.Fatal("400 misses on a store of 16,000 keys built the filter")
	}
	miss(400, 2000)
	miss(2400, 10)
	if !store.HasFilter(db) {
		t.Error("2,400 misses on a store of 16,000 keys did not build the filter")
	}
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
