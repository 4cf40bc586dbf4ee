// Words that are no concepts (modifiers, rejected single words) and
// co-occurrence: pair counters of concepts among a paper's best ones, moved
// paper by paper at the settle or recounted in one pass after a large
// ingest.

package graph

import (
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
func (s *Service) rejectModifiers(ctx context.Context, surface map[NodeID]int, add *gains) error {
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
			add.drop(func(c NodeID) bool { return gone[c] })
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
