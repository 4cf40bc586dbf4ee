package graph

import (
	"slices"
	"strings"
)

// maxConceptsPerPaper bounds a paper's mentions, and so the co-occurrence
// pairs one paper can add (n·(n-1)/2).
const maxConceptsPerPaper = 20

// extract runs the term extractor on a paper's title and every abstract,
// caching by text so a retried transaction does not extract twice.
func (w *writer) extract(p *Node) ([]Term, error) {
	abs, err := w.tx.Abstracts(p.ID)
	if err != nil {
		return nil, err
	}
	text := strings.Join(abs, "\n\n")
	key := p.Label + "\x00" + text
	if t, ok := w.terms[key]; ok {
		return t, nil
	}
	t := w.svc.terms.Extract(p.Label, text)
	w.terms[key] = t
	return t, nil
}

// concepts replaces a paper's mentions with the terms extracted from its
// current text. Co-occurrence pairs move by the difference between the old
// and new concept sets, so replaying the same text changes nothing.
func (w *writer) concepts(p *Node, sortKey []byte) error {
	tx := w.tx
	old := map[NodeID]float64{}
	if err := tx.Edges(p.ID, Mentions, Out, func(c NodeID, wt float64) bool { old[c] = wt; return true }); err != nil {
		return err
	}
	terms, err := w.extract(p)
	if err != nil {
		return err
	}
	cur := map[NodeID]float64{}
	var order []NodeID
	for _, t := range terms {
		if len(order) >= maxConceptsPerPaper {
			break
		}
		c, err := w.concept(t)
		if err != nil {
			return err
		}
		if c == 0 {
			continue
		}
		if _, dup := cur[c]; dup {
			cur[c] = max(cur[c], t.Score)
			continue
		}
		cur[c] = t.Score
		order = append(order, c)
	}
	// removed concepts
	for c := range old {
		if _, keep := cur[c]; keep {
			continue
		}
		if existed, err := tx.DeleteEdge(p.ID, Mentions, c); err != nil {
			return err
		} else if existed {
			w.count(cntEdges, -1)
		}
		if err := tx.DeleteListEntry(c, Mentions, sortKey); err != nil {
			return err
		}
		w.count(degreeCounter(c, Mentions), -1)
	}
	// added or re-weighted concepts
	for _, c := range order {
		if _, had := old[c]; had {
			if old[c] != cur[c] {
				if _, err := tx.PutEdge(p.ID, Mentions, c, cur[c]); err != nil {
					return err
				}
			}
			continue
		}
		if _, err := w.edge(p.ID, Mentions, c, cur[c]); err != nil {
			return err
		}
		w.count(degreeCounter(c, Mentions), 1)
		if err := tx.PutListEntry(c, Mentions, sortKey); err != nil {
			return err
		}
	}
	// co-occurrence: +1 for pairs new to this paper, -1 for pairs it lost
	in := func(m map[NodeID]float64, a, b NodeID) bool {
		_, x := m[a]
		_, y := m[b]
		return x && y
	}
	for i, a := range order {
		for _, b := range order[i+1:] {
			if !in(old, a, b) {
				if err := w.pair(CoOccurs, a, b, 1); err != nil {
					return err
				}
			}
		}
	}
	oldIDs := make([]NodeID, 0, len(old))
	for c := range old {
		oldIDs = append(oldIDs, c)
	}
	slices.Sort(oldIDs)
	for i, a := range oldIDs {
		for _, b := range oldIDs[i+1:] {
			if !in(cur, a, b) {
				if err := w.pair(CoOccurs, a, b, -1); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// concept resolves a term to a concept node, creating it, adding aliases and
// linking it into the broader/narrower hierarchy. It returns 0 for a term
// with no usable name.
func (w *writer) concept(t Term) (NodeID, error) {
	tx := w.tx
	key := FoldKey(t.Name)
	if key == "" {
		return 0, nil
	}
	id, err := tx.Lookup(IdxConcept, key)
	if err != nil && ErrorCode(err) != NotFound {
		return 0, err
	}
	if err != nil {
		// Not known by its name; maybe by an alias (a bare acronym seen
		// before its definition): then the long form becomes the name.
		for _, a := range t.Aliases {
			if aid, aerr := tx.Lookup(IdxConcept, FoldKey(a)); aerr == nil {
				n, err := tx.Node(aid)
				if err != nil {
					return 0, err
				}
				if FoldKey(n.Label) == FoldKey(a) {
					n.Aliases = appendNew(n.Aliases, n.Label)
					n.Label = t.Name
					if err := tx.PutNode(n); err != nil {
						return 0, err
					}
					if err := tx.PutLookup(IdxConcept, key, aid); err != nil {
						return 0, err
					}
					if err := w.searchTerms(aid, t.Name); err != nil {
						return 0, err
					}
					if err := w.hierarchy(aid, t.Name); err != nil {
						return 0, err
					}
					id, err = aid, nil
				}
				break
			}
		}
	}
	aliasAdded := false
	if id == 0 {
		if id, err = tx.NewID(KindConcept); err != nil {
			return 0, err
		}
		if err := tx.PutNode(Node{ID: id, Label: t.Name}); err != nil {
			return 0, err
		}
		if err := tx.PutLookup(IdxConcept, key, id); err != nil {
			return 0, err
		}
		if err := w.searchTerms(id, t.Name); err != nil {
			return 0, err
		}
		w.count(cntConcepts, 1)
		w.res.ConceptsAdded++
		if err := w.hierarchy(id, t.Name); err != nil {
			return 0, err
		}
	}
	// new aliases (the first concept to claim an alias keeps it)
	var n *Node
	for _, a := range t.Aliases {
		ak := FoldKey(a)
		if ak == "" || ak == key {
			continue
		}
		owner, err := tx.Lookup(IdxConcept, ak)
		indexed := err == nil
		if err != nil && ErrorCode(err) != NotFound {
			return 0, err
		}
		if indexed && owner != id {
			continue
		}
		if n == nil {
			nn, err := tx.Node(id)
			if err != nil {
				return 0, err
			}
			n = &nn
		}
		if slices.Contains(n.Aliases, a) || FoldKey(n.Label) == ak {
			continue
		}
		n.Aliases = append(n.Aliases, a)
		if !indexed {
			if err := tx.PutLookup(IdxConcept, ak, id); err != nil {
				return 0, err
			}
		}
		if err := w.searchTerms(id, a); err != nil {
			return 0, err
		}
		aliasAdded = true
	}
	if aliasAdded {
		if err := tx.PutNode(*n); err != nil {
			return 0, err
		}
	}
	return id, nil
}

func appendNew(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

// hierarchy links a concept to its broader concept (the longest proper tail
// of its words that is itself a concept: "vision-language process reward
// model" → "process reward model") and re-parents existing longer concepts
// that end with it.
func (w *writer) hierarchy(id NodeID, name string) error {
	tx := w.tx
	words := strings.Fields(FoldKey(name))
	if len(words) == 0 {
		return nil
	}
	for k := 1; k < len(words); k++ {
		parent, err := tx.Lookup(IdxConcept, strings.Join(words[k:], " "))
		if err == nil && parent != id {
			if err := w.setBroader(id, parent); err != nil {
				return err
			}
			break
		} else if err != nil && ErrorCode(err) != NotFound {
			return err
		}
	}
	rev := reverseWords(words)
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
		if cur != 0 {
			pn, err := tx.Node(cur)
			if err != nil {
				return err
			}
			if len(strings.Fields(FoldKey(pn.Label))) >= len(words) {
				continue // already under a closer parent
			}
			if _, err := tx.DeleteEdge(c, Broader, cur); err != nil {
				return err
			}
			w.count(cntEdges, -1)
		}
		if err := w.setBroader(c, id); err != nil {
			return err
		}
	}
	return tx.PutTerm(IdxConceptTail, rev, id)
}

func (w *writer) setBroader(child, parent NodeID) error {
	_, err := w.edge(child, Broader, parent, 0)
	return err
}

func reverseWords(words []string) string {
	r := slices.Clone(words)
	slices.Reverse(r)
	return strings.Join(r, " ")
}
