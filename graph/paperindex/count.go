package paperindex

import "container/heap"

// Counted is a node of a dimension with its papers among those counted.
type Counted struct {
	ID    uint64
	Count int
}

// Periods counts the papers a selection matches by year (or by month
// index, MonthIndex), returning the number of papers matched and key,
// count pairs for every period from the first to the last with papers. A
// paper of unknown year (month) is in no period but in the total.
func (ix *Index) Periods(s *Selection, months bool) (total int, periods []int) {
	rows := ix.match(s)
	counts := map[int]int{}
	lo, hi := 0, -1
	for _, r := range rows {
		p := ix.rows[r].date
		k := int(p >> 9)
		if months {
			k = MonthIndex(p)
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
	return len(rows), out
}

// Top counts the values of dimension d over the papers a selection
// matches and returns the number of papers matched and the first values
// by count descending, then by name(id) ascending (the id as a person
// reads it; name is called for ties only). Of subjects, which are few, it
// returns every one: the caller orders them by code.
func (ix *Index) Top(d int, s *Selection, first int, name func(uint64) string) (total int, top []Counted) {
	rows := ix.match(s)
	dict := &ix.dicts[d]
	counts := make([]int32, len(dict.ids))
	if s.Empty() { // every paper: each value's count is its list's length
		for o, p := range dict.posts {
			counts[o] = int32(len(p))
		}
	} else {
		for _, r := range rows {
			for _, v := range ix.dim(&ix.rows[r], d) {
				counts[v]++
			}
		}
	}
	if d == Subject {
		first = len(counts)
	}
	h := &countHeap{ids: dict.ids, name: name}
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
	out := make([]Counted, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		c := heap.Pop(h).(countedOrd)
		out[i] = Counted{dict.ids[c.ord], int(c.n)}
	}
	return len(rows), out
}

type countedOrd struct {
	ord uint32
	n   int32
}

// countHeap is a min-heap of the best values so far: its root is the
// worst of them.
type countHeap struct {
	s    []countedOrd
	ids  []uint64
	name func(uint64) string
}

// better orders by count descending, then by name.
func (h *countHeap) better(a, b countedOrd) bool {
	if a.n != b.n {
		return a.n > b.n
	}
	return h.name(h.ids[a.ord]) < h.name(h.ids[b.ord])
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
