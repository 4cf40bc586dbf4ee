// The facet index: every paper's date, subjects, people and concepts in
// memory, with each subject's, person's and concept's papers as a list of
// row numbers, newest first. Facets, rankings, filtered paper lists and
// collaboration paths are computed from it (facets.go, paperlists.go,
// paths.go, emerging.go); see doc.go ("Facets") for why it is kept in
// memory and how it follows the store.

package graph

import (
	"slices"
	"sort"
	"sync"
)

// Facet dimensions held per paper, in the order of facetIndex.dicts.
const (
	dimSubject = iota
	dimAuthor
	dimConcept
	numDims
)

// dimKinds are the node kinds of the dimensions.
var dimKinds = [numDims]Kind{KindSubject, KindAuthor, KindConcept}

// paperFacts is one paper as read from the store: what its row is made of.
type paperFacts struct {
	ID       NodeID
	Date     Date
	Title    string // TitleKey
	Subjects []NodeID
	Authors  []NodeID
	Concepts []NodeID
	Weights  []float64 // parallel to Concepts
	Venue    string    // FoldKey of the venue ("": none)
	Words    []string  // the title's words (titleWords)
}

// facetRow is what the index holds of one paper.
type facetRow struct {
	id    NodeID
	date  uint32 // Date.packed
	title string // TitleKey clipped to titleOrderLen: the order within a date
	vals  [numDims][]uint32
	// weights are the concepts' weights in the paper (× 1000), parallel
	// to vals[dimConcept].
	weights []uint16
	venue   uint32 // venue ordinal + 1 (0: none): related work's venue evidence
	// words are the title's words, as ordinals of facetIndex.words,
	// ascending: related work's title evidence
	words []uint32
	dead  bool // the paper left the store
}

// titleOrderLen is how much of a title key orders papers of one date (as
// the stored paper lists do: PaperSortKey).
const titleOrderLen = 48

// listKey is a paper's place in newest-first order: date descending, then
// title key, then id. A cursor carries one.
type listKey struct {
	date  uint32
	title string
	id    NodeID
}

// before reports whether a comes before b, newest first.
func (a listKey) before(b listKey) bool {
	if a.date != b.date {
		return a.date > b.date
	}
	if a.title != b.title {
		return a.title < b.title
	}
	return a.id < b.id
}

// facetDict numbers the nodes of one dimension and lists each one's
// papers.
type facetDict struct {
	ids   []NodeID
	ord   map[NodeID]uint32
	posts [][]uint32 // row numbers, newest first
}

func (d *facetDict) ordinal(id NodeID) uint32 {
	if o, ok := d.ord[id]; ok {
		return o
	}
	o := uint32(len(d.ids))
	d.ids = append(d.ids, id)
	d.posts = append(d.posts, nil)
	d.ord[id] = o
	return o
}

// facetIndex is the in-memory index. It is not safe for concurrent use:
// its holder (facetHolder) guards it.
type facetIndex struct {
	rows  []facetRow
	row   map[NodeID]uint32 // paper → row number
	order []uint32          // every live row, newest first
	dicts [numDims]facetDict
	live  int
	// venues number the papers' venues (FoldKey) from 1
	venues map[string]uint32
	// idf and norms are related work's weights (related.go): each
	// concept's idf and each row's concept-vector length, computed after
	// each change (weigh), read by concurrent queries
	idf   []float32
	norms []float32
	// words number title words; wordIDF and wordNorms are as idf and
	// norms for them (a word in more than relWordMaxShare of the papers
	// weighs nothing)
	words     map[string]uint32
	wordIDF   []float32
	wordNorms []float32
	wordPosts [][]uint32 // rows by word, for the words that weigh
	// byRel holds the relevance order of a large concept's whole list
	// (Concept.papers without a filter, what a dashboard asks most) until
	// the index next changes (weigh empties it); relMu guards it between
	// the concurrent queries that fill it
	relMu sync.Mutex
	byRel map[uint32]relOrder
	// postW holds, for a concept related work has read, its weight in
	// each paper of its list (parallel to the list), until the index next
	// changes; guarded by relMu
	postW map[uint32][]uint16
}

// relOrder is a list of rows in relevance order, with their weights.
type relOrder struct {
	rows    []uint32
	weights []uint16
}

func newFacetIndex(facts []paperFacts) *facetIndex {
	ix := &facetIndex{row: make(map[NodeID]uint32, len(facts)), venues: map[string]uint32{}, words: map[string]uint32{}}
	for d := range ix.dicts {
		ix.dicts[d].ord = map[NodeID]uint32{}
	}
	ix.rows = make([]facetRow, 0, len(facts))
	for i := range facts {
		ix.row[facts[i].ID] = uint32(len(ix.rows))
		ix.rows = append(ix.rows, ix.makeRow(&facts[i]))
	}
	ix.live = len(ix.rows)
	ix.reindex()
	ix.weigh()
	return ix
}

func (ix *facetIndex) makeRow(f *paperFacts) facetRow {
	title := f.Title
	if len(title) > titleOrderLen {
		title = title[:titleOrderLen]
	}
	r := facetRow{id: f.ID, date: f.Date.packed(), title: title}
	for _, w := range f.Words {
		o, ok := ix.words[w]
		if !ok {
			o = uint32(len(ix.words))
			ix.words[w] = o
		}
		r.words = append(r.words, o)
	}
	slices.Sort(r.words)
	r.words = slices.Compact(r.words)
	if f.Venue != "" {
		if r.venue = ix.venues[f.Venue]; r.venue == 0 {
			r.venue = uint32(len(ix.venues) + 1)
			ix.venues[f.Venue] = r.venue
		}
	}
	for d, ids := range [numDims][]NodeID{f.Subjects, f.Authors, f.Concepts} {
		if len(ids) == 0 {
			continue
		}
		vs := make([]uint32, len(ids))
		for i, id := range ids {
			vs[i] = ix.dicts[d].ordinal(id)
		}
		r.vals[d] = vs
	}
	if len(f.Concepts) > 0 {
		r.weights = make([]uint16, len(f.Concepts))
		for i, w := range f.Weights {
			r.weights[i] = uint16(min(max(w, 0), 1)*1000 + 0.5)
		}
	}
	return r
}

func (ix *facetIndex) key(r uint32) listKey {
	row := &ix.rows[r]
	return listKey{row.date, row.title, row.id}
}

func (ix *facetIndex) newer(a, b uint32) bool { return ix.key(a).before(ix.key(b)) }

// reindex rebuilds the index from its rows: the live rows renumbered
// newest first, their values copied into one array per dimension in that
// order, then every list filled in order. A list is then ascending row
// numbers, and counting over it reads the arrays front to back (three
// times faster than rows allocated one by one: 25,774 cs.CV papers' 700,000
// concept mentions in about 2 ms). Rows added later are appended; the next
// rebuild puts them in place.
func (ix *facetIndex) reindex() {
	live := make([]uint32, 0, ix.live)
	for r := range ix.rows {
		if !ix.rows[r].dead {
			live = append(live, uint32(r))
		}
	}
	slices.SortFunc(live, func(a, b uint32) int {
		if ix.newer(a, b) {
			return -1
		}
		return 1
	})
	var sizes [numDims]int
	nw := 0
	for _, r := range live {
		for d, vs := range ix.rows[r].vals {
			sizes[d] += len(vs)
		}
		nw += len(ix.rows[r].weights)
	}
	var arenas [numDims][]uint32
	for d := range arenas {
		arenas[d] = make([]uint32, 0, sizes[d])
	}
	weights := make([]uint16, 0, nw)
	rows := make([]facetRow, len(live))
	clear(ix.row)
	for i, r := range live {
		row := ix.rows[r]
		for d, vs := range row.vals {
			if len(vs) > 0 {
				start := len(arenas[d])
				arenas[d] = append(arenas[d], vs...)
				row.vals[d] = arenas[d][start:len(arenas[d]):len(arenas[d])]
			}
		}
		if len(row.weights) > 0 {
			start := len(weights)
			weights = append(weights, row.weights...)
			row.weights = weights[start:len(weights):len(weights)]
		}
		rows[i] = row
		ix.row[row.id] = uint32(i)
	}
	ix.rows = rows
	ix.order = ix.order[:0]
	for d := range ix.dicts {
		posts := ix.dicts[d].posts
		for i := range posts {
			posts[i] = posts[i][:0]
		}
	}
	for r := range ix.rows {
		ix.order = append(ix.order, uint32(r))
		for d, vs := range ix.rows[r].vals {
			for _, v := range vs {
				ix.dicts[d].posts[v] = append(ix.dicts[d].posts[v], uint32(r))
			}
		}
	}
}

// search is where k belongs in a newest-first list of rows.
func (ix *facetIndex) search(list []uint32, k listKey) int {
	return sort.Search(len(list), func(i int) bool { return !ix.key(list[i]).before(k) })
}

func (ix *facetIndex) insert(list []uint32, r uint32) []uint32 {
	return slices.Insert(list, ix.search(list, ix.key(r)), r)
}

// remove takes row r out of a list, r's key being what it was when r was
// put there.
func (ix *facetIndex) remove(list []uint32, r uint32) []uint32 {
	if i := ix.search(list, ix.key(r)); i < len(list) && list[i] == r {
		return slices.Delete(list, i, i+1)
	}
	return list
}

// reindexShare: an update of more than this share of the papers rebuilds
// every list instead of moving papers one at a time.
const reindexShare = 8

// update brings the rows of the given papers up to date; gone are papers
// no longer in the store.
func (ix *facetIndex) update(facts []paperFacts, gone []NodeID) {
	defer ix.weigh()
	if len(facts)+len(gone) > 1000 && (len(facts)+len(gone))*reindexShare > len(ix.rows) {
		for i := range facts {
			f := &facts[i]
			if r, ok := ix.row[f.ID]; ok {
				if ix.rows[r].dead {
					ix.live++
				}
				ix.rows[r] = ix.makeRow(f)
			} else {
				ix.row[f.ID] = uint32(len(ix.rows))
				ix.rows = append(ix.rows, ix.makeRow(f))
				ix.live++
			}
		}
		for _, id := range gone {
			if r, ok := ix.row[id]; ok && !ix.rows[r].dead {
				ix.rows[r] = facetRow{id: id, dead: true}
				ix.live--
			}
		}
		ix.reindex()
		return
	}
	for _, id := range gone {
		if r, ok := ix.row[id]; ok && !ix.rows[r].dead {
			ix.unlist(r, nil)
			ix.rows[r] = facetRow{id: id, dead: true}
			ix.live--
		}
	}
	for i := range facts {
		f := &facts[i]
		r, ok := ix.row[f.ID]
		if !ok {
			r = uint32(len(ix.rows))
			ix.row[f.ID] = r
			ix.rows = append(ix.rows, ix.makeRow(f))
			ix.live++
			ix.list(r, nil)
			continue
		}
		next := ix.makeRow(f)
		if ix.rows[r].dead {
			ix.rows[r] = next
			ix.live++
			ix.list(r, nil)
			continue
		}
		old := &ix.rows[r]
		if old.date != next.date || old.title != next.title { // its place moves everywhere
			ix.unlist(r, nil)
			ix.rows[r] = next
			ix.list(r, nil)
			continue
		}
		ix.unlist(r, &next)
		prev := *old
		ix.rows[r] = next
		ix.list(r, &prev)
	}
}

// unlist takes row r out of the order and of its values' lists; with
// keep, only out of the lists of the values keep lacks.
func (ix *facetIndex) unlist(r uint32, keep *facetRow) {
	row := &ix.rows[r]
	if keep == nil {
		ix.order = ix.remove(ix.order, r)
	}
	for d, vs := range row.vals {
		for _, v := range vs {
			if keep == nil || !slices.Contains(keep.vals[d], v) {
				ix.dicts[d].posts[v] = ix.remove(ix.dicts[d].posts[v], r)
			}
		}
	}
}

// list puts row r in the order and in its values' lists; with had, only
// in the lists of the values had lacks.
func (ix *facetIndex) list(r uint32, had *facetRow) {
	row := &ix.rows[r]
	if had == nil {
		ix.order = ix.insert(ix.order, r)
	}
	for d, vs := range row.vals {
		for _, v := range vs {
			if had == nil || !slices.Contains(had.vals[d], v) {
				ix.dicts[d].posts[v] = ix.insert(ix.dicts[d].posts[v], r)
			}
		}
	}
}

func dimOf(k Kind) (int, bool) {
	switch k {
	case KindSubject:
		return dimSubject, true
	case KindAuthor:
		return dimAuthor, true
	case KindConcept:
		return dimConcept, true
	}
	return 0, false
}

// dateRange is the part of a newest-first list dated within [lo, hi]
// (packed dates, inclusive).
func (ix *facetIndex) dateRange(list []uint32, lo, hi uint32) []uint32 {
	start := sort.Search(len(list), func(i int) bool { return ix.rows[list[i]].date <= hi })
	end := start + sort.Search(len(list)-start, func(i int) bool { return ix.rows[list[start+i]].date < lo })
	return list[start:end]
}
