// The dashboard's questions, answered from the paper index (package
// paperindex): facets and rankings, paper lists a page at a time, the papers
// two people share, co-authors over a filter, collaboration paths and
// emerging concepts. Each resolves what it is asked into a Selection, asks
// the index under its read lock, and turns the ids of the answer into nodes
// (a node gone since the index was read is left out).

package graph

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/researchkg/kg/graph/burst"
	"github.com/researchkg/kg/graph/ident"
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

// MaxPathLength bounds path's maxLength.
const MaxPathLength = 8

// DefaultPathLength is path's maxLength when none is given.
const DefaultPathLength = 6

// Hop is one link of a collaboration path: two people and the papers they
// wrote together, newest first.
type Hop struct {
	From, To *Node
	Papers   []*Node
}

// CollaborationPath is a shortest chain of people from one person to
// another, each having written with the next.
type CollaborationPath struct {
	Authors []*Node
	Hops    []Hop
}

// Path finds a shortest co-authorship path from one person to another, at
// most maxLength hops, over the papers a selection matches (a paper of any
// size is a link between each two of its authors); nil when there is none.
// Of several shortest paths it returns one deterministically. The search
// stops with ctx's error when ctx ends.
func (v *View) Path(ctx context.Context, from, to NodeID, maxLength int, s *Selection) (*CollaborationPath, error) {
	s = s.orAll()
	if maxLength < 1 || maxLength > MaxPathLength {
		return nil, Errorf(Invalid, "maxLength must be between 1 and %d, got %d", MaxPathLength, maxLength)
	}
	for _, id := range []NodeID{from, to} {
		if id.Kind() != KindAuthor {
			return nil, Errorf(Invalid, "%s is not a person", id)
		}
		if _, err := v.Node(id); ErrorCode(err) == NotFound {
			return nil, Errorf(NotFound, "no person %s", id)
		} else if err != nil {
			return nil, err
		}
	}
	var authors []NodeID
	var hops [][]NodeID
	err := v.withIndex(func(ix *paperindex.Index) error {
		chain, err := ix.Path(ctx, uint64(from), uint64(to), maxLength, &s.q)
		if err != nil || chain == nil {
			return err
		}
		for i, a := range chain {
			authors = append(authors, NodeID(a))
			if i == 0 {
				continue
			}
			hops = append(hops, nodeIDs(ix.Papers(&s.with(authors[i-1]).with(authors[i]).q)))
		}
		return nil
	})
	if err != nil || authors == nil {
		return nil, err
	}
	out := &CollaborationPath{}
	if out.Authors, err = v.Nodes(authors); err != nil {
		return nil, err
	}
	if len(out.Authors) != len(authors) {
		return nil, nil // a person left since the index was read
	}
	for i, ps := range hops {
		ns, err := v.Nodes(ps)
		if err != nil {
			return nil, err
		}
		out.Hops = append(out.Hops, Hop{From: out.Authors[i], To: out.Authors[i+1], Papers: ns})
	}
	return out, nil
}

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
