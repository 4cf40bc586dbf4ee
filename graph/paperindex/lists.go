package paperindex

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"slices"
	"sort"
)

// Order orders a paper list.
type Order int

// The orders of paper lists.
const (
	// Newest: by date descending (a paper known by its month after that
	// month's dated papers, one known by its year after that year's),
	// then by title.
	Newest Order = iota + 1
	// Oldest: the reverse.
	Oldest
	// Relevance: by the weight of the selection's concepts in the paper
	// (the best of them), then newest first. Without concepts it is
	// Newest.
	Relevance
)

var orderTags = map[Order]byte{Newest: 'n', Oldest: 'o', Relevance: 'r'}

// Cursor is a paper's place in an ordered list.
type Cursor struct {
	Order  Order
	Key    Key
	Weight uint16 // Relevance: the paper's weight (× 1000)
}

// Encode writes the cursor as a page's cursor: tag (1) | date (4) |
// weight (2) | id (8) | title key, in URL-safe base64.
func (c Cursor) Encode() string {
	b := make([]byte, 0, 15+len(c.Key.Title))
	b = append(b, orderTags[c.Order])
	b = binary.BigEndian.AppendUint32(b, c.Key.Date)
	b = binary.BigEndian.AppendUint16(b, c.Weight)
	b = binary.BigEndian.AppendUint64(b, c.Key.ID)
	b = append(b, c.Key.Title...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Errors of DecodeCursor.
var (
	ErrCursor      = errors.New("invalid cursor")
	ErrCursorOrder = errors.New("cursor of a list in another order")
)

// DecodeCursor reads a cursor of a list in order o. The caller checks
// that its id is a paper's.
func DecodeCursor(s string, o Order) (Cursor, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) < 15 || len(b) > 15+titleOrderLen {
		return Cursor{}, ErrCursor
	}
	if b[0] != orderTags[o] {
		return Cursor{}, ErrCursorOrder
	}
	c := Cursor{Order: o, Weight: binary.BigEndian.Uint16(b[5:7])}
	c.Key = Key{Date: binary.BigEndian.Uint32(b[1:5]), ID: binary.BigEndian.Uint64(b[7:15]), Title: string(b[15:])}
	if c.Weight > 1000 {
		return Cursor{}, ErrCursor
	}
	return c, nil
}

// precedes reports whether c comes before d in their list's order.
func (c Cursor) precedes(d Cursor) bool {
	switch c.Order {
	case Oldest:
		return d.Key.Before(c.Key)
	case Relevance:
		if c.Weight != d.Weight {
			return c.Weight > d.Weight
		}
	}
	return c.Key.Before(d.Key)
}

// Page is one page of an ordered paper list: the papers' ids with their
// cursors, and the number of papers in the whole list.
type Page struct {
	Total   int
	Papers  []uint64
	Cursors []Cursor
	HasNext bool
}

// List returns a page of the papers a selection matches, in an order,
// starting after a cursor of the same list (nil for the first page).
func (ix *Index) List(s *Selection, order Order, first int, after *Cursor) Page {
	rows := ix.match(s)
	page := Page{Total: len(rows)}
	var weights []uint16
	concepts := s.Concepts()
	switch {
	case order == Oldest:
		rows = slices.Clone(rows)
		slices.Reverse(rows)
	case order == Relevance && len(concepts) > 0:
		rows, weights = ix.relevanceOrder(rows, concepts)
	}
	i := 0
	if after != nil {
		i = sort.Search(len(rows), func(i int) bool {
			c := Cursor{Order: order, Key: ix.key(rows[i])}
			if weights != nil {
				c.Weight = weights[i]
			}
			return after.precedes(c)
		})
	}
	end := min(i+first, len(rows))
	page.HasNext = end < len(rows)
	for j := i; j < end; j++ {
		c := Cursor{Order: order, Key: ix.key(rows[j])}
		if weights != nil {
			c.Weight = weights[j]
		}
		page.Papers = append(page.Papers, c.Key.ID)
		page.Cursors = append(page.Cursors, c)
	}
	return page
}

// relevanceOrder is byRelevance, taken from byRel when rows are a large
// concept's whole list. The result may be shared: read it, never change
// it.
func (ix *Index) relevanceOrder(rows []uint32, concepts []uint64) ([]uint32, []uint16) {
	if len(concepts) != 1 || len(rows) < knobs.RelevanceCacheMin {
		return ix.byRelevance(rows, concepts)
	}
	o, ok := ix.dicts[Concept].ord[concepts[0]]
	if posts := ix.dicts[Concept].posts; !ok || len(posts[o]) != len(rows) || &posts[o][0] != &rows[0] {
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
func (ix *Index) byRelevance(rows []uint32, concepts []uint64) ([]uint32, []uint16) {
	var ords []uint32
	for _, c := range concepts {
		if o, ok := ix.dicts[Concept].ord[c]; ok {
			ords = append(ords, o)
		}
	}
	best := make([]uint16, len(rows))
	var top uint16
	for i, r := range rows {
		row := &ix.rows[r]
		for j, v := range ix.dim(row, Concept) {
			if slices.Contains(ords, v) {
				best[i] = max(best[i], ix.weights(row)[j])
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

// CoAuthors counts, over the papers a selection matches that person a
// wrote, the papers of each other person among their authors.
func (ix *Index) CoAuthors(s *Selection, a uint64) map[uint64]int {
	weights := map[uint64]int{}
	sa := s.With(Author, a)
	for _, r := range ix.match(&sa) {
		for _, o := range ix.dim(&ix.rows[r], Author) {
			if b := ix.dicts[Author].ids[o]; b != a {
				weights[b]++
			}
		}
	}
	return weights
}

// Knobs are thresholds of the index's caches and one path of the
// related-work score. A service never changes them; tests set them to
// take each path (SetKnobs).
type Knobs struct {
	// RelevanceCacheMin is the size of a concept's list from which its
	// relevance order is kept between queries.
	RelevanceCacheMin int
	// PostingWeightsMin is the list size from which a concept's weights
	// in its papers are kept between queries.
	PostingWeightsMin int
	// WordPostings computes the title-word cosine through the words'
	// rows (false: through each candidate's words).
	WordPostings bool
}

var knobs = Knobs{RelevanceCacheMin: 512, PostingWeightsMin: 64, WordPostings: true}

// SetKnobs sets the knobs for the whole process and returns the function
// that restores them. Not safe while queries run.
func SetKnobs(k Knobs) (restore func()) {
	old := knobs
	knobs = k
	return func() { knobs = old }
}

// CurrentKnobs are the knobs in force.
func CurrentKnobs() Knobs { return knobs }
