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
func LastBurst(r, d []int) (b Burst, ok bool) { return LastBurstExpected(r, d, nil) }

// LastBurstExpected is LastBurst with the base state's rate set month by
// month: e[t] papers of the concept are expected among the d[t] of month t
// (nil: Σr/Σd of each month's papers). Emerging expects, of each month,
// what the concept's rate in each subject gives for that month's mix of
// subjects, so that a month with more papers of a field is no burst of
// that field's words.
func LastBurstExpected(r, d []int, e []float64) (b Burst, ok bool) {
	n := len(r)
	var sr, sd, months int
	for t := range n {
		sr += r[t]
		sd += d[t]
		if d[t] > 0 {
			months++
		}
	}
	if n == 0 || sr == 0 || sd == 0 || sr >= sd || e != nil && len(e) != n {
		return b, false
	}
	p0 := float64(sr) / float64(sd)
	type rates struct{ lp0, lq0, lp1, lq1 float64 }
	at := make([]rates, n)
	for t := range n {
		q := p0
		if e != nil && d[t] > 0 {
			// a month's expected rate, kept off 0 and 1 (the burst
			// doubles it)
			q = min(max(e[t]/float64(d[t]), p0/1e3, 1e-9), 0.4995)
		}
		q1 := min(burstRate*q, 0.999)
		lp := math.Log(q)
		lp1 := lp + math.Ln2 // burstRate is 2
		if q1 != burstRate*q {
			lp1 = math.Log(q1)
		}
		at[t] = rates{lp, math.Log1p(-q), lp1, math.Log1p(-q1)}
	}
	cost := func(t int, burst bool) float64 {
		if burst {
			return -(float64(r[t])*at[t].lp1 + float64(d[t]-r[t])*at[t].lq1)
		}
		return -(float64(r[t])*at[t].lp0 + float64(d[t]-r[t])*at[t].lq0)
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
		mix := newSubjectMix(len(ix.dicts[dimSubject].ids), n, len(ords))
		for _, r := range rows {
			m := unpackDate(ix.rows[r].date).monthIndex()
			if m < 0 {
				continue
			}
			subjects := ix.rows[r].vals[dimSubject]
			mix.addPaper(m-lo, subjects)
			for _, c := range ix.rows[r].vals[dimConcept] {
				if i := cand[c]; i >= 0 {
					series[int(i)*n+m-lo]++
					mix.addUse(int(i), subjects)
				}
			}
		}
		expected := make([]float64, n)
		for i, c := range ords {
			if !burstFits(series[i*n+n-1], d[n-1], mix.expectedIn(i, n-1)) {
				// the base state explains its last month better, and
				// leaving a burst is free: no best sequence ends in one
				continue
			}
			mix.expected(i, expected)
			b, ok := LastBurstExpected(series[i*n:(i+1)*n], d, expected)
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
	// a rise of a term its papers are seldom about ("visual evidence",
	// "memory system") is a rise of vocabulary, not a new topic
	res, err = v.topics(res)
	if err != nil {
		return nil, err
	}
	res = dropFragments(res)
	// of two concepts with the same burst (a concept and its broader one,
	// used by the same papers), the narrower says more
	slices.SortFunc(res, func(a, b Emerged) int {
		return cmp.Or(cmp.Compare(b.Burst.Weight, a.Burst.Weight), cmp.Compare(b.Burst.Papers, a.Burst.Papers),
			cmp.Compare(len(strings.Fields(b.Node.Label)), len(strings.Fields(a.Node.Label))), cmp.Compare(a.Node.ID, b.Node.ID))
	})
	return res[:min(first, len(res))], nil
}

// burstFits reports whether r uses among d papers, e expected, are
// likelier at the burst's rate than at the base one.
func burstFits(r, d int, e float64) bool {
	if r == 0 || d == 0 || e <= 0 {
		return r > 0
	}
	q := min(e/float64(d), 0.4995)
	q1 := min(burstRate*q, 0.999)
	return float64(r)*math.Log(q1/q) > float64(d-r)*(math.Log1p(-q)-math.Log1p(-q1))
}

// subjectMix holds what Emerging expects of a concept month by month: the
// papers of each subject in each month, and the concept's papers in each
// subject. A paper of k subjects counts 1/k in each (one without counts
// under none). The concept's rate in a subject over the window, times the
// subject's papers in a month, summed over subjects, is what a month
// holds of the concept when nothing rises.
type subjectMix struct {
	months, width int
	perMonth      []float64 // [month*width + subject]; subject width-1 is none
	perSubject    []float64 // [subject], over all months
	uses          []float32 // [concept*width + subject]
}

func newSubjectMix(subjects, months, concepts int) *subjectMix {
	w := subjects + 1
	return &subjectMix{months: months, width: w, perMonth: make([]float64, months*w), perSubject: make([]float64, w),
		uses: make([]float32, concepts*w)}
}

func (m *subjectMix) addPaper(month int, subjects []uint32) {
	if len(subjects) == 0 {
		m.perMonth[month*m.width+m.width-1]++
		m.perSubject[m.width-1]++
		return
	}
	f := 1 / float64(len(subjects))
	for _, s := range subjects {
		m.perMonth[month*m.width+int(s)] += f
		m.perSubject[s] += f
	}
}

func (m *subjectMix) addUse(concept int, subjects []uint32) {
	u := m.uses[concept*m.width : (concept+1)*m.width]
	if len(subjects) == 0 {
		u[m.width-1]++
		return
	}
	f := 1 / float32(len(subjects))
	for _, s := range subjects {
		u[s] += f
	}
}

// expectedIn is the concept's expected papers in one month.
func (m *subjectMix) expectedIn(concept, month int) float64 {
	e := 0.0
	for s, c := range m.uses[concept*m.width : (concept+1)*m.width] {
		if c != 0 && m.perSubject[s] != 0 {
			e += float64(c) / m.perSubject[s] * m.perMonth[month*m.width+s]
		}
	}
	return e
}

// expected writes the concept's expected papers of each month into e.
func (m *subjectMix) expected(concept int, e []float64) {
	clear(e)
	for s, c := range m.uses[concept*m.width : (concept+1)*m.width] {
		if c == 0 || m.perSubject[s] == 0 {
			continue
		}
		q := float64(c) / m.perSubject[s]
		for t := range m.months {
			e[t] += q * m.perMonth[t*m.width+s]
		}
	}
}

// dropFragments leaves out an emerging concept whose name is inside the
// name of another emerging concept that holds four fifths as many papers
// in its burst, most of the same papers: "visual geometry" beside "visual geometry grounded
// transformer" (VGGT) says nothing more, and a fragment never stands
// alone.
func dropFragments(res []Emerged) []Emerged {
	words := make([][]string, len(res))
	for i, e := range res {
		words[i] = strings.FieldsFunc(strings.ToLower(e.Node.Label), func(r rune) bool { return r == ' ' || r == '-' })
	}
	out := res[:0]
	for i, e := range res {
		inside := false
		for j := range res {
			if j != i && len(words[j]) > len(words[i]) && 5*res[j].Burst.Papers >= 4*e.Burst.Papers && containsRun(words[j], words[i]) {
				inside = true
				break
			}
		}
		if !inside {
			out = append(out, e)
		}
	}
	return out
}

// containsRun reports whether long has short as a run of its words.
func containsRun(long, short []string) bool {
	for i := 0; i+len(short) <= len(long); i++ {
		if slices.Equal(long[i:i+len(short)], short) {
			return true
		}
	}
	return false
}
