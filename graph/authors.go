package graph

import (
	"slices"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/people"
)

// Author names: which person a name on a paper is. A full name is its
// NameKey; a name with initials joins a full name only through the
// paper's co-author circle. The papers of one name are then clustered into
// people (people.go, person.go).

// resolveAuthors finds or creates the authors of a record. Full names are
// identified by NameKey, so two different first names never merge. A name
// whose first names are initials ("H. Schütze", "J.-P. Sartre") is taken to
// be a known full name only when exactly one author of that last name and
// those initials is a co-author of the record's other authors (or one of
// them); otherwise it stays a name of its own. Every spelling seen is kept
// as an alias.
//
// A decision once made for a paper stands: an initials name already linked
// to the paper keeps its author when the paper is read again, even if the
// circle has grown since (otherwise a re-ingest would move it).
func (w *writer) resolveAuthors(paper NodeID, names []string) ([]NodeID, error) {
	// the paper's existing authors, by every spelling they were linked with:
	// a name read again keeps its person (of several who share it, the one
	// clustering gave it; of initials, the one the circle gave)
	spelled := map[string]NodeID{}
	linked, err := paperAuthors(w.tx, paper)
	if err != nil {
		return nil, err
	}
	for _, a := range linked {
		n, err := w.tx.Node(a)
		if err != nil {
			return nil, err
		}
		for _, s := range append([]string{n.Label}, n.Aliases...) {
			spelled[ident.NameKey(s)] = a
		}
	}
	ids := make([]NodeID, len(names))
	var abbreviated []int
	for i, name := range names {
		if people.IsAbbreviated(name) {
			abbreviated = append(abbreviated, i)
			continue
		}
		if a, ok := spelled[ident.NameKey(name)]; ok {
			ids[i] = a
			continue
		}
		id, err := w.author(name)
		if err != nil {
			return nil, err
		}
		ids[i] = id
	}
	if len(abbreviated) == 0 {
		return ids, nil
	}
	// the co-author circle of the resolved authors
	circle := map[NodeID]bool{}
	for _, id := range ids {
		if id == 0 {
			continue
		}
		circle[id] = true
		seen := 0
		if err := w.tx.Pairs(CoAuthor, id, func(b NodeID, _ int64) bool {
			circle[b] = true
			seen++
			return seen < maxFanout
		}); err != nil {
			return nil, err
		}
	}
	for _, i := range abbreviated {
		if a, ok := spelled[ident.NameKey(names[i])]; ok {
			ids[i] = a
			continue
		}
		var match NodeID
		count := 0
		for c := range circle {
			n, err := w.tx.Node(c)
			if err != nil {
				return nil, err
			}
			if !people.IsAbbreviated(n.Label) && people.InitialsFit(names[i], n.Label) {
				match = c
				count++
			}
		}
		if count == 1 {
			ids[i] = match
			if err := w.addAuthorAlias(match, names[i]); err != nil {
				return nil, err
			}
			n, err := w.tx.Node(match)
			if err != nil {
				return nil, err
			}
			if err := w.markBlock(ident.NameKey(n.Label)); err != nil {
				return nil, err
			}
			continue
		}
		id, err := w.author(names[i])
		if err != nil {
			return nil, err
		}
		ids[i] = id
	}
	return ids, nil
}

// author finds the person of a name or creates one: a name carried by
// several people gives the one with most papers, and is marked to be
// clustered again at the end of the ingest (SettlePeople), which moves the
// paper to the person it belongs with.
func (w *writer) author(name string) (NodeID, error) {
	key := ident.NameKey(name)
	a, isNew, err := w.named(KindAuthor, IdxAuthorName, key, name, cntAuthors)
	if err != nil {
		return 0, err
	}
	w.knowBlock(a, key)
	if isNew {
		w.res.AuthorsAdded++
		if w.fresh == nil {
			w.fresh = map[NodeID]bool{}
		}
		w.fresh[a] = true
		if err := w.tx.PutTerm(IdxPeople, key, a); err != nil {
			return 0, err
		}
		return a, w.index(a, IdxAuthorFold, ident.FoldKey(name))
	}
	if err := w.markBlock(key); err != nil {
		return 0, err
	}
	return a, w.addAuthorAlias(a, name)
}

// addAuthorAlias records a spelling of an author's name not seen before.
// Full spellings are indexed; initials are not (the same initials elsewhere
// may be someone else: they are matched per paper, by co-author circle).
func (w *writer) addAuthorAlias(a NodeID, name string) error {
	n, err := w.tx.Node(a)
	if err != nil {
		return err
	}
	if name == n.Label || slices.Contains(n.Aliases, name) {
		return nil
	}
	n.Aliases = append(n.Aliases, name)
	if err := w.tx.PutNode(n); err != nil {
		return err
	}
	if people.IsAbbreviated(name) {
		return nil
	}
	if err := w.index(a, IdxAuthorName, ident.NameKey(name)); err != nil {
		return err
	}
	return w.index(a, IdxAuthorFold, ident.FoldKey(name))
}
