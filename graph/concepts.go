package graph

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// The concept layer: see doc.go ("Concepts") for the rules and why.

const (
	// voteTop: a paper's best key terms vote for becoming concepts.
	voteTop = 10
	// voteTopSingle: a single common word votes only from a paper's five
	// best key terms (see votable).
	voteTopSingle = 5
	// voteTopSingleTitle: in a paper known by its title only, a single
	// common word votes from its three best key terms.
	voteTopSingleTitle = 3
	// introducedTop: a term a paper introduces (an acronym of its title, the
	// named method before its colon) is a concept at once when it is among
	// the paper's five best key terms.
	introducedTop = 5
	// coOccurTop is how many of a paper's best concepts count for
	// co-occurrence: 45 pairs a paper, and the pairs that say most.
	coOccurTop = 10
)

// paperText is what the extractor reads of a paper: its title and every
// abstract.
func paperText(abstracts []string) string { return strings.Join(abstracts, "\n\n") }

// textWords counts the words of a paper's title and abstracts
// (cntTermWords).
func textWords(title string, abstracts []string) int {
	n := len(strings.Fields(title))
	for _, a := range abstracts {
		n += len(strings.Fields(a))
	}
	return n
}

// analysisKey is the key of the analysis cache: the same title and text
// are tagged once per run.
func analysisKey(title, text string) string { return title + "\x00" + text }

// analyze runs the extractor, caching by text so the same text (a paper in
// two documents of one run, work done ahead by the pipeline) is not tagged
// twice.
func (w *writer) analyze(title, text string) TextAnalysis {
	key := analysisKey(title, text)
	if a, ok := w.analyses[key]; ok {
		return a
	}
	a := w.svc.terms.Analyze(title, text)
	w.analyses[key] = a
	return a
}

// paperConcepts re-reads a paper's text after it changed: document
// frequencies move from the old text to the new (oldAbstracts nil: the
// paper is new or was never counted), its key terms vote (a term with two
// votes becomes a concept, and the papers that used it before are linked
// to it), the paper is linked to every concept its text mentions, and its
// terms that are no concept yet are recorded for the day they become one.
func (w *writer) paperConcepts(p *Node, oldAbstracts, abstracts []string, sortKey []byte) error {
	if err := w.useVocabulary(); err != nil {
		return err
	}
	cur := w.analyze(p.Label, paperText(abstracts))
	w.paper = p.ID
	var old TextAnalysis
	words := int64(textWords(p.Label, abstracts))
	if oldAbstracts != nil && p.Terms == w.svc.terms.Version() {
		old = w.analyze(p.Label, paperText(oldAbstracts))
		words -= int64(textWords(p.Label, oldAbstracts))
	}
	w.count(cntTermWords, words)
	if err := w.countTerms(old, cur); err != nil {
		return err
	}
	if p.Terms != w.svc.terms.Version() {
		p.Terms = w.svc.terms.Version()
		if err := w.tx.PutNode(*p); err != nil {
			return err
		}
	}
	stats := newTxStats(w)
	r := cur.Ranked(stats)
	var oldR Ranking
	if old != nil {
		// what the old text voted and used, as well as it can be told now
		oldR = old.Ranked(stats)
	}
	if err := w.vote(p.ID, oldR, len(oldAbstracts) == 0, r, len(abstracts) == 0); err != nil {
		return err
	}
	linked, err := w.link(p, r, sortKey)
	if err != nil {
		return err
	}
	return w.recordUses(p.ID, oldR, r, linked)
}

// link replaces a paper's mentions with the concepts its text names and
// returns them.
func (w *writer) link(p *Node, r Ranking, sortKey []byte) (map[NodeID]float64, error) {
	links := r.Link(w.resolve)
	if w.err != nil {
		err := w.err
		w.err = nil
		return nil, err
	}
	cur := make(map[NodeID]float64, len(links))
	for _, l := range links {
		cur[l.Concept] = l.Weight
	}
	old, err := w.mentions(p.ID)
	if err != nil {
		return nil, err
	}
	pend, err := pendingMentions(w.tx, p.ID)
	if err != nil {
		return nil, err
	}
	// links to concepts the settle has yet to judge wait for it
	now, later := w.splitLinks(cur, old)
	if err := w.movePending(p.ID, pend, later, now); err != nil {
		return nil, err
	}
	// its co-occurrence pairs are counted once its mentions have settled:
	// counted now, the papers that gain concepts later would count twice
	return cur, w.moveMentions(p.ID, old, now, sortKey, true, pend)
}

// mentions reads a paper's current mentions.
func (w *writer) mentions(p NodeID) (map[NodeID]float64, error) {
	old := map[NodeID]float64{}
	err := w.tx.Edges(p, Mentions, Out, func(c NodeID, wt float64) bool { old[c] = wt; return true })
	return old, err
}

// useTerm is the IdxTermUse entry of a term use: "<key> <weight>".
func useTerm(u Use) string { return u.Key + " " + strconv.FormatFloat(u.Weight, 'f', 3, 64) }

// maxPostings: a term used by this many papers without becoming a concept
// is not recorded for more of them (a concept it becomes later is linked
// to those it was recorded for, and to the papers after it).
const maxPostings = 50

// recordUses records the paper's terms that are no concept yet, with the
// weight a link would have, so that the paper is linked to a term when it
// becomes a concept (SettleConcepts): the first paper of a term in the
// term's document frequency, the next ones as IdxTermUse entries. Uses of
// the old text that the new one lacks are removed.
func (w *writer) recordUses(p NodeID, oldR, cur Ranking, linked map[NodeID]float64) error {
	uses := cur.Uses()
	keep := make(map[string]bool, len(uses))
	for _, u := range uses {
		keep[u.Key] = true
	}
	if oldR != nil {
		for _, u := range oldR.Uses() {
			if !keep[u.Key] {
				if err := w.dropUse(p, u.Key); err != nil {
					return err
				}
			}
		}
	}
	for _, u := range uses {
		if w.vocab.mayHave(u.Key) {
			id, err := w.tx.Lookup(IdxConcept, u.Key)
			if err == nil {
				if _, ok := linked[id]; ok {
					continue // a concept already, and linked
				}
			} else if ErrorCode(err) != NotFound {
				return err
			}
		}
		if n, counted := w.df[u.Key]; counted {
			name := dfCounter(u.Key)
			v, err := w.tx.Counter(name)
			if err != nil {
				return err
			}
			_, level, seq := decodeDF(v)
			if seq == p.Seq() {
				if l := dfLevel(u.Weight); l != level {
					if _, err := w.tx.AddCounter(name, encodeDF(n, l, seq)-v); err != nil {
						return err
					}
				}
				continue
			}
			if n > maxPostings {
				continue
			}
		}
		if err := w.tx.PutTerm(IdxTermUse, useTerm(u), p); err != nil {
			return err
		}
	}
	return nil
}

// dropUse removes a paper's use of a term, whatever its weight.
func (w *writer) dropUse(p NodeID, key string) error {
	var terms []string
	if err := w.tx.Terms(IdxTermUse, key+" ", func(term string, id NodeID) bool {
		if id == p {
			terms = append(terms, term)
		}
		return true
	}); err != nil {
		return err
	}
	for _, t := range terms {
		if err := w.tx.DeleteTerm(IdxTermUse, t, p); err != nil {
			return err
		}
	}
	return nil
}

// markBackfill records that papers may have used a concept (or a new name
// of it) before it existed: SettleConcepts links them. Linking them here,
// one concept at a time, rewrote the same early papers' mentions again and
// again (a tenth of ingest's time); settled together, each paper is
// rewritten once. The stored texts are scanned for its names too (by
// prints, so a settle reads only the texts that may say them): uses are
// recorded only where the name was a candidate term of its paper, and
// only for maxPostings papers; a paper that says it inside a phrase the
// tagger read otherwise ("function calling LLMs") is linked by the scan.
func (w *writer) markBackfill(c NodeID, name string) error {
	if w.deferLinks {
		return nil
	}
	if err := w.tx.PutTerm(IdxBackfill, authorTerm(c), c); err != nil {
		return err
	}
	w.vocab.unsettle(c)
	// The scan also tells whether a single word is mostly a noun
	// (rejectModifiers); an acronym's recorded uses are keyed as the word
	// it spells ("FACE" and "face"; settleKeys).
	return w.tx.PutTerm(IdxRescan, authorTerm(c), c)
}

const (
	// frontRatio: a term of several words is the front of a longer term
	// when that term is used in this many times the papers it is used in
	// itself (frontOfLonger).
	frontRatio = 1.5
	// frontScanMax bounds the longer terms frontOfLonger reads.
	frontScanMax = 1000
)

// addMentions links a paper to more concepts (with their weights): its
// pending links to the concepts that still exist, with the weights it
// was read with, and the concepts of add it has no link to.
func (w *writer) addMentions(p NodeID, add map[NodeID]float64) error {
	old, err := w.mentions(p)
	if err != nil {
		return err
	}
	pend, err := pendingMentions(w.tx, p)
	if err != nil {
		return err
	}
	if len(pend) > 0 {
		if err := w.tx.DeleteValue(ValPendingMentions, authorTerm(p)); err != nil {
			return err
		}
	}
	n, err := w.tx.Node(p)
	if err != nil {
		if ErrorCode(err) == NotFound {
			return nil
		}
		return err
	}
	cur := maps.Clone(old)
	changed := false
	for c, wt := range w.existing(pend) {
		if _, ok := cur[c]; !ok {
			cur[c] = wt
			changed = true
		}
	}
	for c, wt := range add {
		if _, ok := cur[c]; !ok {
			cur[c] = Round3(wt)
			changed = true
		}
	}
	if !changed {
		return nil
	}
	return w.moveMentions(p, old, cur, PaperSortKey(&n), true, pend)
}

// moveMentions changes a paper's mentions from old to cur. A concept left
// without papers is removed. The caller counts the paper's co-occurrence
// pairs, or has them counted later, once its mentions have settled (mark:
// settleCoOccurrence). A new edge to a concept of counted, the paper's
// pending links, is already in the concept's degree and the document's
// result (movePending).
func (w *writer) moveMentions(p NodeID, old, cur map[NodeID]float64, sortKey []byte, mark bool, counted map[NodeID]float64) error {
	tx := w.tx
	changed := false
	// old is the paper's edges as this transaction read them (a caller
	// that only removes may pass an earlier read), so an edge is written
	// without being read again
	for _, c := range slices.Sorted(maps.Keys(cur)) {
		if wt, had := old[c]; had {
			if wt != cur[c] {
				if err := tx.SetEdge(p, Mentions, c, cur[c]); err != nil {
					return err
				}
				changed = true
			}
			continue
		}
		changed = true
		if err := tx.SetEdge(p, Mentions, c, cur[c]); err != nil {
			return err
		}
		w.count(cntEdges, 1)
		if _, had := counted[c]; !had { // else in the degree and the result already
			w.res.EdgesAdded++
			deg, err := tx.AddCounter(degreeCounter(c, Mentions), 1)
			if err != nil {
				return err
			}
			if err := w.checkModifier(c, deg); err != nil {
				return err
			}
		}
		if err := tx.PutListEntry(c, Mentions, sortKey); err != nil {
			return err
		}
	}
	for _, c := range slices.Sorted(maps.Keys(old)) {
		if _, keep := cur[c]; keep {
			continue
		}
		changed = true
		if existed, err := tx.DeleteEdge(p, Mentions, c); err != nil {
			return err
		} else if existed {
			w.count(cntEdges, -1)
		}
		if err := tx.DeleteListEntry(c, Mentions, sortKey); err != nil {
			return err
		}
		if n, err := tx.AddCounter(degreeCounter(c, Mentions), -1); err != nil {
			return err
		} else if n == 0 {
			if err := w.dropConcept(c); err != nil {
				return err
			}
		}
	}
	if !changed || !mark {
		return nil
	}
	return tx.PutTerm(IdxCoDirty, authorTerm(p), p)
}

// useVocabulary builds the store's vocabulary filter if no writer has.
// Ingest refuses a store whose concepts another version of the extractor
// made (they would mix): it must be rebuilt first.
func (w *writer) useVocabulary() error {
	if w.vocab == nil {
		w.vocab = vocabularyOf(w.svc.store)
	}
	if v := w.svc.terms.Version(); !w.deferLinks && w.vocab.current != v {
		if err := w.svc.termsCurrent(w.tx); err != nil {
			return err
		}
		w.vocab.current = v // a store stays current once it is
	}
	return w.vocab.build(w.tx)
}

// termsCurrent returns a Conflict error when the store's concepts were made
// by another version of the term extractor. The first paper tells: ingest
// and recompute both go through papers in id order.
func (s *Service) termsCurrent(r Reader) error {
	var first NodeID
	if err := r.NodeIDs(KindPaper, 0, func(id NodeID) bool { first = id; return false }); err != nil || first == 0 {
		return err
	}
	n, err := r.Node(first)
	if err != nil {
		return err
	}
	if n.Terms != "" && n.Terms != s.terms.Version() {
		return Errorf(Conflict, "the store's concepts were made by term extractor %s and this kg has %s: run `kg recompute` on it first (see kg recompute --help)", n.Terms, s.terms.Version())
	}
	return nil
}

// TermsCurrent returns a Conflict error when the store's concepts were made
// by another version of the term extractor (see RecomputeConcepts).
func (s *Service) TermsCurrent(ctx context.Context) error {
	if s.terms == nil {
		return nil
	}
	r, err := s.store.Read(ctx)
	if err != nil {
		return err
	}
	defer r.Close()
	return s.termsCurrent(r)
}

// resolve finds the concept a span of a text names (see
// TextAnalysis.Link). A store error is kept in w.err and ends the linking.
func (w *writer) resolve(key string, acronym bool) (Concept, bool) {
	if w.err != nil {
		return Concept{}, false
	}
	var id NodeID
	var err error
	if acronym {
		if !w.vocab.mayHave(acronymVocabKey(key)) {
			return Concept{}, false
		}
		if id, err = w.tx.Lookup(IdxAcronym, key); err == nil {
			var ok bool
			if ok, err = w.acronymStandsFor(key, id); err == nil && !ok {
				return Concept{}, false
			}
		}
	} else {
		if !w.vocab.mayHave(key) {
			return Concept{}, false
		}
		id, err = w.tx.Lookup(IdxConcept, key)
	}
	if ErrorCode(err) == NotFound {
		return Concept{}, false
	}
	if err != nil {
		w.err = err
		return Concept{}, false
	}
	c, err := w.conceptOf(id)
	if err != nil {
		if ErrorCode(err) != NotFound {
			w.err = err
		}
		return Concept{}, false
	}
	if w.vocab.rejected[id] {
		n, err := w.tx.Counter(rejectedCounter(c.Key))
		if err != nil {
			w.err = err
			return Concept{}, false
		}
		if n > 0 {
			return Concept{}, false
		}
		delete(w.vocab.rejected, id)
	}
	return c, true
}
