package store

import (
	"context"
	"errors"
	"testing"

	"github.com/researchkg/kg/graph"
)

// A split row that gains a new, larger id rewrites its last part only; a
// change in the middle rewrites that part; a part past the limit is cut
// and the starts rewritten.
func TestRowWritesTouchChangedParts(t *testing.T) {
	old := maxPartEntries
	maxPartEntries = 4
	defer func() { maxPartEntries = old }()
	var es []pairEntry
	for i := uint64(1); i <= 12; i++ {
		es = append(es, pairEntry{i * 10, 1})
	}
	first := rowWrites(graph.CoAuthor, 9, &pairRow{delta: deltaOf(es)})
	// 12 entries cut in halves until each fits 4: 4 parts of 3 and the starts
	if len(first) != 5 {
		t.Fatalf("first write of 12 entries: %d keys, want 4 parts and the starts", len(first))
	}
	starts, err := decodeStarts(first[len(first)-1].v)
	if err != nil || len(starts) != 4 || starts[0] != 0 {
		t.Fatalf("starts %v, %v", starts, err)
	}
	stored := &pairRow{starts: starts, parts: make([][]pairEntry, len(starts))}
	for _, e := range es { // the stored parts, as a transaction loads them
		k := stored.part(e.id)
		stored.parts[k] = append(stored.parts[k], e)
	}
	grow := *stored
	grow.delta = map[uint64]int64{500: 1}
	if w := rowWrites(graph.CoAuthor, 9, &grow); len(w) != 1 || string(w[0].k) != string(pairPartKey(graph.CoAuthor, 9, starts[3])) {
		t.Fatalf("a new last id wrote %d keys, want the last part", len(w))
	}
	mid := *stored
	mid.delta = map[uint64]int64{50: 3}
	if w := rowWrites(graph.CoAuthor, 9, &mid); len(w) != 1 || string(w[0].k) != string(pairPartKey(graph.CoAuthor, 9, starts[1])) {
		t.Fatalf("a change in the middle wrote %d keys, want its part", len(w))
	}
	cut := *stored
	cut.delta = map[uint64]int64{51: 1, 52: 1}
	w := rowWrites(graph.CoAuthor, 9, &cut)
	if len(w) != 3 { // the part cut in two, and the starts
		t.Fatalf("a part past the limit wrote %d keys, want 2 parts and the starts", len(w))
	}
	if ns, err := decodeStarts(w[2].v); err != nil || len(ns) != 5 {
		t.Fatalf("starts after the cut: %v, %v", ns, err)
	}
}

// A row's value decodes to what was encoded, and garbage is an error,
// never a panic or a row out of order.
func FuzzPairRow(f *testing.F) {
	f.Add(encodeEntries([]pairEntry{{1, 2}, {5, 1}, {1 << 60, 7}}))
	f.Add(encodeStarts([]uint64{0, 40, 41}))
	f.Add([]byte{0, 3, 1})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, v []byte) {
		es, err := decodeEntries(v)
		if err == nil {
			for i := 1; i < len(es); i++ {
				if es[i].id <= es[i-1].id || es[i].n <= 0 {
					t.Fatalf("decoded row out of order or with a count ≤ 0: %v", es)
				}
			}
			again, err := decodeEntries(encodeEntries(es))
			if err != nil || len(again) != len(es) {
				t.Fatalf("round trip: %v, %d of %d", err, len(again), len(es))
			}
		}
		if s, err := decodeStarts(v); err == nil {
			if s[0] != 0 {
				t.Fatalf("starts do not begin at 0: %v", s)
			}
			for i := 1; i < len(s); i++ {
				if s[i] <= s[i-1] {
					t.Fatalf("starts out of order: %v", s)
				}
			}
		}
	})
}

// Pending's bytes cover what the pair rows a transaction changed will
// write at commit, and not by much more: a transaction is cut by them
// before Badger's limit ("Txn is too big"). A row only read costs
// nothing; a change in one part of a split row costs that part.
func TestPendingCoversRowWrites(t *testing.T) {
	old := maxPartEntries
	maxPartEntries = 64
	defer func() { maxPartEntries = old }()
	db, err := Open(DefaultOptions("").WithInMemory(true))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	hubs := []graph.NodeID{graph.MakeID(graph.KindConcept, 1), graph.MakeID(graph.KindConcept, 2), graph.MakeID(graph.KindConcept, 3)}
	for i := range 10 { // hub rows of 1,000 entries, split in parts of up to 64
		if err := db.Update(ctx, func(tx graph.Tx) error {
			for j := range 100 {
				other := graph.MakeID(graph.KindConcept, uint64(100+i*100+j))
				for _, h := range hubs {
					if _, err := tx.AddPair(graph.CoOccurs, h, other, int64(1+j%300)); err != nil {
						return err
					}
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	written := func(x *tx) int {
		n := 0
		for id, p := range x.rows {
			if len(p.delta) > 0 {
				for _, w := range rowWrites(id.t, id.a, p) {
					n += len(w.k) + len(w.v)
				}
			}
		}
		return n
	}
	err = db.Update(ctx, func(gt graph.Tx) error {
		x := gt.(*tx)
		for _, h := range hubs { // read, unchanged
			if _, err := x.Pair(graph.CoOccurs, h, graph.MakeID(graph.KindConcept, 150)); err != nil {
				return err
			}
		}
		if _, err := x.row(graph.CoOccurs, hubs[0]); err != nil {
			return err
		}
		if w, b := x.Pending(); w != 0 || b != 0 {
			t.Errorf("rows read and not changed: Pending %d writes, %d bytes; want none", w, b)
		}
		// one count in the middle of hub 1, a new partner of hub 2 and a
		// change undone by Atomic on hub 3
		if err := x.SetPair(graph.CoOccurs, hubs[1], graph.MakeID(graph.KindConcept, 555), 7); err != nil {
			return err
		}
		if _, err := x.AddPair(graph.CoOccurs, hubs[2], graph.MakeID(graph.KindConcept, 5000), 1); err != nil {
			return err
		}
		undone := x.Atomic(func() error {
			if _, err := x.AddPair(graph.CoOccurs, hubs[0], graph.MakeID(graph.KindConcept, 777), 2); err != nil {
				return err
			}
			return errors.New("undo")
		})
		if undone == nil {
			t.Error("Atomic did not return its error")
		}
		// of a row the transaction changes, only the parts it changes are
		// read (the Pair above read hub 1's row before it was changed)
		p := x.rows[rowID{graph.CoOccurs, hubs[1]}]
		loaded := 0
		for _, l := range p.loaded {
			if l {
				loaded++
			}
		}
		if len(p.parts) < 8 || loaded != 1 {
			t.Errorf("hub row of %d parts: %d read, want the one of 555", len(p.parts), loaded)
		}
		_, est := x.Pending()
		got := written(x)
		if got == 0 || est < got || est > 2*got+256 {
			t.Errorf("Pending estimates %d bytes for %d written", est, got)
		}
		// a whole row of 1,000 entries would be ~5,000 bytes a side
		if est > 4000 {
			t.Errorf("Pending estimates %d bytes for changes in a few parts of split rows", est)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
