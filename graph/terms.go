// Termhood in the store: which concepts are terms of the field, judged
// by package termhood over the counters the store keeps (doc.go,
// "Concepts": "Terms, not words").

package graph

import (
	"context"
	"strings"
	"unicode"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/termhood"
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
	return termhood.Concept{Name: name, Words: termWordKeys(name), Acronym: isOneAcronym(name),
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
		front, ok := genreTail(name)
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
