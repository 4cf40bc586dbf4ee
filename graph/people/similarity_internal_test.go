package people

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// cosine is the similarity of two uses computed directly: the words'
// idf-weighted cosine, plus the subjects' (primary twice) and the
// affiliations' weighted as in groupSimilarity.
func cosine(pr Priors, a, b Evidence) float64 {
	cos := func(x, y []string, w func(i int, k string) float64) float64 {
		vx, vy := map[string]float64{}, map[string]float64{}
		nx, ny := 0.0, 0.0
		for i, k := range x {
			vx[k] = w(i, k)
			nx += vx[k] * vx[k]
		}
		for i, k := range y {
			vy[k] = w(i, k)
			ny += vy[k] * vy[k]
		}
		t := 0.0
		for k, v := range vx {
			t += v * vy[k]
		}
		if t == 0 {
			return 0
		}
		return t / math.Sqrt(nx*ny)
	}
	idf := func(_ int, k string) float64 { return pr.IDF(k) }
	primary := func(i int, _ string) float64 {
		if i == 0 {
			return 2
		}
		return 1
	}
	return cos(a.Words, b.Words, idf) + simSubjects*cos(a.Subjects, b.Subjects, primary) + simAffils*cos(a.Affils, b.Affils, idf)
}

// The similarity of two groups is the mean of their papers' pairwise
// similarities, though it is computed from the groups' sums.
func TestGroupSimilarityIsMeanOfPairs(t *testing.T) {
	pr := DefaultPriors()
	vocab := []string{"graph", "neural", "network", "molecule", "galaxy", "spectra", "reward", "policy", "agent", "protein", "language", "vision"}
	subjects := []string{"cs.LG", "cs.CL", "cs.CV", "astro-ph", "q-bio"}
	r := rand.New(rand.NewPCG(7, 7))
	pick := func(from []string, n int) []string {
		seen := map[string]bool{}
		var out []string
		for range n {
			if w := from[r.IntN(len(from))]; !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
		return out
	}
	var ev []Evidence
	var gs []*personGroup
	for g := range 12 {
		x := &personGroup{}
		for range 1 + r.IntN(5) {
			x.members = append(x.members, len(ev))
			ev = append(ev, Evidence{Paper: fmt.Sprint(len(ev)), Words: pick(vocab, 1+r.IntN(6)), Subjects: pick(subjects, 1+r.IntN(2)), Affils: pick(vocab[g%3:], r.IntN(2))})
		}
		gs = append(gs, x)
	}
	got := groupSimilarity(ev, pr, gs)
	for i := range gs {
		for j := range i {
			want := 0.0
			for _, a := range gs[i].members {
				for _, b := range gs[j].members {
					want += cosine(pr, ev[a], ev[b])
				}
			}
			want /= float64(len(gs[i].members) * len(gs[j].members))
			if math.Abs(got[i][j]-want) > 1e-12 || got[i][j] != got[j][i] {
				t.Errorf("groups %d and %d: %v (and %v), the mean of their pairs %v", i, j, got[i][j], got[j][i], want)
			}
		}
	}
}
