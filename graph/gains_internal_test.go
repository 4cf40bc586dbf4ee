package graph

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// A settle's flat gains give each paper what the map of maps they replace
// gave: every paper gained or touched once, ascending, the largest weight
// of a pair, dropped concepts gone while their papers stay rewritten; and
// a recorded use of a pair outweighs a scan's finding of it, whatever
// their weights and their order.
func TestGainsAreTheMapsTheyReplace(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for round := range 20 {
		var g, other gains
		want := map[NodeID]map[NodeID]float64{}
		used := map[[2]NodeID]bool{}
		gain := func(g *gains, p, c NodeID, w float64) {
			if want[p] == nil {
				want[p] = map[NodeID]float64{}
			}
			pair := [2]NodeID{p, c}
			if rng.IntN(3) == 0 { // found by a scan
				g.scanned(p, c, w)
				if !used[pair] {
					want[p][c] = max(want[p][c], w)
				}
				return
			}
			g.add(p, c, w)
			if !used[pair] {
				used[pair] = true
				want[p][c] = w
			} else {
				want[p][c] = max(want[p][c], w)
			}
		}
		touch := func(g *gains, p NodeID) {
			g.touch(p)
			if want[p] == nil {
				want[p] = map[NodeID]float64{}
			}
		}
		for range 1 + rng.IntN(400) {
			into := &g
			if rng.IntN(3) == 0 {
				into = &other
			}
			p := MakeID(KindPaper, uint64(1+rng.IntN(60)))
			if rng.IntN(8) == 0 {
				touch(into, p)
				continue
			}
			gain(into, p, MakeID(KindConcept, uint64(1+rng.IntN(30))), float64(rng.IntN(1000))/1000)
		}
		if round%2 == 1 { // counted before more come: packing twice is harmless
			g.count()
		}
		g.merge(&other)
		gone := map[NodeID]bool{}
		for range rng.IntN(5) {
			gone[MakeID(KindConcept, uint64(1+rng.IntN(30)))] = true
		}
		g.drop(func(c NodeID) bool { return gone[c] })
		for _, cs := range want {
			maps.DeleteFunc(cs, func(c NodeID, _ float64) bool { return gone[c] })
		}
		if g.count() != len(want) {
			t.Fatalf("round %d: %d papers, want %d", round, g.count(), len(want))
		}
		if !slices.Equal(g.papers, slices.Sorted(maps.Keys(want))) {
			t.Fatalf("round %d: papers %v, want %v", round, g.papers, slices.Sorted(maps.Keys(want)))
		}
		for i, p := range g.papers {
			if got := g.of(i); !maps.Equal(got, want[p]) {
				t.Fatalf("round %d: paper %v gains %v, want %v", round, p, got, want[p])
			}
		}
	}
	var none gains
	if !none.empty() || none.count() != 0 {
		t.Fatal("no gains are not empty")
	}
}
