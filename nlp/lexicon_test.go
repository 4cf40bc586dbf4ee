package nlp

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph/ident"
)

// TestNominalIngEvidence recomputes the corpus evidence behind nominalIng
// from the first 30,000 abstracts of the arXiv file, and lists the -ing
// words that pass the test (lexicon.go) with their figures, and how the
// list differs from the lexicon. It runs only with KG_LEXICON=1 (a minute
// on 2 cores), and never fails: the list is a curated copy.
//
//	KG_LEXICON=1 go test -run NominalIngEvidence -v ./nlp
func TestNominalIngEvidence(t *testing.T) {
	if os.Getenv("KG_LEXICON") == "" {
		t.Skip("set KG_LEXICON=1 to recompute the -ing lexicon's evidence")
	}
	sc, err := ArXivLines(t)
	if err != nil {
		t.Skipf("arXiv file not available (%v): it is in ../shared, beside the clone", err)
	}
	type evidence struct{ n, compound, object int }
	m := map[string]*evidence{}
	e := New()
	for docs := 0; docs < 30000 && sc.Scan(); docs++ {
		var rec struct{ Abstract string }
		if json.Unmarshal(sc.Bytes(), &rec) != nil {
			continue
		}
		toks := e.tag(repairText(ident.LatexToText(rec.Abstract)))
		for i, tk := range toks {
			w := strings.ToLower(tk.text)
			if len(w) < 5 || !strings.HasSuffix(w, "ing") || strings.Contains(w, "-") {
				continue
			}
			ev := m[w]
			if ev == nil {
				ev = &evidence{}
				m[w] = ev
			}
			ev.n++
			if i > 0 {
				if p := toks[i-1].tag; p == "NN" || p == "NNP" || p == "JJ" || p == "VBG" {
					ev.compound++ // after a singular noun or an adjective: a compound's head
				}
			}
			if i+1 < len(toks) {
				next := toks[i+1]
				if objectStart[strings.ToLower(next.text)] || next.tag == "PRP" || next.tag == "PRP$" || next.tag == "CD" {
					ev.object++ // a verb taking its object
				}
			}
		}
	}
	var pass []string
	for w, ev := range m {
		if ev.n >= 30 && float64(ev.compound) >= 0.40*float64(ev.n) && float64(ev.object) <= 0.08*float64(ev.n) {
			pass = append(pass, w)
		}
	}
	slices.Sort(pass)
	var lines, missing []string
	for _, w := range pass {
		ev := m[w]
		lines = append(lines, fmt.Sprintf("%s (%d, compound %.2f, object %.2f)", w, ev.n, float64(ev.compound)/float64(ev.n), float64(ev.object)/float64(ev.n)))
		if !nominalIng[w] {
			missing = append(missing, w)
		}
	}
	var extra []string
	for w := range nominalIng {
		if !slices.Contains(pass, w) {
			extra = append(extra, w)
		}
	}
	slices.Sort(extra)
	t.Logf("%d words pass:\n%s", len(pass), strings.Join(lines, "\n"))
	t.Logf("pass but not in the lexicon (dropped by hand): %v", missing)
	t.Logf("in the lexicon but not passing (added by hand, or below the threshold here): %v", extra)
}
