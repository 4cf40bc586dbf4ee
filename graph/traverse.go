package graph

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/researchkg/kg/graph/ident"
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
	words := ident.Tokens(text)
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
	// Nodes are read a score at a time, best first, until first are
	// found: a label equal to the query has every query word, so only the
	// best score can gain the bonus, and a lower score cannot pass one
	// already taken. ("deep reinforcement learning model" matched 14,000
	// nodes by one word or another; its answer needs those with all four.)
	byScore := map[float64][]NodeID{}
	for id, s := range scores {
		byScore[s] = append(byScore[s], id)
	}
	levels := slices.Sorted(maps.Keys(byScore))
	slices.Reverse(levels)
	query := ident.FoldKey(text)
	// candidates are read from the snapshot without keeping them in the
	// View (a common word's thousands of papers: a copy and a map entry
	// each); the answer's few are loaded into it at the end
	type cand struct {
		id    NodeID
		label string
		score float64
	}
	var cands []cand
	for _, s := range levels {
		if len(cands) >= first {
			break
		}
		for _, id := range byScore[s] {
			n, err := v.r.Node(id)
			if ErrorCode(err) == NotFound {
				continue
			}
			if err != nil {
				return nil, err
			}
			score := s
			if exactLabel(&n, query) {
				score++
			}
			cands = append(cands, cand{id, n.Label, score})
		}
	}
	// equal labels (people who share a name: 32 "Yang Liu"s) come most
	// papers first, as AuthorsByName has them, then by id: the order of a
	// map's iteration gave a different answer at each request
	papers := map[NodeID]int64{}
	var ierr error
	count := func(id NodeID) int64 {
		if id.Kind() != KindAuthor {
			return 0
		}
		n, ok := papers[id]
		if !ok {
			var err error
			if n, err = v.r.Counter(degreeCounter(id, Authored)); err != nil && ierr == nil {
				ierr = err
			}
			papers[id] = n
		}
		return n
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.label), len(b.label)); c != 0 {
			return c
		}
		if c := strings.Compare(a.label, b.label); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(count(b.id), count(a.id)), cmp.Compare(a.id, b.id))
	})
	if ierr != nil {
		return nil, ierr
	}
	cands = cands[:min(first, len(cands))]
	hits := make([]Hit, 0, len(cands))
	for _, c := range cands {
		n, err := v.Node(c.id)
		if err != nil {
			return nil, err
		}
		hits = append(hits, Hit{n, c.score})
	}
	return hits, nil
}

func exactLabel(n *Node, query string) bool {
	if ident.FoldedEqual(n.Label, query) || ident.FoldedEqual(n.Name, query) {
		return true
	}
	for _, a := range n.Aliases {
		if ident.FoldedEqual(a, query) {
			return true
		}
	}
	if n.Kind() == KindPaper {
		if short, _, ok := strings.Cut(n.Label, ":"); ok && ident.FoldRendered(short) == query {
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

// edgeBlock is the edges of one type at a node in one direction (pair
// types: both).
type edgeBlock struct {
	t   EdgeType
	dir Direction
}

// nodeEdges are the edges edgesOf read at a node, and the blocks it cut
// short at its limit.
type nodeEdges struct {
	es  []nbEdge
	cut []edgeBlock
}

// edgeEnds are the kinds at the two ends of each edge type (source,
// target; pairs: both the same).
var edgeEnds = map[EdgeType][2]Kind{
	Authored: {KindAuthor, KindPaper}, InSubject: {KindPaper, KindSubject}, Mentions: {KindPaper, KindConcept},
	HasCode: {KindPaper, KindRepository}, OwnedBy: {KindRepository, KindOrganization}, Broader: {KindConcept, KindConcept},
	CoAuthor: {KindAuthor, KindAuthor}, CoOccurs: {KindConcept, KindConcept},
}

// hasEdges reports whether a node of kind k may have stored edges in
// direction dir.
func hasEdges(k Kind, dir Direction) bool {
	for t, ends := range edgeEnds {
		if t < CoAuthor && (dir == Out && ends[0] == k || dir == In && ends[1] == k) {
			return true
		}
	}
	return false
}

// edgesOf returns up to limit edges of each type at id, stored (both
// directions) and derived, each with the neighbour it leads to, in type
// order then id order, and the blocks it cut short. A node's stored edges
// are one scan per direction; when one type reaches the limit (a subject's
// 20,000 papers) the scan stops there and the later types are read one
// scan each, so a node costs what it returns, not its degree. With
// strongest, the pairs (co-authors, co-occurring concepts) are read whole
// and the limit keeps the most shared papers, then id order: the
// neighbours a person sees first are the closest ones, not the oldest
// ids ("reward model" listed "camera pose", one shared paper, among its
// first 80 co-occurring concepts). It costs a scan of every pair, so the
// traversal asks it only of the nodes whose neighbours it chooses.
func (v *View) edgesOf(id NodeID, limit int, strongest bool) (nodeEdges, error) {
	var out nodeEdges
	add := func(dir Direction, t EdgeType, o NodeID, w float64) {
		e := Edge{Source: id, Target: o, Type: t, Weight: w, HasWeight: t == Mentions}
		if dir == In {
			e.Source, e.Target = o, id
		}
		out.es = append(out.es, nbEdge{o, e})
	}
	for _, dir := range []Direction{Out, In} {
		if !hasEdges(id.Kind(), dir) {
			continue // an author has no in-edges, a subject no out-edges
		}
		var cur, cutAt EdgeType
		n := 0 // edges of the current type taken
		take := func(t EdgeType, o NodeID, w float64) bool {
			if n == limit {
				return false
			}
			n++
			add(dir, t, o, w)
			return true
		}
		err := v.r.AllEdges(id, dir, func(t EdgeType, o NodeID, w float64) bool {
			if t != cur {
				cur, n = t, 0
			}
			if !take(t, o, w) {
				cutAt = t
				return false
			}
			return true
		})
		if err != nil {
			return out, err
		}
		if cutAt == 0 {
			continue
		}
		out.cut = append(out.cut, edgeBlock{cutAt, dir})
		for t := cutAt + 1; t < CoAuthor; t++ { // the stored types after it
			n = 0
			err := v.r.Edges(id, t, dir, func(o NodeID, w float64) bool {
				if !take(t, o, w) {
					out.cut = append(out.cut, edgeBlock{t, dir})
					return false
				}
				return true
			})
			if err != nil {
				return out, err
			}
		}
	}
	for _, t := range []EdgeType{CoAuthor, CoOccurs} {
		if edgeEnds[t][0] != id.Kind() {
			continue
		}
		var pairs []nbEdge
		cut := false
		err := v.r.Pairs(t, id, func(o NodeID, c int64) bool {
			if !strongest && len(pairs) == limit {
				cut = true
				return false
			}
			pairs = append(pairs, nbEdge{o, Edge{Source: min(id, o), Target: max(id, o), Type: t, Weight: float64(c), HasWeight: true}})
			return true
		})
		if err != nil {
			return out, err
		}
		if strongest {
			slices.SortStableFunc(pairs, func(a, b nbEdge) int { return cmp.Compare(b.e.Weight, a.e.Weight) })
			if len(pairs) > limit {
				pairs, cut = pairs[:limit], true
			}
		}
		if cut {
			out.cut = append(out.cut, edgeBlock{t, Out})
		}
		out.es = append(out.es, pairs...)
	}
	return out, nil
}

// decidedBy reports whether known decides the edge to o without a read.
func decidedBy(known func(o NodeID, b edgeBlock, src, dst NodeID) (Edge, bool, bool), o NodeID, b edgeBlock, src, dst NodeID) bool {
	_, _, decided := known(o, b, src, dst)
	return decided
}

// edgesTo finds the edges of a block edgesOf cut short at id that lead to
// the nodes of others (of the kind the block's edges lead to): known
// answers where the other end read its side whole, else a point read.
func (v *View) edgesTo(id NodeID, b edgeBlock, others []NodeID, fn func(Edge), known func(o NodeID, b edgeBlock, src, dst NodeID) (Edge, bool, bool)) error {
	ends, typed := edgeEnds[b.t]
	want := ends[1]
	if b.dir == In {
		want = ends[0]
	}
	pairs := b.t == CoAuthor || b.t == CoOccurs
	endsOf := func(o NodeID) (src, dst NodeID) {
		switch {
		case pairs:
			return min(id, o), max(id, o)
		case b.dir == In:
			return o, id
		}
		return id, o
	}
	// A pair count is in id's row, which a point read decodes up to o: read
	// the counts of every undecided o in one pass of the row instead.
	var counts map[NodeID]int64
	if pairs {
		var ask []NodeID
		for _, o := range others {
			if o == id || typed && o.Kind() != want {
				continue
			}
			if src, dst := endsOf(o); !decidedBy(known, o, b, src, dst) {
				ask = append(ask, o)
			}
		}
		if len(ask) > 1 {
			counts = make(map[NodeID]int64, len(ask))
			wanted := make(map[NodeID]bool, len(ask))
			for _, o := range ask {
				wanted[o] = true
			}
			last := slices.Max(ask)
			if err := v.r.Pairs(b.t, id, func(o NodeID, n int64) bool {
				if wanted[o] {
					counts[o] = n
				}
				return o < last
			}); err != nil {
				return err
			}
		}
	}
	for _, o := range others {
		if o == id || typed && o.Kind() != want {
			continue
		}
		src, dst := endsOf(o)
		if e, ok, decided := known(o, b, src, dst); decided {
			if ok {
				fn(e)
			}
			continue
		}
		switch {
		case pairs:
			n := counts[o]
			if counts == nil {
				var err error
				if n, err = v.r.Pair(b.t, id, o); err != nil {
					return err
				}
			}
			if n != 0 {
				fn(Edge{Source: min(id, o), Target: max(id, o), Type: b.t, Weight: float64(n), HasWeight: true})
			}
		default:
			w, ok, err := v.r.Edge(src, b.t, dst)
			if err != nil {
				return err
			}
			if ok {
				fn(Edge{Source: src, Target: dst, Type: b.t, Weight: w, HasWeight: b.t == Mentions})
			}
		}
	}
	return nil
}

type nbEdge struct {
	other NodeID
	e     Edge
}

// Neighborhood returns the nodes within depth hops of start (breadth first,
// at most first nodes, kinds filtering which nodes are taken; start is always
// included) and every edge among them.
//
// The nodes whose neighbours the walk takes list their pairs (co-authors,
// co-occurring concepts) by shared papers, most first, then by id; other
// edges by id.
//
// Each node's edges are read up to first of a type: every edge of a type
// leads to nodes of one kind, so kinds take or skip a type whole, and a
// walk that has taken n nodes skips at most n of a type's edges before it
// has taken the first − n it still needs; so the nodes are those a read of
// every edge would give. The edges among the nodes are found from either
// end; where both ends were cut short (two concepts of thousands of
// papers), by a point read.
func (v *View) Neighborhood(start NodeID, depth int, kinds []Kind, first int) (Subgraph, error) {
	var g Subgraph
	root, err := v.Node(start)
	if err != nil {
		return g, err
	}
	limit := max(first, 1)
	in := map[NodeID]bool{start: true}
	order := []NodeID{start}
	g.Nodes = append(g.Nodes, root)
	visited := map[NodeID]nodeEdges{}
	// visit reads a node's edges once; the nodes whose neighbours the
	// search chooses among (strongest) have their strongest pairs first
	visit := func(id NodeID, strongest bool) (nodeEdges, error) {
		if es, ok := visited[id]; ok {
			return es, nil
		}
		es, err := v.edgesOf(id, limit, strongest)
		visited[id] = es
		return es, err
	}
	frontier := []NodeID{start}
	for d := 0; d < depth && len(frontier) > 0 && len(order) < first; d++ {
		var next []NodeID
		for _, id := range frontier {
			ne, err := visit(id, true)
			if err != nil {
				return g, err
			}
			for _, e := range ne.es {
				o := e.other
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
	keep := func(e Edge) {
		k := ekey{e.Source, e.Target, e.Type}
		if !seen[k] {
			seen[k] = true
			g.Edges = append(g.Edges, e)
		}
	}
	// every node's edges first, and the edges among the nodes by their
	// ends: a block cut short at one node is read whole at most others
	// (a concept of thousands of papers, each paper with its few
	// concepts), and there the edge is known without a point read
	nes := make([]nodeEdges, len(order))
	among := map[ekey]Edge{}
	for i, id := range order {
		ne, err := visit(id, false)
		if err != nil {
			return g, err
		}
		nes[i] = ne
		for _, e := range ne.es {
			if in[e.other] {
				among[ekey{e.e.Source, e.e.Target, e.e.Type}] = e.e
			}
		}
	}
	// known: the edge between the ends of a block cut at one of them, when
	// the other end o read its side of the block whole
	known := func(o NodeID, b edgeBlock, src, dst NodeID) (Edge, bool, bool) {
		rev := edgeBlock{b.t, Out} // pairs: one block, both ways
		if b.t != CoAuthor && b.t != CoOccurs && b.dir == Out {
			rev.dir = In
		}
		if slices.Contains(visited[o].cut, rev) {
			return Edge{}, false, false // cut there too: a point read decides
		}
		e, ok := among[ekey{src, dst, b.t}]
		return e, ok, true
	}
	for i, id := range order {
		for _, e := range nes[i].es {
			if in[e.other] {
				keep(e.e)
			}
		}
		for _, b := range nes[i].cut {
			if err := v.edgesTo(id, b, order, keep, known); err != nil {
				return g, err
			}
		}
	}
	return g, nil
}
