package paperindex

import (
	"slices"
	"sort"
	"strings"
	"sync"
)

// Dimensions held per paper, in the order of Index.dicts.
const (
	Subject = iota
	Author
	Concept
	NumDims
)

// Facts is one paper as its holder read it from the store: what its row
// is made of. Ids are the graph's node ids, opaque here.
type Facts struct {
	ID       uint64
	Date     uint32 // PackDate
	Title    string // the title's key (ident.TitleKey): the order within a date
	Subjects []uint64
	Authors  []uint64
	Concepts []uint64
	Weights  []float64 // parallel to Concepts, in [0, 1]
	Venue    string    // the venue's key ("": none)
	Words    []string  // the title's words that may say what it is about
}

// row is what the index holds of one paper.
type row struct {
	id    uint64
	date  uint32 // PackDate
	title string // title key clipped to titleOrderLen: the order within a date
	vals  [NumDims][]uint32
	// weights are the concepts' weights in the paper (× 1000), parallel
	// to vals[Concept].
	weights []uint16
	venue   uint32 // venue ordinal + 1 (0: none): related work's venue evidence
	// words are the title's words, as ordinals of Index.words,
	// ascending: related work's title evidence
	words []uint32
	dead  bool // the paper left the store
}

// titleOrderLen is how much of a title key orders papers of one date (as
// the stored paper lists do: PaperSortKey).
const titleOrderLen = 48

// Key is a paper's place in newest-first order: date descending, then
// title key, then id. A cursor carries one.
type Key struct {
	Date  uint32
	Title string
	ID    uint64
}

// Before reports whether a comes before b, newest first.
func (a Key) Before(b Key) bool {
	if a.Date != b.Date {
		return a.Date > b.Date
	}
	if a.Title != b.Title {
		return a.Title < b.Title
	}
	return a.ID < b.ID
}

// dict numbers the nodes of one dimension and lists each one's papers.
type dict struct {
	ids   []uint64
	ord   map[uint64]uint32
	posts [][]uint32 // row numbers, newest first
}

func (d *dict) ordinal(id uint64) uint32 {
	if o, ok := d.ord[id]; ok {
		return o
	}
	o := uint32(len(d.ids))
	d.ids = append(d.ids, id)
	d.posts = append(d.posts, nil)
	d.ord[id] = o
	return o
}

// Index is the in-memory index of every paper. Queries may run
// concurrently with each other; New's result and Update must not run
// concurrently with anything (its holder guards it with a RWMutex).
type Index struct {
	rows  []row
	row   map[uint64]uint32 // paper → row number
	order []uint32          // every live row, newest first
	dicts [NumDims]dict
	live  int
	// venues number the papers' venues from 1
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
	// (a concept's papers without a filter, what a dashboard asks most)
	// until the index next changes (weigh empties it); relMu guards it
	// between the concurrent queries that fill it
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

// New builds the index of the given papers.
func New(facts []Facts) *Index {
	b := NewBuilder(len(facts))
	for i := range facts {
		b.Paper(&facts[i])
	}
	return b.Build()
}

// Live is the number of papers in the index.
func (ix *Index) Live() int { return ix.live }

func (ix *Index) makeRow(f *Facts) row {
	title := f.Title
	if len(title) > titleOrderLen {
		// a copy: the clipped key would hold the whole title's bytes
		title = strings.Clone(title[:titleOrderLen])
	}
	r := row{id: f.ID, date: f.Date, title: title}
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
	for d, ids := range [NumDims][]uint64{f.Subjects, f.Authors, f.Concepts} {
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
			r.weights[i] = conceptWeight(w)
		}
	}
	return r
}

// conceptWeight is how a row holds a concept's weight in [0, 1].
func conceptWeight(w float64) uint16 { return uint16(min(max(w, 0), 1)*1000 + 0.5) }

func (ix *Index) key(r uint32) Key {
	row := &ix.rows[r]
	return Key{row.date, row.title, row.id}
}

func (ix *Index) newer(a, b uint32) bool { return ix.key(a).Before(ix.key(b)) }

// reindex rebuilds the index from its rows: the live rows renumbered
// newest first, their values copied into one array per dimension in that
// order, then every list filled in order. A list is then ascending row
// numbers, and counting over it reads the arrays front to back (three
// times faster than rows allocated one by one: 25,774 cs.CV papers' 700,000
// concept mentions in about 2 ms). Rows added later are appended; the next
// rebuild puts them in place.
func (ix *Index) reindex() {
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
	var sizes [NumDims]int
	var counts [NumDims][]int32 // each value's papers: its list's exact size
	for d := range counts {
		counts[d] = make([]int32, len(ix.dicts[d].posts))
	}
	nw, nwords := 0, 0
	for _, r := range live {
		for d, vs := range ix.rows[r].vals {
			sizes[d] += len(vs)
			for _, v := range vs {
				counts[d][v]++
			}
		}
		nw += len(ix.rows[r].weights)
		nwords += len(ix.rows[r].words)
	}
	var arenas [NumDims][]uint32
	for d := range arenas {
		arenas[d] = make([]uint32, 0, sizes[d])
	}
	weights := make([]uint16, 0, nw)
	words := make([]uint32, 0, nwords)
	rows := make([]row, len(live))
	clear(ix.row)
	for i, r := range live {
		row := ix.rows[r]
		for d, vs := range row.vals {
			row.vals[d] = packed(&arenas[d], vs)
		}
		row.weights = packed(&weights, row.weights)
		row.words = packed(&words, row.words)
		rows[i] = row
		ix.row[row.id] = uint32(i)
	}
	ix.rows = rows
	ix.order = make([]uint32, 0, len(rows))
	// Every list in one array of its dimension, each at its exact size:
	// grown by appends one paper at a time, the lists held a third more
	// than their rows (and a row's title words an allocation each), 869
	// bytes a paper in all on the arXiv store (BenchmarkArXivFacetIndex).
	// A later insert into a full list moves that list alone.
	for d := range ix.dicts {
		posts := ix.dicts[d].posts
		flat := make([]uint32, sizes[d])
		for v, n := range counts[d] {
			posts[v], flat = flat[:0:n], flat[n:]
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

// packed appends vs to *arena and returns its place there, capped so
// that an append to it moves it out (nil for none).
func packed[T any](arena *[]T, vs []T) []T {
	if len(vs) == 0 {
		return nil
	}
	start := len(*arena)
	*arena = append(*arena, vs...)
	return (*arena)[start:len(*arena):len(*arena)]
}

// search is where k belongs in a newest-first list of rows.
func (ix *Index) search(list []uint32, k Key) int {
	return sort.Search(len(list), func(i int) bool { return !ix.key(list[i]).Before(k) })
}

func (ix *Index) insert(list []uint32, r uint32) []uint32 {
	return slices.Insert(list, ix.search(list, ix.key(r)), r)
}

// remove takes row r out of a list, r's key being what it was when r was
// put there.
func (ix *Index) remove(list []uint32, r uint32) []uint32 {
	if i := ix.search(list, ix.key(r)); i < len(list) && list[i] == r {
		return slices.Delete(list, i, i+1)
	}
	return list
}

// reindexShare: an update of more than this share of the papers rebuilds
// every list instead of moving papers one at a time.
const reindexShare = 8

// Update brings the rows of the given papers up to date; gone are papers
// no longer in the store.
func (ix *Index) Update(facts []Facts, gone []uint64) {
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
				ix.rows[r] = row{id: id, dead: true}
				ix.live--
			}
		}
		ix.reindex()
		return
	}
	for _, id := range gone {
		if r, ok := ix.row[id]; ok && !ix.rows[r].dead {
			ix.unlist(r, nil)
			ix.rows[r] = row{id: id, dead: true}
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
func (ix *Index) unlist(r uint32, keep *row) { ix.relist(r, keep, ix.remove) }

// list puts row r in the order and in its values' lists; with had, only
// in the lists of the values had lacks.
func (ix *Index) list(r uint32, had *row) { ix.relist(r, had, ix.insert) }

// relist applies op (insert or remove) to row r in the order and in the
// lists of its values that other lacks (all of them when other is nil).
func (ix *Index) relist(r uint32, other *row, op func([]uint32, uint32) []uint32) {
	row := &ix.rows[r]
	if other == nil {
		ix.order = op(ix.order, r)
	}
	for d, vs := range row.vals {
		for _, v := range vs {
			if other == nil || !slices.Contains(other.vals[d], v) {
				ix.dicts[d].posts[v] = op(ix.dicts[d].posts[v], r)
			}
		}
	}
}

// dateRange is the part of a newest-first list dated within [lo, hi]
// (packed dates, inclusive).
func (ix *Index) dateRange(list []uint32, lo, hi uint32) []uint32 {
	start := sort.Search(len(list), func(i int) bool { return ix.rows[list[i]].date <= hi })
	end := start + sort.Search(len(list)-start, func(i int) bool { return ix.rows[list[start+i]].date < lo })
	return list[start:end]
}
