// Collaboration paths: a shortest chain of co-authorship between two
// people, by breadth-first search from both ends over the facet index.

package graph

import (
	"context"
	"slices"
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
	err := v.withIndex(func(ix *facetIndex) error {
		chain, err := ix.path(ctx, from, to, maxLength, s)
		if err != nil || chain == nil {
			return err
		}
		for i, a := range chain {
			authors = append(authors, ix.dicts[dimAuthor].ids[a])
			if i == 0 {
				continue
			}
			var papers []NodeID
			for _, r := range ix.match(s.with(authors[i-1]).with(authors[i])) {
				papers = append(papers, ix.rows[r].id)
			}
			hops = append(hops, papers)
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

// pathSide is one end of a bidirectional search.
type pathSide struct {
	dist     map[uint32]int    // person → hops from this end
	via      map[uint32]uint32 // person → the person before it, toward this end
	frontier []uint32
	seen     map[uint32]bool // papers already expanded from this end
}

func newPathSide(start uint32) *pathSide {
	return &pathSide{dist: map[uint32]int{start: 0}, via: map[uint32]uint32{}, frontier: []uint32{start}, seen: map[uint32]bool{}}
}

// path returns the people (author ordinals) of a shortest path, from
// first, or nil. Each step expands the whole frontier of the end whose
// frontier has fewer papers, each paper once per end, so a paper of
// thousands of authors costs its authors once.
func (ix *facetIndex) path(ctx context.Context, from, to NodeID, maxLength int, s *Selection) ([]uint32, error) {
	dict := &ix.dicts[dimAuthor]
	a, okA := dict.ord[from]
	b, okB := dict.ord[to]
	if from == to {
		if okA {
			return []uint32{a}, nil
		}
		return nil, nil
	}
	if !okA || !okB {
		return nil, nil
	}
	var allowed []bool // rows a selection matches (nil: all)
	if !s.empty() {
		allowed = make([]bool, len(ix.rows))
		for _, r := range ix.match(s) {
			allowed[r] = true
		}
	}
	sa, sb := newPathSide(a), newPathSide(b)
	work := func(side *pathSide) int {
		n := 0
		for _, p := range side.frontier {
			n += len(dict.posts[p])
		}
		return n
	}
	steps := 0
	for depth := 0; depth < maxLength; depth++ {
		if len(sa.frontier) == 0 || len(sb.frontier) == 0 {
			return nil, nil
		}
		side, other := sa, sb
		if work(sb) < work(sa) {
			side, other = sb, sa
		}
		var next []uint32
		for _, p := range side.frontier {
			for _, r := range dict.posts[p] {
				if side.seen[r] || allowed != nil && !allowed[r] {
					continue
				}
				side.seen[r] = true
				if steps++; steps%4096 == 0 {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
				}
				d := side.dist[p] + 1
				for _, q := range ix.rows[r].vals[dimAuthor] {
					if _, ok := side.dist[q]; !ok {
						side.dist[q], side.via[q] = d, p
						next = append(next, q)
					}
				}
			}
		}
		slices.Sort(next)
		side.frontier = next
		// the first level that meets the other end gives the shortest
		// length; of its meeting people, the one of least total, then
		// lowest number
		meet, best := uint32(0), -1
		for _, q := range next {
			if dq, ok := other.dist[q]; ok {
				if total := side.dist[q] + dq; best < 0 || total < best {
					meet, best = q, total
				}
			}
		}
		if best >= 0 {
			return joinPath(sa, sb, meet), nil
		}
	}
	return nil, nil
}

// joinPath is the path from sa's start through meet to sb's start.
func joinPath(sa, sb *pathSide, meet uint32) []uint32 {
	var left []uint32
	for q := meet; ; q = sa.via[q] {
		left = append(left, q)
		if sa.dist[q] == 0 {
			break
		}
	}
	slices.Reverse(left)
	for q := meet; sb.dist[q] != 0; {
		q = sb.via[q]
		left = append(left, q)
	}
	return left
}
