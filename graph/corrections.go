package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/people"
)

// Manual corrections of people. A curated index needs them: clustering
// will sometimes join two people or part one. A correction is kept with the
// name (ValCorrections) as the papers it concerns, by their identities, and
// every later clustering of the name respects it (constraintsOf), so
// re-ingesting the sources keeps it.

// SplitAuthor makes the given papers of a person a person of their own,
// and returns the people the papers are with afterwards: the new person
// first, then the one keeping the rest. note says who asked or why.
func (s *Service) SplitAuthor(ctx context.Context, author NodeID, papers []NodeID, note string) ([]NodeID, error) {
	s.settling.Lock()
	defer s.settling.Unlock()
	if len(papers) == 0 {
		return nil, Errorf(Invalid, "splitAuthor needs at least one paper")
	}
	var block string
	var split, rest []string
	err := s.store.Update(ctx, func(tx Tx) error {
		n, err := person(tx, author)
		if err != nil {
			return err
		}
		block = ident.NameKey(n.Label)
		all := map[NodeID]bool{}
		if err := tx.Edges(author, Authored, Out, func(p NodeID, _ float64) bool {
			all[p] = true
			return true
		}); err != nil {
			return err
		}
		chosen := map[NodeID]bool{}
		for _, p := range papers {
			if !all[p] {
				return Errorf(Invalid, "paper %s is not a paper of author %s (%s)", p, author, n.Label)
			}
			chosen[p] = true
		}
		if len(chosen) == len(all) {
			return Errorf(Invalid, "splitAuthor would leave author %s (%s) with no papers: list only the papers to part", author, n.Label)
		}
		for p := range all {
			pn, err := tx.Node(p)
			if err != nil {
				return err
			}
			if chosen[p] {
				split = append(split, paperIdentity(&pn))
			} else {
				rest = append(rest, paperIdentity(&pn))
			}
		}
		slices.Sort(split)
		slices.Sort(rest)
		return addCorrection(tx, block, Correction{Op: "split", Papers: split, Rest: rest, By: note,
			At: time.Now().UTC().Format(time.RFC3339), Before: []string{author.String()}})
	})
	if err != nil {
		return nil, err
	}
	if err := s.settlePeople(ctx); err != nil {
		return nil, err
	}
	return s.holders(ctx, block, split[0], rest[0])
}

// MergeAuthors makes people who share a name one person, and returns it.
func (s *Service) MergeAuthors(ctx context.Context, authors []NodeID, note string) (NodeID, error) {
	s.settling.Lock()
	defer s.settling.Unlock()
	if len(authors) < 2 {
		return 0, Errorf(Invalid, "mergeAuthors needs at least two authors")
	}
	var block, first string
	err := s.store.Update(ctx, func(tx Tx) error {
		var idents, before []string
		for _, a := range authors {
			n, err := person(tx, a)
			if err != nil {
				return err
			}
			if b := ident.NameKey(n.Label); block == "" {
				block = b
			} else if b != block {
				return Errorf(Invalid, "mergeAuthors joins people who share a name: %s is %q, not %q", a, n.Label, block)
			}
			before = append(before, a.String())
			papers, _, err := edgeList(tx, a, Authored, Out)
			if err != nil {
				return err
			}
			for _, p := range papers {
				pn, err := tx.Node(p)
				if err != nil {
					return err
				}
				idents = append(idents, paperIdentity(&pn))
			}
		}
		slices.Sort(idents)
		idents = slices.Compact(idents)
		first = idents[0]
		return addCorrection(tx, block, Correction{Op: "merge", Papers: idents, By: note,
			At: time.Now().UTC().Format(time.RFC3339), Before: before})
	})
	if err != nil {
		return 0, err
	}
	if err := s.settlePeople(ctx); err != nil {
		return 0, err
	}
	ids, err := s.holders(ctx, block, first)
	if err != nil {
		return 0, err
	}
	return ids[0], nil
}

// person loads an author node, or says why it cannot.
func person(r Reader, a NodeID) (Node, error) {
	if a.Kind() != KindAuthor {
		return Node{}, Errorf(Invalid, "%s is not an author", a)
	}
	n, err := r.Node(a)
	if ErrorCode(err) == NotFound {
		return n, Errorf(NotFound, "no author %s", a)
	}
	return n, err
}

// addCorrection appends a correction to a name's and marks the name.
func addCorrection(tx Tx, block string, c Correction) error {
	cs, err := corrections(tx, block)
	if err != nil {
		return err
	}
	b, err := json.Marshal(append(cs, c))
	if err != nil {
		return err
	}
	if err := tx.PutValue(ValCorrections, block, b); err != nil {
		return err
	}
	return tx.PutTerm(IdxBlockDirty, block, 0)
}

// holders returns, for each paper identity, the person of the name who
// holds that paper.
func (s *Service) holders(ctx context.Context, block string, idents ...string) ([]NodeID, error) {
	out := make([]NodeID, len(idents))
	err := s.read(ctx, func(r Reader) error {
		ps, err := peopleOf(r, block)
		if err != nil {
			return err
		}
		for _, a := range ps {
			papers, _, err := edgeList(r, a, Authored, Out)
			if err != nil {
				return err
			}
			for _, p := range papers {
				n, err := r.Node(p)
				if err != nil {
					return err
				}
				if i := slices.Index(idents, paperIdentity(&n)); i >= 0 {
					out[i] = a
				}
			}
		}
		return nil
	})
	for i, a := range out {
		if err == nil && a == 0 {
			err = fmt.Errorf("paper %s of %q is with no person after clustering", idents[i], block)
		}
	}
	return out, err
}

// NameCorrections are the corrections kept for one name.
type NameCorrections struct {
	Name        string
	Corrections []Correction
}

// Corrections lists every manual correction, by name.
func (s *Service) Corrections(ctx context.Context) ([]NameCorrections, error) {
	var out []NameCorrections
	err := s.read(ctx, func(r Reader) error {
		var ierr error
		err := r.Values(ValCorrections, "", func(key string, v []byte) bool {
			var cs []Correction
			if err := json.Unmarshal(v, &cs); err != nil {
				ierr = fmt.Errorf("corrections of %q: %w", key, err)
				return false
			}
			out = append(out, NameCorrections{Name: key, Corrections: cs})
			return true
		})
		if err == nil {
			err = ierr
		}
		return err
	})
	return out, err
}

// PeopleCurrent returns a Conflict error when the store's authors are
// names, from a kg before people were told apart: the first author is in
// no name's people.
func (s *Service) PeopleCurrent(ctx context.Context) error {
	return s.read(ctx, peopleCurrent)
}

func peopleCurrent(r Reader) error {
	var first NodeID
	if err := r.NodeIDs(KindAuthor, 0, func(id NodeID) bool { first = id; return false }); err != nil || first == 0 {
		return err
	}
	n, err := r.Node(first)
	if err != nil {
		return err
	}
	ps, err := peopleOf(r, ident.NameKey(n.Label))
	if err != nil {
		return err
	}
	if !slices.Contains(ps, first) {
		return Errorf(Conflict, "the store's authors are names, from a kg before people who share a name were told apart: run `kg authors --recluster` on it first")
	}
	return nil
}

// Recluster clusters the people of every name again (kg authors
// --recluster): after a change of the rules, or to bring a store from
// before people were told apart (its authors are then names: each is made
// the first person of its name).
func (s *Service) Recluster(ctx context.Context) error {
	s.settling.Lock()
	defer s.settling.Unlock()
	// the counts of large collaborations per author (older stores lack them)
	big := map[string]int64{}
	if err := s.read(ctx, func(r Reader) error {
		return r.Terms(IdxBigPaperOf, "", func(term string, _ NodeID) bool {
			big[term]++
			return true
		})
	}); err != nil {
		return err
	}
	if err := s.store.DropCounters("bigp/"); err != nil {
		return err
	}
	terms := slices.Sorted(maps.Keys(big))
	if err := s.eachBatch(ctx, len(terms), func(w *writer, i int) error {
		_, err := w.tx.AddCounter("bigp/"+terms[i], big[terms[i]])
		return err
	}); err != nil {
		return err
	}
	var after NodeID
	for {
		var ids []NodeID
		if err := s.read(ctx, func(r Reader) error {
			return r.NodeIDs(KindAuthor, after, func(id NodeID) bool {
				ids = append(ids, id)
				return len(ids) < 2000
			})
		}); err != nil {
			return err
		}
		if len(ids) == 0 {
			break
		}
		after = ids[len(ids)-1]
		if err := s.eachBatch(ctx, len(ids), func(w *writer, i int) error {
			n, err := w.tx.Node(ids[i])
			if err != nil {
				return err
			}
			block := ident.NameKey(n.Label)
			if err := w.tx.PutTerm(IdxPeople, block, ids[i]); err != nil {
				return err
			}
			if err := w.markProfile(ids[i]); err != nil {
				return err
			}
			return w.markBlock(block)
		}); err != nil {
			return err
		}
	}
	return s.settlePeople(ctx)
}

// Correction is a manual correction of a name's people, kept so that
// every later clustering of the name respects it.
type Correction struct {
	Op     string   `json:"op"`               // "split" or "merge"
	Papers []string `json:"papers"`           // split: the papers made a person of their own; merge: every paper of the merged people
	Rest   []string `json:"rest,omitempty"`   // split: the papers they were parted from
	By     string   `json:"by,omitempty"`     // who asked (the request's note), for the record
	At     string   `json:"at,omitempty"`     // when, RFC 3339
	Before []string `json:"before,omitempty"` // person ids before the correction, for the record
}

func corrections(r Reader, block string) ([]Correction, error) {
	v, err := r.Value(ValCorrections, block)
	if ErrorCode(err) == NotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var cs []Correction
	if err := json.Unmarshal(v, &cs); err != nil {
		return nil, fmt.Errorf("corrections of %q: %w", block, err)
	}
	return cs, nil
}

// constraintsOf turns corrections into clustering constraints; a later
// correction overrides what an earlier one said about the same papers.
func constraintsOf(cs []Correction) []people.Constraint {
	var out []people.Constraint
	for _, c := range cs {
		switch c.Op {
		case "merge":
			in := map[string]bool{}
			for _, p := range c.Papers {
				in[p] = true
			}
			for i := range out { // earlier splits no longer part these papers
				if !out[i].Same && hasAny(out[i].A, in) && hasAny(out[i].B, in) {
					out[i].B = slices.DeleteFunc(slices.Clone(out[i].B), func(p string) bool { return in[p] })
				}
			}
			out = append(out, people.Constraint{A: c.Papers, Same: true})
		case "split":
			in := map[string]bool{}
			for _, p := range c.Papers {
				in[p] = true
			}
			rest := map[string]bool{}
			for _, p := range c.Rest {
				rest[p] = true
			}
			var kept []people.Constraint
			for _, o := range out { // earlier merges no longer join them
				if o.Same && hasAny(o.A, in) && hasAny(o.A, rest) {
					a := slices.DeleteFunc(slices.Clone(o.A), func(p string) bool { return !in[p] })
					b := slices.DeleteFunc(slices.Clone(o.A), func(p string) bool { return in[p] })
					kept = append(kept, people.Constraint{A: a, Same: true}, people.Constraint{A: b, Same: true})
					continue
				}
				kept = append(kept, o)
			}
			out = append(kept, people.Constraint{A: c.Papers, Same: true}, people.Constraint{A: c.Papers, B: c.Rest})
		}
	}
	return out
}

func hasAny(ps []string, in map[string]bool) bool {
	return slices.ContainsFunc(ps, func(p string) bool { return in[p] })
}
