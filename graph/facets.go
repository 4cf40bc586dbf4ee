// Facets and rankings: papers counted by year, month, subject, concept or
// person, over the papers a filter selects, from the facet index.

package graph

import (
	"cmp"
	"container/heap"
	"fmt"
	"slices"
	"time"
)

// Facet is a dimension papers are counted by.
type Facet int

// The facets.
const (
	FacetYear Facet = iota + 1
	FacetMonth
	FacetSubject
	FacetConcept
	FacetAuthor
)

// facetDim is the index dimension of a node facet.
func (f Facet) dim() (int, bool) {
	switch f {
	case FacetSubject:
		return dimSubject, true
	case FacetConcept:
		return dimConcept, true
	case FacetAuthor:
		return dimAuthor, true
	}
	return 0, false
}

// match returns the rows a selection matches, newest first. It starts from
// the shortest of the selection's lists (a node's papers, or the papers of
// any of a list's nodes), cut to the date span, and checks the other
// conditions row by row. The result may share memory with the index: read
// it, never change it.
func (ix *facetIndex) match(s *Selection) []uint32 {
	type cond struct {
		d    int
		ords []uint32 // any of these (one, for a node every paper must have)
		size int
	}
	var conds []cond
	addCond := func(d int, ids []NodeID) bool {
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
	for _, id := range s.all {
		d, ok := dimOf(id.Kind())
		if !ok || !addCond(d, []NodeID{id}) {
			return nil
		}
	}
	for d, ids := range s.vals {
		if ids != nil && !addCond(d, ids) {
			return nil
		}
	}
	if len(conds) == 0 {
		base := ix.dateRange(ix.order, s.lo, s.hi)
		if !s.needMonth {
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
		base = ix.dateRange(ix.dicts[lead.d].posts[lead.ords[0]], s.lo, s.hi)
	} else {
		for _, o := range lead.ords {
			base = append(base, ix.dateRange(ix.dicts[lead.d].posts[o], s.lo, s.hi)...)
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
	if len(rest) == 0 && !s.needMonth {
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

func (c *rowCheck) ok(row *facetRow) bool {
	for _, v := range row.vals[c.d] {
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

func (ix *facetIndex) filterRows(base []uint32, s *Selection, checks []rowCheck) []uint32 {
	out := make([]uint32, 0, len(base)/4)
next:
	for _, r := range base {
		row := &ix.rows[r]
		if s.needMonth && row.date>>5&15 == 0 {
			continue
		}
		for i := range checks {
			if !checks[i].ok(row) {
				continue next
			}
		}
		out = append(out, r)
	}
	return out
}

// Bucket is one bar of a facet: the papers of a year, a month, a subject,
// a concept or a person among those a filter selects.
type Bucket struct {
	Key   string // "2025", "2025-07", a subject's code, a node's id
	Label string // what a person reads
	Count int
	Node  *Node // the subject, concept or person (nil for years and months)
}

// FacetResult is a facet's buckets and the number of distinct papers the
// filter selects.
type FacetResult struct {
	Total   int
	Buckets []Bucket
}

// counted is a node of a facet with its count.
type counted struct {
	id    NodeID
	count int
}

// Facets counts the papers a selection matches by a facet: for years and
// months every bucket from the first to the last that has papers (empty
// ones between them included), by key; for subjects, concepts and people
// the first buckets by count descending, then key. A paper is counted
// once in each bucket it belongs to; a paper of unknown year (month) is in
// no year (month) bucket, but in Total.
func (v *View) Facets(by Facet, s *Selection, first int) (FacetResult, error) {
	s = s.orAll()
	var res FacetResult
	var nodes []counted
	var periods []int // year or month index, count
	err := v.withIndex(func(ix *facetIndex) error {
		rows := ix.match(s)
		res.Total = len(rows)
		if d, ok := by.dim(); ok {
			nodes = ix.topValues(d, rows, s.empty(), first)
		} else {
			periods = ix.periods(rows, by == FacetMonth)
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	if nodes == nil {
		for i := 0; i < len(periods); i += 2 {
			var key, label string
			if by == FacetMonth {
				d := monthOfIndex(periods[i])
				key, label = d.MonthString(), time.Month(d.Month).String()+" "+fmt.Sprint(d.Year)
			} else {
				key = fmt.Sprint(periods[i])
				label = key
			}
			res.Buckets = append(res.Buckets, Bucket{Key: key, Label: label, Count: periods[i+1]})
		}
		return res, nil
	}
	res.Buckets = make([]Bucket, 0, len(nodes))
	for _, c := range nodes {
		n, err := v.Node(c.id)
		if ErrorCode(err) == NotFound {
			continue // gone since the index was read
		} else if err != nil {
			return res, err
		}
		b := Bucket{Key: c.id.String(), Label: n.Label, Count: c.count, Node: n}
		switch n.Kind() {
		case KindSubject:
			b.Key = n.Label
			if n.Name != "" {
				b.Label = n.Name
			}
		case KindAuthor:
			if b.Label, err = v.PersonLabel(n); err != nil {
				return res, err
			}
		}
		res.Buckets = append(res.Buckets, b)
	}
	if by == FacetSubject {
		res.Buckets = sortSubjects(res.Buckets, first)
	}
	return res, nil
}

// periods counts rows by year (or month index), returning key, count
// pairs for every period from the first to the last with papers.
func (ix *facetIndex) periods(rows []uint32, months bool) []int {
	counts := map[int]int{}
	lo, hi := 0, -1
	for _, r := range rows {
		d := unpackDate(ix.rows[r].date)
		k := d.Year
		if months {
			k = d.monthIndex()
		}
		if k <= 0 {
			continue
		}
		if hi < lo {
			lo, hi = k, k
		}
		lo, hi = min(lo, k), max(hi, k)
		counts[k]++
	}
	var out []int
	for k := lo; k <= hi; k++ {
		out = append(out, k, counts[k])
	}
	return out
}

// topValues counts the values of dimension d over rows and returns the
// first by count descending, then key (the node id as GraphQL shows it;
// for subjects the code, which the caller sorts by). all says rows are
// every paper: each value's count is then its list's length.
func (ix *facetIndex) topValues(d int, rows []uint32, all bool, first int) []counted {
	dict := &ix.dicts[d]
	counts := make([]int32, len(dict.ids))
	if all {
		for o, p := range dict.posts {
			counts[o] = int32(len(p))
		}
	} else {
		for _, r := range rows {
			for _, v := range ix.rows[r].vals[d] {
				counts[v]++
			}
		}
	}
	if d == dimSubject { // few: all of them, ordered by code by the caller
		first = len(counts)
	}
	h := &countHeap{ids: dict.ids}
	for o, n := range counts {
		if n == 0 {
			continue
		}
		c := countedOrd{uint32(o), n}
		if h.Len() < first {
			heap.Push(h, c)
		} else if first > 0 && h.better(c, h.s[0]) {
			h.s[0] = c
			heap.Fix(h, 0)
		}
	}
	out := make([]counted, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		c := heap.Pop(h).(countedOrd)
		out[i] = counted{dict.ids[c.ord], int(c.n)}
	}
	return out
}

type countedOrd struct {
	ord uint32
	n   int32
}

// countHeap is a min-heap of the best values so far: its root is the
// worst of them.
type countHeap struct {
	s   []countedOrd
	ids []NodeID
}

// better orders by count descending, then by id as GraphQL shows it.
func (h *countHeap) better(a, b countedOrd) bool {
	if a.n != b.n {
		return a.n > b.n
	}
	return h.ids[a.ord].String() < h.ids[b.ord].String()
}

func (h *countHeap) Len() int           { return len(h.s) }
func (h *countHeap) Less(i, j int) bool { return h.better(h.s[j], h.s[i]) }
func (h *countHeap) Swap(i, j int)      { h.s[i], h.s[j] = h.s[j], h.s[i] }
func (h *countHeap) Push(x any)         { h.s = append(h.s, x.(countedOrd)) }
func (h *countHeap) Pop() any {
	x := h.s[len(h.s)-1]
	h.s = h.s[:len(h.s)-1]
	return x
}

// Ranked is a node with the number of papers it has among those a filter
// selects, and a score (Top: the share of those papers; Emerging: the
// burst's weight).
type Ranked struct {
	Node  *Node
	Count int
	Score float64
}

// Top ranks people, concepts or subjects by their papers among those a
// selection matches: count descending, then key, as Facets orders its
// buckets. The score is the share of the matching papers.
func (v *View) Top(kind Kind, s *Selection, first int) ([]Ranked, error) {
	s = s.orAll()
	by := map[Kind]Facet{KindAuthor: FacetAuthor, KindConcept: FacetConcept, KindSubject: FacetSubject}[kind]
	if by == 0 {
		return nil, Errorf(Invalid, "top ranks people (AUTHOR), concepts (CONCEPT) or subjects (SUBJECT), not %s", kind)
	}
	res, err := v.Facets(by, s, first)
	if err != nil {
		return nil, err
	}
	out := make([]Ranked, 0, len(res.Buckets))
	for _, b := range res.Buckets {
		out = append(out, Ranked{Node: b.Node, Count: b.Count, Score: Round3(float64(b.Count) / float64(max(res.Total, 1)))})
	}
	return out, nil
}

// sortSubjects orders subject buckets by count descending, then code, and
// keeps the first.
func sortSubjects(bs []Bucket, first int) []Bucket {
	slices.SortFunc(bs, func(a, b Bucket) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Key, b.Key))
	})
	return bs[:min(first, len(bs))]
}
