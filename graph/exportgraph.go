// Exports: a part of the graph streamed to a writer (graph/export has the
// formats), nodes first, each once, then the edges between them. See
// doc.go ("Exports") for what each scope holds and why.

package graph

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/paperindex"
)

// ExportNode is a node as an export writes it: the node and what a map of
// it needs.
type ExportNode struct {
	*Node
	// Papers is how many papers the node has: a person's, a subject's or a
	// concept's own papers (as their paper lists count them), a
	// repository's papers with code there, an organisation's through its
	// repositories; 0 for a paper.
	Papers int
	// Subject is the code of the subject most of its papers are in (a
	// paper: the largest of its own subjects), "" when none: the cluster
	// of a map.
	Subject string
	// Display is the label as people read it when it differs: a person
	// who shares a name with others has their main subject and top
	// co-author added ("Yang Liu (cs.CV; with Wei Zhang)", PersonLabel).
	Display string
}

// Shown is the label to show: Display when set, else the label.
func (n ExportNode) Shown() string {
	if n.Display != "" {
		return n.Display
	}
	return n.Label
}

// ExportSink receives a part of the graph: every node once, then every edge
// whose two ends it received.
type ExportSink interface {
	Node(ExportNode) error
	Edge(Edge) error
}

// ExportScope says which part of the graph an export holds: the whole
// graph, the papers a filter selects with their people, subjects and
// concepts, or a node's neighbourhood.
type ExportScope struct {
	All    bool
	Filter *PaperFilter
	Root   NodeID
	Depth  int    // neighbourhood depth (1 to MaxDepth)
	First  int    // neighbourhood size (1 to MaxNeighborhood)
	Kinds  []Kind // neighbourhood: only nodes of these kinds (none: all)
}

// ExportCounts is what an export wrote.
type ExportCounts struct {
	Nodes, Edges int
}

// exportBatch is how many papers a filtered export reads at once.
const exportBatch = 512

// Export streams the scope's nodes, then its edges, to sink. A
// co-authorship weight counts the shared papers of at most BigPaperAuthors
// authors, as the stored pairs do: the collaboration reports of thousands
// of authors in the arXiv file would add 6.2 million links to its 0.97
// million, a clique a map cannot show (VOSviewer leaves out papers of more
// than 25 authors by default); their people stay linked to them by
// AUTHORED. In a filtered export, co-authorship and co-occurrence count
// only the selected papers.
func (v *View) Export(ctx context.Context, sc ExportScope, sink ExportSink) (ExportCounts, error) {
	c := &exportCounter{sink: sink, v: v, scanNames: sc.All || sc.Filter != nil}
	var err error
	switch {
	case sc.All:
		err = v.exportAll(ctx, c)
	case sc.Filter != nil:
		err = v.exportFiltered(ctx, sc.Filter, c)
	default:
		err = v.exportNeighborhood(sc, c)
	}
	return c.n, err
}

// exportCounter counts what passes to the sink, and labels people who
// share a name.
type exportCounter struct {
	sink   ExportSink
	v      *View
	n      ExportCounts
	shared map[string]bool // name keys several people carry
	// scanNames reads every name's count once (whole-graph and filtered
	// exports: thousands of people); a neighbourhood reads its people's
	// names one by one instead of 142,000 counters a request
	scanNames bool
}

// sharesName reports whether several people carry n's name.
func (c *exportCounter) sharesName(n *Node) (bool, error) {
	if !c.scanNames {
		k, err := c.v.r.Counter(peopleCounter(ident.NameKey(n.Label)))
		return k > 1, err
	}
	if c.shared == nil {
		c.shared = map[string]bool{}
		if err := c.v.r.Counters(peopleCounter(""), func(name string, k int64) bool {
			if k > 1 {
				c.shared[strings.TrimPrefix(name, peopleCounter(""))] = true
			}
			return true
		}); err != nil {
			return false, err
		}
	}
	return c.shared[ident.NameKey(n.Label)], nil
}

func (c *exportCounter) node(n ExportNode) error {
	c.n.Nodes++
	if n.Kind() == KindAuthor {
		// most people share no name: they need no profile read (and
		// none stays in the cache)
		if shared, err := c.sharesName(n.Node); err != nil || !shared {
			if err != nil {
				return err
			}
			return c.sink.Node(n)
		}
		l, err := c.v.PersonLabel(n.Node)
		if err != nil {
			return err
		}
		if l != n.Label {
			n.Display = l
		}
	}
	return c.sink.Node(n)
}
func (c *exportCounter) edge(e Edge) error { c.n.Edges++; return c.sink.Edge(e) }

// exportFacts are the papers and main subject of the nodes of an export.
type exportFacts struct {
	papers  map[NodeID]int
	subject map[NodeID]NodeID
	codes   map[NodeID]string // subject id → code
}

func (f *exportFacts) of(n *Node) ExportNode {
	out := ExportNode{Node: n, Papers: f.papers[n.ID]}
	if n.Kind() == KindSubject {
		out.Subject = n.Label
	} else if s, ok := f.subject[n.ID]; ok {
		out.Subject = f.codes[s]
	}
	return out
}

// facts computes the papers and main subject of ids (nil: of every node
// the index holds) from the facet index, and the subjects' codes.
func (v *View) facts(ids []NodeID) (*exportFacts, error) {
	f := &exportFacts{papers: map[NodeID]int{}, subject: map[NodeID]NodeID{}, codes: map[NodeID]string{}}
	var papers []uint64
	var nodes [paperindex.NumDims][]uint64
	for _, id := range ids {
		if id.Kind() == KindPaper {
			papers = append(papers, uint64(id))
		} else if d, ok := dimOf(id.Kind()); ok {
			nodes[d] = append(nodes[d], uint64(id))
		}
	}
	err := v.withIndex(func(ix *paperindex.Index) error {
		count, subject := ix.Summary(papers, nodes, ids == nil)
		for id, n := range count {
			f.papers[NodeID(id)] = n
		}
		for id, s := range subject {
			f.subject[NodeID(id)] = NodeID(s)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return f, v.r.KindNodes(KindSubject, func(n Node) bool {
		f.codes[n.ID] = n.Label
		return true
	})
}

// codeFacts adds the papers of repositories (papers with code there) and
// organisations (through their repositories) among ids (nil: all).
func (v *View) codeFacts(f *exportFacts, ids []NodeID) error {
	repos := map[NodeID]int{}
	if ids == nil {
		if err := v.r.KindEdges(KindPaper, HasCode, func(_, repo NodeID, _ float64) bool {
			repos[repo]++
			return true
		}); err != nil {
			return err
		}
		orgs := map[NodeID]int{}
		if err := v.r.KindEdges(KindRepository, OwnedBy, func(repo, org NodeID, _ float64) bool {
			orgs[org] += repos[repo]
			return true
		}); err != nil {
			return err
		}
		for id, n := range repos {
			f.papers[id] = n
		}
		for id, n := range orgs {
			f.papers[id] = n
		}
		return nil
	}
	for _, id := range ids {
		var n int
		var err error
		switch id.Kind() {
		case KindRepository:
			n, err = v.countEdges(id, HasCode, In)
		case KindOrganization:
			err = v.r.Edges(id, OwnedBy, In, func(repo NodeID, _ float64) bool {
				var k int
				k, err = v.countEdges(repo, HasCode, In)
				n += k
				return err == nil
			})
		default:
			continue
		}
		if err != nil {
			return err
		}
		f.papers[id] = n
	}
	return nil
}

func (v *View) countEdges(id NodeID, t EdgeType, dir Direction) (int, error) {
	n := 0
	err := v.r.Edges(id, t, dir, func(NodeID, float64) bool { n++; return true })
	return n, err
}

// exportNeighborhood writes a node's neighbourhood, as Neighborhood
// returns it.
func (v *View) exportNeighborhood(sc ExportScope, c *exportCounter) error {
	if sc.Depth < 1 || sc.Depth > MaxDepth {
		return Errorf(Invalid, "depth must be between 1 and %d, got %d", MaxDepth, sc.Depth)
	}
	if sc.First < 1 || sc.First > MaxNeighborhood {
		return Errorf(Invalid, "first must be between 1 and %d, got %d", MaxNeighborhood, sc.First)
	}
	g, err := v.Neighborhood(sc.Root, sc.Depth, sc.Kinds, sc.First)
	if err != nil {
		return err
	}
	ids := make([]NodeID, len(g.Nodes))
	for i, n := range g.Nodes {
		ids[i] = n.ID
	}
	f, err := v.facts(ids)
	if err != nil {
		return err
	}
	if err := v.codeFacts(f, ids); err != nil {
		return err
	}
	for _, n := range g.Nodes {
		if err := c.node(f.of(n)); err != nil {
			return err
		}
	}
	for _, e := range g.Edges {
		if err := c.edge(e); err != nil {
			return err
		}
	}
	return nil
}

// exportAll streams the whole graph: the nodes kind by kind, the stored
// edges node by node, then the pairs. Memory holds a few numbers a node
// (its papers and main subject), not the graph.
func (v *View) exportAll(ctx context.Context, c *exportCounter) error {
	f, err := v.facts(nil)
	if err != nil {
		return err
	}
	if err := v.codeFacts(f, nil); err != nil {
		return err
	}
	var werr error
	n := 0
	for _, k := range Kinds {
		if err := v.r.KindNodes(k, func(node Node) bool {
			if n++; n%4096 == 0 && ctx.Err() != nil {
				werr = ctx.Err()
				return false
			}
			werr = c.node(f.of(&node))
			return werr == nil
		}); err != nil {
			return err
		}
		if werr != nil {
			return werr
		}
	}
	for _, k := range Kinds {
		if !hasEdges(k, Out) {
			continue
		}
		if err := v.r.KindAllEdges(k, Out, func(id NodeID, t EdgeType, other NodeID, w float64) bool {
			if n++; n%4096 == 0 && ctx.Err() != nil {
				werr = ctx.Err()
				return false
			}
			werr = c.edge(Edge{Source: id, Target: other, Type: t, Weight: w, HasWeight: t == Mentions})
			return werr == nil
		}); err != nil {
			return err
		}
		if werr != nil {
			return werr
		}
	}
	for _, t := range []EdgeType{CoAuthor, CoOccurs} {
		if err := v.r.AllPairs(t, func(a, b NodeID, k int64) bool {
			if n++; n%4096 == 0 && ctx.Err() != nil {
				werr = ctx.Err()
				return false
			}
			werr = c.edge(Edge{Source: a, Target: b, Type: t, Weight: float64(k), HasWeight: true})
			return werr == nil
		}); err != nil {
			return err
		}
		if werr != nil {
			return werr
		}
	}
	return nil
}

// pairCount is a pair (a < b) and its count.
type pairCount struct {
	a, b NodeID
	n    int64
}

// countPairs counts the pairs of each list's members (a list holds each
// member once), sorted by a then b.
func countPairs(lists [][]NodeID) []pairCount {
	m := map[[2]NodeID]int64{}
	for _, l := range lists {
		for i, a := range l {
			for _, b := range l[i+1:] {
				m[[2]NodeID{min(a, b), max(a, b)}]++
			}
		}
	}
	out := make([]pairCount, 0, len(m))
	for k, n := range m {
		out = append(out, pairCount{k[0], k[1], n})
	}
	slices.SortFunc(out, func(x, y pairCount) int {
		return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b))
	})
	return out
}

// exportFiltered writes the papers a filter selects, their people, subjects
// and concepts, and the edges among them; co-authorship and co-occurrence
// count the selected papers only (co-occurrence among each paper's
// counted concepts, Node.CoOccurs, as the stored pairs do).
func (v *View) exportFiltered(ctx context.Context, pf *PaperFilter, c *exportCounter) error {
	sel, err := v.Select(pf)
	if err != nil {
		return err
	}
	var papers []NodeID
	var authorLists [][]NodeID
	others := map[NodeID]bool{}
	err = v.withIndex(func(ix *paperindex.Index) error {
		ix.Each(&sel.q, func(p paperindex.Facts) bool {
			papers = append(papers, NodeID(p.ID))
			for _, ids := range [][]uint64{p.Subjects, p.Authors, p.Concepts} {
				for _, id := range ids {
					others[NodeID(id)] = true
				}
			}
			var authors []NodeID
			if len(p.Authors) <= BigPaperAuthors {
				authors = nodeIDs(p.Authors)
			}
			authorLists = append(authorLists, authors)
			return true
		})
		return nil
	})
	if err != nil {
		return err
	}
	slices.Sort(papers)
	rest := make([]NodeID, 0, len(others))
	for id := range others {
		rest = append(rest, id)
	}
	slices.Sort(rest)
	f, err := v.facts(append(slices.Clone(papers), rest...))
	if err != nil {
		return err
	}
	var coLists [][]NodeID
	for _, ids := range [][]NodeID{papers, rest} {
		for i := 0; i < len(ids); i += exportBatch {
			if err := ctx.Err(); err != nil {
				return err
			}
			nodes, err := v.Nodes(ids[i:min(i+exportBatch, len(ids))])
			if err != nil {
				return err
			}
			for _, n := range nodes {
				if n.Kind() == KindPaper && len(n.CoOccurs) > 1 {
					coLists = append(coLists, n.CoOccurs)
				}
				if err := c.node(f.of(n)); err != nil {
					return err
				}
			}
		}
	}
	for i := 0; i < len(papers); i += exportBatch {
		if err := ctx.Err(); err != nil {
			return err
		}
		batch := papers[i:min(i+exportBatch, len(papers))]
		for _, b := range []edgeBlock{{Authored, In}, {InSubject, Out}, {Mentions, Out}} {
			var werr error
			if err := v.r.EdgesOf(batch, b.t, b.dir, func(j int, o NodeID, w float64) bool {
				if !others[o] {
					return true
				}
				e := Edge{Source: batch[j], Target: o, Type: b.t, Weight: w, HasWeight: b.t == Mentions}
				if b.dir == In {
					e.Source, e.Target = o, batch[j]
				}
				werr = c.edge(e)
				return werr == nil
			}); err != nil {
				return err
			}
			if werr != nil {
				return werr
			}
		}
	}
	for _, p := range []struct {
		t     EdgeType
		lists [][]NodeID
	}{{CoAuthor, authorLists}, {CoOccurs, coLists}} {
		for _, pc := range countPairs(p.lists) {
			if !others[pc.a] || !others[pc.b] {
				continue
			}
			if err := c.edge(Edge{Source: pc.a, Target: pc.b, Type: p.t, Weight: float64(pc.n), HasWeight: true}); err != nil {
				return err
			}
		}
	}
	return nil
}
