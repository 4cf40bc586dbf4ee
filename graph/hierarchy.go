// The concept hierarchy: BROADER edges from a term to its tail terms.

package graph

import (
	"slices"
	"strings"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/termhood"
)

// linkBroader links a concept to the longest proper tail of its words that
// is itself a concept and of which it names a kind (termhood.KindOf: not
// "scaling reinforcement learning") ("vision-language process reward model" → "process
// reward model"; "agent reinforcement learning" → "reinforcement
// learning"). Words are split at spaces only. A tail of two words or more
// that is no concept yet becomes one when two papers or more use it, half
// as many again as use the longer term, and it reads as a term: "policy
// optimization" under "group relative policy optimization", not "relative
// policy optimization", "resonance imaging" or "learning model".
func (w *writer) linkBroader(id NodeID, name string) error {
	fields := strings.Fields(ident.LatexToText(name))
	var words, keys []string
	for _, f := range fields {
		if k := ident.ConceptKey(f); k != "" {
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
			if df >= 2 && 2*df >= 3*child && w.svc.terms != nil && w.svc.terms.TermLike(name) && termhood.KindOf(words[:k], name) {
				var ok bool
				if ok, err = w.mayBeTerm(tail, name); ok && err == nil {
					parent, _, err = w.concept(Term{Name: name})
				}
			}
		}
		if err == nil && parent != 0 && parent != id && !termhood.KindOf(words[:k], strings.Join(words[k:], " ")) {
			continue // "scaling reinforcement learning" is no kind of it: try a shorter tail
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
	words := ident.ConceptWordKeys(name)
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
		cn, err := tx.Node(c)
		if err != nil {
			return err
		}
		if cw := strings.Fields(ident.LatexToText(cn.Label)); len(cw) > len(words) && !termhood.KindOf(cw[:len(cw)-len(words)], name) {
			continue
		}
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
			if len(ident.ConceptWordKeys(pn.Label)) >= len(words) {
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

// mayBeTerm reports whether a tail may become a concept of its own: not
// rejected, and not certainly a word (termhood.Screen).
func (w *writer) mayBeTerm(key, name string) (bool, error) {
	if n, err := w.tx.Counter(rejectedCounter(key)); err != nil || n > 0 {
		return false, err
	}
	return w.screenTerm(name)
}
