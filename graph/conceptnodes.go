// Concept nodes: creating, naming and renaming, aliases and acronyms,
// index keys, dropping.

package graph

import (
	"slices"
	"strings"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/vocab"
)

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
	c := Concept{ID: id, Name: n.Label, Key: ident.ConceptKey(n.Label)}
	w.vocab.remember(c)
	return c, nil
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
	n.Aliases = vocab.InsertSorted(n.Aliases, alias)
	if err := w.tx.PutNode(n); err != nil {
		return err
	}
	return w.searchTerms(id, alias)
}

// concept finds the concept a term names or creates it, adding the term's
// aliases and linking it into the broader/narrower hierarchy. It returns 0
// for a term with no usable name.
func (w *writer) concept(t Term) (id NodeID, created bool, err error) {
	tx := w.tx
	name := t.Name
	key := ident.ConceptKey(name)
	if key == "" {
		return 0, false, nil
	}
	acr := vocab.IsOneAcronym(name)
	if acr {
		name = ident.SingularAcronym(name)
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
			if !vocab.IsOneAcronym(a) {
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
			} else if vocab.FunctionWordVariant(name, n.Label) {
				// "reinforcement learning with human feedback" (RLHF)
				// is "reinforcement learning from human feedback"
				// (RLHF): the long form is an alias of the concept
				return aid, false, w.addAliases(aid, append([]string{name}, t.Aliases...))
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
			if err == nil && readAsWords(name) {
				// a hyphenated acronym ("GPT-4o", "MiLorE-SSL") is read
				// as its words, not as one acronym: linking finds it
				// by its key (nlp: Ranking.Link), unless a concept has
				// the key
				if _, lerr := tx.Lookup(IdxConcept, key); ErrorCode(lerr) == NotFound {
					err = w.indexConcept(id, key)
				} else if lerr != nil {
					err = lerr
				}
			}
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

// readAsWords reports whether an acronym name has a hyphen inside it
// ("GPT-4o", "ResNet-50"): the tokeniser reads it as its words, and
// linking finds it by its key. A hyphen at an end ("BERT-", a tagger's
// slip) does not count: the key is the bare acronym's.
func readAsWords(name string) bool { return strings.Contains(strings.Trim(name, "-"), "-") }

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
	n.Aliases = vocab.InsertSorted(n.Aliases, n.Label)
	n.Label = name
	if err := w.tx.PutNode(*n); err != nil {
		return err
	}
	w.vocab.forget(n.ID)
	if err := w.indexConcept(n.ID, ident.ConceptKey(name)); err != nil {
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
		acr := vocab.IsOneAcronym(a)
		ns, ak := IdxConcept, ident.ConceptKey(a)
		if acr {
			a = ident.SingularAcronym(a)
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
		if slices.Contains(n.Aliases, a) || n.Label == a || (!acr && ident.ConceptKey(n.Label) == ak) {
			continue
		}
		n.Aliases = vocab.InsertSorted(n.Aliases, a)
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
	// its degree may still count pending links (pending.go), which go
	// with it
	if n, err := tx.Counter(degreeCounter(c, Mentions)); err != nil {
		return err
	} else if n != 0 {
		if _, err := tx.AddCounter(degreeCounter(c, Mentions), -n); err != nil {
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
		}{{IdxConcept, ident.ConceptKey(name)}, {IdxConcept, strings.ReplaceAll(ident.FoldKey(name), " ", "")}}
		if vocab.IsOneAcronym(name) {
			keys = append(keys, struct {
				ns  Index
				key string
			}{IdxAcronym, ident.SingularAcronym(name)})
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
		for _, tok := range ident.Tokens(name) {
			if err := tx.DeleteTerm(IdxSearch, tok, n.ID); err != nil {
				return err
			}
		}
	}
	for _, tail := range []string{vocab.TailTerm(ident.ConceptWordKeys(n.Label)), vocab.ReverseWords(strings.Fields(ident.FoldKey(n.Label)))} {
		if err := tx.DeleteTerm(IdxConceptTail, tail, n.ID); err != nil {
			return err
		}
	}
	return nil
}
