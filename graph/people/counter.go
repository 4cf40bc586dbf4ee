package people

import "github.com/researchkg/kg/graph/ident"

// Counting the prior table from papers: the test that regenerates
// priors.tsv.gz (go test ./graph -run PriorTable -update) does it, from the
// shared arXiv file.

// PriorCounter counts a PriorTable from papers.
type PriorCounter struct {
	names map[string]bool
	t     PriorTable
}

// NewPriorCounter starts an empty count.
func NewPriorCounter() *PriorCounter {
	return &PriorCounter{names: map[string]bool{}, t: PriorTable{
		First: map[string]int32{}, Last: map[string]int32{}, DF: map[string]int32{}}}
}

// Add counts one paper: its author names as written, title and abstract.
func (c *PriorCounter) Add(authors []string, title, abstract string) {
	for _, a := range authors {
		k := ident.FoldKey(a)
		if k == "" || c.names[k] || IsAbbreviated(ident.LatexToText(a)) {
			continue
		}
		c.names[k] = true
		first, last := nameParts(k)
		c.t.Names++
		if first != "" {
			c.t.First[first]++
		}
		c.t.Last[last]++
	}
	c.t.Docs++
	for _, w := range EvidenceWords(title, []string{abstract}) {
		c.t.DF[w]++
	}
}

// Table returns the counts, leaving out the names and words counted once
// (they are as rare as those never seen) so the table stays small.
func (c *PriorCounter) Table() *PriorTable {
	t := c.t
	t.First, t.Last, t.DF = drop1(t.First), drop1(t.Last), drop1(t.DF)
	return &t
}

func drop1(m map[string]int32) map[string]int32 {
	out := make(map[string]int32, len(m)/2)
	for k, v := range m {
		if v > 1 {
			out[k] = v
		}
	}
	return out
}
