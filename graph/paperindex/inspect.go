package paperindex

import (
	"fmt"
	"slices"
)

// Each calls fn with what the index holds of each paper a selection
// matches, newest first, until fn returns false: its id, packed date,
// clipped title key, subjects, people, and concepts with their weights
// (thousandths, as held). For exports and checks, not for requests.
func (ix *Index) Each(s *Selection, fn func(f Facts) bool) {
	for _, r := range ix.match(s) {
		row := &ix.rows[r]
		f := Facts{ID: row.id, Date: row.date, Title: row.title}
		for d := range NumDims {
			var ids []uint64
			for _, v := range ix.dim(row, d) {
				ids = append(ids, ix.dicts[d].ids[v])
			}
			switch d {
			case Subject:
				f.Subjects = ids
			case Author:
				f.Authors = ids
			case Concept:
				f.Concepts = ids
			}
		}
		for _, w := range ix.weights(row) {
			f.Weights = append(f.Weights, float64(w)/1000)
		}
		if !fn(f) {
			return
		}
	}
}

// Summary is the number of papers of some nodes and the main subject of
// those nodes and of some papers: of a node, the subject most of its
// papers have, then the larger subject, then the smaller id; of a paper,
// the best of its subjects by the same order. With all, of every node and
// paper the index holds. An export writes them beside each node.
func (ix *Index) Summary(papers []uint64, nodes [NumDims][]uint64, all bool) (count map[uint64]int, subject map[uint64]uint64) {
	count, subject = map[uint64]int{}, map[uint64]uint64{}
	subjects := &ix.dicts[Subject]
	better := func(a, b uint32, na, nb int) bool {
		if na != nb {
			return na > nb
		}
		if la, lb := len(subjects.posts[a]), len(subjects.posts[b]); la != lb {
			return la > lb
		}
		return subjects.ids[a] < subjects.ids[b]
	}
	tally := map[uint32]int{}
	fact := func(d int, o uint32) {
		id := ix.dicts[d].ids[o]
		rows := ix.dicts[d].posts[o]
		count[id] = len(rows)
		if d == Subject {
			return
		}
		clear(tally)
		for _, r := range rows {
			for _, s := range ix.dim(&ix.rows[r], Subject) {
				tally[s]++
			}
		}
		best, bestN := uint32(0), 0
		for s, n := range tally {
			if bestN == 0 || better(s, best, n, bestN) {
				best, bestN = s, n
			}
		}
		if bestN > 0 {
			subject[id] = subjects.ids[best]
		}
	}
	paper := func(r uint32) {
		row := &ix.rows[r]
		for i, s := range ix.dim(row, Subject) {
			if i == 0 || better(s, subjects.ord[subject[row.id]], 1, 1) {
				subject[row.id] = subjects.ids[s]
			}
		}
	}
	if all {
		for d := range ix.dicts {
			for o := range ix.dicts[d].ids {
				fact(d, uint32(o))
			}
		}
		for r := range ix.rows {
			if !ix.rows[r].dead {
				paper(uint32(r))
			}
		}
	}
	for _, id := range papers {
		if r, ok := ix.row[id]; ok && !ix.rows[r].dead {
			paper(r)
		}
	}
	for d, ids := range nodes {
		for _, id := range ids {
			if o, ok := ix.dicts[d].ord[id]; ok {
				fact(d, o)
			}
		}
	}
	return count, subject
}

// Check verifies the index's order and lists against its rows: each list
// holds exactly the live rows with its value, newest first.
func (ix *Index) Check() error {
	sorted := func(l []uint32) bool {
		for i := 1; i < len(l); i++ {
			if !ix.newer(l[i-1], l[i]) {
				return false
			}
		}
		return true
	}
	if len(ix.order) != ix.live || !sorted(ix.order) {
		return fmt.Errorf("order: %d rows, %d live, sorted %v", len(ix.order), ix.live, sorted(ix.order))
	}
	for d := range ix.dicts {
		want := make([][]uint32, len(ix.dicts[d].ids))
		for _, r := range ix.order {
			for _, v := range ix.dim(&ix.rows[r], d) {
				want[v] = append(want[v], r)
			}
		}
		for v, p := range ix.dicts[d].posts {
			if !slices.Equal(p, want[v]) {
				return fmt.Errorf("list %d of dimension %d: %v, rows say %v", ix.dicts[d].ids[v], d, p, want[v])
			}
		}
	}
	return nil
}
