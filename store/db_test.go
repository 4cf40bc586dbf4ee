package store_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/store"
)

func MustOpen(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(store.DefaultOptions("").WithInMemory(true))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
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

func TestUpdateRollsBackOnError(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	boom := errors.New("boom")
	err := db.Update(ctx, func(tx graph.Tx) error {
		if err := tx.AddCounter("papers", 5); err != nil {
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

// Concurrent read-modify-write transactions retry on conflict and lose no
// increment.
func TestConcurrentCountersRetry(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 25; j++ {
				if err := db.Update(ctx, func(tx graph.Tx) error { return tx.AddCounter("n", 1) }); err != nil {
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
	db, err = store.Open(store.DefaultOptions(dir).WithReadOnly(true))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
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
