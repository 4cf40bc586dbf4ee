package paperindex

import "github.com/researchkg/kg/graph/burst"

// Emerged is a concept in a burst at the end of a window.
type Emerged struct {
	ID    uint64
	Burst burst.Burst
	Since int // the burst's first month (MonthIndex)
}

// Emerging finds the concepts in a burst (burst.LastExpected) at the end
// of a selection's window, begun within it, among the papers it matches,
// of at least minPapers papers in the burst; unordered. The window is the
// selection's months (its month or year bounds), its end cut to the last
// month with papers; the months before it are the concept's history,
// against which a burst is one. Each month expects of a concept what its
// rate in each subject gives for that month's mix of subjects
// (burst.Mix). Papers of unknown month are not counted.
func (ix *Index) Emerging(s *Selection, minPapers int) []Emerged {
	history := *s
	history.Lo = 0
	rows := ix.match(&history)
	hi, lo := -1, 0
	for _, r := range rows { // newest first: the first dated row is the last month
		if m := MonthIndex(ix.rows[r].date); m >= 0 {
			if hi < 0 {
				hi, lo = m, m
			}
			lo = min(lo, m)
		}
	}
	if hi < 0 {
		return nil
	}
	from := lo // the window's first month
	if s.Lo != 0 {
		y, m, _ := UnpackDate(s.Lo)
		from = max(lo, y*12+max(m, 1)-1)
	}
	n := hi - lo + 1
	d := make([]int, n)
	dated := 0
	dict := &ix.dicts[Concept]
	total := make([]int32, len(dict.ids))
	last := make([]int32, len(dict.ids))
	for _, r := range rows {
		m := MonthIndex(ix.rows[r].date)
		if m < 0 {
			continue
		}
		d[m-lo]++
		dated++
		for _, c := range ix.dim(&ix.rows[r], Concept) {
			total[c]++
			if m == hi {
				last[c]++
			}
		}
	}
	// a burst can take in the last month only where the concept's share
	// of that month beats its share of all the months
	cand := make([]int32, len(dict.ids))
	var ords []uint32
	for c := range total {
		cand[c] = -1
		if last[c] > 0 && int(total[c]) >= minPapers && int64(last[c])*int64(dated) > int64(total[c])*int64(d[n-1]) {
			cand[c] = int32(len(ords))
			ords = append(ords, uint32(c))
		}
	}
	series := make([]int, len(ords)*n)
	mix := burst.NewMix(len(ix.dicts[Subject].ids), n, len(ords))
	for _, r := range rows {
		m := MonthIndex(ix.rows[r].date)
		if m < 0 {
			continue
		}
		subjects := ix.dim(&ix.rows[r], Subject)
		mix.AddPaper(m-lo, subjects)
		for _, c := range ix.dim(&ix.rows[r], Concept) {
			if i := cand[c]; i >= 0 {
				series[int(i)*n+m-lo]++
				mix.AddUse(int(i), subjects)
			}
		}
	}
	var out []Emerged
	expected := make([]float64, n)
	for i, c := range ords {
		if !burst.Fits(series[i*n+n-1], d[n-1], mix.ExpectedIn(i, n-1)) {
			// the base state explains its last month better, and leaving
			// a burst is free: no best sequence ends in one
			continue
		}
		mix.Expected(i, expected)
		b, ok := burst.LastExpected(series[i*n:(i+1)*n], d, expected)
		if ok && b.Papers >= minPapers && lo+b.Start >= from {
			out = append(out, Emerged{dict.ids[c], b, lo + b.Start})
		}
	}
	return out
}
