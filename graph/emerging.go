// Emerging concepts: Kleinberg's burst detection over the months of a
// filter's window. See doc.go ("Emerging concepts") for the score and why.

package graph

import (
	"cmp"
	"slices"
	"strings"

	"github.com/researchkg/kg/graph/burst"
	"github.com/researchkg/kg/graph/paperindex"
)

// minBurstPapers: a burst must hold at least this many of the concept's
// papers (a concept going from one paper to three is no trend).
const minBurstPapers = 5

// Emerged is a concept in a burst at the end of a window.
type Emerged struct {
	Node  *Node
	Burst burst.Burst
	Since string // the burst's first month, "YYYY-MM"
}

// Emerging finds the concepts in a burst (burst.LastExpected) at the end of a
// selection's window, begun within it, among the papers it matches:
// strongest first (by weight, then papers, then the narrower concept:
// more words), of at least minBurstPapers papers. The window is the selection's months (its month
// or year bounds), its end cut to the last month with papers; the months
// before it are the concept's history, against which a burst is one.
// Papers of unknown month are not counted.
func (v *View) Emerging(s *Selection, first int) ([]Emerged, error) {
	s = s.orAll()
	var out []paperindex.Emerged
	if err := v.withIndex(func(ix *paperindex.Index) error {
		out = ix.Emerging(&s.q, minBurstPapers)
		return nil
	}); err != nil {
		return nil, err
	}
	res := make([]Emerged, 0, len(out))
	for _, f := range out {
		n, err := v.Node(NodeID(f.ID))
		if ErrorCode(err) == NotFound {
			continue
		} else if err != nil {
			return nil, err
		}
		f.Burst.Weight = Round3(f.Burst.Weight)
		res = append(res, Emerged{Node: n, Burst: f.Burst, Since: monthOfIndex(f.Since).MonthString()})
	}
	// a rise of a term its papers are seldom about ("visual evidence",
	// "memory system") is a rise of vocabulary, not a new topic
	res, err := v.topics(res)
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
