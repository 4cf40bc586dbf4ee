package paperindex

// Builder makes an index one paper and one value at a time, as a store's
// passes give them (the papers, then their edges), without holding every
// paper's Facts first: each value becomes a row's ordinal as it comes.
// On a million papers the Facts alone (ids as uint64, whole title keys,
// title words as strings, the paper → position map) held ~0.8 GB next to
// the rows they were turned into; the builder holds the rows only.
type Builder struct {
	ix *Index
}

// NewBuilder starts an index of about n papers.
func NewBuilder(n int) *Builder {
	ix := &Index{row: make(map[uint64]uint32, n), venues: map[string]uint32{}, words: map[string]uint32{}}
	for d := range ix.dicts {
		ix.dicts[d].ord = map[uint64]uint32{}
	}
	ix.rows = make([]row, 0, n)
	return &Builder{ix: ix}
}

// Paper adds a paper: its own facts and any values f already lists. A
// paper added twice keeps the second.
func (b *Builder) Paper(f *Facts) {
	ix := b.ix
	if r, ok := ix.row[f.ID]; ok {
		ix.rows[r] = ix.makeRow(f)
		return
	}
	ix.row[f.ID] = uint32(len(ix.rows))
	ix.rows = append(ix.rows, ix.makeRow(f))
}

// Add gives paper one more value of dimension d (Subject, Author,
// Concept); w is a concept's weight in the paper, in [0, 1]. It reports
// false, adding nothing, for a paper not added or an unknown dimension.
func (b *Builder) Add(paper uint64, d int, id uint64, w float64) bool {
	ix := b.ix
	r, ok := ix.row[paper]
	if !ok || d < 0 || d >= NumDims {
		return false
	}
	row := &ix.rows[r]
	ix.add(row, d, ix.dicts[d].ordinal(id), conceptWeight(w))
	return true
}

// Build lists every row and weighs them; the builder is spent.
func (b *Builder) Build() *Index {
	ix := b.ix
	b.ix = nil
	ix.live = len(ix.rows)
	ix.reindex()
	ix.weigh()
	return ix
}
