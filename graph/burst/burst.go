package burst

import "math"

const (
	// Rate (Kleinberg's s): in a burst a series is at this many times its
	// base rate.
	Rate = 2.0
	// Gamma (γ): entering a burst costs γ·ln(n), n the periods with
	// events; leaving one is free.
	Gamma = 1.0
)

// Burst is a run of periods in which a series is at the burst rate.
type Burst struct {
	Start, End int     // period indexes in the series, inclusive
	Weight     float64 // Σ over its periods of cost(base) − cost(burst): how much better the burst explains them
	Papers     int     // the series' events (a concept's papers) in those periods
}

// Last runs Kleinberg's two-state automaton (batched form: Kleinberg
// 2002, §4; as CiteSpace uses it) over a concept's papers r[t] among all
// papers d[t] of each period t, and returns the burst that includes the
// last period (ok false when that period is not in one).
//
// The base state uses the concept at its rate over the series, p0 = Σr/Σd;
// the burst state at p1 = min(s·p0, 0.999). A period's cost in a state is
// −ln of the binomial likelihood of r[t] uses among d[t] papers at that
// state's rate (the binomial coefficient, the same in both, left out);
// entering the burst state costs γ·ln(n), n the periods with papers. The
// optimal state sequence (Viterbi) is found exactly.
func Last(r, d []int) (b Burst, ok bool) { return LastExpected(r, d, nil) }

// LastExpected is Last with the base state's rate set period by period:
// e[t] papers of the concept are expected among the d[t] of period t (nil:
// Σr/Σd of each period's papers). Mix gives what a concept's rate in each
// subject expects of a period's mix of subjects, so that a month with more
// papers of a field is no burst of that field's words.
func LastExpected(r, d []int, e []float64) (b Burst, ok bool) {
	n := len(r)
	if len(d) != n || e != nil && len(e) != n {
		return b, false
	}
	var sr, sd, periods int
	for t := range n {
		sr += r[t]
		sd += d[t]
		if d[t] > 0 {
			periods++
		}
	}
	if n == 0 || sr == 0 || sd == 0 || sr >= sd {
		return b, false
	}
	p0 := float64(sr) / float64(sd)
	type rates struct{ lp0, lq0, lp1, lq1 float64 }
	at := make([]rates, n)
	for t := range n {
		q := p0
		if e != nil && d[t] > 0 {
			// a period's expected rate, kept off 0 and 1 (the burst
			// doubles it)
			q = min(max(e[t]/float64(d[t]), p0/1e3, 1e-9), 0.4995)
		}
		q1 := min(Rate*q, 0.999)
		lp := math.Log(q)
		lp1 := lp + math.Ln2 // Rate is 2
		if q1 != Rate*q {
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
	enter := Gamma * math.Log(float64(max(periods, 2)))
	// c0, c1: the least cost of periods 0..t ending in the base or the
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

// Fits reports whether r uses among d papers, e expected, are likelier at
// the burst's rate than at the base one. A series whose last period fails
// it ends in no burst (leaving one is free), so callers skip it before
// running the automaton.
func Fits(r, d int, e float64) bool {
	if r == 0 || d == 0 || e <= 0 {
		return r > 0
	}
	q := min(e/float64(d), 0.4995)
	q1 := min(Rate*q, 0.999)
	return float64(r)*math.Log(q1/q) > float64(d-r)*(math.Log1p(-q)-math.Log1p(-q1))
}
