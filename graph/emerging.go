// Emerging concepts: Kleinberg's burst detection over the months of a
// filter's window. See doc.go ("Emerging concepts") for the score and why.

package graph

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

const (
	// burstRate (Kleinberg's s): in a burst a concept is used at this
	// many times its rate over the window.
	burstRate = 2.0
	// burstGamma (γ): entering a burst costs γ·ln(n), n the months with
	// papers; leaving one is free.
	burstGamma = 1.0
	// minBurstPapers: a burst must hold at least this many of the
	// concept's papers (a concept going from one paper to three is no
	// trend).
	minBurstPapers = 5
)

// Burst is a run of months in which a concept is used at the burst rate.
type Burst struct {
	Start, End int     // month indexes in the series, inclusive
	Weight     float64 // Σ over its months of cost(base) − cost(burst): how much better the burst explains them
	Papers     int     // the concept's papers in those months
}

// LastBurst runs Kleinberg's two-state automaton (batched form: Kleinberg
// 2002, §4; as CiteSpace uses it) over a concept's papers r[t] among all
// papers d[t] of each month t, and returns the burst that includes the
// last month (ok false when that month is not in one).
//
// The base state uses the concept at its rate over the series, p0 = Σr/Σd;
// the burst state at p1 = min(s·p0, 0.999). A month's cost in a state is
// −ln of the binomial likelihood of r[t] uses among d[t] papers at that
// state's rate (the binomial coefficient, the same in both, left out);
// entering the burst state costs γ·ln(n), n the months with papers. The
// optimal state sequence (Viterbi) is found exactly.
func LastBurst(r, d []int) (b Burst, ok bool) {
	n := len(r)
	var sr, sd, months int
	for t := range n {
		sr += r[t]
		sd += d[t]
		if d[t] > 0 {
			months++
		}
	}
	if n == 0 || sr == 0 || sd == 0 || sr >= sd {
		return b, false
	}
	p0 := float64(sr) / float64(sd)
	p1 := min(burstRate*p0, 0.999)
	lp0, lq0, lp1, lq1 := math.Log(p0), math.Log1p(-p0), math.Log(p1), math.Log1p(-p1)
	cost := func(t int, burst bool) float64 {
		if burst {
			return -(float64(r[t])*lp1 + float64(d[t]-r[t])*lq1)
		}
		return -(float64(r[t])*lp0 + float64(d[t]-r[t])*lq0)
	}
	enter := burstGamma * math.Log(float64(max(months, 2)))
	// c0, c1: the least cost of months 0..t ending in the base or the
	// burst state; stayed[t]: the best way into the burst state at t came
	// from the burst state
	stayed := make([]bool, n)
	c0, c1 := cost(0, false), enter+cost(0, true)
	for t := 1; t < n; t++ {
		b0, b1 := min(c0, c1), c0+enter // leaving a burst is free
		if c1 <= c0+enter {
			b1, stayed[t] = c1, true
		}
		c0, c1 = b0+cost(t, false), b1+cost(t, true)
	}
	if c1 >= c0 {
		return b, false
	}
	b.End = n - 1
	for t := n - 1; ; t-- {
		b.Start = t
		b.Weight += cost(t, false) - cost(t, true)
		b.Papers += r[t]
		if t == 0 || !stayed[t] {
			break
		}
	}
	return b, true
}

// Emerged is a concept in a burst at the end of a window.
type Emerged struct {
	Node  *Node
	Burst Burst
	Since string // the burst's first month, "YYYY-MM"
}

// Emerging finds the concepts in a burst (LastBurst) at the end of a
// selection's window, begun within it, among the papers it matches:
// strongest first (by weight, then papers, then the narrower concept:
// more words), of at least minBurstPapers papers. The window is the selection's months (its month
// or year bounds), its end cut to the last month with papers; the months
// before it are the concept's history, against which a burst is one.
// Papers of unknown month are not counted.
func (v *View) Emerging(s *Selection, first int) ([]Emerged, error) {
	s = s.orAll()
	type found struct {
		id    NodeID
		burst Burst
	}
	var out []found
	var lo int
	err := v.withIndex(func(ix *facetIndex) error {
		history := *s
		history.lo = 0
		rows := ix.match(&history)
		hi := -1
		for _, r := range rows { // newest first: the first dated row is the last month
			if m := unpackDate(ix.rows[r].date).monthIndex(); m >= 0 {
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
		if s.lo != 0 {
			d := unpackDate(s.lo)
			from = max(lo, d.Year*12+max(d.Month, 1)-1)
		}
		n := hi - lo + 1
		d := make([]int, n)
		dated := 0
		dict := &ix.dicts[dimConcept]
		total := make([]int32, len(dict.ids))
		last := make([]int32, len(dict.ids))
		for _, r := range rows {
			m := unpackDate(ix.rows[r].date).monthIndex()
			if m < 0 {
				continue
			}
			d[m-lo]++
			dated++
			for _, c := range ix.rows[r].vals[dimConcept] {
				total[c]++
				if m == hi {
					last[c]++
				}
			}
		}
		// a burst can take in the last month only where the concept's
		// share of that month beats its share of all the months
		cand := make([]int32, len(dict.ids))
		var ords []uint32
		for c := range total {
			cand[c] = -1
			if last[c] > 0 && int(total[c]) >= minBurstPapers && int64(last[c])*int64(dated) > int64(total[c])*int64(d[n-1]) {
				cand[c] = int32(len(ords))
				ords = append(ords, uint32(c))
			}
		}
		series := make([]int, len(ords)*n)
		for _, r := range rows {
			m := unpackDate(ix.rows[r].date).monthIndex()
			if m < 0 {
				continue
			}
			for _, c := range ix.rows[r].vals[dimConcept] {
				if i := cand[c]; i >= 0 {
					series[int(i)*n+m-lo]++
				}
			}
		}
		for i, c := range ords {
			b, ok := LastBurst(series[i*n:(i+1)*n], d)
			if ok && b.Papers >= minBurstPapers && lo+b.Start >= from {
				out = append(out, found{dict.ids[c], b})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res := make([]Emerged, 0, len(out))
	for _, f := range out {
		n, err := v.Node(f.id)
		if ErrorCode(err) == NotFound {
			continue
		} else if err != nil {
			return nil, err
		}
		f.burst.Weight = Round3(f.burst.Weight)
		res = append(res, Emerged{Node: n, Burst: f.burst, Since: monthOfIndex(lo + f.burst.Start).MonthString()})
	}
	// of two concepts with the same burst (a concept and its broader one,
	// used by the same papers), the narrower says more
	slices.SortFunc(res, func(a, b Emerged) int {
		return cmp.Or(cmp.Compare(b.Burst.Weight, a.Burst.Weight), cmp.Compare(b.Burst.Papers, a.Burst.Papers),
			cmp.Compare(len(strings.Fields(b.Node.Label)), len(strings.Fields(a.Node.Label))), cmp.Compare(a.Node.ID, b.Node.ID))
	})
	return res[:min(first, len(res))], nil
}
