// Which terms become concepts: the votes of papers' best key terms, the
// corpus checks a new concept must pass (doc.go, "Concepts"), and the
// vocabulary of concepts every writer consults (a Bloom filter over their
// keys, the rejected words).

package graph

import (
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/vocab"
)

// votable is the key of a term that may vote, "" if it may not: a term
// the paper uses once is no topic of it; a single common word votes only
// when the paper is about it: among its five best terms and used three
// times, or among its ten best and used five times ("skill" in a paper
// about agent skills, not "gap" in every paper that bridges one).
//
// A paper known by its title only (a BibTeX export without abstracts)
// cannot use a term twice: there, a title's terms are its key terms, and
// each votes, a single word only from the title's three best (the title
// names its topic in few words: "Statistical Parsing of Czech").
func votable(t Term, rank int, titleOnly bool) string {
	switch {
	case t.Fragment:
		return ""
	case titleOnly:
		if t.Single && rank >= voteTopSingleTitle {
			return ""
		}
		return ident.ConceptKey(t.Name)
	case t.Single && !(rank < voteTopSingle && t.Count >= 3 || t.Count >= 5):
		return ""
	case t.Count < 2 && !t.Introduced:
		return ""
	}
	return ident.ConceptKey(t.Name)
}

// vote moves a paper's key-term votes from its old terms to its new ones;
// a term reaching two votes, or one the paper introduces, becomes a
// concept, and every paper that used it before is linked to it. Replaying
// the same terms changes nothing. The titleOnly flags say whether each
// text was a title alone (votable).
func (w *writer) vote(p NodeID, oldR Ranking, oldTitleOnly bool, cur Ranking, titleOnly bool) error {
	gone := map[string]bool{}
	if oldR != nil {
		for i, t := range oldR.Top(voteTop) {
			if k := votable(t, i, oldTitleOnly); k != "" {
				gone[k] = true
			}
		}
	}
	var added []int
	terms := cur.Top(voteTop)
	for i, t := range terms {
		k := votable(t, i, titleOnly)
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
		n, err := w.tx.AddCounter(voteCounter(ident.ConceptKey(t.Name)), 1)
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
		if err := w.conceptIfSupported(t, introduced); err != nil {
			return err
		}
	}
	return nil
}

// conceptIfSupported makes a voted term a concept when the corpus supports
// it (supported): the one rule for the votes of ingest and of recompute.
func (w *writer) conceptIfSupported(t Term, introduced bool) error {
	if ok, err := w.supported(t, introduced); err != nil || !ok {
		return err
	}
	_, _, err := w.concept(t)
	return err
}

// supported reports whether the corpus supports a term that has its
// votes as a new concept: not a one-word term found to be a modifier, not
// one judged no term of the field (termhood), not the front of a longer
// term. A concept that exists is always supported.
func (w *writer) supported(t Term, introduced bool) (bool, error) {
	key := ident.ConceptKey(t.Name)
	if key == "" || vocab.IsOneAcronym(t.Name) {
		return true, nil
	}
	if _, err := w.tx.Lookup(IdxConcept, key); err == nil {
		return true, nil
	} else if ErrorCode(err) != NotFound {
		return false, err
	}
	if front, ok := vocab.GenreTail(t.Name); ok {
		// "reinforcement learning method" is reinforcement learning
		if _, err := w.tx.Lookup(IdxConcept, ident.ConceptKey(front)); err == nil {
			return false, nil
		} else if ErrorCode(err) != NotFound {
			return false, err
		}
	}
	if n, err := w.tx.Counter(rejectedCounter(key)); err != nil || n > 0 {
		return false, err // a modifier, or no term (judgeTerms)
	}
	if w.svc.terms != nil && w.svc.terms.Opened(t.Name) {
		return false, nil // "state-of-the-art model", from "SOTA models"
	}
	if ok, err := w.screenTerm(t.Name); err != nil || !ok {
		return false, err
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
	k := ident.ConceptKey(t.Name)
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

// vocabulary answers "certainly not a concept key" from memory for the
// spans of a text that are checked against the concept index: a Bloom
// filter over the keys of the concept index (IdxConcept) and of the
// acronym index (IdxAcronym, as acronymVocabKey).
//
// Linking looks up every span of a paper's text that may name a concept,
// about 800 for an abstract, and nearly all of them name none: one Badger
// read each would cost more than the rest of ingest. The filter answers
// those in ~40 ns; the ~20 spans it lets through are looked up.
//
// It is built from the store's indexes the first time a writer
// needs it, and every concept a writer creates (or alias it adds) is added.
// Keys are never removed: a dropped concept, or one created in a
// transaction that failed, costs a lookup that finds nothing. One filter
// serves every Service on a store (vocabularyOf), so a concept one of them
// creates is seen by the others. It is used inside write transactions
// only, which the store runs one at a time.
type vocabulary struct {
	built   bool
	current string        // the extractor version its concepts were found made by (termsCurrent)
	filter  *vocab.Filter // nil until built
	// names are the concepts linking has read (conceptOf), so each is read
	// from the store once a run; renamed and dropped ones are forgotten. A
	// concept of a transaction that failed may stay: its id is never
	// reused, and no lookup finds it.
	names map[NodeID]Concept
	// rejected are the concepts marked rejected in this run (checkModifier):
	// linking skips them until the settle unlinks them. A mark whose
	// transaction failed is found so by resolve, which reads the counter.
	rejected map[NodeID]bool
	// fronts holds, for a term found the front of a longer term, that
	// term's key (frontOfLonger): the next check reads two counters, not
	// every longer term.
	fronts map[string]string
	// unsettled are the concepts made since the last settle (a backfill
	// mark): new links to them wait for it (pending.go). Loaded with the
	// filter, added by markBackfill, removed when the settle clears the
	// mark. One of a failed transaction may stay: its id is never reused.
	unsettled map[NodeID]bool
}

// unsettle notes a concept made (or named anew) since the last settle.
func (v *vocabulary) unsettle(id NodeID) {
	if v == nil {
		return
	}
	if v.unsettled == nil {
		v.unsettled = map[NodeID]bool{}
	}
	v.unsettled[id] = true
}

// settled notes that the settle has judged and linked a concept.
func (v *vocabulary) settled(id NodeID) {
	if v != nil {
		delete(v.unsettled, id)
	}
}

func (v *vocabulary) unsettledConcept(id NodeID) bool { return v != nil && v.unsettled[id] }

func (v *vocabulary) reject(id NodeID) {
	if v == nil {
		return
	}
	if v.rejected == nil {
		v.rejected = map[NodeID]bool{}
	}
	v.rejected[id] = true
}

// concept, remember and forget work on a nil vocabulary (a writer that
// links nothing has none).
func (v *vocabulary) concept(id NodeID) (Concept, bool) {
	if v == nil {
		return Concept{}, false
	}
	c, ok := v.names[id]
	return c, ok
}

func (v *vocabulary) remember(c Concept) {
	if v == nil {
		return
	}
	if v.names == nil {
		v.names = map[NodeID]Concept{}
	}
	v.names[c.ID] = c
}

func (v *vocabulary) forget(id NodeID) {
	if v != nil {
		delete(v.names, id)
	}
}

var vocabularies sync.Map // Store → *vocabulary

// vocabularyOf returns the store's filter (not yet built).
func vocabularyOf(s Store) *vocabulary {
	if v, ok := vocabularies.Load(s); ok {
		return v.(*vocabulary)
	}
	v, _ := vocabularies.LoadOrStore(s, &vocabulary{})
	return v.(*vocabulary)
}

// build adds every concept key of the store, once.
func (v *vocabulary) build(r Reader) error {
	if v.built {
		return nil
	}
	n, err := r.Counter(cntConcepts)
	if err != nil {
		return err
	}
	v.filter = vocab.NewFilter(2 * int(n))
	// The filter holds exactly the keys of the index (not keys derived
	// from the concepts' names, which the index may hold more of: a
	// concept renamed keeps its old key), so a process that starts on a
	// store links a text as the process that made the store would have.
	if err = r.Lookups(IdxConcept, func(key string, _ NodeID) bool { v.add(key); return true }); err == nil {
		err = r.Lookups(IdxAcronym, func(short string, _ NodeID) bool { v.add(acronymVocabKey(short)); return true })
	}
	if err == nil {
		err = v.loadRejected(r)
	}
	if err == nil {
		err = r.Terms(IdxBackfill, "", func(_ string, c NodeID) bool { v.unsettle(c); return true })
	}
	if err != nil {
		v.filter = nil
		return err
	}
	v.built = true
	return nil
}

// loadRejected marks the concepts rejected but not yet unlinked (a run
// stopped before its settle): linking skips them, as it did in the run
// that rejected them.
func (v *vocabulary) loadRejected(r Reader) error {
	keys, err := pendingRejections(r)
	if err != nil {
		return err
	}
	for _, key := range keys {
		id, ok, err := wordConcept(r, key)
		if err != nil {
			return err
		} else if ok {
			v.reject(id)
		}
	}
	return nil
}

// add adds a key; before the filter is built it does nothing (build reads
// every key from the store: a settle in a new process drops and makes
// concepts before any writer has linked a text).
func (v *vocabulary) add(k string) {
	if v.filter != nil {
		v.filter.Add(k)
	}
}

// mayHave is false only for keys never added.
func (v *vocabulary) mayHave(k string) bool { return v.filter != nil && v.filter.MayHave(k) }
