package paperindex

import (
	"math"
	"slices"
)

// PackDate packs a date so that packed dates order as dates do: by year,
// then month, then day, an unknown part (0) before every known one (so
// newest first puts a paper known only by its year after that year's
// dated papers).
func PackDate(year, month, day int) uint32 {
	return uint32(year)<<9 | uint32(month)<<5 | uint32(day)
}

// UnpackDate is PackDate's inverse.
func UnpackDate(p uint32) (year, month, day int) { return int(p >> 9), int(p >> 5 & 15), int(p & 31) }

// MonthIndex numbers a packed date's month consecutively (year·12 + month
// − 1); -1 when the month is unknown.
func MonthIndex(p uint32) int {
	y, m, _ := UnpackDate(p)
	if y == 0 || m == 0 {
		return -1
	}
	return y*12 + m - 1
}

// MonthOfIndex is MonthIndex's inverse: the year and month of a month
// index.
func MonthOfIndex(i int) (year, month int) { return i / 12, i%12 + 1 }

// Selection says which papers a question is over. Per dimension, Any are
// nodes one of which a paper must have (nil: no condition) and All nodes
// a paper must all have (the owner of a list: a concept's papers); Lo and
// Hi bound the packed date (inclusive); NeedMonth leaves out papers whose
// month is unknown; None matches nothing (a list of a node that has no
// papers here).
type Selection struct {
	Any       [NumDims][]uint64
	All       [NumDims][]uint64
	Lo, Hi    uint32
	NeedMonth bool
	None      bool
}

// Everything selects every paper.
func Everything() Selection { return Selection{Hi: math.MaxUint32} }

// With adds the condition "has node id of dimension d".
func (s Selection) With(d int, id uint64) Selection {
	s.All[d] = append(slices.Clone(s.All[d]), id)
	return s
}

// Empty reports whether the selection has no condition.
func (s *Selection) Empty() bool {
	for d := range NumDims {
		if len(s.All[d]) > 0 || s.Any[d] != nil {
			return false
		}
	}
	return !s.None && s.Lo == 0 && s.Hi == math.MaxUint32
}

// Concepts are the concepts a selection names (RELEVANCE ranks papers by
// their weight): those papers must have, then those any of which they may.
func (s *Selection) Concepts() []uint64 {
	return append(slices.Clone(s.All[Concept]), s.Any[Concept]...)
}

// match returns the rows a selection matches, newest first. It starts from
// the shortest of the selection's lists (a node's papers, or the papers of
// any of a list's nodes), cut to the date span, and checks the other
// conditions row by row. The result may share memory with the index: read
// it, never change it.
func (ix *Index) match(s *Selection) []uint32 {
	if s.None {
		return nil
	}
	type cond struct {
		d    int
		ords []uint32 // any of these (one, for a node every paper must have)
		size int
	}
	var conds []cond
	addCond := func(d int, ids []uint64) bool {
		c := cond{d: d}
		for _, id := range ids {
			if o, ok := ix.dicts[d].ord[id]; ok {
				c.ords = append(c.ords, o)
				c.size += len(ix.dicts[d].posts[o])
			}
		}
		conds = append(conds, c)
		return len(c.ords) > 0
	}
	for d, ids := range s.All {
		for _, id := range ids {
			if !addCond(d, []uint64{id}) {
				return nil
			}
		}
	}
	for d, ids := range s.Any {
		if ids != nil && !addCond(d, ids) {
			return nil
		}
	}
	if len(conds) == 0 {
		base := ix.dateRange(ix.order, s.Lo, s.Hi)
		if !s.NeedMonth {
			return base
		}
		return ix.filterRows(base, s, nil)
	}
	best := 0
	for i, c := range conds {
		if c.size < conds[best].size {
			best = i
		}
	}
	lead := conds[best]
	var base []uint32
	if len(lead.ords) == 1 {
		base = ix.dateRange(ix.dicts[lead.d].posts[lead.ords[0]], s.Lo, s.Hi)
	} else {
		for _, o := range lead.ords {
			base = append(base, ix.dateRange(ix.dicts[lead.d].posts[o], s.Lo, s.Hi)...)
		}
		slices.SortFunc(base, func(a, b uint32) int {
			if a == b {
				return 0
			}
			if ix.newer(a, b) {
				return -1
			}
			return 1
		})
		base = slices.Compact(base)
	}
	rest := slices.Delete(slices.Clone(conds), best, best+1)
	if len(rest) == 0 && !s.NeedMonth {
		return base
	}
	checks := make([]rowCheck, len(rest))
	for i, c := range rest {
		checks[i] = newRowCheck(c.d, c.ords)
	}
	return ix.filterRows(base, s, checks)
}

// rowCheck tests whether a row has any of some values of a dimension.
type rowCheck struct {
	d    int
	ords []uint32
	set  map[uint32]bool // for many values
}

func newRowCheck(d int, ords []uint32) rowCheck {
	c := rowCheck{d: d, ords: ords}
	if len(ords) > 8 {
		c.set = make(map[uint32]bool, len(ords))
		for _, o := range ords {
			c.set[o] = true
		}
	}
	return c
}

func (c *rowCheck) ok(ix *Index, row *row) bool {
	for _, v := range ix.dim(row, c.d) {
		if c.set != nil {
			if c.set[v] {
				return true
			}
		} else if slices.Contains(c.ords, v) {
			return true
		}
	}
	return false
}

func (ix *Index) filterRows(base []uint32, s *Selection, checks []rowCheck) []uint32 {
	out := make([]uint32, 0, len(base)/4)
next:
	for _, r := range base {
		row := &ix.rows[r]
		if s.NeedMonth && row.date>>5&15 == 0 {
			continue
		}
		for i := range checks {
			if !checks[i].ok(ix, row) {
				continue next
			}
		}
		out = append(out, r)
	}
	return out
}

// Count is the number of papers a selection matches.
func (ix *Index) Count(s *Selection) int { return len(ix.match(s)) }

// Papers are the papers a selection matches, newest first.
func (ix *Index) Papers(s *Selection) []uint64 {
	rows := ix.match(s)
	if len(rows) == 0 {
		return nil
	}
	out := make([]uint64, len(rows))
	for i, r := range rows {
		out[i] = ix.rows[r].id
	}
	return out
}
