package burst_test

import (
	"testing"

	"github.com/researchkg/kg/graph/burst"
)

func TestLastBurst(t *testing.T) {
	flat := []int{100, 100, 100, 100, 100, 100}
	for _, c := range []struct {
		name       string
		r, d       []int
		ok         bool
		start, pap int
	}{
		{"steady use", []int{5, 6, 4, 5, 6, 5}, flat, false, 0, 0},
		{"never used", []int{0, 0, 0, 0, 0, 0}, flat, false, 0, 0},
		{"rising in the last two months", []int{2, 3, 2, 3, 20, 25}, flat, true, 4, 45},
		{"new in the last month", []int{0, 0, 0, 0, 0, 12}, flat, true, 5, 12},
		{"a burst that ended", []int{2, 20, 25, 3, 2, 3}, flat, false, 0, 0},
		// the same share of fewer papers is no burst: rates, not counts
		{"fewer papers, same share", []int{5, 5, 5, 5, 2, 2}, []int{100, 100, 100, 100, 40, 40}, false, 0, 0},
		{"more papers, same share", []int{5, 5, 5, 5, 20, 20}, []int{100, 100, 100, 100, 400, 400}, false, 0, 0},
		{"one month", []int{3}, []int{10}, false, 0, 0},
		{"empty months between", []int{1, 0, 1, 0, 1, 15}, []int{100, 0, 100, 0, 100, 100}, true, 5, 15},
	} {
		b, ok := burst.Last(c.r, c.d)
		if ok != c.ok || ok && (b.Start != c.start || b.End != len(c.r)-1 || b.Papers != c.pap || b.Weight <= 0) {
			t.Errorf("%s: %+v %v, want ok %v from %d with %d papers", c.name, b, ok, c.ok, c.start, c.pap)
		}
	}
	// a stronger burst weighs more
	weak, _ := burst.Last([]int{2, 3, 2, 3, 10, 12}, flat)
	strong, _ := burst.Last([]int{2, 3, 2, 3, 30, 40}, flat)
	if weak.Weight >= strong.Weight {
		t.Errorf("weights %.2f (weak) and %.2f (strong)", weak.Weight, strong.Weight)
	}
}

func FuzzLastBurst(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4}, []byte{10, 10, 10, 10})
	f.Fuzz(func(t *testing.T, rb, db []byte) {
		n := min(len(rb), len(db))
		r, d := make([]int, n), make([]int, n)
		for i := range n {
			d[i] = int(db[i])
			r[i] = min(int(rb[i]), d[i])
		}
		b, ok := burst.Last(r, d)
		if ok && (b.Start < 0 || b.End != n-1 || b.Start > b.End || b.Weight <= 0) {
			t.Fatalf("r %v d %v: burst %+v", r, d, b)
		}
	})
}

// A month's expected uses come from its mix of subjects: uses that rise
// as the expectation rises are no burst, the same uses against a flat
// expectation are one.
func TestLastBurstExpected(t *testing.T) {
	r := []int{5, 5, 5, 5, 20, 20}
	d := []int{100, 100, 100, 100, 100, 100}
	if _, ok := burst.LastExpected(r, d, []float64{5, 5, 5, 5, 20, 20}); ok {
		t.Error("uses that follow what the subjects expect make a burst")
	}
	if b, ok := burst.LastExpected(r, d, nil); !ok || b.Start != 4 {
		t.Errorf("the same uses against the series' rate: %+v %v, want a burst from month 4", b, ok)
	}
}

// Mix expects of each month what the concept's rate in each subject gives
// for that month's papers: a concept used by half of cs.IT's papers and
// none of cs.LG's is expected at half the cs.IT papers of a month.
func TestMixExpects(t *testing.T) {
	const lg, it = 0, 1
	m := burst.NewMix(2, 3, 1)
	papers := [][2]int{{10, 10}, {10, 10}, {10, 30}} // per month: cs.LG, cs.IT
	for month, n := range papers {
		for range n[lg] {
			m.AddPaper(month, []uint32{lg})
		}
		for i := range n[it] {
			m.AddPaper(month, []uint32{it})
			if i%2 == 0 {
				m.AddUse(0, []uint32{it})
			}
		}
	}
	e := make([]float64, 3)
	m.Expected(0, e)
	for month, want := range []float64{5, 5, 15} {
		if got := e[month]; got < want-1e-9 || got > want+1e-9 {
			t.Errorf("month %d: expected %.3f uses, want %.3f", month, got, want)
		}
		if got := m.ExpectedIn(0, month); got < want-1e-9 || got > want+1e-9 {
			t.Errorf("ExpectedIn month %d: %.3f, want %.3f", month, got, want)
		}
	}
	// the uses that follow the mix are no burst; the same uses against
	// the series' rate are one
	r := []int{5, 5, 15}
	d := []int{20, 20, 40}
	if b, ok := burst.LastExpected(r, d, e); ok {
		t.Errorf("uses that follow the subjects' mix: burst %+v", b)
	}
	if burst.Fits(15, 40, e[2]) {
		t.Error("Fits: the last month's uses as expected fit a burst")
	}
	if !burst.Fits(30, 40, e[2]) {
		t.Error("Fits: twice the expected uses do not fit a burst")
	}
}

func FuzzLastExpected(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4}, []byte{10, 10, 10, 10}, []byte{1, 2, 1, 9})
	f.Fuzz(func(t *testing.T, rb, db, eb []byte) {
		n := min(len(rb), len(db))
		r, d := make([]int, n), make([]int, n)
		var e []float64
		if len(eb) >= n {
			e = make([]float64, n)
		}
		for i := range n {
			d[i] = int(db[i])
			r[i] = min(int(rb[i]), d[i])
			if e != nil {
				e[i] = float64(eb[i]) / 4
			}
		}
		b, ok := burst.LastExpected(r, d, e)
		if ok && (b.Start < 0 || b.End != n-1 || b.Start > b.End || b.Weight <= 0) {
			t.Fatalf("r %v d %v e %v: burst %+v", r, d, e, b)
		}
		if n > 0 {
			burst.Fits(r[n-1], d[n-1], float64(len(eb)))
		}
		// mismatched lengths are no burst, not a panic
		if _, ok := burst.LastExpected(r, d[:n/2], nil); ok && n/2 != n {
			t.Fatalf("series of %d and %d months made a burst", n, n/2)
		}
	})
}
