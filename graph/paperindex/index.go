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
	venue uint32 // venue ordinal + 1 (0: none): related work's venue evidence
	title string // title key clipped to titleOrderLen: the order within a date
	// at and n place the row's values in Index.vals: part d dimension d's
	// ordinals, part wordPart the title's words (ordinals of Index.words,
	// ascending: related work's title evidence). Offsets where there were
	// five slices: the rows were 168 bytes a paper of the index's 869
	// (BenchmarkArXivFacetIndex). One array a part, not one a row: a
	// count over one dimension reads one array front to back (a row's
	// parts side by side in one array made BenchmarkPath 1.8× slower).
	at, n [numParts]uint32
	dead  bool // the paper left the store
}

// The parts of Index.vals: the dimensions, then the title words.
const (
	wordPart = NumDims
	numParts = NumDims + 1
)

// dim is row r's values of dimension d.
func (ix *Index) dim(r *row, d int) []uint32 {
	a := r.at[d]
	return ix.vals[d][a : a+r.n[d] : a+r.n[d]]
}

// titleWords is row r's title words.
func (ix *Index) titleWords(r *row) []uint32 { return ix.dim(r, wordPart) }

// weights is row r's concepts' weights (× 1000), parallel to its
// dim(Concept).
func (ix *Index) weights(r *row) []uint16 {
	a := r.at[Concept]
	return ix.wts[a : a+r.n[Concept] : a+r.n[Concept]]
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
	rows []row
	// vals holds the rows' values, a part after another (row.at, row.n);
	// wts the concepts' weights, parallel to vals[Concept]. A row made
	// again is appended (its old place is garbage until the next
	// reindex, which lays them out anew in row order).
	vals   [numParts][]uint32
	wts    []uint16
	packed int               // len(vals[Concept]) after the last reindex
	row    map[uint64]uint32 // paper → row number
	order  []uint32          // every live row, newest first
	dicts  [NumDims]dict
	live   int
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
	words := &ix.vals[wordPart]
	start := len(*words)
	for _, w := range f.Words {
		o, ok := ix.words[w]
		if !ok {
			o = uint32(len(ix.words))
			ix.words[w] = o
		}
		*words = append(*words, o)
	}
	mine := (*words)[start:]
	slices.Sort(mine)
	*words = (*words)[:start+len(slices.Compact(mine))]
	r.at[wordPart], r.n[wordPart] = uint32(start), uint32(len(*words)-start)
	if f.Venue != "" {
		if r.venue = ix.venues[f.Venue]; r.venue == 0 {
			r.venue = uint32(len(ix.venues) + 1)
			ix.venues[f.Venue] = r.venue
		}
	}
	for d, ids := range [NumDims][]uint64{f.Subjects, f.Authors, f.Concepts} {
		r.at[d], r.n[d] = uint32(len(ix.vals[d])), uint32(len(ids))
		for _, id := range ids {
			ix.vals[d] = append(ix.vals[d], ix.dicts[d].ordinal(id))
		}
	}
	for i := range f.Concepts {
		w := 0.0
		if i < len(f.Weights) {
			w = f.Weights[i]
		}
		ix.wts = append(ix.wts, conceptWeight(w))
	}
	return r
}

// add appends value v (with weight w, for a concept) to dimension d of
// row r: in place when its values are the last of their array, else
// after a copy of them moved to the end.
func (ix *Index) add(r *row, d int, v uint32, w uint16) {
	if int(r.at[d]+r.n[d]) != len(ix.vals[d]) {
		at := uint32(len(ix.vals[d]))
		ix.vals[d] = append(ix.vals[d], ix.dim(r, d)...)
		if d == Concept {
			ix.wts = append(ix.wts, ix.weights(r)...)
		}
		r.at[d] = at
	}
	ix.vals[d] = append(ix.vals[d], v)
	if d == Concept {
		ix.wts = append(ix.wts, w)
	}
	r.n[d]++
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
	var sizes [numParts]int
	var counts [NumDims][]int32 // each value's papers: its list's exact size
	for d := range counts {
		counts[d] = make([]int32, len(ix.dicts[d].posts))
	}
	for _, r := range live {
		row := &ix.rows[r]
		for d := range numParts {
			sizes[d] += int(row.n[d])
		}
		for d := range NumDims {
			for _, v := range ix.dim(row, d) {
				counts[d][v]++
			}
		}
	}
	var vals [numParts][]uint32
	for d := range vals {
		vals[d] = make([]uint32, 0, sizes[d])
	}
	wts := make([]uint16, 0, sizes[Concept])
	rows := make([]row, len(live))
	clear(ix.row)
	for i, r := range live {
		row := ix.rows[r]
		wts = append(wts, ix.weights(&row)...)
		for d := range numParts {
			vs := ix.dim(&row, d)
			row.at[d] = uint32(len(vals[d]))
			vals[d] = append(vals[d], vs...)
		}
		rows[i] = row
		ix.row[row.id] = uint32(i)
	}
	ix.vals, ix.wts, ix.packed = vals, wts, len(wts)
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
		for d := range NumDims {
			for _, v := range ix.dim(&ix.rows[r], d) {
				ix.dicts[d].posts[v] = append(ix.dicts[d].posts[v], uint32(r))
			}
		}
	}
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

// reindexGarbageMin: updates one at a time lay the rows out anew when
// the concepts' array is past twice its size at the last rebuild, and
// past twice this.
const reindexGarbageMin = 1 << 12

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
	if len(ix.wts) > 2*max(ix.packed, reindexGarbageMin) {
		// the places of rows made again outgrew the live ones: lay them out anew
		ix.reindex()
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
	for d := range NumDims {
		for _, v := range ix.dim(row, d) {
			if other == nil || !slices.Contains(ix.dim(other, d), v) {
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
