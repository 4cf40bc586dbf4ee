package graph

import (
	"cmp"
	"slices"
)

// pairTally counts concept pairs in memory for a co-occurrence recount.
// Concepts are numbered as they are first seen, and a pair (a < b) is one
// uint64 of the two numbers: a map entry is 12 bytes of key and count
// (16 with its slot) against 24 for a pair of node ids. A million papers
// make some ten million pairs: counted as pairs of ids, with the list of
// changes beside them, a recount in a 2 GiB memory limit was killed.
type pairTally struct {
	num    map[NodeID]uint32
	ids    []NodeID // by number
	counts map[uint64]int32
	buf    []uint64 // add's numbers
}

func newPairTally() *pairTally {
	return &pairTally{num: map[NodeID]uint32{}, counts: map[uint64]int32{}}
}

// number is c's number, given at its first sight.
func (t *pairTally) number(c NodeID) uint32 {
	n, ok := t.num[c]
	if !ok {
		n = uint32(len(t.ids))
		t.num[c] = n
		t.ids = append(t.ids, c)
	}
	return n
}

// key is the pair (a, b), a < b, as a map key.
func (t *pairTally) key(a, b NodeID) uint64 {
	return uint64(t.number(a))<<32 | uint64(t.number(b))
}

// add counts the pairs of a paper's counted set top (ascending ids), each
// concept's number looked up once.
func (t *pairTally) add(top []NodeID) {
	t.buf = t.buf[:0]
	for _, c := range top {
		t.buf = append(t.buf, uint64(t.number(c)))
	}
	for x, a := range t.buf {
		for _, b := range t.buf[x+1:] {
			t.counts[a<<32|b]++
		}
	}
}

// settle compares a stored pair's count n with the tally and keeps in the
// tally only what changes (a stored pair no paper has any more is set to
// 0). It reports whether the pair stays as stored and counted (kept: no
// longer in the tally, and n > 0).
func (t *pairTally) settle(a, b NodeID, n int64) (kept bool) {
	k := t.key(a, b)
	c := int64(t.counts[k])
	if c == n {
		delete(t.counts, k)
		return c > 0
	}
	t.counts[k] = int32(c)
	return false
}

// pairChange is a pair's new count, its ends as the ranks of their ids.
type pairChange struct {
	a, b uint32 // ranks: a < b
	n    int32
}

// changes gives up the tally's counts: what changes, each pair's ends as
// the ranks of their ids (ids[rank]), the number of pairs left counted
// (n > 0), and the ids by rank. The ids by number stay (t.ids).
func (t *pairTally) changes() (out []pairChange, counted int64, ids []NodeID) {
	ids = slices.Clone(t.ids)
	slices.Sort(ids)
	rank := make([]uint32, len(t.ids)) // by number
	for num, c := range t.ids {
		r, _ := slices.BinarySearch(ids, c)
		rank[num] = uint32(r)
	}
	out = make([]pairChange, 0, len(t.counts))
	for k, n := range t.counts {
		out = append(out, pairChange{rank[k>>32], rank[k&(1<<32-1)], n})
		if n > 0 {
			counted++
		}
	}
	t.counts, t.num = nil, nil
	return out, counted, ids
}

// sortPairChanges orders changes by owner, then by the other end: by b
// then a (side 0) or by a then b (side 1).
func sortPairChanges(ch []pairChange, side int) {
	slices.SortFunc(ch, func(x, y pairChange) int {
		if side == 0 {
			return cmp.Or(cmp.Compare(x.b, y.b), cmp.Compare(x.a, y.a))
		}
		return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b))
	})
}

// countedSets keeps the new counted sets of the papers a recount counts,
// flat: a paper's set is its length, then its concepts' numbers in a
// pairTally.
type countedSets struct {
	at   map[NodeID]int32 // -1: to count, nothing yet
	flat []uint32
}

func newCountedSets(papers []NodeID) *countedSets {
	s := &countedSets{at: make(map[NodeID]int32, len(papers))}
	for _, p := range papers {
		s.at[p] = -1
	}
	return s
}

// put keeps top as p's set, when p is one to count.
func (s *countedSets) put(t *pairTally, p NodeID, top []NodeID) {
	if _, ok := s.at[p]; !ok {
		return
	}
	s.at[p] = int32(len(s.flat))
	s.flat = append(s.flat, uint32(len(top)))
	for _, c := range top {
		s.flat = append(s.flat, t.number(c))
	}
}

// get is p's set, ascending, its concepts' numbers read through ids (by
// number: the tally's ids before changes gives them up).
func (s *countedSets) get(ids []NodeID, p NodeID) []NodeID {
	at, ok := s.at[p]
	if !ok || at < 0 {
		return nil
	}
	n := int(s.flat[at])
	top := make([]NodeID, n)
	for i, num := range s.flat[int(at)+1 : int(at)+1+n] {
		top[i] = ids[num]
	}
	slices.Sort(top)
	return top
}
