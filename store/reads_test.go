package store_test

// Reads across commits: the hot cache, snapshots, whole-graph scans and
// the commit hook see what was committed.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/store"
)

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
