package graph

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/researchkg/kg/graph/paperindex"
	"github.com/researchkg/kg/graph/people"
)

// SetCoRecountMin sets how many papers to count make a settle recount
// every co-occurrence pair; the returned function restores it.
func SetCoRecountMin(n int) (restore func()) {
	old := coRecountMin
	coRecountMin = n
	return func() { coRecountMin = old }
}

// SetSettleWrites bounds the writes of a settle's transactions; the
// returned function restores the bound.
func SetSettleWrites(n int) (restore func()) {
	old := settleWrites
	settleWrites = n
	return func() { settleWrites = old }
}

// Store is the service's store, for tests.
func (s *Service) Store() Store { return s.store }

// DecodeProfileLen decodes a stored profile and returns its co-authors.
func DecodeProfileLen(b []byte) (int, error) {
	p, err := decodeProfile(b)
	return len(p.coauthors), err
}

// ReencodeCursor decodes a cursor of a list in order o and encodes it
// again.
func ReencodeCursor(s string, o PaperOrder) (string, error) {
	c, err := decodeCursor(s, o)
	if err != nil {
		return "", err
	}
	return c.Encode(), nil
}

// FacetRows describes every paper as the service's facet index holds it,
// brought up to date (FactsString), after checking the index's lists
// against its rows.
func FacetRows(s *Service) (map[NodeID]string, error) {
	out := map[NodeID]string{}
	err := s.withIndex(context.Background(), func(ix *paperindex.Index) error {
		if err := ix.Check(); err != nil {
			return err
		}
		all := paperindex.Everything()
		ix.Each(&all, func(f paperindex.Facts) bool {
			ws := map[NodeID]float64{}
			for j, c := range f.Concepts {
				ws[NodeID(c)] = f.Weights[j]
			}
			out[NodeID(f.ID)] = FactsString(unpackDate(f.Date), nodeIDs(f.Subjects), nodeIDs(f.Authors), ws)
			return true
		})
		return nil
	})
	return out, err
}

// FactsString renders what the facet index holds of a paper, in one
// canonical form.
func FactsString(d Date, subjects, authors []NodeID, concepts map[NodeID]float64) string {
	s := slices.Sorted(slices.Values(subjects))
	a := slices.Sorted(slices.Values(authors))
	var cs []string
	for _, c := range slices.Sorted(maps.Keys(concepts)) {
		cs = append(cs, fmt.Sprintf("%s=%.3f", c, Round3(concepts[c])))
	}
	return fmt.Sprintf("%s %v %v %v", d, s, a, cs)
}

var EdgeEnds = edgeEnds

// SetRelCacheMin sets the list size from which a concept's relevance
// order is kept; the returned function restores it.
func SetRelCacheMin(n int) (restore func()) {
	k := paperindex.CurrentKnobs()
	k.RelevanceCacheMin = n
	return paperindex.SetKnobs(k)
}

// SetPostWeightsMin sets the list size from which a concept's weights in
// its papers are kept; the returned function restores it.
func SetPostWeightsMin(n int) (restore func()) {
	k := paperindex.CurrentKnobs()
	k.PostingWeightsMin = n
	return paperindex.SetKnobs(k)
}

// SetRelWordPostings computes related work's title-word cosine through
// the words' rows (true) or each candidate's words.
func SetRelWordPostings(on bool) (restore func()) {
	k := paperindex.CurrentKnobs()
	k.WordPostings = on
	return paperindex.SetKnobs(k)
}

// SetClearWrites bounds the writes of a transaction that clears the
// concept layer; the returned function restores the bound.
func SetClearWrites(n int) (restore func()) {
	old := clearWrites
	clearWrites = n
	return func() { clearWrites = old }
}

// ClusterWords are the words clustering compares a paper by, read as a
// settle reads them (fillEvidence).
func ClusterWords(r Reader, paper NodeID) ([]string, error) {
	n, err := r.Node(paper)
	if err != nil {
		return nil, err
	}
	rp := &roundPapers{ids: []NodeID{paper}, facts: make([]paperFacts, 1)}
	if err := readPaperFacts(r, map[NodeID]string{}, paper, &rp.facts[0]); err != nil {
		return nil, err
	}
	c := &peopleCache{round: rp}
	var e people.Evidence
	c.fillEvidence(&e, &personUse{paper: n})
	return e.Words, nil
}
