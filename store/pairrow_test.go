package store_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/store"
)

// pairModel is the pair counts a test expects: both directions of each.
type pairModel map[graph.EdgeType]map[graph.NodeID]map[graph.NodeID]int64

func (m pairModel) set(t graph.EdgeType, a, b graph.NodeID, n int64) {
	for _, ab := range [2][2]graph.NodeID{{a, b}, {b, a}} {
		if m[t] == nil {
			m[t] = map[graph.NodeID]map[graph.NodeID]int64{}
		}
		if m[t][ab[0]] == nil {
			m[t][ab[0]] = map[graph.NodeID]int64{}
		}
		if n <= 0 {
			delete(m[t][ab[0]], ab[1])
		} else {
			m[t][ab[0]][ab[1]] = n
		}
	}
}

func (m pairModel) clone() pairModel {
	c := pairModel{}
	for t, rows := range m {
		for a, row := range rows {
			for b, n := range row {
				if a < b {
					c.set(t, a, b, n)
				}
			}
		}
	}
	return c
}

// check compares every way of reading pairs with the model: Pair, Pairs in
// id order, AllPairs once per pair.
func (m pairModel) check(t *testing.T, r graph.Reader, nodes []graph.NodeID, where string) {
	t.Helper()
	for _, et := range []graph.EdgeType{graph.CoAuthor, graph.CoOccurs} {
		for _, a := range nodes {
			var got []graph.NodeID
			if err := r.Pairs(et, a, func(b graph.NodeID, n int64) bool {
				got = append(got, b)
				if want := m[et][a][b]; n != want {
					t.Fatalf("%s: Pairs(%v, %v) has %v: %d, want %d", where, et, a, b, n, want)
				}
				return true
			}); err != nil {
				t.Fatal(err)
			}
			if !slices.IsSorted(got) || len(got) != len(m[et][a]) {
				t.Fatalf("%s: Pairs(%v, %v) gave %d ids (sorted %v), want %d", where, et, a, len(got), slices.IsSorted(got), len(m[et][a]))
			}
			for _, b := range nodes[:8] {
				n, err := r.Pair(et, a, b)
				if err != nil || n != m[et][a][b] {
					t.Fatalf("%s: Pair(%v, %v, %v) = %d, %v; want %d", where, et, a, b, n, err, m[et][a][b])
				}
			}
		}
		seen := 0
		if err := r.AllPairs(et, func(a, b graph.NodeID, n int64) bool {
			seen++
			if a >= b || m[et][a][b] != n {
				t.Fatalf("%s: AllPairs gave %v-%v %d, want a<b and %d", where, a, b, n, m[et][a][b])
			}
			return true
		}); err != nil {
			t.Fatal(err)
		}
		want := 0
		for a, row := range m[et] {
			for b := range row {
				if a < b {
					want++
				}
			}
		}
		if seen != want {
			t.Fatalf("%s: AllPairs gave %d pairs, want %d", where, seen, want)
		}
	}
}

// Pair rows hold what a key per pair held, through splits (rows of 5
// entries a part here), rows emptied and refilled, transactions and their
// Atomic parts that fail, and commits in the background under the next
// transaction's reads.
func TestPairRowsAgainstModel(t *testing.T) {
	store.SplitRowsPast(t, 5)
	db := MustOpen(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 33))
	var nodes []graph.NodeID
	for i := 1; i <= 60; i++ {
		nodes = append(nodes, graph.MakeID(graph.KindAuthor, uint64(i*7)))
	}
	model := pairModel{}
	boom := errors.New("boom")
	for round := 0; round < 120; round++ {
		next := model.clone()
		fn := func(tx graph.Tx) error {
			for op := 0; op < 1+rng.IntN(40); op++ {
				et := []graph.EdgeType{graph.CoAuthor, graph.CoOccurs}[rng.IntN(2)]
				a, b := nodes[rng.IntN(len(nodes))], nodes[rng.IntN(len(nodes))]
				if a == b {
					continue
				}
				fail := rng.IntN(6) == 0
				trial := next.clone()
				err := tx.Atomic(func() error {
					for k := 0; k < 1+rng.IntN(3); k++ {
						d := int64(rng.IntN(5)) - 1
						if rng.IntN(4) == 0 {
							n := int64(rng.IntN(4))
							if err := tx.SetPair(et, a, b, n); err != nil {
								return err
							}
							trial.set(et, a, b, n)
							continue
						}
						n, err := tx.AddPair(et, a, b, d)
						if err != nil {
							return err
						}
						if want := max(trial[et][a][b]+d, 0); n != want {
							t.Fatalf("AddPair = %d, want %d", n, want)
						}
						trial.set(et, a, b, n)
					}
					if fail {
						return boom
					}
					return nil
				})
				if err != nil && !errors.Is(err, boom) {
					return err
				}
				if err == nil {
					next = trial
				}
			}
			if rng.IntN(10) == 0 {
				next.check(t, tx, nodes, "inside a transaction")
			}
			if rng.IntN(12) == 0 {
				return boom // the whole transaction goes
			}
			return nil
		}
		var err error
		if round%2 == 0 {
			err = db.UpdateAsync(ctx, fn, func(err error) {
				if err != nil {
					t.Error(err)
				}
			})
		} else {
			err = db.Update(ctx, fn)
		}
		switch {
		case errors.Is(err, boom):
		case err != nil:
			t.Fatal(err)
		default:
			model = next
		}
		if round%10 == 9 {
			if err := db.Sync(); err != nil {
				t.Fatal(err)
			}
			r, err := db.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			model.check(t, r, nodes, "in a snapshot")
			r.Close()
		}
	}
	split := 0
	for _, row := range model[graph.CoAuthor] {
		if len(row) > 5 {
			split++
		}
	}
	if split == 0 {
		t.Fatal("no row outgrew a part: the test did not split")
	}
}

// A row of thousands of counts grown one transaction at a time by new
// nodes (as ids grow on ingest) is split into parts and read whole.
func TestPairRowGrowsAtItsEnd(t *testing.T) {
	store.SplitRowsPast(t, 64)
	db := MustOpen(t)
	ctx := context.Background()
	hub := graph.MakeID(graph.KindConcept, 1)
	for i := 0; i < 40; i++ {
		if err := db.Update(ctx, func(tx graph.Tx) error {
			for j := 0; j < 50; j++ {
				if _, err := tx.AddPair(graph.CoOccurs, hub, graph.MakeID(graph.KindConcept, uint64(2+i*50+j)), 1); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	r, err := db.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n := 0
	if err := r.Pairs(graph.CoOccurs, hub, func(graph.NodeID, int64) bool { n++; return true }); err != nil {
		t.Fatal(err)
	}
	if n != 2000 {
		t.Fatalf("hub row has %d entries, want 2000", n)
	}
	if c, _ := r.Pair(graph.CoOccurs, hub, graph.MakeID(graph.KindConcept, 1000)); c != 1 {
		t.Fatalf("Pair in the middle of a split row = %d", c)
	}
}

// A store of layout 1 is refused with CONFLICT and the command that
// converts it; Migrate converts it in place, keeping every count, and a
// second Migrate changes nothing.
func TestMigrateLayout1(t *testing.T) {
	store.SplitRowsPast(t, 8)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	old := map[[3]uint64]int64{}
	model := pairModel{}
	var nodes []graph.NodeID
	for i := 1; i <= 40; i++ {
		nodes = append(nodes, graph.MakeID(graph.KindAuthor, uint64(i)))
	}
	for i := 0; i < 300; i++ {
		a, b := nodes[rng.IntN(len(nodes))], nodes[rng.IntN(len(nodes))]
		et := []graph.EdgeType{graph.CoAuthor, graph.CoOccurs}[rng.IntN(2)]
		if a >= b {
			continue
		}
		n := int64(1 + rng.IntN(9))
		old[[3]uint64{uint64(et), uint64(a), uint64(b)}] = n
		model.set(et, a, b, n)
	}
	if err := store.WriteLayout1(dir, old); err != nil {
		t.Fatal(err)
	}
	_, err := store.Open(store.DefaultOptions(dir))
	if graph.ErrorCode(err) != graph.Conflict || !errors.Is(err, store.ErrOldLayout) || !strings.Contains(err.Error(), "kg migrate --data "+dir) {
		t.Fatalf("open of a layout-1 store: %v (code %s), want CONFLICT naming kg migrate", err, graph.ErrorCode(err))
	}
	res, err := store.Migrate(dir, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	if res.From != 1 || res.To != 2 || res.Pairs != int64(2*len(old)) {
		t.Fatalf("migrate: %+v, want 1 → 2 over %d pair keys", res, 2*len(old))
	}
	if res, err := store.Migrate(dir, zerolog.Nop()); err != nil || res.Rows != 0 {
		t.Fatalf("second migrate: %+v, %v", res, err)
	}
	db := mustOpenWith(t, store.DefaultOptions(dir))
	r, err := db.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	model.check(t, r, nodes, "after migrate")
}
