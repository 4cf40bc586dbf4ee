package graph

import (
	"context"
	"fmt"
	"maps"
	"slices"
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

// EvidenceWords is evidenceWords, for tests.
var EvidenceWords = evidenceWords

// IsAbbreviated is isAbbreviated, for tests.
var IsAbbreviated = isAbbreviated

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
	return c.encode(), nil
}

// FacetRows describes every paper as the service's facet index holds it,
// brought up to date (FactsString), after checking the index's lists
// against its rows.
func FacetRows(s *Service) (map[NodeID]string, error) {
	out := map[NodeID]string{}
	err := s.withIndex(context.Background(), func(ix *facetIndex) error {
		if err := ix.check(); err != nil {
			return err
		}
		for i := range ix.rows {
			row := &ix.rows[i]
			if row.dead {
				continue
			}
			var vals [numDims][]NodeID
			for d, vs := range row.vals {
				for _, v := range vs {
					vals[d] = append(vals[d], ix.dicts[d].ids[v])
				}
			}
			ws := map[NodeID]float64{}
			for j, c := range vals[dimConcept] {
				ws[c] = float64(row.weights[j]) / 1000
			}
			out[row.id] = FactsString(unpackDate(row.date), vals[dimSubject], vals[dimAuthor], ws)
		}
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

// check verifies the index's order and lists against its rows: each list
// holds exactly the live rows with its value, newest first.
func (ix *facetIndex) check() error {
	sorted := func(l []uint32) bool {
		for i := 1; i < len(l); i++ {
			if !ix.newer(l[i-1], l[i]) {
				return false
			}
		}
		return true
	}
	if len(ix.order) != ix.live || !sorted(ix.order) {
		return fmt.Errorf("order: %d rows, %d live, sorted %v", len(ix.order), ix.live, sorted(ix.order))
	}
	for d := range ix.dicts {
		want := make([][]uint32, len(ix.dicts[d].ids))
		for _, r := range ix.order {
			for _, v := range ix.rows[r].vals[d] {
				want[v] = append(want[v], r)
			}
		}
		for v, p := range ix.dicts[d].posts {
			if !slices.Equal(p, want[v]) {
				return fmt.Errorf("list of %s: %v, rows say %v", ix.dicts[d].ids[v], p, want[v])
			}
		}
	}
	return nil
}

var EdgeEnds = edgeEnds

// SetRelCacheMin sets the list size from which a concept's relevance
// order is kept; the returned function restores it.
func SetRelCacheMin(n int) (restore func()) {
	old := relCacheMin
	relCacheMin = n
	return func() { relCacheMin = old }
}

// SetPostWeightsMin sets the list size from which a concept's weights in
// its papers are kept; the returned function restores it.
func SetPostWeightsMin(n int) (restore func()) {
	old := postWeightsMin
	postWeightsMin = n
	return func() { postWeightsMin = old }
}

// SetRelWordPostings computes related work's title-word cosine through
// the words' rows (true) or each candidate's words.
func SetRelWordPostings(on bool) (restore func()) {
	old := relWordPostings
	relWordPostings = on
	return func() { relWordPostings = old }
}

// SetClearWrites bounds the writes of a transaction that clears the
// concept layer; the returned function restores the bound.
func SetClearWrites(n int) (restore func()) {
	old := clearWrites
	clearWrites = n
	return func() { clearWrites = old }
}
