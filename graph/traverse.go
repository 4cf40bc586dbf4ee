package graph

import (
	"cmp"
	"slices"
	"strings"
)

// Related is a paper related to another, with the reasons.
type Related struct {
	Paper          *Node
	Score          float64
	SharedConcepts []*Node
	SharedAuthors  []*Node
	SharedSubjects []*Node
}

// Weights of the evidence kinds in related-paper scores. A shared concept
// contributes scoreA·scoreB·idf (rarer concepts and more central ones weigh
// more); a shared author a fixed amount; a shared subject a small idf-scaled
// amount, only for papers already related by concept or author (subjects are
// too broad to find related work on their own).
const (
	relAuthorWeight  = 1.0
	relSubjectWeight = 0.1
)

type relAcc struct {
	score    float64
	concepts []NodeID
	authors  []NodeID
}

// RelatedPapers ranks the papers related to p by shared concepts, authors and
// subjects. Each concept and author contributes at most maxFanout candidate
// papers, so the cost is bounded however large the graph grows.
func (v *View) RelatedPapers(p NodeID, first int) ([]Related, error) {
	n, err := v.r.Counter(cntPapers)
	if err != nil {
		return nil, err
	}
	acc := map[NodeID]*relAcc{}
	get := func(q NodeID) *relAcc {
		a := acc[q]
		if a == nil {
			a = &relAcc{}
			acc[q] = a
		}
		return a
	}
	own := map[NodeID]float64{}
	if err := v.r.Edges(p, Mentions, Out, func(c NodeID, w float64) bool { own[c] = w; return true }); err != nil {
		return nil, err
	}
	concepts := make([]NodeID, 0, len(own))
	for c := range own {
		concepts = append(concepts, c)
	}
	slices.Sort(concepts)
	for _, c := range concepts {
		df, err := v.r.Counter(degreeCounter(c, Mentions))
		if err != nil {
			return nil, err
		}
		weight := idf(df, n)
		seen := 0
		if err := v.r.Edges(c, Mentions, In, func(q NodeID, wq float64) bool {
			if q != p {
				a := get(q)
				a.score += own[c] * wq * weight
				a.concepts = append(a.concepts, c)
			}
			seen++
			return seen < maxFanout
		}); err != nil {
			return nil, err
		}
	}
	authors, _, err := v.edgeList(p, Authored, In)
	if err != nil {
		return nil, err
	}
	for _, au := range authors {
		seen := 0
		if err := v.r.Edges(au, Authored, Out, func(q NodeID, _ float64) bool {
			if q != p {
				a := get(q)
				a.score += relAuthorWeight
				a.authors = append(a.authors, au)
			}
			seen++
			return seen < maxFanout
		}); err != nil {
			return nil, err
		}
	}
	subjects, _, err := v.edgeList(p, InSubject, Out)
	if err != nil {
		return nil, err
	}
	type cand struct {
		id NodeID
		a  *relAcc
	}
	cands := make([]cand, 0, len(acc))
	for q, a := range acc {
		cands = append(cands, cand{q, a})
	}
	sharedSubj := map[NodeID][]NodeID{}
	for _, s := range subjects {
		df, err := v.r.Counter(degreeCounter(s, InSubject))
		if err != nil {
			return nil, err
		}
		w := relSubjectWeight * idf(df, n)
		for _, c := range cands {
			if _, ok, err := v.r.Edge(c.id, InSubject, s); err != nil {
				return nil, err
			} else if ok {
				c.a.score += w
				sharedSubj[c.id] = append(sharedSubj[c.id], s)
			}
		}
	}
	// rank; ties by id so the order is stable, then load only the winners
	slices.SortFunc(cands, func(x, y cand) int {
		if c := cmp.Compare(y.a.score, x.a.score); c != 0 {
			return c
		}
		return cmp.Compare(x.id, y.id)
	})
	if len(cands) > first {
		cands = cands[:first]
	}
	out := make([]Related, 0, len(cands))
	for _, c := range cands {
		pn, err := v.Node(c.id)
		if ErrorCode(err) == NotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		r := Related{Paper: pn, Score: c.a.score}
		if r.SharedConcepts, err = v.Nodes(c.a.concepts); err != nil {
			return nil, err
		}
		if r.SharedAuthors, err = v.Nodes(c.a.authors); err != nil {
			return nil, err
		}
		if r.SharedSubjects, err = v.Nodes(sharedSubj[c.id]); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

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
