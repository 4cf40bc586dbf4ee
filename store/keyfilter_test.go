package store_test

// The absent-key filter and the async commit chain read what a store
// without them reads.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/store"
)

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
