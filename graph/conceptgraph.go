// The concept layer's links: the hierarchy (BROADER edges written from a
// term to its tail terms), and what the read side asks of concepts (a
// paper's, a person's, the concepts related to one, broader and narrower
// ones).

package graph

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/termhood"
	"github.com/researchkg/kg/graph/vocab"
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
	rev := vocab.TailTerm(words)
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

// mayBeTerm reports whether a tail may become a concept of its own: not
// rejected, and not certainly a word (termhood.Screen).
func (w *writer) mayBeTerm(key, name string) (bool, error) {
	if n, err := w.tx.Counter(rejectedCounter(key)); err != nil || n > 0 {
		return false, err
	}
	return w.screenTerm(name)
}

// Weighted is a node with a weight.
type Weighted struct {
	Node   *Node
	Weight float64
}

func (v *View) weighted(m map[NodeID]float64, first int) ([]Weighted, error) {
	out := make([]Weighted, 0, len(m))
	for id, w := range m {
		n, err := v.Node(id)
		if ErrorCode(err) == NotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, Weighted{n, w})
	}
	slices.SortFunc(out, func(a, b Weighted) int {
		if c := cmp.Compare(b.Weight, a.Weight); c != 0 {
			return c
		}
		return strings.Compare(a.Node.Label, b.Node.Label)
	})
	if len(out) > first {
		out = out[:first]
	}
	return out, nil
}

// PaperConcepts returns a paper's concepts by descending score.
func (v *View) PaperConcepts(p NodeID, first int) ([]Weighted, error) {
	ids, ws, err := v.edgeList(p, Mentions, Out)
	if err != nil {
		return nil, err
	}
	m := make(map[NodeID]float64, len(ids))
	for i, c := range ids {
		m[c] = ws[i]
	}
	return v.weighted(m, first)
}

// AuthorConcepts returns the concepts of an author's papers, weighted by the
// sum of their scores over those papers.
func (v *View) AuthorConcepts(a NodeID, first int) ([]Weighted, error) {
	papers, _, err := v.edgeList(a, Authored, Out)
	if err != nil {
		return nil, err
	}
	m := map[NodeID]float64{}
	// one read for all the papers' mentions
	if err := v.r.EdgesOf(papers, Mentions, Out, func(_ int, c NodeID, w float64) bool { m[c] += w; return true }); err != nil {
		return nil, err
	}
	for c, w := range m {
		m[c] = Round3(w) // sums of 3-decimal scores: no 17.025000000000002
	}
	return v.weighted(m, first)
}

// ConceptRelated returns the concepts co-occurring with c, weighted by the
// cosine (Ochiai) coefficient of their paper sets:
//
//	both / sqrt(papers(c) · papers(other))
//
// 1 when the two always occur together, small when one is everywhere (a
// raw count would rank the most frequent concepts first for everyone).
// A concept whose name is part of c's, or has c's in it ("diffusion" and
// "latent diffusion model" for "diffusion model"), co-occurs with it by
// construction and says nothing: it is left out (Broader and Narrower
// give the hierarchy).
//
// The weights come from the pair counters and degrees alone; nodes are
// read only for the best, a run of equal weights at a time (ordered by
// label), until first are taken: "reinforcement learning" co-occurs with
// 9,000 concepts, and reading them all was most of the answer's time.
func (v *View) ConceptRelated(c NodeID, first int) ([]Weighted, error) {
	cn, err := v.Node(c)
	if err != nil {
		return nil, err
	}
	all, err := v.conceptRelated(c)
	if err != nil {
		return nil, err
	}
	out := make([]Weighted, 0, min(first, len(all)))
	for i := 0; i < len(all) && len(out) < first; {
		j := i + 1
		for j < len(all) && all[j].w == all[i].w {
			j++
		}
		run := make([]Weighted, 0, j-i)
		for _, x := range all[i:j] {
			n, err := v.Node(x.id)
			if ErrorCode(err) == NotFound {
				continue
			}
			if err != nil {
				return nil, err
			}
			run = append(run, Weighted{n, x.w})
		}
		slices.SortFunc(run, func(a, b Weighted) int { return strings.Compare(a.Node.Label, b.Node.Label) })
		for _, w := range run {
			if len(out) < first && !nameInName(cn.Label, w.Node.Label) {
				out = append(out, w)
			}
		}
		i = j
	}
	return out, nil
}

// nameInName reports whether one concept name's words are a run of the
// other's ("diffusion" of "diffusion model", "chain-of-thought" of
// "chain-of-thought reasoning").
func nameInName(a, b string) bool { return wordsInWords(nameWords(a), nameWords(b)) }

// wordsInWords is nameInName on names' words (nameWords), for callers that
// compare each name with many.
func wordsInWords(wa, wb []string) bool {
	if len(wa) > len(wb) {
		wa, wb = wb, wa
	}
	for i := 0; i+len(wa) <= len(wb); i++ {
		if slices.Equal(wa, wb[i:i+len(wa)]) {
			return true
		}
	}
	return false
}

// nameWords are a name's words, hyphenated parts apart, as keys.
func nameWords(name string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(ident.FoldKey(name), func(r rune) bool { return r == ' ' || r == '-' }) {
		if k := ident.ConceptKey(w); k != "" {
			out = append(out, k)
		}
	}
	return out
}

// idWeight is a node's id and a weight.
type idWeight struct {
	id NodeID
	w  float64
}

// conceptRelated is every concept co-occurring with c, by Ochiai
// coefficient descending (ties: any order).
func (v *View) conceptRelated(c NodeID) ([]idWeight, error) {
	dc, err := v.r.Counter(degreeCounter(c, Mentions))
	if err != nil {
		return nil, err
	}
	var out []idWeight
	var ierr error
	if err := v.r.Pairs(CoOccurs, c, func(b NodeID, n int64) bool {
		db, err := v.r.Counter(degreeCounter(b, Mentions))
		if err != nil {
			ierr = err
			return false
		}
		out = append(out, idWeight{b, Round3(float64(n) / math.Sqrt(float64(max(dc, 1)*max(db, 1))))})
		return true
	}); err != nil {
		return nil, err
	}
	if ierr != nil {
		return nil, ierr
	}
	slices.SortFunc(out, func(a, b idWeight) int { return cmp.Compare(b.w, a.w) })
	return out, nil
}

// Broader returns the concepts c is a kind of.
func (v *View) Broader(c NodeID) ([]*Node, error) {
	ids, _, err := v.edgeList(c, Broader, Out)
	if err != nil {
		return nil, err
	}
	return v.Nodes(ids)
}

// Narrower returns the concepts that are kinds of c, by name.
func (v *View) Narrower(c NodeID) ([]*Node, error) {
	ids, _, err := v.edgeList(c, Broader, In)
	if err != nil {
		return nil, err
	}
	ns, err := v.Nodes(ids)
	slices.SortFunc(ns, func(a, b *Node) int { return strings.Compare(a.Label, b.Label) })
	return ns, err
}
