package graph

import (
	"cmp"
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
	// introducedTop: a term a paper introduces (an acronym of its title, the
	// named method before its colon) is a concept at once when it is among
	// the paper's five best key terms.
	introducedTop = 5
	// coOccurTop is how many of a paper's best concepts count for
	// co-occurrence: 45 pairs a paper, and the pairs that say most.
	coOccurTop = 10
)

// dfCounter names the document frequency of a candidate key.
func dfCounter(key string) string { return "df/" + key }

// A document-frequency counter holds, in one int64, the number of papers
// that use a term and the first of them with the weight a link to the
// term would have there, until the term becomes a concept and that paper
// is linked to it (SettleConcepts). Three terms in four are used by one
// paper only: they need no posting of their own.
//
//	count (24 bits) | weight level (3 bits) | paper sequence (36 bits)
const (
	dfSeqBits   = 36
	dfLevelBits = 3
	dfMaxCount  = 1<<24 - 1
)

func encodeDF(count int64, level int, seq uint64) int64 {
	if count <= 0 {
		return 0
	}
	return min(count, dfMaxCount)<<(dfSeqBits+dfLevelBits) | int64(level)<<dfSeqBits | int64(seq&(1<<dfSeqBits-1))
}

func decodeDF(v int64) (count int64, level int, seq uint64) {
	return v >> (dfSeqBits + dfLevelBits), int(v >> dfSeqBits & (1<<dfLevelBits - 1)), uint64(v) & (1<<dfSeqBits - 1)
}

// dfLevel quantises a link weight in (0, 1] to a level, and back.
func dfLevel(w float64) int       { return min(7, max(0, int(w*8))) }
func dfLevelWeight(l int) float64 { return (float64(l) + 0.5) / 8 }

// voteCounter names the key-term votes of a candidate key.
func voteCounter(key string) string { return "kt/" + key }

// AcronymDefKeys are the document-frequency keys of an acronym definition:
// the papers that define the acronym at all, and those that define it as
// this long form. Their ratio says whether a bare use of the acronym in
// another paper stands for the long form.
func AcronymDefKeys(short, longKey string) []string {
	return []string{"acr:" + short, "acr:" + short + "=" + longKey}
}

// AcronymSpelledOut reports whether an acronym is a short form of its long
// form, to be read as it: when at least one paper in five of those that
// use it spells it out ("LLM", "RL", "GNN"). An acronym that papers use
// bare four times in five is the name people know the thing by ("BERT",
// "GPU", "RGB", "CLIP"), and stays the name. Papers that spell an acronym
// out count its uses under the long form, so the two counts are apart.
func AcronymSpelledOut(stats CorpusStats, short string) bool {
	short = SingularAcronym(short)
	defs := stats.DocFreq(AcronymDefKeys(short, "")[0])
	return defs > 0 && 4*defs >= stats.DocFreq(ConceptKey(short))
}

// paperText is what the extractor reads of a paper: its title and every
// abstract.
func paperText(abstracts []string) string { return strings.Join(abstracts, "\n\n") }

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

// txStats are corpus statistics read inside the ingest transaction: they
// include this transaction's own counts, the paper count still pending.
// A read error is kept in w.err, which fails the document (writeIn).
type txStats struct {
	*StoreStats
	w *writer
}

func newTxStats(w *writer) txStats { return txStats{newStoreStats(w.tx, &w.err), w} }

func (s txStats) Docs() int { return s.StoreStats.Docs() + int(s.w.counts[cntPapers]) }

// DocFreq answers from the values countTerms just wrote when it can.
func (s txStats) DocFreq(key string) int {
	if n, ok := s.w.df[key]; ok {
		return int(n)
	}
	return s.StoreStats.DocFreq(key)
}

// countTerms moves the document frequencies of a paper from its old text's
// candidates to its new text's: keys in both do not move, so a replay
// changes nothing. old is nil when the paper was not counted before.
func (w *writer) countTerms(old, cur TextAnalysis) error {
	seen := map[string]int64{}
	if old != nil {
		for _, k := range old.Keys() {
			seen[k]--
		}
	}
	for _, k := range cur.Keys() {
		seen[k]++
	}
	keys := make([]string, 0, len(seen))
	for k, d := range seen {
		if d != 0 {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		name := dfCounter(k)
		v, err := w.tx.Counter(name)
		if err != nil {
			return err
		}
		n, level, seq := decodeDF(v)
		switch d := seen[k]; {
		case d > 0 && n == 0:
			level, seq = 0, w.paper.Seq() // the first paper (weight: recordUses)
		case d < 0 && seq == w.paper.Seq():
			level, seq = 0, 0
		}
		n = max(n+seen[k], 0)
		if nv := encodeDF(n, level, seq); nv != v {
			if _, err := w.tx.AddCounter(name, nv-v); err != nil {
				return err
			}
		}
		w.df[k] = n // ranking reads it next: spare the second lookup
	}
	for _, d := range cur.Definitions() {
		if err := w.tx.PutTerm(IdxAcronymDef, d.Short+" "+d.Name, 0); err != nil {
			return err
		}
		if err := w.tx.PutTerm(IdxAcronymOf, ConceptKey(d.Name)+" "+d.Short, 0); err != nil {
			return err
		}
		if err := w.claimAcronym(d.Short, ConceptKey(d.Name)); err != nil {
			return err
		}
	}
	return nil
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
	if oldAbstracts != nil && p.Terms == w.svc.terms.Version() {
		old = w.analyze(p.Label, paperText(oldAbstracts))
	}
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
	if err := w.vote(p.ID, oldR, r); err != nil {
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
	// its co-occurrence pairs are counted once its mentions have settled:
	// counted now, the papers that gain concepts later would count twice
	return cur, w.moveMentions(p.ID, old, cur, sortKey, true)
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
// rewritten once. When more papers used the name than uses are recorded
// for (maxPostings), or the name is one word, the stored texts are scanned
// for it instead.
func (w *writer) markBackfill(c NodeID, name string) error {
	if w.deferLinks {
		return nil
	}
	if err := w.tx.PutTerm(IdxBackfill, authorTerm(c), c); err != nil {
		return err
	}
	// A single word (hyphenated too) is recorded only where it was a term
	// of its own; its other uses (the front of "skill library") are found
	// by the scan, which also tells whether it is mostly a noun
	// (rejectModifiers).
	if strings.Contains(name, " ") || isOneAcronym(name) {
		df, err := newTxStats(w).docFreq(ConceptKey(name))
		if err != nil || df <= maxPostings+1 {
			return err
		}
	}
	return w.tx.PutTerm(IdxRescan, authorTerm(c), c)
}

// votable is the key of a term that may vote, "" if it may not: a term
// the paper uses once is no topic of it; a single common word votes only
// when the paper is about it: among its five best terms and used three
// times, or among its ten best and used five times ("skill" in a paper
// about agent skills, not "gap" in every paper that bridges one).
func votable(t Term, rank int) string {
	switch {
	case t.Fragment:
		return ""
	case t.Single && !(rank < voteTopSingle && t.Count >= 3 || t.Count >= 5):
		return ""
	case t.Count < 2 && !t.Introduced:
		return ""
	}
	return ConceptKey(t.Name)
}

// vote moves a paper's key-term votes from its old terms to its new ones;
// a term reaching two votes, or one the paper introduces, becomes a
// concept, and every paper that used it before is linked to it. Replaying
// the same terms changes nothing.
func (w *writer) vote(p NodeID, oldR, cur Ranking) error {
	gone := map[string]bool{}
	if oldR != nil {
		for i, t := range oldR.Top(voteTop) {
			if k := votable(t, i); k != "" {
				gone[k] = true
			}
		}
	}
	var added []int
	terms := cur.Top(voteTop)
	for i, t := range terms {
		k := votable(t, i)
		if k == "" {
			continue
		}
		if gone[k] {
			delete(gone, k)
			continue
		}
		added = append(added, i)
	}
	for _, k := range slices.Sorted(maps.Keys(gone)) {
		if n, err := w.tx.Counter(voteCounter(k)); err != nil {
			return err
		} else if n > 0 {
			if _, err := w.tx.AddCounter(voteCounter(k), -1); err != nil {
				return err
			}
		}
	}
	for _, i := range added {
		t := terms[i]
		n, err := w.tx.AddCounter(voteCounter(ConceptKey(t.Name)), 1)
		if err != nil {
			return err
		}
		if w.tally != nil {
			w.tally.add(t, i < introducedTop)
			continue
		}
		introduced := t.Introduced && i < introducedTop
		if n < 2 && !introduced {
			continue
		}
		if ok, err := w.supported(t, introduced); err != nil {
			return err
		} else if !ok {
			continue
		}
		if _, _, err := w.concept(t); err != nil {
			return err
		}
	}
	return nil
}

const (
	// frontRatio: a term of several words is the front of a longer term
	// when that term is used in this many times the papers it is used in
	// itself (frontOfLonger).
	frontRatio = 1.5
	// nounShare: a one-word concept is kept only when at least this share
	// of the papers that say it use it as a noun (rejectModifiers).
	nounShare = 0.4
	// frontScanMax bounds the longer terms frontOfLonger reads.
	frontScanMax = 1000
)

// supported reports whether the corpus supports a term that has its
// votes as a new concept: not a one-word term found to be a modifier, not
// the front of a longer term. A concept that exists is always supported.
func (w *writer) supported(t Term, introduced bool) (bool, error) {
	key := ConceptKey(t.Name)
	if key == "" || isOneAcronym(t.Name) {
		return true, nil
	}
	if _, err := w.tx.Lookup(IdxConcept, key); err == nil {
		return true, nil
	} else if ErrorCode(err) != NotFound {
		return false, err
	}
	if oneWord(t.Name) {
		if n, err := w.tx.Counter(rejectedCounter(key)); err != nil || n > 0 {
			return false, err
		}
	}
	if introduced || len(t.Aliases) > 0 || !strings.ContainsAny(t.Name, " -") {
		return true, nil
	}
	if w.vocab == nil {
		w.vocab = vocabularyOf(w.svc.store)
	}
	front, err := frontOfLonger(newTxStats(w), key, w.vocab)
	return !front, err
}

// frontOfLonger reports whether a term of several words (or a hyphenated
// word) is mostly the front of a longer term: some candidate term that
// starts with it is used in frontRatio times the papers that use it on
// its own or at the end of a phrase. "large language" (48 papers) is the
// front of "large language model" (13,745), "named entity" of "named
// entity recognition", "vision-language" of "vision-language model":
// C-value's nested terms. A tagger's slip ("Large Language and Vision
// Models") makes such a front a key term of a few papers; it is no
// concept. (Keys join words without spaces, so a longer key may also be a
// longer word: one-word terms are left to rejectModifiers.)
//
// A term that keeps its votes is checked again at each vote: the longer
// term found is kept (vocabulary.fronts), so that the next check reads two
// counters instead of every longer term.
func frontOfLonger(stats txStats, key string, v *vocabulary) (bool, error) {
	n, err := stats.docFreq(key)
	if err != nil || n == 0 {
		return false, err
	}
	isFront := func(c int64) bool { return float64(c) >= frontRatio*float64(n) }
	if longer, ok := v.fronts[key]; ok {
		if c, err := stats.docFreq(longer); err != nil || isFront(c) {
			return err == nil, err
		}
	}
	front, seen := false, 0
	err = stats.w.tx.Counters(dfCounter(key), func(name string, val int64) bool {
		if seen++; len(name) == len(dfCounter(key)) {
			return true
		}
		c, _, _ := decodeDF(val)
		if front = isFront(c); front {
			if v.fronts == nil {
				v.fronts = map[string]string{}
			}
			v.fronts[key] = strings.TrimPrefix(name, "df/")
		}
		return !front && seen < frontScanMax
	})
	return front, err
}

// voteTally collects a recompute's votes, so that concepts are made once
// every paper has voted, each named by the form most of its voters wrote
// ("retrieval-augmented generation" over "retrieval augmented
// generation"), whatever order the papers came in.
type voteTally map[string]*tallied

type tallied struct {
	votes      int
	introduced bool
	names      map[string]int
	aliases    map[string]bool
}

func (v voteTally) add(t Term, top bool) {
	k := ConceptKey(t.Name)
	x := v[k]
	if x == nil {
		x = &tallied{names: map[string]int{}, aliases: map[string]bool{}}
		v[k] = x
	}
	x.votes++
	x.introduced = x.introduced || t.Introduced && top
	x.names[t.Name]++
	for _, a := range t.Aliases {
		x.aliases[a] = true
	}
}

// term is what a tallied key becomes: its most written name, its aliases.
func (x *tallied) term() Term {
	best, n := "", 0
	for name, k := range x.names {
		if k > n || k == n && name < best {
			best, n = name, k
		}
	}
	return Term{Name: best, Aliases: slices.Sorted(maps.Keys(x.aliases))}
}

// addMentions links a paper to more concepts (with their weights).
func (w *writer) addMentions(p NodeID, add map[NodeID]float64) error {
	old, err := w.mentions(p)
	if err != nil {
		return err
	}
	n, err := w.tx.Node(p)
	if err != nil {
		if ErrorCode(err) == NotFound {
			return nil
		}
		return err
	}
	cur := make(map[NodeID]float64, len(old)+len(add))
	for k, v := range old {
		cur[k] = v
	}
	changed := false
	for c, wt := range add {
		if _, ok := cur[c]; !ok {
			cur[c] = Round3(wt)
			changed = true
		}
	}
	if !changed {
		return nil
	}
	return w.moveMentions(p, old, cur, PaperSortKey(&n), true)
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

// moveMentions changes a paper's mentions from old to cur. A concept left
// without papers is removed. The caller counts the paper's co-occurrence
// pairs, or has them counted later, once its mentions have settled (mark:
// settleCoOccurrence).
func (w *writer) moveMentions(p NodeID, old, cur map[NodeID]float64, sortKey []byte, mark bool) error {
	tx := w.tx
	changed := false
	for _, c := range slices.Sorted(maps.Keys(cur)) {
		if wt, had := old[c]; had {
			if wt != cur[c] {
				if _, err := tx.PutEdge(p, Mentions, c, cur[c]); err != nil {
					return err
				}
				changed = true
			}
			continue
		}
		changed = true
		if _, err := w.edge(p, Mentions, c, cur[c]); err != nil {
			return err
		}
		if deg, err := tx.AddCounter(degreeCounter(c, Mentions), 1); err != nil {
			return err
		} else if err := w.checkModifier(c, deg); err != nil {
			return err
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

// conceptOf reads a concept's name and key, through the store's
// vocabulary cache (a concept is read once a run, not once a paper).
func (w *writer) conceptOf(id NodeID) (Concept, error) {
	if c, ok := w.vocab.concept(id); ok {
		return c, nil
	}
	n, err := w.tx.Node(id)
	if err != nil {
		return Concept{}, err
	}
	c := Concept{ID: id, Name: n.Label, Key: ConceptKey(n.Label)}
	w.vocab.remember(c)
	return c, nil
}

// acronymStandsFor reports whether a bare acronym, in a paper that does not
// define it, stands for concept id: when most papers that define the
// acronym define it as that concept (or none defines it and the concept is
// named by it). "RL" is reinforcement learning in nearly every
// paper that spells it out; "SR" is super-resolution in some and symbolic
// regression in others, and a bare "SR" is linked to neither.
func (w *writer) acronymStandsFor(short string, id NodeID) (bool, error) {
	c, err := w.conceptOf(id)
	if err != nil {
		return false, err
	}
	stats := newTxStats(w)
	return acronymStandsFor(stats, short, c.Key), stats.Err()
}

func acronymStandsFor(stats CorpusStats, short, conceptKey string) bool {
	keys := AcronymDefKeys(short, "")
	total := stats.DocFreq(keys[0])
	return total == 0 || 2*stats.DocFreq(keys[1]+conceptKey) > total
}

// docFreq is DocFreq with the store's error.
func (s txStats) docFreq(key string) (int64, error) {
	if n, ok := s.w.df[key]; ok {
		return n, nil
	}
	v, err := s.w.tx.Counter(dfCounter(key))
	n, _, _ := decodeDF(v)
	return n, err
}

// claimAcronym gives a bare acronym to the concept most papers define it
// as, when that concept exists: called when a paper defines short as the
// long form with key longKey.
func (w *writer) claimAcronym(short, longKey string) error {
	target, err := w.tx.Lookup(IdxConcept, longKey)
	if ErrorCode(err) == NotFound {
		return nil
	} else if err != nil {
		return err
	}
	owner, err := w.tx.Lookup(IdxAcronym, short)
	switch {
	case ErrorCode(err) == NotFound:
	case err != nil:
		return err
	case owner == target:
		return nil
	default:
		oc, err := w.conceptOf(owner)
		if err != nil && ErrorCode(err) != NotFound {
			return err
		}
		if err == nil {
			keys := AcronymDefKeys(short, "")
			mine, err := newTxStats(w).docFreq(keys[1] + longKey)
			if err != nil {
				return err
			}
			theirs, err := newTxStats(w).docFreq(keys[1] + oc.Key)
			if err != nil || mine <= theirs {
				return err
			}
		}
	}
	if err := w.indexAcronym(short, target); err != nil {
		return err
	}
	if err := w.addAliasName(target, short); err != nil {
		return err
	}
	return w.markBackfill(target, short)
}

// addAliasName records an alias on a concept node.
func (w *writer) addAliasName(id NodeID, alias string) error {
	n, err := w.tx.Node(id)
	if err != nil {
		return err
	}
	if n.Label == alias || slices.Contains(n.Aliases, alias) {
		return nil
	}
	n.Aliases = insertSorted(n.Aliases, alias)
	if err := w.tx.PutNode(n); err != nil {
		return err
	}
	return w.searchTerms(id, alias)
}

// conceptIndexKeys are a concept's keys in the vocabulary filter: the
// IdxConcept keys of its name and aliases, and its acronyms
// (acronymVocabKey).
func conceptIndexKeys(n *Node) []string {
	var out []string
	for _, s := range append([]string{n.Label}, n.Aliases...) {
		if isOneAcronym(s) {
			out = append(out, acronymVocabKey(SingularAcronym(s)))
			continue
		}
		if k := ConceptKey(s); k != "" && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// isOneAcronym reports whether s is a single acronym ("RL", "VL-PRM").
func isOneAcronym(s string) bool { return !strings.Contains(s, " ") && IsAcronym(s) }

// concept finds the concept a term names or creates it, adding the term's
// aliases and linking it into the broader/narrower hierarchy. It returns 0
// for a term with no usable name.
func (w *writer) concept(t Term) (id NodeID, created bool, err error) {
	tx := w.tx
	name := t.Name
	key := ConceptKey(name)
	if key == "" {
		return 0, false, nil
	}
	acr := isOneAcronym(name)
	if acr {
		name = SingularAcronym(name)
		id, err = tx.Lookup(IdxAcronym, name)
	} else {
		id, err = tx.Lookup(IdxConcept, key)
	}
	if err != nil && ErrorCode(err) != NotFound {
		return 0, false, err
	}
	if err != nil && !acr {
		id = 0
		// Not known by its name; maybe by an acronym (a concept named by
		// its acronym before a paper spelled it out): the long form
		// becomes its name.
		for _, a := range t.Aliases {
			if !isOneAcronym(a) {
				continue
			}
			aid, aerr := tx.Lookup(IdxAcronym, a)
			if aerr != nil {
				continue
			}
			n, err := tx.Node(aid)
			if err != nil {
				return 0, false, err
			}
			if n.Label == a {
				// one concept: named by the long form when papers spell
				// the acronym out, else by the acronym
				if AcronymSpelledOut(newTxStats(w), a) {
					if err := w.renameConcept(&n, name); err != nil {
						return 0, false, err
					}
				}
				id = aid
			}
			break
		}
	} else if err != nil {
		id = 0
	}
	if id == 0 {
		if id, err = tx.NewID(KindConcept); err != nil {
			return 0, false, err
		}
		if err := tx.PutNode(Node{ID: id, Label: name}); err != nil {
			return 0, false, err
		}
		if acr {
			err = w.indexAcronym(name, id)
		} else {
			err = w.indexConcept(id, key)
		}
		if err != nil {
			return 0, false, err
		}
		if err := w.searchTerms(id, name); err != nil {
			return 0, false, err
		}
		w.count(cntConcepts, 1)
		w.res.ConceptsAdded++
		created = true
		if !acr {
			if err := w.hierarchy(id, name); err != nil {
				return 0, false, err
			}
		}
		if err := w.markBackfill(id, name); err != nil {
			return 0, false, err
		}
		if !acr {
			// the acronyms papers defined for it before it was a concept
			var shorts []string
			if err := tx.Terms(IdxAcronymOf, key+" ", func(term string, _ NodeID) bool {
				shorts = append(shorts, term[len(key)+1:])
				return true
			}); err != nil {
				return 0, false, err
			}
			for _, short := range shorts {
				if err := w.claimAcronym(short, key); err != nil {
					return 0, false, err
				}
			}
		}
	}
	return id, created, w.addAliases(id, t.Aliases)
}

// indexConcept adds an IdxConcept key of a concept (and to the vocabulary
// filter).
func (w *writer) indexConcept(id NodeID, key string) error {
	if w.vocab != nil {
		w.vocab.add(key)
	}
	return w.tx.PutLookup(IdxConcept, key, id)
}

// acronymVocabKey is an acronym's key in the vocabulary filter, apart from
// concept keys ("RL" is not the word "rl").
func acronymVocabKey(short string) string { return "\x01" + short }

// indexAcronym makes an acronym name a concept (and adds it to the
// vocabulary filter).
func (w *writer) indexAcronym(short string, id NodeID) error {
	if w.vocab != nil {
		w.vocab.add(acronymVocabKey(short))
	}
	return w.tx.PutLookup(IdxAcronym, short, id)
}

// renameConcept gives a concept known by an acronym its long form as name,
// keeping the acronym as an alias.
func (w *writer) renameConcept(n *Node, name string) error {
	n.Aliases = insertSorted(n.Aliases, n.Label)
	n.Label = name
	if err := w.tx.PutNode(*n); err != nil {
		return err
	}
	w.vocab.forget(n.ID)
	if err := w.indexConcept(n.ID, ConceptKey(name)); err != nil {
		return err
	}
	if err := w.searchTerms(n.ID, name); err != nil {
		return err
	}
	return w.hierarchy(n.ID, name)
}

// addAliases records new aliases of a concept; the first concept to claim
// an alias keeps it (acronyms change hands by claimAcronym).
func (w *writer) addAliases(id NodeID, aliases []string) error {
	tx := w.tx
	var n *Node
	changed := false
	for _, a := range aliases {
		acr := isOneAcronym(a)
		ns, ak := IdxConcept, ConceptKey(a)
		if acr {
			a = SingularAcronym(a)
			ns, ak = IdxAcronym, a
		}
		if ak == "" {
			continue
		}
		owner, err := tx.Lookup(ns, ak)
		indexed := err == nil
		if err != nil && ErrorCode(err) != NotFound {
			return err
		}
		if indexed && owner != id {
			continue
		}
		if n == nil {
			nn, err := tx.Node(id)
			if err != nil {
				return err
			}
			n = &nn
		}
		if slices.Contains(n.Aliases, a) || n.Label == a || (!acr && ConceptKey(n.Label) == ak) {
			continue
		}
		n.Aliases = insertSorted(n.Aliases, a)
		changed = true
		if !indexed {
			if acr {
				err = w.indexAcronym(ak, id)
			} else {
				err = w.indexConcept(id, ak)
			}
			if err != nil {
				return err
			}
			if err := w.markBackfill(id, a); err != nil {
				return err
			}
		}
		if err := w.searchTerms(id, a); err != nil {
			return err
		}
	}
	if changed {
		return tx.PutNode(*n)
	}
	return nil
}

// dropConcept removes a concept no paper mentions any more: its node,
// lookups, index entries and hierarchy links. Its narrower concepts are
// linked to the next broader one.
func (w *writer) dropConcept(c NodeID) error {
	tx := w.tx
	n, err := tx.Node(c)
	if err != nil {
		return err
	}
	if err := w.unindexConcept(&n); err != nil {
		return err
	}
	var parents, children []NodeID
	if err := tx.Edges(c, Broader, Out, func(p NodeID, _ float64) bool { parents = append(parents, p); return true }); err != nil {
		return err
	}
	if err := tx.Edges(c, Broader, In, func(ch NodeID, _ float64) bool { children = append(children, ch); return true }); err != nil {
		return err
	}
	for _, p := range parents {
		if _, err := tx.DeleteEdge(c, Broader, p); err != nil {
			return err
		}
		w.count(cntEdges, -1)
	}
	for _, ch := range children {
		if _, err := tx.DeleteEdge(ch, Broader, c); err != nil {
			return err
		}
		w.count(cntEdges, -1)
		cn, err := tx.Node(ch)
		if err != nil {
			return err
		}
		if err := w.linkBroader(ch, cn.Label); err != nil {
			return err
		}
	}
	if err := tx.DeleteNode(c); err != nil {
		return err
	}
	w.vocab.forget(c)
	w.count(cntConcepts, -1)
	return nil
}

// unindexConcept deletes a concept's lookups, search entries and tail
// entry. Keys of earlier term versions are deleted too (ConceptKey before
// spellings were folded), so recompute leaves nothing behind.
func (w *writer) unindexConcept(n *Node) error {
	tx := w.tx
	for _, name := range append([]string{n.Label}, n.Aliases...) {
		keys := []struct {
			ns  Index
			key string
		}{{IdxConcept, ConceptKey(name)}, {IdxConcept, strings.ReplaceAll(FoldKey(name), " ", "")}}
		if isOneAcronym(name) {
			keys = append(keys, struct {
				ns  Index
				key string
			}{IdxAcronym, SingularAcronym(name)})
		}
		for _, k := range keys {
			if owner, err := tx.Lookup(k.ns, k.key); err == nil && owner == n.ID {
				if err := tx.DeleteLookup(k.ns, k.key); err != nil {
					return err
				}
			} else if err != nil && ErrorCode(err) != NotFound {
				return err
			}
		}
		for _, tok := range Tokens(name) {
			if err := tx.DeleteTerm(IdxSearch, tok, n.ID); err != nil {
				return err
			}
		}
	}
	for _, tail := range []string{tailTerm(ConceptWordKeys(n.Label)), reverseWords(strings.Fields(FoldKey(n.Label)))} {
		if err := tx.DeleteTerm(IdxConceptTail, tail, n.ID); err != nil {
			return err
		}
	}
	return nil
}

// insertSorted adds v to a sorted list of a concept's aliases (the order
// they were met in would depend on the order papers came in).
func insertSorted(s []string, v string) []string {
	i, found := slices.BinarySearch(s, v)
	if found {
		return s
	}
	return slices.Insert(s, i, v)
}

// linkBroader links a concept to the longest proper tail of its words that
// is itself a concept ("vision-language process reward model" → "process
// reward model"; "agent reinforcement learning" → "reinforcement
// learning"). Words are split at spaces only. A tail of two words or more
// that is no concept yet becomes one when two papers or more use it, half
// as many again as use the longer term, and it reads as a term: "policy
// optimization" under "group relative policy optimization", not "relative
// policy optimization", "resonance imaging" or "learning model".
func (w *writer) linkBroader(id NodeID, name string) error {
	fields := strings.Fields(LatexToText(name))
	var words, keys []string
	for _, f := range fields {
		if k := ConceptKey(f); k != "" {
			words, keys = append(words, f), append(keys, k)
		}
	}
	for k := 1; k < len(keys); k++ {
		tail := strings.Join(keys[k:], "")
		parent, err := w.tx.Lookup(IdxConcept, tail)
		if ErrorCode(err) == NotFound && len(keys)-k >= 2 {
			// C-value's test: a tail used hardly more widely than the
			// longer term is a piece of it ("relative policy optimization"
			// of "group relative policy optimization", "resonance imaging"
			// of "magnetic resonance imaging"), not a term; so is a tail of
			// generic words ("learning model")
			stats := newTxStats(w)
			df, derr := stats.docFreq(tail)
			if derr != nil {
				return derr
			}
			child, derr := stats.docFreq(strings.Join(keys, ""))
			if derr != nil {
				return derr
			}
			name := strings.Join(words[k:], " ")
			if df >= 2 && 2*df >= 3*child && w.svc.terms != nil && w.svc.terms.TermLike(name) {
				parent, _, err = w.concept(Term{Name: name})
			}
		}
		if err == nil && parent != 0 && parent != id {
			_, err := w.edge(id, Broader, parent, 0)
			return err
		} else if err != nil && ErrorCode(err) != NotFound {
			return err
		}
	}
	return nil
}

// tailTerm is a concept's IdxConceptTail entry: its word keys in reverse
// order ("process reward model" → "model reward process"), so a prefix
// scan finds every concept ending with a phrase.
func tailTerm(words []string) string { return reverseWords(words) }

// hierarchy links a new concept to its broader concept and re-parents the
// existing longer concepts that end with it.
func (w *writer) hierarchy(id NodeID, name string) error {
	tx := w.tx
	words := ConceptWordKeys(name)
	if len(words) == 0 {
		return nil
	}
	if err := w.linkBroader(id, name); err != nil {
		return err
	}
	rev := tailTerm(words)
	var longer []NodeID
	if err := tx.Terms(IdxConceptTail, rev+" ", func(_ string, c NodeID) bool {
		if c != id {
			longer = append(longer, c)
		}
		return true
	}); err != nil {
		return err
	}
	for _, c := range longer {
		var cur NodeID
		if err := tx.Edges(c, Broader, Out, func(p NodeID, _ float64) bool { cur = p; return false }); err != nil {
			return err
		}
		if cur == id {
			continue
		}
		if cur != 0 {
			pn, err := tx.Node(cur)
			if err != nil {
				return err
			}
			if len(ConceptWordKeys(pn.Label)) >= len(words) {
				continue // already under a closer parent
			}
			if _, err := tx.DeleteEdge(c, Broader, cur); err != nil {
				return err
			}
			w.count(cntEdges, -1)
		}
		if _, err := w.edge(c, Broader, id, 0); err != nil {
			return err
		}
	}
	return tx.PutTerm(IdxConceptTail, rev, id)
}

func reverseWords(words []string) string {
	r := slices.Clone(words)
	slices.Reverse(r)
	return strings.Join(r, " ")
}
