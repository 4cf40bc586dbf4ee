// Words that are no concepts (modifiers, rejected single words) and
// co-occurrence: pair counters of concepts among a paper's best ones, moved
// paper by paper at the settle or recounted in one pass after a large
// ingest.

package graph

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/vocab"
)

// One-word concepts that are no concepts. A word is a concept when papers
// use it as a noun: "skill", "transformer", "fine-tuning". Many one-word
// key terms are modifiers or verbs that a few papers' tagging made a noun
// phrase of their own: "visual" (of 8,459 papers that say it, 2% use it as
// a noun phrase), "real-world" (3%), "state-of-the-art" (7%), "support"
// (21%), and methods named by a common word ("CritiCal": "critical"). Made
// concepts, they were linked to every paper that says the word. The test
// is the share of the papers that say a word that use it as a noun phrase
// of its own or at the end of one (its document frequency): at least
// nounShare, or the concept goes. On the arXiv file 408 words go
// ("vision", "prior", "pose", "building", "anomaly", "denoising" among the
// most used); the kept words nearest the line are "box" (0.41),
// "ImageNet" (0.42), "diffusion" (0.43) and "post-training" (0.44). The
// line was drawn by reading the words on either side of it in this file
// (there is no gold list of concepts to tune it against): a round number
// between the modifiers and the nouns, not a fitted one.
//
// The share is read twice: when the concept is made, from the scan of the
// stored texts that finds its earlier papers (rescanPlan counts the papers
// that say it, rejectModifiers); and each time a paper is linked to it,
// from its papers (checkModifier), since later papers may say it
// differently than the first ones. A rejected word's counter
// (rejectedCounter) is set to rejPending; no vote makes it a concept again
// (until RecomputeConcepts, which judges every word on the whole corpus),
// and linking skips it from then on. The next settle unlinks its papers, in bounded transactions, with their
// co-occurrence pairs recounted, and the concept goes with its last paper
// (rejectPending); then the counter is rejDone. Interrupted, the next
// settle finishes the work.

const (
	rejPending = 1
	rejDone    = 2
)

// rejectedCounter marks a one-word term that is no concept.
func rejectedCounter(key string) string { return "rej/" + key }

// checkModifier marks a one-word concept rejected when, with deg papers
// linked to it, too few papers use it as a noun.
func (w *writer) checkModifier(c NodeID, deg int64) error {
	n, err := w.conceptOf(c)
	if err != nil || !vocab.OneWord(n.Name) {
		return err
	}
	df, err := newTxStats(w).docFreq(n.Key)
	if err != nil || !vocab.IsModifier(df, deg) {
		return err
	}
	if v, err := w.tx.Counter(rejectedCounter(n.Key)); err != nil || v != 0 {
		return err
	}
	w.vocab.reject(c)
	_, err = w.tx.AddCounter(rejectedCounter(n.Key), rejPending)
	return err
}

// rejectModifiers marks rejected the new one-word concepts that a scan
// found said by surface papers, too few of them as a noun, and drops the
// links the scan found for them from add; then it unlinks every rejected
// concept (rejectPending).
func (s *Service) rejectModifiers(ctx context.Context, surface map[NodeID]int, add map[NodeID]map[NodeID]float64) error {
	if len(surface) > 0 {
		var rejected []NodeID
		if err := s.store.Update(ctx, func(tx Tx) error {
			rejected = rejected[:0]
			for _, c := range slices.Sorted(maps.Keys(surface)) {
				n, err := tx.Node(c)
				if ErrorCode(err) == NotFound {
					continue
				} else if err != nil {
					return err
				}
				key := ident.ConceptKey(n.Label)
				deg, err := tx.Counter(degreeCounter(c, Mentions))
				if err != nil {
					return err
				}
				v, err := tx.Counter(dfCounter(key))
				if err != nil {
					return err
				}
				if df, _, _ := decodeDF(v); !vocab.IsModifier(df, max(int64(surface[c]), deg)) {
					continue
				}
				rejected = append(rejected, c)
				if v, err := tx.Counter(rejectedCounter(key)); err != nil {
					return err
				} else if v == 0 {
					if _, err := tx.AddCounter(rejectedCounter(key), rejPending); err != nil {
						return err
					}
				}
			}
			return nil
		}); err != nil {
			return err
		}
		// one pass over the papers, not one a rejected word: on the arXiv
		// file 1.7 of the settle's 14 CPU-seconds went to deleting each
		// rejected word from each of 47,919 papers' sets
		if len(rejected) > 0 {
			gone := make(map[NodeID]bool, len(rejected))
			for _, c := range rejected {
				gone[c] = true
			}
			for _, cs := range add {
				for c := range cs {
					if gone[c] {
						delete(cs, c)
					}
				}
			}
		}
	}
	return s.rejectPending(ctx)
}

// pendingRejections are the keys of the words rejected and not yet
// unlinked.
func pendingRejections(r Reader) ([]string, error) {
	var keys []string
	err := r.Counters("rej/", func(name string, v int64) bool {
		if v == rejPending {
			keys = append(keys, strings.TrimPrefix(name, "rej/"))
		}
		return true
	})
	return keys, err
}

// wordConcept is the concept named by a rejected word's key: not another
// concept that has the word as an alias.
func wordConcept(r Reader, key string) (NodeID, bool, error) {
	c, err := r.Lookup(IdxConcept, key)
	if ErrorCode(err) == NotFound {
		return 0, false, nil
	} else if err != nil {
		return 0, false, err
	}
	n, err := r.Node(c)
	if err != nil {
		return 0, false, err
	}
	return c, ident.ConceptKey(n.Label) == key, nil
}

// rejectPending unlinks the concepts of the words marked rejected since
// the last settle: their papers are read from one snapshot (nothing else
// writes while a settle runs), each rewritten once without every rejected
// concept it mentions, in bounded transactions; then the concepts left
// without papers are removed and the words marked done.
func (s *Service) rejectPending(ctx context.Context) error {
	r, err := s.store.Read(ctx)
	if err != nil {
		return err
	}
	defer r.Close()
	keys, err := pendingRejections(r)
	if err != nil {
		return err
	}
	if len(keys) == 0 {
		return nil
	}
	drop := map[NodeID]bool{}
	linked := map[NodeID]bool{}
	for _, key := range keys {
		c, ok, err := wordConcept(r, key)
		if err != nil {
			return err
		} else if !ok {
			continue
		}
		drop[c] = true
		if err := r.Edges(c, Mentions, In, func(p NodeID, _ float64) bool { linked[p] = true; return true }); err != nil {
			return err
		}
	}
	type rewrite struct {
		p       NodeID
		old     map[NodeID]float64
		sortKey []byte
	}
	papers := make([]rewrite, 0, len(linked))
	for _, p := range slices.Sorted(maps.Keys(linked)) {
		n, err := r.Node(p)
		if err != nil {
			return err
		}
		old := map[NodeID]float64{}
		if err := r.Edges(p, Mentions, Out, func(o NodeID, wt float64) bool { old[o] = wt; return true }); err != nil {
			return err
		}
		papers = append(papers, rewrite{p, old, PaperSortKey(&n)})
	}
	r.Close()
	if err := s.eachBatch(ctx, len(papers), func(w *writer, i int) error {
		x := papers[i]
		cur := maps.Clone(x.old)
		for c := range x.old {
			if drop[c] {
				delete(cur, c)
			}
		}
		w.vocab = vocabularyOf(s.store)
		return w.moveMentions(x.p, x.old, cur, x.sortKey, true, nil)
	}); err != nil {
		return err
	}
	// the concepts no paper was linked to yet go too, with the uses
	// recorded for the day their word became a concept (it will not)
	return s.eachBatch(ctx, len(keys), func(w *writer, i int) error {
		w.vocab = vocabularyOf(s.store)
		if c, err := w.tx.Lookup(IdxConcept, keys[i]); err == nil && drop[c] {
			if err := w.dropConcept(c); err != nil {
				return err
			}
		} else if err != nil && ErrorCode(err) != NotFound {
			return err
		}
		if err := w.dropUses(keys[i]); err != nil {
			return err
		}
		_, err := w.tx.AddCounter(rejectedCounter(keys[i]), rejDone-rejPending)
		return err
	})
}

// dropUses removes the uses recorded for a key that will be no concept:
// its term uses, and the first paper its document frequency holds.
func (w *writer) dropUses(key string) error {
	type use struct {
		term string
		p    NodeID
	}
	var uses []use
	if err := w.tx.Terms(IdxTermUse, key+" ", func(term string, p NodeID) bool {
		uses = append(uses, use{term, p})
		return true
	}); err != nil {
		return err
	}
	for _, u := range uses {
		if err := w.tx.DeleteTerm(IdxTermUse, u.term, u.p); err != nil {
			return err
		}
	}
	v, err := w.tx.Counter(dfCounter(key))
	if err != nil {
		return err
	}
	if n, _, seq := decodeDF(v); seq != 0 {
		_, err = w.tx.AddCounter(dfCounter(key), encodeDF(n, 0, 0)-v)
	}
	return err
}

// coPair is a co-occurrence pair, a < b.
type coPair struct{ a, b NodeID }

// compare orders pairs by a, then b: the order of the pair keys.
func (x coPair) compare(y coPair) int {
	if c := cmp.Compare(x.a, y.a); c != 0 {
		return c
	}
	return cmp.Compare(x.b, y.b)
}

// countCoOccurrence counts a paper's co-occurrence pairs for its mentions
// cur: the pairs of its best concepts (topConcepts) that were not counted
// for it before gain one, the pairs counted before (the set kept on the
// paper) that are no longer lose one. The changes are summed over the
// transaction (flushPairs writes them) and land in the same transaction as
// the paper's new counted set and the removal of its IdxCoDirty mark, so
// every pair is counted once for the paper, whatever interrupts a run.
func (w *writer) countCoOccurrence(n *Node, cur map[NodeID]float64) error {
	if err := w.tx.DeleteTerm(IdxCoDirty, authorTerm(n.ID), n.ID); err != nil {
		return err
	}
	top := slices.Sorted(maps.Keys(topConcepts(cur)))
	if slices.Equal(top, n.CoOccurs) {
		return nil
	}
	if w.co == nil {
		w.co = map[coPair]int64{}
	}
	for _, pass := range []struct {
		from, other []NodeID
		d           int64
	}{{top, n.CoOccurs, 1}, {n.CoOccurs, top, -1}} {
		for x, a := range pass.from {
			for _, b := range pass.from[x+1:] {
				if !slices.Contains(pass.other, a) || !slices.Contains(pass.other, b) {
					w.co[coPair{min(a, b), max(a, b)}] += pass.d
				}
			}
		}
	}
	n.CoOccurs = top
	return w.tx.PutNode(*n)
}

// flushPairs writes the co-occurrence changes summed in the transaction,
// in key order.
func (w *writer) flushPairs() error {
	pairs := slices.SortedFunc(maps.Keys(w.co), coPair.compare)
	for _, pr := range pairs {
		if d := w.co[pr]; d != 0 {
			if err := w.pair(CoOccurs, pr.a, pr.b, d); err != nil {
				return err
			}
		}
	}
	w.co = nil
	return nil
}

// topConcepts picks a paper's coOccurTop best mentions, by weight then id,
// so the same stored weights always give the same set.
func topConcepts(m map[NodeID]float64) map[NodeID]bool {
	ids := make([]NodeID, 0, len(m))
	for c := range m {
		ids = append(ids, c)
	}
	slices.SortFunc(ids, func(a, b NodeID) int {
		if m[a] != m[b] {
			return cmp.Compare(m[b], m[a])
		}
		return cmp.Compare(a, b)
	})
	top := make(map[NodeID]bool, coOccurTop)
	for _, c := range ids[:min(len(ids), coOccurTop)] {
		top[c] = true
	}
	return top
}

const (
	// coRecountFlag is set while a recount runs: a recount interrupted
	// half-way has set some pairs and not others, and the next settle
	// recounts again, whatever it has to count.
	coRecountFlag = "co/recount"
)

// coRecountMin: a settle with at least this many papers to count, and at
// least a quarter of all papers, recounts every pair from the papers'
// mentions in one pass (recountCoOccurrence) instead of changing pairs
// paper by paper. A variable for tests.
var coRecountMin = 2000

// settleCoOccurrence counts the co-occurrence pairs of the papers whose
// mentions changed since their pairs were counted (IdxCoDirty): once a
// paper, whatever the concepts it gained since. A few papers are counted
// in transactions of many papers, each paper's changes landing with its
// new counted set (countCoOccurrence); many (a large ingest, a recompute)
// make every pair be recounted.
func (s *Service) settleCoOccurrence(ctx context.Context) error {
	for {
		r, err := s.store.Read(ctx)
		if err != nil {
			return err
		}
		var dirty []NodeID
		err = r.Terms(IdxCoDirty, "", func(_ string, p NodeID) bool {
			dirty = append(dirty, p)
			return true
		})
		var flag, papers int64
		if err == nil {
			flag, err = r.Counter(coRecountFlag)
		}
		if err == nil {
			papers, err = r.Counter(cntPapers)
		}
		r.Close()
		if err != nil {
			return err
		}
		s.report(StageCoOccur, 0, len(dirty))
		if flag != 0 || len(dirty) >= coRecountMin && 4*int64(len(dirty)) >= papers {
			if err := s.recountCoOccurrence(ctx, dirty); err != nil {
				return err
			}
			s.report(StageCoOccur, len(dirty), len(dirty))
			return nil
		}
		if len(dirty) == 0 {
			return nil
		}
		if err := s.eachBatch(ctx, len(dirty), func(w *writer, i int) error {
			p := dirty[i]
			n, err := w.tx.Node(p)
			if ErrorCode(err) == NotFound {
				return w.tx.DeleteTerm(IdxCoDirty, authorTerm(p), p)
			} else if err != nil {
				return err
			}
			cur, err := w.mentions(p)
			if err != nil {
				return err
			}
			return w.countCoOccurrence(&n, cur)
		}); err != nil {
			return err
		}
		s.report(StageCoOccur, len(dirty), len(dirty))
	}
}

// recountCoOccurrence sets every co-occurrence pair to the number of papers
// with both among their best concepts (topConcepts), read in one pass over
// the papers' mentions, and gives the papers to count (dirty) their new
// counted sets. Pairs are set, not moved, so a recount interrupted at any
// point is repaired by running it again (coRecountFlag says to). A large
// ingest counts its papers this way: summed in memory (a few tens of bytes
// a pair), each pair is written once, without being read.
func (s *Service) recountCoOccurrence(ctx context.Context, dirty []NodeID) error {
	if err := s.store.Update(ctx, func(tx Tx) error {
		if n, err := tx.Counter(coRecountFlag); err != nil || n != 0 {
			return err
		}
		_, err := tx.AddCounter(coRecountFlag, 1)
		return err
	}); err != nil {
		return err
	}
	r, err := s.store.Read(ctx)
	if err != nil {
		return err
	}
	toCount := make(map[NodeID]bool, len(dirty))
	for _, p := range dirty {
		toCount[p] = true
	}
	counts := map[coPair]int32{}
	tops := map[NodeID][]NodeID{} // the new counted sets of the papers to count
	var paper NodeID
	mentions := map[NodeID]float64{}
	endPaper := func() {
		if len(mentions) == 0 {
			return
		}
		top := slices.Sorted(maps.Keys(topConcepts(mentions)))
		for x, a := range top {
			for _, b := range top[x+1:] {
				counts[coPair{a, b}]++
			}
		}
		if toCount[paper] {
			tops[paper] = top
		}
		clear(mentions)
	}
	err = r.KindEdges(KindPaper, Mentions, func(src, c NodeID, w float64) bool {
		if src != paper {
			endPaper()
			paper = src
		}
		mentions[c] = w
		return ctx.Err() == nil
	})
	endPaper()
	// the stored pairs that change
	type change struct {
		p coPair
		n int64
	}
	var changes []change
	var kept int64
	if err == nil {
		err = r.AllPairs(CoOccurs, func(a, b NodeID, n int64) bool {
			p := coPair{a, b}
			c := int64(counts[p])
			if c != n {
				changes = append(changes, change{p, c})
			}
			if c > 0 {
				kept++
			}
			delete(counts, p)
			return ctx.Err() == nil
		})
	}
	r.Close()
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return err
	}
	total := kept + int64(len(counts))
	for p, n := range counts {
		changes = append(changes, change{p, int64(n)})
	}
	counts = nil
	slices.SortFunc(changes, func(x, y change) int { return x.p.compare(y.p) })
	if err := s.eachBatch(ctx, len(changes), func(w *writer, i int) error {
		return w.tx.SetPair(CoOccurs, changes[i].p.a, changes[i].p.b, changes[i].n)
	}); err != nil {
		return err
	}
	if err := s.eachBatch(ctx, len(dirty), func(w *writer, i int) error {
		p := dirty[i]
		if err := w.tx.DeleteTerm(IdxCoDirty, authorTerm(p), p); err != nil {
			return err
		}
		n, err := w.tx.Node(p)
		if ErrorCode(err) == NotFound || err == nil && slices.Equal(n.CoOccurs, tops[p]) {
			return nil
		} else if err != nil {
			return err
		}
		n.CoOccurs = tops[p]
		return w.tx.PutNode(n)
	}); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		n, err := tx.Counter(pairCounter(CoOccurs))
		if err == nil && n != total {
			_, err = tx.AddCounter(pairCounter(CoOccurs), total-n)
		}
		if err == nil {
			_, err = tx.AddCounter(coRecountFlag, -1)
		}
		return err
	})
}
