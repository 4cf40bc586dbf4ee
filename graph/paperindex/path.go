package paperindex

import (
	"context"
	"slices"
)

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

// Path returns the people of a shortest co-authorship path from one
// person to another, from first, at most maxLength hops, over the papers
// a selection matches (a paper of any size links each two of its
// authors); nil when there is none. Of several shortest paths it returns
// one deterministically. The search stops with ctx's error when ctx ends.
//
// Each step expands the whole frontier of the end whose frontier has
// fewer papers, each paper once per end, so a paper of thousands of
// authors costs its authors once.
func (ix *Index) Path(ctx context.Context, from, to uint64, maxLength int, s *Selection) ([]uint64, error) {
	ords, err := ix.path(ctx, from, to, maxLength, s)
	if ords == nil {
		return nil, err
	}
	out := make([]uint64, len(ords))
	for i, o := range ords {
		out[i] = ix.dicts[Author].ids[o]
	}
	return out, nil
}

func (ix *Index) path(ctx context.Context, from, to uint64, maxLength int, s *Selection) ([]uint32, error) {
	dict := &ix.dicts[Author]
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
	if !s.Empty() {
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
				for _, q := range ix.dim(&ix.rows[r], Author) {
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
