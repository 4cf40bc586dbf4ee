// Paper lists from the facet index: a node's papers or a filter's, newest,
// oldest or most relevant first, a page at a time; the papers two people
// share; co-authors over the papers a filter selects.

package graph

import (
	"encoding/base64"
	"encoding/binary"
	"slices"
	"sort"
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

var orderTags = map[PaperOrder]byte{Newest: 'n', Oldest: 'o', Relevance: 'r'}

// cursor is a paper's place in an ordered list.
type cursor struct {
	order  PaperOrder
	key    listKey
	weight uint16
}

// encode: tag (1) | date (4) | weight (2) | id (8) | title key.
func (c cursor) encode() string {
	b := make([]byte, 0, 15+len(c.key.title))
	b = append(b, orderTags[c.order])
	b = binary.BigEndian.AppendUint32(b, c.key.date)
	b = binary.BigEndian.AppendUint16(b, c.weight)
	b = binary.BigEndian.AppendUint64(b, uint64(c.key.id))
	b = append(b, c.key.title...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor validates a cursor of a list in order o.
func decodeCursor(s string, o PaperOrder) (cursor, error) {
	bad := func() (cursor, error) { return cursor{}, Errorf(Invalid, "invalid cursor %q", truncate(s, 64)) }
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) < 15 || len(b) > 15+titleOrderLen {
		return bad()
	}
	if b[0] != orderTags[o] {
		return cursor{}, Errorf(Invalid, "cursor %q is of a list in another order", truncate(s, 64))
	}
	c := cursor{order: o, weight: binary.BigEndian.Uint16(b[5:7])}
	c.key = listKey{date: binary.BigEndian.Uint32(b[1:5]), id: NodeID(binary.BigEndian.Uint64(b[7:15])), title: string(b[15:])}
	if c.key.id.Kind() != KindPaper || c.weight > 1000 {
		return bad()
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
	var start cursor
	if after != "" {
		c, err := decodeCursor(after, order)
		if err != nil {
			return PaperPage{}, err
		}
		start = c
	}
	var page PaperPage
	var ids []NodeID
	var cursors []cursor
	err := v.withIndex(func(ix *facetIndex) error {
		rows := ix.match(s)
		page.Total = len(rows)
		var weights []uint16
		concepts := s.concepts()
		switch {
		case order == Oldest:
			rows = slices.Clone(rows)
			slices.Reverse(rows)
		case order == Relevance && len(concepts) > 0:
			rows, weights = ix.relevanceOrder(rows, concepts)
		}
		i := 0
		if after != "" {
			i = sort.Search(len(rows), func(i int) bool {
				c := cursor{order: order, key: ix.key(rows[i])}
				if weights != nil {
					c.weight = weights[i]
				}
				return start.precedes(c)
			})
		}
		end := min(i+first, len(rows))
		page.HasNext = end < len(rows)
		for j := i; j < end; j++ {
			c := cursor{order: order, key: ix.key(rows[j])}
			if weights != nil {
				c.weight = weights[j]
			}
			ids = append(ids, c.key.id)
			cursors = append(cursors, c)
		}
		return nil
	})
	if err != nil {
		return page, err
	}
	for i, id := range ids {
		n, err := v.Node(id)
		if ErrorCode(err) == NotFound {
			continue // stored after this request's snapshot
		} else if err != nil {
			return page, err
		}
		page.Papers = append(page.Papers, n)
		page.Cursors = append(page.Cursors, cursors[i].encode())
	}
	if len(cursors) > 0 {
		page.EndCursor = cursors[len(cursors)-1].encode()
	}
	return page, nil
}

// precedes reports whether c comes before d in their list's order.
func (c cursor) precedes(d cursor) bool {
	switch c.order {
	case Oldest:
		return d.key.before(c.key)
	case Relevance:
		if c.weight != d.weight {
			return c.weight > d.weight
		}
	}
	return c.key.before(d.key)
}

// relCacheMin is the size of a concept's list from which its relevance
// order is kept between queries.
var relCacheMin = 512

// relevanceOrder is byRelevance, taken from byRel when rows are a large
// concept's whole list. The result may be shared: read it, never change
// it.
func (ix *facetIndex) relevanceOrder(rows []uint32, concepts []NodeID) ([]uint32, []uint16) {
	if len(concepts) != 1 || len(rows) < relCacheMin {
		return ix.byRelevance(rows, concepts)
	}
	o, ok := ix.dicts[dimConcept].ord[concepts[0]]
	if posts := ix.dicts[dimConcept].posts; !ok || len(posts[o]) != len(rows) || &posts[o][0] != &rows[0] {
		return ix.byRelevance(rows, concepts) // a filtered part of the list
	}
	ix.relMu.Lock()
	c, hit := ix.byRel[o]
	ix.relMu.Unlock()
	if hit {
		return c.rows, c.weights
	}
	r, w := ix.byRelevance(rows, concepts)
	ix.relMu.Lock()
	if ix.byRel == nil {
		ix.byRel = map[uint32]relOrder{}
	}
	ix.byRel[o] = relOrder{r, w}
	ix.relMu.Unlock()
	return r, w
}

// byRelevance orders newest-first rows by the best weight of the concepts
// in each, keeping newest first among equal weights.
func (ix *facetIndex) byRelevance(rows []uint32, concepts []NodeID) ([]uint32, []uint16) {
	var ords []uint32
	for _, c := range concepts {
		if o, ok := ix.dicts[dimConcept].ord[c]; ok {
			ords = append(ords, o)
		}
	}
	best := make([]uint16, len(rows))
	var top uint16
	for i, r := range rows {
		row := &ix.rows[r]
		for j, v := range row.vals[dimConcept] {
			if slices.Contains(ords, v) {
				best[i] = max(best[i], row.weights[j])
			}
		}
		top = max(top, best[i])
	}
	// a counting sort by weight descending: stable, and linear in the
	// rows (weights are thousandths); a comparison sort of a large
	// concept's 16,000 papers was most of a page's time
	start := make([]int, int(top)+2)
	for _, w := range best {
		start[int(top-w)+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	out, weights := make([]uint32, len(rows)), make([]uint16, len(rows))
	for i, r := range rows {
		k := &start[top-best[i]]
		out[*k], weights[*k] = r, best[i]
		*k++
	}
	return out, weights
}

// SharedPapers returns the papers both people wrote, newest first.
func (v *View) SharedPapers(a, b NodeID) ([]*Node, error) {
	return v.SharedPapersWhere(selectAll(), a, b)
}

// SharedPapersWhere returns the papers both people wrote among those a
// selection matches, newest first.
func (v *View) SharedPapersWhere(s *Selection, a, b NodeID) ([]*Node, error) {
	s = s.orAll()
	var ids []NodeID
	if err := v.withIndex(func(ix *facetIndex) error {
		for _, r := range ix.match(s.with(a).with(b)) {
			ids = append(ids, ix.rows[r].id)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	return v.Nodes(ids)
}

// CoAuthorsWhere returns a person's co-authors counted over the papers a
// selection matches, by number of those papers, then name.
func (v *View) CoAuthorsWhere(s *Selection, a NodeID, first int) ([]Coauthor, error) {
	s = s.orAll()
	weights := map[NodeID]int{}
	if err := v.withIndex(func(ix *facetIndex) error {
		for _, r := range ix.match(s.with(a)) {
			for _, o := range ix.rows[r].vals[dimAuthor] {
				if b := ix.dicts[dimAuthor].ids[o]; b != a {
					weights[b]++
				}
			}
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
