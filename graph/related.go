// Related work: the papers to cite for what a researcher brings (a draft's
// text, concept names, seed papers), scored over the facet index, with the
// reasons. doc.go ("Related work") explains the score and where it comes
// from.

package graph

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/researchkg/kg/graph/ident"
)

// RelatedQuery is what a researcher brings to find related work. At least
// one of Text, Concepts and Papers must be given.
type RelatedQuery struct {
	// Text is a draft's title and abstract (the title on the first line
	// when there are several), analysed as stored papers are.
	Text string
	// Concepts are concept names or aliases, as ConceptByName resolves
	// them.
	Concepts []string
	// Papers are seed papers (positive examples); Exclude are papers to
	// leave out (already cited, or negative examples).
	Papers, Exclude []NodeID
	// Filter selects the papers that may be answers (nil: any).
	Filter *PaperFilter
	First  int
}

// Limits of a related-work query.
const (
	MaxRelatedSeeds = 100    // seed papers, excluded papers, concept names
	MaxRelatedText  = 20_000 // bytes of draft text
)

// Related is a paper related to what was asked, with the reasons.
type Related struct {
	Paper *Node
	Score float64
	// SharedConcepts are the concepts of the query the paper mentions, by
	// their part of the score (ConceptShares, parallel) descending.
	SharedConcepts []*Node
	ConceptShares  []float64
	SharedAuthors  []*Node // people of the seed papers who wrote it
	SharedSubjects []*Node // subjects it shares with the seed papers
	// SharedTerms are a draft's key terms that are no concepts yet (used
	// by too few papers) and that this paper uses too.
	SharedTerms []string
	// Why is the reasons in one line a person reads: "shares reward
	// model, RLHF; by Wei Zhang; cs.CL, 2025".
	Why string
}

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
	// relNestedDamp: the weight kept by a query concept whose name is
	// inside another's (damp)
	relNestedDamp = 0.5
)

// relQuery is a related-work query resolved to the facet index: weights
// by concept, person, subject and venue ordinal.
type relQuery struct {
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

// splitDraft cuts a draft into its title (its first line, when it has
// several and the first is short enough to be one) and its body.
func splitDraft(text string) (title, body string) {
	if t, rest, ok := strings.Cut(strings.TrimSpace(text), "\n"); ok && len(t) <= 300 {
		return strings.TrimSpace(t), rest
	}
	return "", text
}

// relTerm is a textTerm on the index: q is its weight × idf² in the
// draft, w its weight in each of its rows.
type relTerm struct {
	name string
	q    float64
	rows []uint32
	w    []float64
}

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
func (ix *facetIndex) conceptIDF(ord uint32) float64 { return float64(ix.idf[ord]) }

// weigh computes every concept's idf and every row's norm: about 10 ms for
// the 47,919 papers of the arXiv file, after each change of the index, so
// that a query reads them instead of taking 700,000 logarithms.
func (ix *facetIndex) weigh() {
	ix.byRel, ix.postW = nil, nil // called with the index held for writing
	posts := ix.dicts[dimConcept].posts
	ix.idf = slices.Grow(ix.idf[:0], len(posts))[:len(posts)]
	for c, l := range posts {
		ix.idf[c] = float32(math.Log(1 + float64(ix.live)/float64(max(1, len(l)))))
	}
	ix.norms = slices.Grow(ix.norms[:0], len(ix.rows))[:len(ix.rows)]
	for r := range ix.rows {
		row := &ix.rows[r]
		var n float64
		for j, c := range row.vals[dimConcept] {
			x := relTermWeight(row.weights[j]) * float64(ix.idf[c])
			n += x * x
		}
		ix.norms[r] = float32(math.Sqrt(max(n, 1e-12)))
	}
	// title words: document frequencies over the live rows, then as above
	df := make([]int32, len(ix.words))
	for r := range ix.rows {
		if !ix.rows[r].dead {
			for _, w := range ix.rows[r].words {
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
		for _, w := range ix.rows[r].words {
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
		for _, w := range ix.rows[r].words {
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
		for _, w := range ix.rows[r].words {
			if ix.wordIDF[w] > 0 {
				ix.wordPosts[w] = append(ix.wordPosts[w], uint32(r))
			}
		}
	}
}

// titleWords are the words of a title that may say what it is about: its
// folded words but function words, numbers and single letters.
func titleWords(title string) []string {
	var out []string
	for _, w := range ident.Tokens(title) {
		if len(w) > 1 && !functionWords[w] && !titleStopWords[w] && strings.ContainsFunc(w, func(r rune) bool { return r >= 'a' && r <= 'z' }) {
			out = append(out, w)
		}
	}
	return out
}

// titleStopWords are words of titles that say nothing of the topic.
var titleStopWords = map[string]bool{"is": true, "are": true, "be": true, "we": true, "our": true, "its": true,
	"towards": true, "toward": true, "based": true, "at": true, "as": true, "or": true, "not": true, "vs": true,
	"can": true, "do": true, "does": true, "how": true, "what": true, "why": true, "when": true, "this": true}

// postWeightsMin is the list size from which a concept's weights in its
// papers are kept between queries.
var postWeightsMin = 64

// postingWeights is concept c's weight in each paper of its list,
// parallel to the list (nil for a short list: read the rows). Related
// work sums a query concept over all its papers; finding the concept in
// each paper's row was half of a query's time (a cache miss or two a
// paper), and the same large concepts come back query after query.
func (ix *facetIndex) postingWeights(c uint32) []uint16 {
	posts := ix.dicts[dimConcept].posts[c]
	if len(posts) < postWeightsMin {
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
		if j := slices.Index(row.vals[dimConcept], c); j >= 0 {
			w[i] = row.weights[j]
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

// conceptWeight is the weight of concept ordinal c in a row (0: none).
func (row *facetRow) conceptWeight(c uint32) float64 {
	for j, v := range row.vals[dimConcept] {
		if v == c {
			return relTermWeight(row.weights[j])
		}
	}
	return 0
}

// related scores every row that shares a concept or a person with the
// query and returns the best first.
func (ix *facetIndex) related(q *relQuery, first int) []relHit {
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
		posts := ix.dicts[dimAuthor].posts[a]
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
	qnorm := q.norm(ix)
	concepts := slices.Sorted(maps.Keys(q.concepts))
	posts := ix.dicts[dimConcept].posts
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
					w = ix.rows[r].conceptWeight(c)
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
		for _, r := range ix.dicts[dimConcept].posts[c] {
			if touch(r) {
				sc.extra[r] += relNamedWeight
			}
		}
	}
	// the title-word dot products of the candidates, from the rows of
	// the query's words in word order: each row's sum adds the same
	// products in the same order as a loop over its own words would
	if q.wordNorm > 0 && relWordPostings {
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
			if !relWordPostings {
				for _, w := range row.words {
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
			p = relAuthorWeight * p / math.Sqrt(float64(max(1, len(q.authors)))*float64(max(1, len(row.vals[dimAuthor]))))
			s += p * (relPeopleAlone + (1-relPeopleAlone)*min(1, s/relTopicEnough))
		}
		for _, v := range row.vals[dimSubject] {
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

// relWordPostings: the title-word cosine through the words' rows (false:
// through each candidate's words, for the test that compares the two).
var relWordPostings = true

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// rowNorm is the length of row r's concept vector (weight × idf).
func (ix *facetIndex) rowNorm(r uint32) float64 { return float64(ix.norms[r]) }

// RelatedPapers ranks the papers related to p: RelatedWork with p as the
// one seed.
func (v *View) RelatedPapers(p NodeID, first int) ([]Related, error) {
	if _, err := v.Node(p); err != nil {
		return nil, err
	}
	return v.RelatedWork(RelatedQuery{Papers: []NodeID{p}, First: first})
}

// RelatedWork finds the papers related to what q brings, best first, with
// the reasons. Seed and excluded papers are never answers.
func (v *View) RelatedWork(q RelatedQuery) ([]Related, error) {
	if strings.TrimSpace(q.Text) == "" && len(q.Concepts) == 0 && len(q.Papers) == 0 {
		return nil, Errorf(Invalid, "relatedWork: give text, concepts or papers")
	}
	if len(q.Text) > MaxRelatedText {
		return nil, Errorf(Invalid, "relatedWork.text: %d bytes; at most %d", len(q.Text), MaxRelatedText)
	}
	for _, l := range []struct {
		name string
		n    int
	}{{"concepts", len(q.Concepts)}, {"papers", len(q.Papers)}, {"exclude", len(q.Exclude)}} {
		if l.n > MaxRelatedSeeds {
			return nil, Errorf(Invalid, "relatedWork.%s: %d values; at most %d", l.name, l.n, MaxRelatedSeeds)
		}
	}
	// the concepts asked for, by id: named ones, the text's, the seeds'
	want := map[NodeID]float64{}
	var named []NodeID
	var terms []textTerm
	for _, name := range q.Concepts {
		n, err := v.ConceptByName(name)
		if ErrorCode(err) == NotFound {
			return nil, Errorf(Invalid, "relatedWork.concepts: unknown concept %q", truncate(name, 64))
		} else if err != nil {
			return nil, err
		}
		want[n.ID] = max(want[n.ID], 1)
		named = append(named, n.ID)
	}
	if strings.TrimSpace(q.Text) != "" {
		links, ts, err := v.textEvidence(q.Text)
		if err != nil {
			return nil, err
		}
		terms = ts
		for _, l := range links {
			want[l.Concept] = max(want[l.Concept], l.Weight)
		}
	}
	for _, list := range [][]NodeID{q.Papers, q.Exclude} {
		for _, p := range list {
			if p.Kind() != KindPaper {
				return nil, Errorf(Invalid, "relatedWork: %s is not a paper", p)
			}
			if _, err := v.Node(p); ErrorCode(err) == NotFound {
				return nil, Errorf(Invalid, "relatedWork: unknown paper %s", p)
			} else if err != nil {
				return nil, err
			}
		}
	}
	sel, err := v.Select(q.Filter)
	if err != nil {
		return nil, err
	}
	first := max(q.First, 0)
	title, _ := splitDraft(q.Text)
	var found []relFound
	err = v.withIndex(func(ix *facetIndex) error {
		rq := ix.relQuery(want, named, terms, title, q.Papers, q.Exclude, sel)
		if err := v.damp(ix, rq); err != nil {
			return err
		}
		for _, h := range ix.related(rq, first) {
			found = append(found, ix.explain(rq, h))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]Related, 0, len(found))
	for _, f := range found {
		r, err := v.reasons(f)
		if ErrorCode(err) == NotFound {
			continue // gone since the index was read
		}
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// relFound is an answer with its reasons as ids, taken from the index
// under its lock.
type relFound struct {
	paper    NodeID
	score    float64
	concepts []NodeID
	shares   []float64 // each concept's part of the score
	authors  []NodeID
	subjects []NodeID // shared with the seeds
	terms    []string // a draft's rare key terms it uses
}

// explain lists why a row is an answer: the query's concepts it has, by
// their part of the score, and the seeds' people and subjects it has.
func (ix *facetIndex) explain(q *relQuery, h relHit) relFound {
	row := &ix.rows[h.row]
	f := relFound{paper: row.id, score: h.score}
	type part struct {
		id    NodeID
		share float64
	}
	var parts []part
	norm := ix.rowNorm(h.row) * q.norm(ix)
	for j, c := range row.vals[dimConcept] {
		w, ok := q.concepts[c]
		if !ok {
			continue
		}
		idf := ix.conceptIDF(c)
		parts = append(parts, part{ix.dicts[dimConcept].ids[c], w * idf * idf * relTermWeight(row.weights[j]) / norm})
	}
	slices.SortFunc(parts, func(a, b part) int {
		if c := cmp.Compare(b.share, a.share); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	for _, p := range parts {
		f.concepts = append(f.concepts, p.id)
		f.shares = append(f.shares, p.share)
	}
	for _, t := range q.terms {
		if slices.Contains(t.rows, h.row) {
			f.terms = append(f.terms, t.name)
		}
	}
	for _, a := range row.vals[dimAuthor] {
		if _, ok := q.authors[a]; ok {
			f.authors = append(f.authors, ix.dicts[dimAuthor].ids[a])
		}
	}
	for _, s := range row.vals[dimSubject] {
		if q.subjects[s] > 0 {
			f.subjects = append(f.subjects, ix.dicts[dimSubject].ids[s])
		}
	}
	return f
}

// norm is the length of the query's concept vector (weight × idf).
func (q *relQuery) norm(ix *facetIndex) float64 {
	if q.qnorm == 0 {
		for c, w := range q.concepts {
			x := w * ix.conceptIDF(c)
			q.qnorm += x * x
		}
		q.qnorm = math.Sqrt(max(q.qnorm, 1e-12))
	}
	return q.qnorm
}

// whyConcepts and whyPeople bound what the one-line reason names.
const (
	whyConcepts = 3
	whyPeople   = 2
)

// reasons loads an answer's nodes and writes its line.
func (v *View) reasons(f relFound) (Related, error) {
	var r Related
	var err error
	if r.Paper, err = v.Node(f.paper); err != nil {
		return r, err
	}
	r.Score = f.score
	r.SharedTerms = f.terms
	for i, id := range f.concepts {
		n, err := v.Node(id)
		if ErrorCode(err) == NotFound {
			continue
		} else if err != nil {
			return r, err
		}
		r.SharedConcepts = append(r.SharedConcepts, n)
		r.ConceptShares = append(r.ConceptShares, f.shares[i])
	}
	if r.SharedAuthors, err = v.Nodes(f.authors); err != nil {
		return r, err
	}
	if r.SharedSubjects, err = v.Nodes(f.subjects); err != nil {
		return r, err
	}
	subject := ""
	if len(r.SharedSubjects) > 0 {
		subject = r.SharedSubjects[0].Label
	} else if subs, _, err := v.edgeList(f.paper, InSubject, Out); err != nil {
		return r, err
	} else if len(subs) > 0 {
		if n, err := v.Node(subs[0]); err == nil {
			subject = n.Label
		}
	}
	r.Why = whyLine(r, subject)
	return r, nil
}

// whyLine writes the reasons in one line: "shares reward model, RLHF; by
// Wei Zhang; cs.CL, 2025" (a concept by its shortest alias when that is an
// acronym; the paper's subject, else its venue; its year).
func whyLine(r Related, subject string) string {
	var parts []string
	if shared := len(r.SharedConcepts) + len(r.SharedTerms); shared > 0 {
		var names []string
		words := make([][]string, len(r.SharedConcepts)) // each name's words, once
		for i, c := range r.SharedConcepts {
			words[i] = nameWords(c.Label)
		}
		for i, c := range r.SharedConcepts {
			// "model agent" says nothing beside "large language model agent"
			if !slices.ContainsFunc(words, func(wb []string) bool { return len(words[i]) < len(wb) && wordsInWords(words[i], wb) }) {
				names = append(names, conceptShortName(c))
			}
		}
		names = append(names, r.SharedTerms...)
		if len(names) > whyConcepts {
			names = append(names[:whyConcepts], fmt.Sprintf("%d more", len(names)-whyConcepts))
		}
		parts = append(parts, "shares "+strings.Join(names, ", "))
	}
	if len(r.SharedAuthors) > 0 {
		var names []string
		for i, a := range r.SharedAuthors {
			if i == whyPeople {
				names = append(names, fmt.Sprintf("%d more", len(r.SharedAuthors)-i))
				break
			}
			names = append(names, a.Label)
		}
		parts = append(parts, "by "+strings.Join(names, ", "))
	}
	var where []string
	if subject != "" {
		where = append(where, subject)
	} else if r.Paper.Venue != "" {
		where = append(where, truncate(r.Paper.Venue, 40))
	}
	if r.Paper.Year != 0 {
		where = append(where, fmt.Sprint(r.Paper.Year))
	}
	if len(where) > 0 {
		parts = append(parts, strings.Join(where, ", "))
	}
	return strings.Join(parts, "; ")
}

// conceptShortName is how a reason names a concept: a name of three or
// more words by its acronym when it has one ("RLHF"), else by its name
// ("reward model").
func conceptShortName(c *Node) string {
	if len(strings.Fields(c.Label)) < 3 {
		return c.Label
	}
	for _, a := range c.Aliases {
		if isOneAcronym(a) {
			return a
		}
	}
	return c.Label
}

// damp halves the weight of each query concept whose name is a run of
// another query concept's: "model agent" and "language model agent" in a
// query that has "large language model agent" are the same evidence
// again, and would triple its weight.
func (v *View) damp(ix *facetIndex, q *relQuery) error {
	type named struct {
		ord   uint32
		words []string
	}
	var cs []named
	for _, c := range slices.Sorted(maps.Keys(q.concepts)) {
		n, err := v.Node(ix.dicts[dimConcept].ids[c])
		if ErrorCode(err) == NotFound {
			continue
		} else if err != nil {
			return err
		}
		cs = append(cs, named{c, nameWords(n.Label)})
	}
	for _, a := range cs {
		for _, b := range cs {
			if len(a.words) < len(b.words) && wordsInWords(a.words, b.words) { // a nested in b, words found once
				q.concepts[a.ord] *= relNestedDamp
				break
			}
		}
	}
	q.qnorm = 0 // weights changed
	return nil
}

// relQuery resolves a query: the concepts' ordinals, and the seed papers'
// concepts (summed: a paper sharing concepts with several seeds gains from
// each), people, subjects, venues and years.
func (ix *facetIndex) relQuery(want map[NodeID]float64, named []NodeID, terms []textTerm, title string, seeds, exclude []NodeID, sel *Selection) *relQuery {
	q := &relQuery{concepts: map[uint32]float64{}, authors: map[uint32]float64{},
		subjects: map[uint32]float64{}, venues: map[uint32]float64{}, exclude: map[uint32]bool{}, words: map[uint32]float64{}}
	for id, w := range want {
		if o, ok := ix.dicts[dimConcept].ord[id]; ok && len(ix.dicts[dimConcept].posts[o]) > 0 {
			q.concepts[o] += w
		}
	}
	for _, id := range named {
		if o, ok := ix.dicts[dimConcept].ord[id]; ok && !slices.Contains(q.named, o) {
			q.named = append(q.named, o)
		}
	}
	for _, list := range [][]NodeID{seeds, exclude} {
		for _, p := range list {
			if r, ok := ix.row[p]; ok && !ix.rows[r].dead {
				q.exclude[r] = true
			}
		}
	}
	for _, p := range seeds {
		r, ok := ix.row[p]
		if !ok || ix.rows[r].dead {
			continue
		}
		row := &ix.rows[r]
		for j, c := range row.vals[dimConcept] {
			q.concepts[c] += relTermWeight(row.weights[j])
		}
		for _, a := range row.vals[dimAuthor] {
			q.authors[a]++
		}
		for _, s := range row.vals[dimSubject] {
			q.subjects[s] = 1
		}
		if row.venue != 0 {
			q.venues[row.venue] = 1
		}
		for _, w := range row.words {
			q.words[w] += float64(ix.wordIDF[w])
		}
		if row.date != 0 {
			q.years = append(q.years, int(row.date>>9))
		}
	}
	for _, w := range titleWords(title) {
		if o, ok := ix.words[w]; ok {
			q.words[o] += float64(ix.wordIDF[o])
		}
	}
	for _, x := range q.words {
		q.wordNorm += x * x
	}
	q.wordNorm = math.Sqrt(q.wordNorm)
	for _, t := range terms {
		rt := relTerm{name: t.name, q: t.weight * t.idf * t.idf}
		for i, p := range t.papers {
			if r, ok := ix.row[p]; ok && !ix.rows[r].dead {
				rt.rows = append(rt.rows, r)
				rt.w = append(rt.w, t.pw[i])
			}
		}
		q.terms = append(q.terms, rt)
		q.termNorm += (t.weight * t.idf) * (t.weight * t.idf)
	}
	if !sel.empty() {
		q.allow = make([]bool, len(ix.rows))
		for _, r := range ix.match(sel) {
			q.allow[r] = true
		}
	}
	return q
}

// TextConcepts finds the concepts a text names, as ingest links a stored
// paper with this text: the extractor's analysis ranked against the
// store's statistics, its spans resolved to concepts and acronyms. A text
// of several lines is a draft: its first line is the title. Nil when the
// service has no term extractor.
func (v *View) TextConcepts(text string) ([]Link, error) {
	links, _, err := v.textEvidence(text)
	return links, err
}

// textTerm is a key term of a draft that is no concept yet, with the
// papers that use it: the first from its document-frequency counter, the
// others from their recorded uses (recordUses), each with the weight a
// link would have.
type textTerm struct {
	name   string
	weight float64 // in the draft
	idf    float64
	papers []NodeID
	pw     []float64
}

// relTermTop: a draft's best key terms that are no concepts are looked up
// in the papers that use them (rare ones: a term of more than maxPostings
// papers has no complete list and says little).
const relTermTop = 30

// textEvidence is TextConcepts, and the draft's rare key terms that are
// no concepts with the papers that use them.
func (v *View) textEvidence(text string) ([]Link, []textTerm, error) {
	if v.svc.terms == nil {
		return nil, nil, nil
	}
	title, body := splitDraft(text)
	stats := v.CorpusStats()
	var rerr error
	resolve := func(key string, acronym bool) (Concept, bool) {
		if rerr != nil {
			return Concept{}, false
		}
		ns := IdxConcept
		if acronym {
			ns = IdxAcronym
		}
		id, err := v.lookup(ns, key)
		if ErrorCode(err) == NotFound {
			return Concept{}, false
		}
		var n *Node
		if err == nil {
			n, err = v.Node(id)
		}
		if err != nil {
			if ErrorCode(err) != NotFound {
				rerr = err
			}
			return Concept{}, false
		}
		c := Concept{ID: id, Name: n.Label, Key: ident.ConceptKey(n.Label)}
		if acronym && !acronymStandsFor(stats, key, c.Key) {
			return Concept{}, false
		}
		if oneWord(c.Name) {
			if k, err := v.r.Counter(rejectedCounter(c.Key)); err != nil || k > 0 {
				rerr = err
				return Concept{}, false
			}
		}
		return c, true
	}
	ranked := v.svc.terms.Analyze(title, body).Ranked(stats)
	links := ranked.Link(resolve)
	if rerr == nil {
		rerr = stats.Err()
	}
	if rerr != nil {
		return nil, nil, rerr
	}
	terms, err := v.rareTerms(ranked, stats, links)
	return links, terms, err
}

// rareTerms are a draft's best key terms that are no concept it links to,
// used by at most maxPostings+1 papers, with those papers.
func (v *View) rareTerms(ranked Ranking, stats *StoreStats, links []Link) ([]textTerm, error) {
	linked := map[string]bool{}
	for _, l := range links {
		if n, err := v.Node(l.Concept); err == nil {
			linked[ident.ConceptKey(n.Label)] = true
		}
	}
	docs := stats.Docs()
	var out []textTerm
	for _, t := range ranked.Top(relTermTop) {
		key := ident.ConceptKey(t.Name)
		if t.Fragment || key == "" || linked[key] {
			continue
		}
		raw, err := v.r.Counter(dfCounter(key))
		if err != nil {
			return nil, err
		}
		df, level, seq := decodeDF(raw)
		if df == 0 || df > maxPostings+1 {
			continue
		}
		tt := textTerm{name: t.Name, weight: t.Score, idf: math.Log(1 + float64(docs)/float64(df))}
		if seq != 0 {
			tt.papers = append(tt.papers, MakeID(KindPaper, seq))
			tt.pw = append(tt.pw, dfLevelWeight(level))
		}
		if err := v.r.Terms(IdxTermUse, key+" ", func(term string, p NodeID) bool {
			wt, err := strconv.ParseFloat(term[len(key)+1:], 64)
			if err != nil || wt <= 0 {
				wt = 0.001
			}
			tt.papers = append(tt.papers, p)
			tt.pw = append(tt.pw, wt)
			return len(tt.papers) <= maxPostings+1
		}); err != nil {
			return nil, err
		}
		if len(tt.papers) > 0 {
			out = append(out, tt)
		}
	}
	return out, nil
}

// relTermWeight is a concept's weight in a paper's vector, from its weight
// as a key term of the paper (× 1000): floored, since every concept a
// paper names is a topic of it, the best ones more.
func relTermWeight(w uint16) float64 { return relTermFloor + (1-relTermFloor)*float64(w)/1000 }
