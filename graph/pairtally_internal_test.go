package graph

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// The recount's tally gives what counting pairs of ids in a map gives:
// every pair's count, the stored pairs that change (those no paper has
// any more set to 0), those left counted, the changes in each side's
// order, and each paper's counted set.
func TestPairTallyIsTheMapItReplaces(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	for round := range 20 {
		concepts := make([]NodeID, 5+rng.IntN(60))
		for i := range concepts {
			concepts[i] = MakeID(KindConcept, uint64(1+rng.IntN(1<<40)))
		}
		papers := make([]NodeID, 1+rng.IntN(300))
		for i := range papers {
			papers[i] = MakeID(KindPaper, uint64(i+1))
		}
		dirty := papers[:rng.IntN(len(papers))]
		tally, sets := newPairTally(), newCountedSets(dirty)
		want := map[coPair]int64{}
		wantSets := map[NodeID][]NodeID{}
		for _, p := range papers {
			set := map[NodeID]bool{}
			for range rng.IntN(12) {
				set[concepts[rng.IntN(len(concepts))]] = true
			}
			if len(set) == 0 {
				continue
			}
			top := slices.Sorted(maps.Keys(set))
			tally.add(top)
			sets.put(tally, p, top)
			if slices.Contains(dirty, p) {
				wantSets[p] = top
			}
			for x, a := range top {
				for _, b := range top[x+1:] {
					want[coPair{a, b}]++
				}
			}
		}
		// the stored pairs: some as counted, some off, some no paper has
		stored := map[coPair]int64{}
		for p, n := range want {
			switch rng.IntN(3) {
			case 0:
				stored[p] = n
			case 1:
				stored[p] = n + 1 + int64(rng.IntN(3))
			}
		}
		for range 20 {
			a, b := MakeID(KindConcept, uint64(1<<41+rng.IntN(100))), concepts[rng.IntN(len(concepts))]
			stored[coPair{min(a, b), max(a, b)}] = 1 + int64(rng.IntN(5))
		}
		wantChanges := map[coPair]int64{}
		var kept int64
		for _, p := range slices.SortedFunc(maps.Keys(stored), coPair.compare) {
			if tally.settle(p.a, p.b, stored[p]) {
				kept++
			}
			if want[p] != stored[p] {
				wantChanges[p] = want[p]
			}
		}
		for p, n := range want {
			if _, ok := stored[p]; !ok {
				wantChanges[p] = n
			}
		}
		changes, counted, ids := tally.changes()
		if total := kept + counted; total != int64(len(want)) {
			t.Fatalf("round %d: %d pairs counted, want %d", round, total, len(want))
		}
		got := map[coPair]int64{}
		for _, c := range changes {
			if ids[c.a] >= ids[c.b] {
				t.Fatalf("round %d: pair %v, %v out of order", round, ids[c.a], ids[c.b])
			}
			got[coPair{ids[c.a], ids[c.b]}] = int64(c.n)
		}
		if !maps.Equal(got, wantChanges) {
			t.Fatalf("round %d: changes %v, want %v", round, got, wantChanges)
		}
		for side := range 2 {
			sortPairChanges(changes, side)
			owner, other := func(c pairChange) NodeID { return ids[c.b] }, func(c pairChange) NodeID { return ids[c.a] }
			if side == 1 {
				owner, other = other, owner
			}
			if !slices.IsSortedFunc(changes, func(x, y pairChange) int {
				return coPair{owner(x), other(x)}.compare(coPair{owner(y), other(y)})
			}) {
				t.Fatalf("round %d: side %d not by owner's id, then the other's", round, side)
			}
		}
		for _, p := range papers {
			if got := sets.get(tally.ids, p); !slices.Equal(got, wantSets[p]) {
				t.Fatalf("round %d: paper %v's set %v, want %v", round, p, got, wantSets[p])
			}
		}
	}
}
