package paperindex

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"sort"
	"sync"
)

// Weights of the evidence in a related-work score (doc.go, "Related
// work"). The concept part is a cosine in [0, 1]; the others add to it.
const (
	relAuthorWeight = 3.0 // the seeds' people who wrote it, over the geometric mean of the two teams' sizes
	// relPeopleAlone: the share of the people's part a paper gets with no
	// topic in common (the rest comes with a topical score of
	// relTopicEnough)
	relPeopleAlone   = 0.4
	relTopicEnough   = 0.1
	relVenueWeight   = 0.06 // the venue of a seed paper
	relSubjectWeight = 0.02 // per subject shared with the seeds
	relYearWeight    = 0.06 // within a few years of the seeds: × e^(−|Δy|/relYearScale)
	relYearScale     = 4.0
	relYearSpan      = 40 // years apart beyond which proximity counts nothing
	// relTermFloor: a concept's weight in a paper's vector is at least
	// this share (relTermWeight)
	relTermFloor = 0.5
	// relNamedWeight: each concept asked for by name that a paper
	// mentions; more than the rest of a score without seeds can reach, so
	// papers naming more of them come first
	relNamedWeight = 2.0
	// relOpenDF and relEnough bound the candidates (related)
	relOpenDF = 2000
	relEnough = 500
	// relWordWeight: the cosine of the title words (idf-weighted; a word
	// in more than relWordMaxShare of the papers weighs nothing)
	relWordWeight   = 1.0
	relWordMaxShare = 0.1
)

// relScratch is the per-query accumulator, pooled: one float per row.
type relScratch struct {
	dot, extra []float32
	people     []float32 // the seeds' people who wrote a row, weighed
	touched    []uint32
	qword      []float32 // the query's title words: ordinal → weight × idf
	wdot       []float64 // a row's title-word dot product with the query
}

var relPool = sync.Pool{New: func() any { return new(relScratch) }}

// relHit is a scored row.
type relHit struct {
	row   uint32
	score float64
}

// conceptIDF is a concept's inverse document frequency over the live
// papers of the index.
func (ix *Index) conceptIDF(ord uint32) float64 { return float64(ix.idf[ord]) }

// rowNorm is the length of row r's concept vector (weight × idf).
func (ix *Index) rowNorm(r uint32) float64 { return float64(ix.norms[r]) }

// relTermWeight is a concept's weight in a paper's vector, from its weight
// as a key term of the paper (× 1000): floored, since every concept a
// paper names is a topic of it, the best ones more.
func relTermWeight(w uint16) float64 { return relTermFloor + (1-relTermFloor)*float64(w)/1000 }

// weigh computes every concept's idf and every row's norm: about 10 ms for
// the 47,919 papers of the arXiv file, after each change of the index, so
// that a query reads them instead of taking 700,000 logarithms.
func (ix *Index) weigh() {
	ix.byRel, ix.postW = nil, nil // called with the index held for writing
	posts := ix.dicts[Concept].posts
	ix.idf = slices.Grow(ix.idf[:0], len(posts))[:len(posts)]
	for c, l := range posts {
		ix.idf[c] = float32(math.Log(1 + float64(ix.live)/float64(max(1, len(l)))))
	}
	ix.norms = slices.Grow(ix.norms[:0], len(ix.rows))[:len(ix.rows)]
	for r := range ix.rows {
		row := &ix.rows[r]
		var n float64
		for j, c := range ix.dim(row, Concept) {
			x := relTermWeight(ix.weights(row)[j]) * float64(ix.idf[c])
			n += x * x
		}
		ix.norms[r] = float32(math.Sqrt(max(n, 1e-12)))
	}
	// title words: document frequencies over the live rows, then as above
	df := make([]int32, len(ix.words))
	for r := range ix.rows {
		if !ix.rows[r].dead {
			for _, w := range ix.titleWords(&ix.rows[r]) {
				df[w]++
			}
		}
	}
	ix.wordIDF = slices.Grow(ix.wordIDF[:0], len(df))[:len(df)]
	for w, n := range df {
		ix.wordIDF[w] = 0
		if n > 0 && float64(n) <= relWordMaxShare*float64(ix.live) {
			ix.wordIDF[w] = float32(math.Log(float64(ix.live) / float64(n)))
		}
	}
	ix.wordNorms = slices.Grow(ix.wordNorms[:0], len(ix.rows))[:len(ix.rows)]
	for r := range ix.rows {
		var n float64
		for _, w := range ix.titleWords(&ix.rows[r]) {
			n += float64(ix.wordIDF[w]) * float64(ix.wordIDF[w])
		}
		ix.wordNorms[r] = float32(math.Sqrt(n))
	}
	// the rows of each word that weighs, for the title-word cosine
	// (related): a query's few words reach the rows through them, where
	// a loop over every candidate's words cost two thirds of a query
	counts := make([]int32, len(ix.wordIDF))
	total := 0
	for r := range ix.rows {
		for _, w := range ix.titleWords(&ix.rows[r]) {
			if ix.wordIDF[w] > 0 {
				counts[w]++
				total++
			}
		}
	}
	flat := make([]uint32, total)
	ix.wordPosts = slices.Grow(ix.wordPosts[:0], len(counts))[:len(counts)]
	for w, n := range counts {
		ix.wordPosts[w], flat = flat[:0:n], flat[n:]
	}
	for r := range ix.rows {
		for _, w := range ix.titleWords(&ix.rows[r]) {
			if ix.wordIDF[w] > 0 {
				ix.wordPosts[w] = append(ix.wordPosts[w], uint32(r))
			}
		}
	}
}

// postingWeights is concept c's weight in each paper of its list,
// parallel to the list (nil for a short list: read the rows). Related
// work sums a query concept over all its papers; finding the concept in
// each paper's row was half of a query's time (a cache miss or two a
// paper), and the same large concepts come back query after query.
func (ix *Index) postingWeights(c uint32) []uint16 {
	posts := ix.dicts[Concept].posts[c]
	if len(posts) < knobs.PostingWeightsMin {
		return nil
	}
	ix.relMu.Lock()
	w, ok := ix.postW[c]
	ix.relMu.Unlock()
	if ok {
		return w
	}
	w = make([]uint16, len(posts))
	for i, r := range posts {
		row := &ix.rows[r]
		if j := slices.Index(ix.dim(row, Concept), c); j >= 0 {
			w[i] = ix.weights(row)[j]
		}
	}
	ix.relMu.Lock()
	if ix.postW == nil {
		ix.postW = map[uint32][]uint16{}
	}
	ix.postW[c] = w
	ix.relMu.Unlock()
	return w
}

// conceptWeightIn is the weight of concept ordinal c in a row (0: none).
func (ix *Index) conceptWeightIn(row *row, c uint32) float64 {
	for j, v := range ix.dim(row, Concept) {
		if v == c {
			return relTermWeight(ix.weights(row)[j])
		}
	}
	return 0
}

// Related scores every paper that shares a concept, a term, a title word
// or a person with the query and returns the best first, with the
// reasons: the papers to cite for what the query brings. Seed and
// excluded papers are never answers.
func (ix *Index) Related(q *Query, first int) []Found {
	var out []Found
	for _, h := range ix.related(q, first) {
		out = append(out, ix.explain(q, h))
	}
	return out
}

// related scores every row that shares a concept or a person with the
// query and returns the best first.
func (ix *Index) related(q *Query, first int) []relHit {
	sc := relPool.Get().(*relScratch)
	defer relPool.Put(sc)
	if cap(sc.dot) < len(ix.rows) {
		sc.dot, sc.extra, sc.people = make([]float32, len(ix.rows)), make([]float32, len(ix.rows)), make([]float32, len(ix.rows))
	}
	sc.dot, sc.extra, sc.people = sc.dot[:len(ix.rows)], sc.extra[:len(ix.rows)], sc.people[:len(ix.rows)]
	sc.touched = sc.touched[:0]
	if cap(sc.qword) < len(ix.wordIDF) {
		sc.qword = make([]float32, len(ix.wordIDF))
	}
	if cap(sc.wdot) < len(ix.rows) {
		sc.wdot = make([]float64, len(ix.rows))
	}
	sc.wdot = sc.wdot[:len(ix.rows)]
	sc.qword = sc.qword[:len(ix.wordIDF)]
	for w, x := range q.words {
		sc.qword[w] = float32(x)
	}
	defer func() {
		for _, r := range sc.touched {
			sc.dot[r], sc.extra[r], sc.people[r], sc.wdot[r] = 0, 0, 0, 0
		}
		for w := range q.words {
			sc.qword[w] = 0
		}
	}()
	touch := func(r uint32) bool {
		if q.allow != nil && !q.allow[r] {
			return false
		}
		if sc.dot[r] == 0 && sc.extra[r] == 0 {
			sc.touched = append(sc.touched, r)
			sc.extra[r] = 1e-9 // marks it touched
		}
		return true
	}
	// people: a person's papers, damped by how many they wrote (a prolific
	// person's every paper is weaker evidence); the sum is normalised by
	// the teams' sizes when scored, as a cosine
	for _, a := range slices.Sorted(maps.Keys(q.authors)) {
		posts := ix.dicts[Author].posts[a]
		w := float32(q.authors[a] / math.Log2(2+float64(len(posts))/8))
		for _, r := range posts {
			if touch(r) {
				sc.people[r] += w
			}
		}
	}
	// the query's concept vector is weight × idf; the cosine's dot
	// product is summed over each concept's papers, rarest concept first.
	// A concept of more than relOpenDF papers ("large language model":
	// 16,670) adds only to the papers found so far once there are
	// relEnough of them: the papers it alone would bring could not rank.
	qnorm := q.norm()
	concepts := slices.Sorted(maps.Keys(q.concepts))
	posts := ix.dicts[Concept].posts
	slices.SortStableFunc(concepts, func(a, b uint32) int { return cmp.Compare(len(posts[a]), len(posts[b])) })
	for _, c := range concepts {
		idf := ix.conceptIDF(c)
		qc := q.concepts[c] * idf * idf / qnorm
		open := len(posts[c]) <= relOpenDF || len(sc.touched) < relEnough
		pw := ix.postingWeights(c)
		for i, r := range posts[c] {
			if !open && sc.dot[r] == 0 && sc.extra[r] == 0 {
				continue
			}
			if touch(r) {
				w := 0.0
				if pw != nil {
					w = relTermWeight(pw[i])
				} else {
					w = ix.conceptWeightIn(&ix.rows[r], c)
				}
				sc.dot[r] += float32(qc * w)
			}
		}
	}
	// a draft's rare terms: their share of the draft's whole vector
	if len(q.terms) > 0 {
		all := qnorm*qnorm + q.termNorm
		for _, t := range q.terms {
			for i, r := range t.rows {
				if touch(r) {
					sc.extra[r] += float32(t.q * t.w[i] / all)
				}
			}
		}
	}
	for _, c := range q.named {
		for _, r := range ix.dicts[Concept].posts[c] {
			if touch(r) {
				sc.extra[r] += relNamedWeight
			}
		}
	}
	// the title-word dot products of the candidates, from the rows of
	// the query's words in word order: each row's sum adds the same
	// products in the same order as a loop over its own words would
	wordPostings := knobs.WordPostings
	if q.wordNorm > 0 && wordPostings {
		ws := make([]uint32, 0, len(q.words))
		for w := range q.words {
			if sc.qword[w] != 0 && ix.wordIDF[w] > 0 {
				ws = append(ws, w)
			}
		}
		slices.Sort(ws)
		for _, w := range ws {
			x := float64(sc.qword[w]) * float64(ix.wordIDF[w])
			for _, r := range ix.wordPosts[w] {
				if sc.extra[r] != 0 { // touched: a candidate
					sc.wdot[r] += x
				}
			}
		}
	}
	var near [relYearSpan + 1]float64 // e^(−Δy/scale) by Δy
	for d := range near {
		near[d] = relYearWeight * math.Exp(-float64(d)/relYearScale)
	}
	// the best first, kept sorted while the candidates are scored
	top := make([]relHit, 0, first+1)
	better := func(a, b relHit) bool {
		return a.score > b.score || a.score == b.score && ix.rows[a.row].id < ix.rows[b.row].id
	}
	for _, r := range sc.touched {
		if q.exclude[r] { // seeds and excluded papers: checked once a candidate, not once a posting
			continue
		}
		row := &ix.rows[r]
		s := 0.0
		if d := float64(sc.dot[r]); d > 0 {
			s = d / ix.rowNorm(r)
		}
		s += float64(sc.extra[r])
		if q.wordNorm > 0 && ix.wordNorms[r] > 0 {
			dot := sc.wdot[r]
			if !wordPostings {
				for _, w := range ix.titleWords(row) {
					dot += float64(sc.qword[w]) * float64(ix.wordIDF[w])
				}
			}
			s += relWordWeight * dot / (q.wordNorm * float64(ix.wordNorms[r]))
		}
		if p := float64(sc.people[r]); p > 0 {
			// shared people over the geometric mean of the two teams:
			// six of a ten-author team's people are one team's work,
			// not six reasons (RewardBench 2 and the same lab's Olmo
			// 3); and they count fully only beside a shared topic (s so
			// far: concepts, terms, title words)
			p = relAuthorWeight * p / math.Sqrt(float64(max(1, len(q.authors)))*float64(max(1, len(ix.dim(row, Author)))))
			s += p * (relPeopleAlone + (1-relPeopleAlone)*min(1, s/relTopicEnough))
		}
		for _, v := range ix.dim(row, Subject) {
			s += relSubjectWeight * q.subjects[v]
		}
		if row.venue != 0 {
			s += relVenueWeight * q.venues[row.venue]
		}
		if len(q.years) > 0 && row.date != 0 {
			y, best := int(row.date>>9), 0.0
			for _, sy := range q.years {
				if d := abs(y - sy); d <= relYearSpan {
					best = max(best, near[d])
				}
			}
			s += best
		}
		h := relHit{r, s}
		if len(top) == first && (first == 0 || !better(h, top[first-1])) {
			continue
		}
		i := sort.Search(len(top), func(i int) bool { return better(h, top[i]) })
		top = slices.Insert(top, i, h)
		if len(top) > first {
			top = top[:first]
		}
	}
	return top
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
