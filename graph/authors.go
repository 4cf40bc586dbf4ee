// Author names on a paper: which person each name is when a record is
// written, what a record says about an author besides the name (ORCID iD,
// affiliation, e-mail: kept per paper and name, read as evidence), and how
// a name's new partition is applied (papers move between people with their
// list entries, degree counters, co-author pairs and large-collaboration
// entries, in the transaction that clears the name's mark).

package graph

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/people"
)

// Author names: which person a name on a paper is. A full name is its
// NameKey; a name with initials joins a full name only through the
// paper's co-author circle. The papers of one name are then clustered into
// people (package people; person.go gathers their evidence).

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

// AuthorInfo is what a source says about one author of one paper beyond
// the name (Atom and BibTeX sometimes carry it).
type AuthorInfo struct {
	ORCID       string `json:"orcid,omitempty"` // "0000-0002-1825-0097"
	Affiliation string `json:"aff,omitempty"`
	Email       string `json:"email,omitempty"`
}

func (i AuthorInfo) empty() bool { return i == AuthorInfo{} }

func (i AuthorInfo) encode() []byte {
	b, _ := json.Marshal(i)
	return b
}

// clean normalises what a reader found: an ORCID iD without its resolver
// and checked, the rest as plain text.
func (i AuthorInfo) clean() AuthorInfo {
	i.ORCID = ident.ORCIDKey(i.ORCID)
	i.Affiliation = ident.Clip(ident.CleanText(ident.LatexToText(i.Affiliation)), 300)
	i.Email = ident.Clip(strings.TrimSpace(strings.ToLower(i.Email)), 200)
	return i
}

// authorInfoKey keys the info of a name on a paper (by the name, so the
// info stays with the use whichever person holds it).
func authorInfoKey(paper NodeID, block string) string { return authorTerm(paper) + " " + block }

func authorInfo(r Reader, paper NodeID, block string) (AuthorInfo, error) {
	var i AuthorInfo
	v, err := r.Value(ValAuthorInfo, authorInfoKey(paper, block))
	if ErrorCode(err) == NotFound {
		return i, nil
	}
	if err != nil {
		return i, err
	}
	if err := json.Unmarshal(v, &i); err != nil {
		return i, fmt.Errorf("author info of %s: %w", paper, err)
	}
	return i, nil
}

// reconcile makes the stored people of a name the clusters of part: each
// cluster keeps the id of the person that held most of its papers (so the
// person who keeps most of their papers keeps their id), the others get
// new ids, papers move, and persons left with none are deleted.
func (w *writer) reconcile(block string, persons []NodeID, uses []personUse, part []int) error {
	tx := w.tx
	nc := 0
	for _, c := range part {
		nc = max(nc, c+1)
	}
	overlap := map[[2]int64]int{} // (cluster, person) → papers
	for i, u := range uses {
		overlap[[2]int64{int64(part[i]), int64(u.person)}]++
	}
	type cand struct {
		cluster int
		person  NodeID
		n       int
	}
	var cands []cand
	for k, n := range overlap {
		cands = append(cands, cand{int(k[0]), NodeID(k[1]), n})
	}
	slices.SortFunc(cands, func(a, b cand) int {
		return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.person, b.person), cmp.Compare(a.cluster, b.cluster))
	})
	owner := make([]NodeID, nc)
	taken := map[NodeID]bool{}
	for _, c := range cands {
		if owner[c.cluster] == 0 && !taken[c.person] {
			owner[c.cluster], taken[c.person] = c.person, true
		}
	}
	changed := false
	for c := range owner {
		if owner[c] != 0 {
			continue
		}
		// a new person, named as the person most of its papers came from
		var from NodeID
		for _, k := range cands {
			if k.cluster == c {
				from = k.person
				break
			}
		}
		src, err := tx.Node(from)
		if err != nil {
			return err
		}
		id, err := tx.NewID(KindAuthor)
		if err != nil {
			return err
		}
		if err := tx.PutNode(Node{ID: id, Label: src.Label, Aliases: src.Aliases}); err != nil {
			return err
		}
		if err := tx.PutTerm(IdxPeople, block, id); err != nil {
			return err
		}
		if err := w.searchTerms(id, src.Label); err != nil {
			return err
		}
		w.count(cntAuthors, 1)
		w.res.AuthorsAdded++
		owner[c], changed = id, true
	}
	size := map[NodeID]int{}
	for i := range uses {
		to := owner[part[i]]
		if to == uses[i].person {
			size[to]++
			continue
		}
		moved, err := w.moveAuthorship(&uses[i].paper, uses[i].person, to, uses[i].pos)
		if err != nil {
			return err
		}
		if moved {
			size[to]++
		} else { // the paper stays with its person, who must stay too
			size[uses[i].person]++
			taken[uses[i].person] = true
		}
	}
	for _, a := range persons {
		if !taken[a] {
			if err := w.deletePerson(a, block); err != nil {
				return err
			}
			changed = true
		}
	}
	// lookups by name find the person with most papers
	primary := owner[0]
	for _, a := range owner {
		if size[a] > size[primary] || size[a] == size[primary] && a < primary {
			primary = a
		}
	}
	if err := w.pointName(block, primary, owner); err != nil {
		return err
	}
	if err := w.countPeople(block, len(owner)); err != nil {
		return err
	}
	if changed { // homonym counts and disambiguation lines change
		for _, a := range owner {
			if err := w.markProfile(a); err != nil {
				return err
			}
		}
	}
	return nil
}

// countPeople sets the count of a name's people (kept only while there
// are several).
func (w *writer) countPeople(block string, n int) error {
	cur, err := w.tx.Counter(peopleCounter(block))
	if err != nil {
		return err
	}
	if want := int64(n); n > 1 && cur != want || n <= 1 && cur != 0 {
		if n <= 1 {
			want = 0
		}
		_, err = w.tx.AddCounter(peopleCounter(block), want-cur)
	}
	return err
}

// pointName makes a name's lookups (its spellings' NameKey and FoldKey)
// find its primary person; a FoldKey held by another name is left alone.
func (w *writer) pointName(block string, primary NodeID, persons []NodeID) error {
	n, err := w.tx.Node(primary)
	if err != nil {
		return err
	}
	mine := map[NodeID]bool{}
	for _, a := range persons {
		mine[a] = true
	}
	for _, s := range append([]string{n.Label}, n.Aliases...) {
		if people.IsAbbreviated(s) {
			continue
		}
		for _, k := range []struct {
			ns  Index
			key string
		}{{IdxAuthorName, ident.NameKey(s)}, {IdxAuthorFold, ident.FoldKey(s)}} {
			cur, err := w.tx.Lookup(k.ns, k.key)
			if ErrorCode(err) == NotFound || err == nil && (mine[cur] || cur.Kind() == KindAuthor && !w.exists(cur)) {
				if cur != primary {
					if err := w.tx.PutLookup(k.ns, k.key, primary); err != nil {
						return err
					}
				}
				continue
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *writer) exists(id NodeID) bool {
	_, err := w.tx.Node(id)
	return err == nil
}

// moveAuthorship moves one paper from person from to person to, with its
// list entry, degree counters and co-author pairs, and reports whether it
// did: not when the paper already has person to (an initials name gave
// it the same person twice).
func (w *writer) moveAuthorship(paper *Node, from, to NodeID, pos float64) (bool, error) {
	tx := w.tx
	others, err := paperAuthors(tx, paper.ID)
	if err != nil {
		return false, err
	}
	if slices.Contains(others, to) {
		return false, nil
	}
	sortKey := PaperSortKey(paper)
	if _, err := tx.DeleteEdge(from, Authored, paper.ID); err != nil {
		return false, err
	}
	if err := tx.DeleteListEntry(from, Authored, sortKey); err != nil {
		return false, err
	}
	w.count(degreeCounter(from, Authored), -1)
	if _, err := tx.PutEdge(to, Authored, paper.ID, pos); err != nil {
		return false, err
	}
	if err := tx.PutListEntry(to, Authored, sortKey); err != nil {
		return false, err
	}
	w.count(degreeCounter(to, Authored), 1)
	if len(others) <= BigPaperAuthors {
		for _, b := range others {
			if b == from {
				continue
			}
			if err := w.pair(CoAuthor, from, b, -1); err != nil {
				return false, err
			}
			if err := w.pair(CoAuthor, to, b, 1); err != nil {
				return false, err
			}
		}
	} else {
		if err := tx.DeleteTerm(IdxBigPaperOf, authorTerm(from), paper.ID); err != nil {
			return false, err
		}
		if err := tx.PutTerm(IdxBigPaperOf, authorTerm(to), paper.ID); err != nil {
			return false, err
		}
		w.count(bigCounter(from), -1)
		w.count(bigCounter(to), 1)
	}
	for _, b := range append(others, to) {
		if err := w.markProfile(b); err != nil {
			return false, err
		}
	}
	return true, nil
}

// deletePerson removes a person left with no papers.
func (w *writer) deletePerson(a NodeID, block string) error {
	tx := w.tx
	n, err := tx.Node(a)
	if err != nil {
		return err
	}
	if err := tx.DeleteNode(a); err != nil {
		return err
	}
	if err := tx.DeleteTerm(IdxPeople, block, a); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, t := range ident.Tokens(n.Label) {
		if !seen[t] {
			seen[t] = true
			if err := tx.DeleteTerm(IdxSearch, t, a); err != nil {
				return err
			}
		}
	}
	if err := tx.DeleteValue(ValProfile, authorTerm(a)); err != nil {
		return err
	}
	if err := tx.DeleteTerm(IdxProfileDirty, authorTerm(a), a); err != nil {
		return err
	}
	w.count(cntAuthors, -1)
	return nil
}
