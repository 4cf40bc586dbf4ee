// Applying a name's new partition: papers move between people with their
// list entries, degree counters, co-author pairs and large-collaboration
// entries, in the transaction that clears the name's mark.

package graph

import (
	"cmp"
	"slices"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/people"
)

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
