package paperindex

import (
	"cmp"
	"maps"
	"math"
	"slices"
)

// Term is a draft's key term that is no concept, with the papers that
// use it and its weight in each.
type Term struct {
	Name   string
	Weight float64 // in the draft
	IDF    float64
	Papers []uint64
	PW     []float64 // parallel to Papers
}

// Ask is what a related-work question brings, resolved to node ids by the
// caller: the concepts wanted with their weights (named, a draft's, by
// id), those asked for by name, a draft's rare terms and title words, seed
// and excluded papers, and the papers that may be answers.
type Ask struct {
	Concepts       map[uint64]float64
	Named          []uint64
	Terms          []Term
	TitleWords     []string
	Seeds, Exclude []uint64
	Filter         *Selection // nil: every paper
}

// Query is an Ask resolved to the index: weights by concept, person,
// subject and venue ordinal. It is valid until the index next changes.
type Query struct {
	ix       *Index
	concepts map[uint32]float64 // concept ordinal → weight in the query (before idf)
	named    []uint32           // concepts asked for by name
	terms    []relTerm          // a draft's rare key terms that are no concepts
	words    map[uint32]float64 // title words of the seeds and the draft: ordinal → weight × idf
	wordNorm float64
	termNorm float64            // their part of the draft's vector's squared length
	authors  map[uint32]float64 // person ordinal → seeds they wrote
	subjects map[uint32]float64
	venues   map[uint32]float64
	years    []int
	exclude  map[uint32]bool // rows
	allow    []bool          // rows a filter lets through (nil: all)
	qnorm    float64         // norm's
}

// relTerm is a Term on the index: q is its weight × idf² in the draft, w
// its weight in each of its rows.
type relTerm struct {
	name string
	q    float64
	rows []uint32
	w    []float64
}

// Resolve turns an Ask into a Query: the concepts' ordinals, and the seed
// papers' concepts (summed: a paper sharing concepts with several seeds
// gains from each), people, subjects, venues and years.
func (ix *Index) Resolve(a *Ask) *Query {
	q := &Query{ix: ix, concepts: map[uint32]float64{}, authors: map[uint32]float64{},
		subjects: map[uint32]float64{}, venues: map[uint32]float64{}, exclude: map[uint32]bool{}, words: map[uint32]float64{}}
	for id, w := range a.Concepts {
		if o, ok := ix.dicts[Concept].ord[id]; ok && len(ix.dicts[Concept].posts[o]) > 0 {
			q.concepts[o] += w
		}
	}
	for _, id := range a.Named {
		if o, ok := ix.dicts[Concept].ord[id]; ok && !slices.Contains(q.named, o) {
			q.named = append(q.named, o)
		}
	}
	for _, list := range [][]uint64{a.Seeds, a.Exclude} {
		for _, p := range list {
			if r, ok := ix.row[p]; ok && !ix.rows[r].dead {
				q.exclude[r] = true
			}
		}
	}
	for _, p := range a.Seeds {
		r, ok := ix.row[p]
		if !ok || ix.rows[r].dead {
			continue
		}
		row := &ix.rows[r]
		for j, c := range ix.dim(row, Concept) {
			q.concepts[c] += relTermWeight(ix.weights(row)[j])
		}
		for _, a := range ix.dim(row, Author) {
			q.authors[a]++
		}
		for _, s := range ix.dim(row, Subject) {
			q.subjects[s] = 1
		}
		if row.venue != 0 {
			q.venues[row.venue] = 1
		}
		for _, w := range ix.titleWords(row) {
			q.words[w] += float64(ix.wordIDF[w])
		}
		if row.date != 0 {
			q.years = append(q.years, int(row.date>>9))
		}
	}
	for _, w := range a.TitleWords {
		if o, ok := ix.words[w]; ok {
			q.words[o] += float64(ix.wordIDF[o])
		}
	}
	for _, x := range q.words {
		q.wordNorm += x * x
	}
	q.wordNorm = math.Sqrt(q.wordNorm)
	for _, t := range a.Terms {
		rt := relTerm{name: t.Name, q: t.Weight * t.IDF * t.IDF}
		for i, p := range t.Papers {
			if r, ok := ix.row[p]; ok && !ix.rows[r].dead {
				rt.rows = append(rt.rows, r)
				rt.w = append(rt.w, t.PW[i])
			}
		}
		q.terms = append(q.terms, rt)
		q.termNorm += (t.Weight * t.IDF) * (t.Weight * t.IDF)
	}
	if a.Filter != nil && !a.Filter.Empty() {
		q.allow = make([]bool, len(ix.rows))
		for _, r := range ix.match(a.Filter) {
			q.allow[r] = true
		}
	}
	return q
}

// Concepts are the ids of the query's concepts, in the index's order.
func (q *Query) Concepts() []uint64 {
	var out []uint64
	for _, c := range slices.Sorted(maps.Keys(q.concepts)) {
		out = append(out, q.ix.dicts[Concept].ids[c])
	}
	return out
}

// Scale multiplies the weight of one of the query's concepts by f (the
// caller damps a concept whose name is inside another's: the same
// evidence again).
func (q *Query) Scale(id uint64, f float64) {
	if o, ok := q.ix.dicts[Concept].ord[id]; ok {
		if _, in := q.concepts[o]; in {
			q.concepts[o] *= f
			q.qnorm = 0 // weights changed
		}
	}
}

// norm is the length of the query's concept vector (weight × idf).
func (q *Query) norm() float64 {
	if q.qnorm == 0 {
		for c, w := range q.concepts {
			x := w * q.ix.conceptIDF(c)
			q.qnorm += x * x
		}
		q.qnorm = math.Sqrt(max(q.qnorm, 1e-12))
	}
	return q.qnorm
}

// Found is an answer with its reasons as ids.
type Found struct {
	Paper    uint64
	Score    float64
	Concepts []uint64  // the query's concepts it mentions, by their part of the score descending
	Shares   []float64 // each concept's part of the score
	Authors  []uint64  // the seeds' people who wrote it
	Subjects []uint64  // subjects shared with the seeds
	Terms    []string  // a draft's rare key terms it uses
}

// explain lists why a row is an answer: the query's concepts it has, by
// their part of the score, and the seeds' people and subjects it has.
func (ix *Index) explain(q *Query, h relHit) Found {
	row := &ix.rows[h.row]
	f := Found{Paper: row.id, Score: h.score}
	type part struct {
		id    uint64
		share float64
	}
	var parts []part
	norm := ix.rowNorm(h.row) * q.norm()
	for j, c := range ix.dim(row, Concept) {
		w, ok := q.concepts[c]
		if !ok {
			continue
		}
		idf := ix.conceptIDF(c)
		parts = append(parts, part{ix.dicts[Concept].ids[c], w * idf * idf * relTermWeight(ix.weights(row)[j]) / norm})
	}
	slices.SortFunc(parts, func(a, b part) int {
		if c := cmp.Compare(b.share, a.share); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	for _, p := range parts {
		f.Concepts = append(f.Concepts, p.id)
		f.Shares = append(f.Shares, p.share)
	}
	for _, t := range q.terms {
		if slices.Contains(t.rows, h.row) {
			f.Terms = append(f.Terms, t.name)
		}
	}
	for _, a := range ix.dim(row, Author) {
		if _, ok := q.authors[a]; ok {
			f.Authors = append(f.Authors, ix.dicts[Author].ids[a])
		}
	}
	for _, s := range ix.dim(row, Subject) {
		if q.subjects[s] > 0 {
			f.Subjects = append(f.Subjects, ix.dicts[Subject].ids[s])
		}
	}
	return f
}
