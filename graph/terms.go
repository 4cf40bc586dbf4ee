// Termhood and corpus statistics in the store: which concepts are terms of
// the field, judged by package termhood over the counters the store keeps
// (doc.go, "Concepts": "Terms, not words"); the document-frequency and
// vote counters, acronym definitions, and the CorpusStats that read them
// for ranking (StoreStats on a snapshot, txStats inside the writer).

package graph

import (
	"context"
	"slices"
	"strings"
	"unicode"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/termhood"
	"github.com/researchkg/kg/graph/vocab"
)

// termWordKeys are the keys of a name's words split at spaces and hyphens:
// what termhood compares fronts by.
func termWordKeys(name string) []string {
	f := strings.FieldsFunc(ident.LatexToText(name), func(r rune) bool { return unicode.IsSpace(r) || r == '-' })
	out := make([]string, 0, len(f))
	for _, w := range f {
		if k := ident.ConceptKey(w); k != "" {
			out = append(out, k)
		}
	}
	return out
}

// termhoodConcept is what termhood reads of a concept named name.
func termhoodConcept(name string, df, votes int64) termhood.Concept {
	return termhood.Concept{Name: name, Words: termWordKeys(name), Acronym: vocab.IsOneAcronym(name),
		DocFreq: int(df), Votes: int(votes), Broader: -1}
}

// screenTerm judges a term about to become a concept by the counters the
// transaction sees (termhood.Screen): false when it is certainly no term.
func (w *writer) screenTerm(name string) (bool, error) {
	key := ident.ConceptKey(name)
	stats := newTxStats(w)
	df, err := stats.docFreq(key)
	if err != nil {
		return false, err
	}
	votes, err := w.tx.Counter(voteCounter(key))
	if err != nil {
		return false, err
	}
	return termhood.Screen(termhoodConcept(name, df, votes), stats.corpus()).IsTerm(), stats.Err()
}

// judgeTerms judges every concept of the store together (termhood.Judge;
// and by the extractor's lexicon: a name that opens with an evaluative
// word, "state-of-the-art model" where papers write "SOTA models", is
// none) and marks rejected those that are no terms; rejectPending then unlinks
// them from their papers and drops them, as it does the one-word
// modifiers. A rejected term is not made a concept again until
// RecomputeConcepts judges the whole corpus afresh.
func (s *Service) judgeTerms(ctx context.Context) error {
	r, err := s.store.Read(ctx)
	if err != nil {
		return err
	}
	defer r.Close()
	corpus, err := readCorpus(r)
	if err != nil {
		return err
	}
	var ids []NodeID
	if err := r.NodeIDs(KindConcept, 0, func(id NodeID) bool { ids = append(ids, id); return true }); err != nil {
		return err
	}
	index := make(map[NodeID]int, len(ids))
	for i, id := range ids {
		index[id] = i
	}
	cs := make([]termhood.Concept, len(ids))
	keys := make([]string, len(ids))
	for i, id := range ids {
		n, err := r.Node(id)
		if err != nil {
			return err
		}
		keys[i] = ident.ConceptKey(n.Label)
		if cs[i], err = readTermhoodConcept(r, n.Label); err != nil {
			return err
		}
		if err := r.Edges(id, Broader, Out, func(p NodeID, _ float64) bool {
			if j, ok := index[p]; ok {
				cs[i].Broader = j
			}
			return false
		}); err != nil {
			return err
		}
	}
	verdicts := termhood.Judge(cs, corpus)
	terms := make(map[string]bool, len(keys))
	for i, k := range keys {
		terms[k] = verdicts[i].IsTerm()
	}
	// "natural language processing task" names a term twice; "spoken
	// dialogue system" does not, its front being none
	twice := func(name string) bool {
		front, ok := vocab.GenreTail(name)
		return ok && terms[ident.ConceptKey(front)]
	}
	var reject []string
	for i, v := range verdicts {
		if v.IsTerm() && (s.terms == nil || !s.terms.Opened(cs[i].Name)) && !twice(cs[i].Name) || keys[i] == "" {
			continue
		}
		if n, err := r.Counter(rejectedCounter(keys[i])); err != nil {
			return err
		} else if n == 0 {
			reject = append(reject, keys[i])
		}
	}
	r.Close()
	return s.eachBatch(ctx, len(reject), func(w *writer, i int) error {
		_, err := w.tx.AddCounter(rejectedCounter(reject[i]), rejPending)
		return err
	})
}

// topics keeps the concepts that are topics (termhood.Topical) by the
// counters of the view's snapshot: what emerging may show.
func (v *View) topics(res []Emerged) ([]Emerged, error) {
	corpus, err := readCorpus(v.r)
	if err != nil {
		return nil, err
	}
	out := res[:0]
	for _, e := range res {
		c, err := readTermhoodConcept(v.r, e.Node.Label)
		if err != nil {
			return nil, err
		}
		if termhood.Topical(c, corpus) {
			out = append(out, e)
		}
	}
	return out, nil
}

// readCorpus reads what termhood knows of the corpus: its papers and the
// words of their texts.
func readCorpus(r Reader) (termhood.Corpus, error) {
	docs, err := r.Counter(cntPapers)
	if err != nil {
		return termhood.Corpus{}, err
	}
	words, err := r.Counter(cntTermWords)
	return termhood.Corpus{Papers: int(docs), Words: int(words)}, err
}

// readTermhoodConcept reads a concept's document frequency and votes.
func readTermhoodConcept(r Reader, name string) (termhood.Concept, error) {
	key := ident.ConceptKey(name)
	v, err := r.Counter(dfCounter(key))
	if err != nil {
		return termhood.Concept{}, err
	}
	df, _, _ := decodeDF(v)
	votes, err := r.Counter(voteCounter(key))
	return termhoodConcept(name, df, votes), err
}

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
func dfLevel(w float64) int { return min(7, max(0, int(w*8))) }

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
	short = ident.SingularAcronym(short)
	defs := stats.DocFreq(AcronymDefKeys(short, "")[0])
	return defs > 0 && 4*defs >= stats.DocFreq(ident.ConceptKey(short))
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

// corpus is what termhood reads of the corpus, this transaction's papers
// and words in it.
func (s txStats) corpus() termhood.Corpus {
	n, err := s.w.tx.Counter(cntTermWords)
	s.keep(err)
	return termhood.Corpus{Papers: s.Docs(), Words: int(n + s.w.counts[cntTermWords])}
}

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
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = dfCounter(k)
	}
	vals := make([]int64, len(keys))
	if err := w.tx.CounterValues(names, vals); err != nil {
		return err
	}
	for i, k := range keys {
		name, v := names[i], vals[i]
		n, level, seq := decodeDF(v)
		switch d := seen[k]; {
		case d > 0 && n == 0:
			level, seq = 0, w.paper.Seq() // the first paper (weight: recordUses)
		case d < 0 && seq == w.paper.Seq():
			level, seq = 0, 0
		}
		n = max(n+seen[k], 0)
		if nv := encodeDF(n, level, seq); nv != v {
			if err := w.tx.SetCounter(name, nv); err != nil {
				return err
			}
		}
		w.df[k] = n // ranking reads it next: spare the second lookup
	}
	for _, d := range cur.Definitions() {
		if err := w.tx.PutTerm(IdxAcronymDef, d.Short+" "+d.Name, 0); err != nil {
			return err
		}
		if err := w.tx.PutTerm(IdxAcronymOf, ident.ConceptKey(d.Name)+" "+d.Short, 0); err != nil {
			return err
		}
		if err := w.claimAcronym(d.Short, ident.ConceptKey(d.Name)); err != nil {
			return err
		}
	}
	return nil
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
	if conceptKey == ident.ConceptKey(short) {
		// the concept is named by the acronym ("BERT"): no long form
		// has a concept that claimed it, so the acronym names this one,
		// whatever the papers that define it spell out
		return true
	}
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

// CorpusStats returns the document frequencies kept in the store, read from
// this snapshot. CorpusStats has no error results (ranking is pure), so the
// first read error is kept: check Err after ranking, and fail rather than
// use terms scored with a document frequency of 0.
func (v *View) CorpusStats() *StoreStats { return newStoreStats(v.r, nil) }

// StoreStats are CorpusStats read from a store snapshot or transaction.
type StoreStats struct {
	r   Reader
	err *error // where the first read error is kept
}

// newStoreStats reads from r and keeps the first read error in *err (nil:
// a place of its own).
func newStoreStats(r Reader, err *error) *StoreStats {
	if err == nil {
		err = new(error)
	}
	return &StoreStats{r: r, err: err}
}

// Err returns the first error met reading the statistics.
func (s *StoreStats) Err() error { return *s.err }

func (s *StoreStats) keep(err error) {
	if err != nil && *s.err == nil {
		*s.err = err
	}
}

func (s *StoreStats) Docs() int {
	n, err := s.r.Counter(cntPapers)
	s.keep(err)
	return int(n)
}

func (s *StoreStats) DocFreq(key string) int {
	v, err := s.r.Counter(dfCounter(key))
	s.keep(err)
	n, _, _ := decodeDF(v)
	return int(n)
}

// Acronym returns the long form a bare acronym stands for: the one most
// papers that define the acronym define it as, when it is spelled out
// often enough to be a short form (AcronymSpelledOut).
func (s *StoreStats) Acronym(short string) (string, bool) {
	short = ident.SingularAcronym(short)
	if !AcronymSpelledOut(s, short) {
		return "", false
	}
	keys := AcronymDefKeys(short, "")
	best, n := "", 0
	if err := s.r.Terms(IdxAcronymDef, short+" ", func(term string, _ NodeID) bool {
		name := term[len(short)+1:]
		if k := s.DocFreq(keys[1] + ident.ConceptKey(name)); k > n || k == n && name < best {
			best, n = name, k
		}
		return true
	}); err != nil || best == "" {
		s.keep(err)
		return "", false
	}
	if 2*n <= s.DocFreq(keys[0]) {
		return "", false // no long form has most of the definitions
	}
	return best, true
}
