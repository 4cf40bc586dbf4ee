package graph

import (
	"cmp"
	"slices"
	"strings"
)

// Hit is a search result.
type Hit struct {
	Node  *Node
	Score float64
}

// Search finds nodes whose label or aliases contain the words of text. A word
// of three or more characters also matches as a prefix ("reinforc" finds
// "reinforcement"), at half weight. kinds filters the result (nil: all).
// Scores are in [0, 2]: the share of query words matched, plus a bonus when
// the whole label (or a paper's short name) equals the query.
func (v *View) Search(text string, kinds []Kind, first int) ([]Hit, error) {
	words := Tokens(text)
	if len(words) == 0 {
		return nil, nil
	}
	words = slices.Compact(slices.Sorted(slices.Values(words)))
	allowed := func(id NodeID) bool { return len(kinds) == 0 || slices.Contains(kinds, id.Kind()) }
	scores := map[NodeID]float64{}
	for _, w := range words {
		best := map[NodeID]float64{}
		seen := 0
		err := v.r.Terms(IdxSearch, w, func(term string, id NodeID) bool {
			seen++
			exact := term == w
			if !exact && len(w) < 3 {
				return false // terms are sorted: no more exact matches
			}
			if allowed(id) {
				s := 0.5
				if exact {
					s = 1
				}
				best[id] = max(best[id], s)
			}
			return seen < maxSearchPostings
		})
		if err != nil {
			return nil, err
		}
		for id, s := range best {
			scores[id] += s / float64(len(words))
		}
	}
	query := FoldKey(text)
	hits := make([]Hit, 0, len(scores))
	for id, s := range scores {
		n, err := v.Node(id)
		if ErrorCode(err) == NotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		if exactLabel(n, query) {
			s++
		}
		hits = append(hits, Hit{n, s})
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.Node.Label), len(b.Node.Label)); c != 0 {
			return c
		}
		return strings.Compare(a.Node.Label, b.Node.Label)
	})
	if len(hits) > first {
		hits = hits[:first]
	}
	return hits, nil
}

func exactLabel(n *Node, query string) bool {
	if FoldKey(n.Label) == query || FoldKey(n.Name) == query {
		return true
	}
	for _, a := range n.Aliases {
		if FoldKey(a) == query {
			return true
		}
	}
	if n.Kind() == KindPaper {
		if short, _, ok := strings.Cut(n.Label, ":"); ok && foldKey(short) == query {
			return true
		}
	}
	return false
}

// Edge is an edge of a subgraph.
type Edge struct {
	Source, Target NodeID
	Type           EdgeType
	Weight         float64
	HasWeight      bool
}

// Subgraph is a neighbourhood: nodes and the edges among them.
type Subgraph struct {
	Nodes []*Node
	Edges []Edge
}

// edgesOf returns up to maxFanout edges of each type at id, stored (both
// directions) and derived, each with the neighbour it leads to. Four scans
// per node: out-edges, in-edges and the two pair kinds.
func (v *View) edgesOf(id NodeID) ([]nbEdge, error) {
	var out []nbEdge
	for _, dir := range []Direction{Out, In} {
		per := map[EdgeType]int{}
		err := v.r.AllEdges(id, dir, func(t EdgeType, o NodeID, w float64) bool {
			if per[t] >= maxFanout {
				return true
			}
			per[t]++
			e := Edge{Source: id, Target: o, Type: t, Weight: w, HasWeight: t == Mentions}
			if dir == In {
				e.Source, e.Target = o, id
			}
			out = append(out, nbEdge{o, e})
			return true
		})
		if err != nil {
			return nil, err
		}
	}
	for _, t := range []EdgeType{CoAuthor, CoOccurs} {
		seen := 0
		err := v.r.Pairs(t, id, func(o NodeID, n int64) bool {
			e := Edge{Source: min(id, o), Target: max(id, o), Type: t, Weight: float64(n), HasWeight: true}
			out = append(out, nbEdge{o, e})
			seen++
			return seen < maxFanout
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

type nbEdge struct {
	other NodeID
	e     Edge
}

// Neighborhood returns the nodes within depth hops of start (breadth first,
// at most first nodes, kinds filtering which nodes are taken; start is always
// included) and every edge among them.
func (v *View) Neighborhood(start NodeID, depth int, kinds []Kind, first int) (Subgraph, error) {
	var g Subgraph
	root, err := v.Node(start)
	if err != nil {
		return g, err
	}
	in := map[NodeID]bool{start: true}
	order := []NodeID{start}
	g.Nodes = append(g.Nodes, root)
	visited := map[NodeID][]nbEdge{}
	visit := func(id NodeID) ([]nbEdge, error) {
		if es, ok := visited[id]; ok {
			return es, nil
		}
		es, err := v.edgesOf(id)
		visited[id] = es
		return es, err
	}
	frontier := []NodeID{start}
	for d := 0; d < depth && len(frontier) > 0 && len(order) < first; d++ {
		var next []NodeID
		for _, id := range frontier {
			es, err := visit(id)
			if err != nil {
				return g, err
			}
			for _, ne := range es {
				o := ne.other
				if in[o] || len(order) >= first || (len(kinds) > 0 && !slices.Contains(kinds, o.Kind())) {
					continue
				}
				in[o] = true
				order = append(order, o)
				next = append(next, o)
			}
			if len(order) >= first {
				break
			}
		}
		frontier = next
	}
	nodes, err := v.Nodes(order[1:])
	if err != nil {
		return g, err
	}
	g.Nodes = append(g.Nodes, nodes...)
	type ekey struct {
		s, t NodeID
		typ  EdgeType
	}
	seen := map[ekey]bool{}
	for _, id := range order {
		es, err := visit(id)
		if err != nil {
			return g, err
		}
		for _, ne := range es {
			k := ekey{ne.e.Source, ne.e.Target, ne.e.Type}
			if !in[ne.other] || seen[k] {
				continue
			}
			seen[k] = true
			g.Edges = append(g.Edges, ne.e)
		}
	}
	return g, nil
}
