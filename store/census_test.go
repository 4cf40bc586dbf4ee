package store_test

import (
	"context"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/store"
)

// The census counts, by kind of key, the writes that reach Badger: each key
// of a committed transaction once, sets and deletes apart; nothing of a
// transaction that failed.
func TestCensusCountsCommittedWritesByKind(t *testing.T) {
	db := mustOpenWith(t, store.DefaultOptions("").WithInMemory(true).WithCensus(true))
	ctx := context.Background()
	var a, p1, p2 graph.NodeID
	if err := db.Update(ctx, func(tx graph.Tx) error {
		a, _ = tx.NewID(graph.KindAuthor)
		p1, _ = tx.NewID(graph.KindPaper)
		p2, _ = tx.NewID(graph.KindPaper)
		for _, p := range []graph.NodeID{p1, p2} {
			if _, err := tx.PutEdge(a, graph.Authored, p, 1); err != nil {
				return err
			}
		}
		if _, err := tx.AddCounter("df/agentskill", 1); err != nil {
			return err
		}
		_, err := tx.AddCounter("df/agentskill", 1) // same key: one write
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(ctx, func(tx graph.Tx) error {
		_, err := tx.DeleteEdge(a, graph.Authored, p2)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	failed := db.Update(ctx, func(tx graph.Tx) error {
		tx.AddCounter("df/rewardmodel", 1)
		return graph.Errorf(graph.Invalid, "refused")
	})
	if failed == nil {
		t.Fatal("the failing update committed")
	}
	got := map[string]store.CensusRow{}
	for _, r := range db.Census() {
		got[r.Kind] = r
	}
	want := map[string][2]int64{ // writes, deletes
		"edge-out " + graph.Authored.String(): {2, 1},
		"edge-in " + graph.Authored.String():  {2, 1},
		"counter df":                          {1, 0},
	}
	for kind, w := range want {
		if r := got[kind]; r.Writes != w[0] || r.Deletes != w[1] {
			t.Errorf("%s: %d writes, %d deletes; want %d, %d (census %v)", kind, r.Writes, r.Deletes, w[0], w[1], db.Census())
		}
	}
	if r := got["counter df"]; r.Bytes <= int64(len("df/agentskill")) {
		t.Errorf("counter df: %d bytes, want the key and its value", r.Bytes)
	}
	if rows := mustOpenWith(t, store.DefaultOptions("").WithInMemory(true)).Census(); rows != nil {
		t.Errorf("a store without Census counted %v", rows)
	}
}
