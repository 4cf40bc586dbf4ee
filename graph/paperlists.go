// Paper lists from the facet index: a node's papers or a filter's, newest,
// oldest or most relevant first, a page at a time; the papers two people
// share; co-authors over the papers a filter selects.

package graph

import (
	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/paperindex"
)

// PaperOrder orders a paper list.
type PaperOrder int

// The orders of paper lists.
const (
	// Newest: by date descending (a paper known by its month after that
	// month's dated papers, one known by its year after that year's),
	// then by title.
	Newest PaperOrder = iota + 1
	// Oldest: the reverse.
	Oldest
	// Relevance: by the weight of the list's concepts in the paper (the
	// concept of Concept.papers, the filter's concepts: the best of them),
	// then newest first. Without concepts it is Newest.
	Relevance
)

// decodeCursor validates a cursor of a list in order o.
func decodeCursor(s string, o PaperOrder) (paperindex.Cursor, error) {
	c, err := paperindex.DecodeCursor(s, paperindex.Order(o))
	if err == paperindex.ErrCursorOrder {
		return c, Errorf(Invalid, "cursor %q is of a list in another order", ident.Clip(s, 64))
	}
	if err != nil || NodeID(c.Key.ID).Kind() != KindPaper {
		return c, Errorf(Invalid, "invalid cursor %q", ident.Clip(s, 64))
	}
	return c, nil
}

// DecodeCursor checks a cursor of a newest-first list.
func DecodeCursor(s string) error {
	_, err := decodeCursor(s, Newest)
	return err
}

// PaperPage is one page of an ordered paper list.
type PaperPage struct {
	Total     int
	Papers    []*Node
	Cursors   []string
	HasNext   bool
	EndCursor string
}

// Papers returns a page of the papers of owner (a person's, a subject's or
// a concept's), newest first.
func (v *View) Papers(owner NodeID, first int, after string) (PaperPage, error) {
	return v.PaperList(selectAll(), owner, Newest, first, after)
}

// PaperList returns a page of the papers a selection matches, of owner too
// when it is not 0 (a person, subject or concept), in an order, starting
// after a cursor of the same list ("" for the first page).
func (v *View) PaperList(s *Selection, owner NodeID, order PaperOrder, first int, after string) (PaperPage, error) {
	s = s.orAll()
	if owner != 0 {
		if _, ok := dimOf(owner.Kind()); !ok {
			return PaperPage{}, Errorf(Invalid, "%s has no paper list", owner)
		}
		s = s.with(owner)
	}
	var start *paperindex.Cursor
	if after != "" {
		c, err := decodeCursor(after, order)
		if err != nil {
			return PaperPage{}, err
		}
		start = &c
	}
	var page PaperPage
	var p paperindex.Page
	if err := v.withIndex(func(ix *paperindex.Index) error {
		p = ix.List(&s.q, paperindex.Order(order), first, start)
		return nil
	}); err != nil {
		return page, err
	}
	page.Total, page.HasNext = p.Total, p.HasNext
	ids, cursors := p.Papers, p.Cursors
	for i, id := range ids {
		n, err := v.Node(NodeID(id))
		if ErrorCode(err) == NotFound {
			continue // stored after this request's snapshot
		} else if err != nil {
			return page, err
		}
		page.Papers = append(page.Papers, n)
		page.Cursors = append(page.Cursors, cursors[i].Encode())
	}
	if len(cursors) > 0 {
		page.EndCursor = cursors[len(cursors)-1].Encode()
	}
	return page, nil
}

// SharedPapers returns the papers both people wrote, newest first.
func (v *View) SharedPapers(a, b NodeID) ([]*Node, error) {
	return v.SharedPapersWhere(selectAll(), a, b)
}

// SharedPapersWhere returns the papers both people wrote among those a
// selection matches, newest first.
func (v *View) SharedPapersWhere(s *Selection, a, b NodeID) ([]*Node, error) {
	s = s.orAll()
	var ids []uint64
	if err := v.withIndex(func(ix *paperindex.Index) error {
		ids = ix.Papers(&s.with(a).with(b).q)
		return nil
	}); err != nil {
		return nil, err
	}
	return v.Nodes(nodeIDs(ids))
}

// CoAuthorsWhere returns a person's co-authors counted over the papers a
// selection matches, by number of those papers, then name.
func (v *View) CoAuthorsWhere(s *Selection, a NodeID, first int) ([]Coauthor, error) {
	s = s.orAll()
	weights := map[NodeID]int{}
	if err := v.withIndex(func(ix *paperindex.Index) error {
		for b, n := range ix.CoAuthors(&s.q, uint64(a)) {
			weights[NodeID(b)] = n
		}
		return nil
	}); err != nil {
		return nil, err
	}
	return topCoauthors(weights, first, v.Node)
}

// PaperCount is the number of papers of a person, subject or concept (its
// stored degree: no index needed).
func (v *View) PaperCount(owner NodeID) (int, error) {
	var t EdgeType
	switch owner.Kind() {
	case KindAuthor:
		t = Authored
	case KindSubject:
		t = InSubject
	case KindConcept:
		t = Mentions
	default:
		return 0, Errorf(Invalid, "%s has no paper list", owner)
	}
	n, err := v.r.Counter(degreeCounter(owner, t))
	return int(n), err
}
