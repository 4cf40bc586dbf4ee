// Facets and rankings: papers counted by year, month, subject, concept or
// person, over the papers a filter selects, from the facet index.

package graph

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/researchkg/kg/graph/paperindex"
)

// Facet is a dimension papers are counted by.
type Facet int

// The facets.
const (
	FacetYear Facet = iota + 1
	FacetMonth
	FacetSubject
	FacetConcept
	FacetAuthor
)

// dim is the index dimension of a node facet.
func (f Facet) dim() (int, bool) {
	switch f {
	case FacetSubject:
		return paperindex.Subject, true
	case FacetConcept:
		return paperindex.Concept, true
	case FacetAuthor:
		return paperindex.Author, true
	}
	return 0, false
}

// Bucket is one bar of a facet: the papers of a year, a month, a subject,
// a concept or a person among those a filter selects.
type Bucket struct {
	Key   string // "2025", "2025-07", a subject's code, a node's id
	Label string // what a person reads
	Count int
	Node  *Node // the subject, concept or person (nil for years and months)
}

// FacetResult is a facet's buckets and the number of distinct papers the
// filter selects.
type FacetResult struct {
	Total   int
	Buckets []Bucket
}

// Facets counts the papers a selection matches by a facet: for years and
// months every bucket from the first to the last that has papers (empty
// ones between them included), by key; for subjects, concepts and people
// the first buckets by count descending, then key. A paper is counted
// once in each bucket it belongs to; a paper of unknown year (month) is in
// no year (month) bucket, but in Total.
func (v *View) Facets(by Facet, s *Selection, first int) (FacetResult, error) {
	s = s.orAll()
	var res FacetResult
	var nodes []paperindex.Counted
	var periods []int // year or month index, count
	err := v.withIndex(func(ix *paperindex.Index) error {
		if d, ok := by.dim(); ok {
			res.Total, nodes = ix.Top(d, &s.q, first, idName)
		} else {
			res.Total, periods = ix.Periods(&s.q, by == FacetMonth)
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	if nodes == nil {
		for i := 0; i < len(periods); i += 2 {
			var key, label string
			if by == FacetMonth {
				d := monthOfIndex(periods[i])
				key, label = d.MonthString(), time.Month(d.Month).String()+" "+fmt.Sprint(d.Year)
			} else {
				key = fmt.Sprint(periods[i])
				label = key
			}
			res.Buckets = append(res.Buckets, Bucket{Key: key, Label: label, Count: periods[i+1]})
		}
		return res, nil
	}
	res.Buckets = make([]Bucket, 0, len(nodes))
	for _, c := range nodes {
		id := NodeID(c.ID)
		n, err := v.Node(id)
		if ErrorCode(err) == NotFound {
			continue // gone since the index was read
		} else if err != nil {
			return res, err
		}
		b := Bucket{Key: id.String(), Label: n.Label, Count: c.Count, Node: n}
		switch n.Kind() {
		case KindSubject:
			b.Key = n.Label
			if n.Name != "" {
				b.Label = n.Name
			}
		case KindAuthor:
			if b.Label, err = v.PersonLabel(n); err != nil {
				return res, err
			}
		}
		res.Buckets = append(res.Buckets, b)
	}
	if by == FacetSubject {
		res.Buckets = sortSubjects(res.Buckets, first)
	}
	return res, nil
}

// idName is a node's id as GraphQL shows it: ties in a ranking are
// ordered by it.
func idName(id uint64) string { return NodeID(id).String() }

// Ranked is a node with the number of papers it has among those a filter
// selects, and a score (Top: the share of those papers; Emerging: the
// burst's weight).
type Ranked struct {
	Node  *Node
	Count int
	Score float64
}

// Top ranks people, concepts or subjects by their papers among those a
// selection matches: count descending, then key, as Facets orders its
// buckets. The score is the share of the matching papers.
func (v *View) Top(kind Kind, s *Selection, first int) ([]Ranked, error) {
	s = s.orAll()
	by := map[Kind]Facet{KindAuthor: FacetAuthor, KindConcept: FacetConcept, KindSubject: FacetSubject}[kind]
	if by == 0 {
		return nil, Errorf(Invalid, "top ranks people (AUTHOR), concepts (CONCEPT) or subjects (SUBJECT), not %s", kind)
	}
	res, err := v.Facets(by, s, first)
	if err != nil {
		return nil, err
	}
	out := make([]Ranked, 0, len(res.Buckets))
	for _, b := range res.Buckets {
		out = append(out, Ranked{Node: b.Node, Count: b.Count, Score: Round3(float64(b.Count) / float64(max(res.Total, 1)))})
	}
	return out, nil
}

// sortSubjects orders subject buckets by count descending, then code, and
// keeps the first.
func sortSubjects(bs []Bucket, first int) []Bucket {
	slices.SortFunc(bs, func(a, b Bucket) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Key, b.Key))
	})
	return bs[:min(first, len(bs))]
}
