// Collaboration paths: a shortest chain of co-authorship between two
// people, by breadth-first search from both ends over the facet index.

package graph

import (
	"context"

	"github.com/researchkg/kg/graph/paperindex"
)

// MaxPathLength bounds path's maxLength.
const MaxPathLength = 8

// DefaultPathLength is path's maxLength when none is given.
const DefaultPathLength = 6

// Hop is one link of a collaboration path: two people and the papers they
// wrote together, newest first.
type Hop struct {
	From, To *Node
	Papers   []*Node
}

// CollaborationPath is a shortest chain of people from one person to
// another, each having written with the next.
type CollaborationPath struct {
	Authors []*Node
	Hops    []Hop
}

// Path finds a shortest co-authorship path from one person to another, at
// most maxLength hops, over the papers a selection matches (a paper of any
// size is a link between each two of its authors); nil when there is none.
// Of several shortest paths it returns one deterministically. The search
// stops with ctx's error when ctx ends.
func (v *View) Path(ctx context.Context, from, to NodeID, maxLength int, s *Selection) (*CollaborationPath, error) {
	s = s.orAll()
	if maxLength < 1 || maxLength > MaxPathLength {
		return nil, Errorf(Invalid, "maxLength must be between 1 and %d, got %d", MaxPathLength, maxLength)
	}
	for _, id := range []NodeID{from, to} {
		if id.Kind() != KindAuthor {
			return nil, Errorf(Invalid, "%s is not a person", id)
		}
		if _, err := v.Node(id); ErrorCode(err) == NotFound {
			return nil, Errorf(NotFound, "no person %s", id)
		} else if err != nil {
			return nil, err
		}
	}
	var authors []NodeID
	var hops [][]NodeID
	err := v.withIndex(func(ix *paperindex.Index) error {
		chain, err := ix.Path(ctx, uint64(from), uint64(to), maxLength, &s.q)
		if err != nil || chain == nil {
			return err
		}
		for i, a := range chain {
			authors = append(authors, NodeID(a))
			if i == 0 {
				continue
			}
			hops = append(hops, nodeIDs(ix.Papers(&s.with(authors[i-1]).with(authors[i]).q)))
		}
		return nil
	})
	if err != nil || authors == nil {
		return nil, err
	}
	out := &CollaborationPath{}
	if out.Authors, err = v.Nodes(authors); err != nil {
		return nil, err
	}
	if len(out.Authors) != len(authors) {
		return nil, nil // a person left since the index was read
	}
	for i, ps := range hops {
		ns, err := v.Nodes(ps)
		if err != nil {
			return nil, err
		}
		out.Hops = append(out.Hops, Hop{From: out.Authors[i], To: out.Authors[i+1], Papers: ns})
	}
	return out, nil
}
