package graph

import (
	"cmp"
	"slices"
)

// gains are the concepts papers gain in a settle, with their weights: one
// flat list of (paper, concept, weight), sorted and merged once, before
// it is applied. The first settle of a large ingest links most earlier
// papers (92% of the arXiv file's): held as a map of maps, a million
// papers' gains took ~0.7 GB, and an ingest in a 2 GiB memory limit was
// killed in its rescan; flat, an entry is 24 bytes.
type gains struct {
	list []gain
	// touched are papers rewritten even with nothing to gain (their
	// pending links are written then)
	touched []NodeID
	// after pack: every paper once, ascending, and where its entries
	// start in list (papers[i]'s are list[at[i]:at[i+1]])
	papers []NodeID
	at     []int
}

type gain struct {
	paper, concept NodeID
	w              float32 // links keep three decimals (Round3)
	scan           bool    // found by a rescan, not a recorded use
}

// add records that paper p gains concept c with weight w, from a recorded
// use of it (the largest weight of a pair wins).
func (g *gains) add(p, c NodeID, w float64) {
	g.list = append(g.list, gain{p, c, float32(w), false})
	g.papers = nil
}

// scanned records that a rescan found paper p saying concept c. A recorded
// use of the pair outweighs it, whatever their weights: the use's weight is
// the paper's own ranking of the term, the scan's a count of its mentions.
// A settle finds a concept's uses and its scan in one round, unless the
// concept is made during it (the broader term of one it drops): then the
// uses link the paper first, and the scan of the next pass leaves the link
// as it is (addMentions). Either way the use's weight stays, so a settle
// interrupted and run again, which finds both in one round, links as a
// clean one does.
func (g *gains) scanned(p, c NodeID, w float64) {
	g.list = append(g.list, gain{p, c, float32(w), true})
	g.papers = nil
}

// touch records paper p as rewritten, whatever it gains.
func (g *gains) touch(p NodeID) {
	g.touched = append(g.touched, p)
	g.papers = nil
}

// merge adds every gain and paper of o.
func (g *gains) merge(o *gains) {
	g.list = append(g.list, o.list...)
	g.touched = append(g.touched, o.touched...)
	g.papers = nil
}

// drop removes the gains of the concepts gone reports; a paper that loses
// them all is still rewritten, as one that gained nothing.
func (g *gains) drop(gone func(NodeID) bool) {
	g.list = slices.DeleteFunc(g.list, func(x gain) bool {
		if gone(x.concept) {
			g.touched = append(g.touched, x.paper)
			return true
		}
		return false
	})
	g.papers = nil
}

// pack sorts and merges the list and numbers the papers.
func (g *gains) pack() {
	if g.papers != nil {
		return
	}
	slices.SortFunc(g.list, func(a, b gain) int {
		if a.paper != b.paper {
			return cmp.Compare(a.paper, b.paper)
		}
		return cmp.Compare(a.concept, b.concept)
	})
	out := g.list[:0]
	for _, x := range g.list {
		if n := len(out); n > 0 && out[n-1].paper == x.paper && out[n-1].concept == x.concept {
			if y := &out[n-1]; y.scan == x.scan {
				y.w = max(y.w, x.w)
			} else if y.scan {
				*y = x
			}
			continue
		}
		out = append(out, x)
	}
	g.list = slices.Clip(out)
	slices.Sort(g.touched)
	g.touched = slices.Compact(g.touched)
	g.papers, g.at = []NodeID{}, nil
	i, t := 0, 0
	for i < len(g.list) || t < len(g.touched) {
		var p NodeID
		switch {
		case t == len(g.touched) || i < len(g.list) && g.list[i].paper <= g.touched[t]:
			p = g.list[i].paper
		default:
			p = g.touched[t]
		}
		g.papers = append(g.papers, p)
		g.at = append(g.at, i)
		for i < len(g.list) && g.list[i].paper == p {
			i++
		}
		for t < len(g.touched) && g.touched[t] == p {
			t++
		}
	}
	g.at = append(g.at, len(g.list))
}

// count is the number of papers that gain or are rewritten.
func (g *gains) count() int {
	g.pack()
	return len(g.papers)
}

// of is the i-th paper's gains (after pack), as a map its caller owns,
// with the three decimals a link keeps.
func (g *gains) of(i int) map[NodeID]float64 {
	m := make(map[NodeID]float64, g.at[i+1]-g.at[i])
	for _, x := range g.list[g.at[i]:g.at[i+1]] {
		m[x.concept] = Round3(float64(x.w))
	}
	return m
}

// empty reports whether no paper gains or is rewritten.
func (g *gains) empty() bool { return len(g.list) == 0 && len(g.touched) == 0 }
