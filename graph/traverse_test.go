package graph_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/researchkg/kg/graph"
)

// traverseGraph is the seed pages, the arXiv sample and an Atom feed.
func traverseGraph(t *testing.T) (*graph.Service, graph.Reader) {
	t.Helper()
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ingestFiles(t, svc, append(seedFiles(t), "../testdata/arxiv/sample.jsonl", "../testdata/atom/query.xml")...)
	r, err := db.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return svc, r
}

// Every edge the store holds runs between the kinds edgeEnds names for
// its type (Neighborhood skips the scans a kind cannot have and the point
// reads of nodes of other kinds by them).
func TestEdgeEndsMatchTheStore(t *testing.T) {
	for _, typ := range []graph.EdgeType{graph.Authored, graph.InSubject, graph.Mentions, graph.HasCode, graph.OwnedBy, graph.Broader, graph.CoAuthor, graph.CoOccurs} {
		if _, ok := graph.EdgeEnds[typ]; !ok {
			t.Errorf("edge type %v has no ends", typ)
		}
	}
	_, r := traverseGraph(t)
	seen := map[graph.EdgeType]int{}
	for _, k := range graph.Kinds {
		err := r.NodeIDs(k, 0, func(id graph.NodeID) bool {
			for _, dir := range []graph.Direction{graph.Out, graph.In} {
				r.AllEdges(id, dir, func(typ graph.EdgeType, o graph.NodeID, _ float64) bool {
					seen[typ]++
					src, dst := id, o
					if dir == graph.In {
						src, dst = o, id
					}
					if ends := graph.EdgeEnds[typ]; src.Kind() != ends[0] || dst.Kind() != ends[1] {
						t.Errorf("%v edge %v → %v: ends %v", typ, src, dst, ends)
					}
					return true
				})
			}
			for _, typ := range []graph.EdgeType{graph.CoAuthor, graph.CoOccurs} {
				r.Pairs(typ, id, func(o graph.NodeID, _ int64) bool {
					seen[typ]++
					if ends := graph.EdgeEnds[typ]; id.Kind() != ends[0] || o.Kind() != ends[0] {
						t.Errorf("%v pair %v, %v: ends %v", typ, id, o, ends)
					}
					return true
				})
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, typ := range []graph.EdgeType{graph.Authored, graph.InSubject, graph.Mentions, graph.CoAuthor, graph.CoOccurs} {
		if seen[typ] == 0 {
			t.Errorf("no %v edges in the test graph: the check checked nothing", typ)
		}
	}
}

// Neighborhood reads each node's edges only up to first of a type,
// and finds the edges among the nodes it took by point reads where both
// ends were cut short. It answers what a walk over every edge answers:
// the same nodes in the same order and every edge among them.
func TestNeighborhoodCutShortAnswersAsAFullWalk(t *testing.T) {
	svc, r := traverseGraph(t)
	v := view(t, svc)
	full := func(id graph.NodeID) []graph.Edge { // every edge, in edgesOf's order
		var out []graph.Edge
		for _, dir := range []graph.Direction{graph.Out, graph.In} {
			r.AllEdges(id, dir, func(typ graph.EdgeType, o graph.NodeID, w float64) bool {
				e := graph.Edge{Source: id, Target: o, Type: typ, Weight: w, HasWeight: typ == graph.Mentions}
				if dir == graph.In {
					e.Source, e.Target = o, id
				}
				out = append(out, e)
				return true
			})
		}
		for _, typ := range []graph.EdgeType{graph.CoAuthor, graph.CoOccurs} {
			var pairs []graph.Edge
			r.Pairs(typ, id, func(o graph.NodeID, n int64) bool {
				pairs = append(pairs, graph.Edge{Source: min(id, o), Target: max(id, o), Type: typ, Weight: float64(n), HasWeight: true})
				return true
			})
			// the walk takes the closest first: most shared papers, then id
			slices.SortStableFunc(pairs, func(a, b graph.Edge) int { return cmp.Compare(b.Weight, a.Weight) })
			out = append(out, pairs...)
		}
		return out
	}
	other := func(id graph.NodeID, e graph.Edge) graph.NodeID {
		if e.Source == id {
			return e.Target
		}
		return e.Source
	}
	walk := func(start graph.NodeID, depth, first int) ([]graph.NodeID, []string) {
		in := map[graph.NodeID]bool{start: true}
		order, frontier := []graph.NodeID{start}, []graph.NodeID{start}
		for d := 0; d < depth && len(frontier) > 0 && len(order) < first; d++ {
			var next []graph.NodeID
			for _, id := range frontier {
				for _, e := range full(id) {
					if o := other(id, e); !in[o] && len(order) < first {
						in[o] = true
						order, next = append(order, o), append(next, o)
					}
				}
				if len(order) >= first {
					break
				}
			}
			frontier = next
		}
		var edges []string
		for _, id := range order {
			for _, e := range full(id) {
				if in[other(id, e)] {
					edges = append(edges, fmt.Sprint(e))
				}
			}
		}
		return order, slices.Compact(slices.Sorted(slices.Values(edges)))
	}
	// roots of every kind, the ones with most edges first
	var roots []graph.NodeID
	for _, k := range []graph.Kind{graph.KindSubject, graph.KindConcept, graph.KindAuthor, graph.KindPaper} {
		var ids []graph.NodeID
		r.NodeIDs(k, 0, func(id graph.NodeID) bool { ids = append(ids, id); return true })
		slices.SortStableFunc(ids, func(a, b graph.NodeID) int { return len(full(b)) - len(full(a)) })
		roots = append(roots, ids[:min(3, len(ids))]...)
	}
	cut := 0
	for _, root := range roots {
		if len(full(root)) > 4 {
			cut++
		}
		for _, depth := range []int{1, 2, 3} {
			for _, first := range []int{2, 3, 5, 20, 100} {
				wantNodes, wantEdges := walk(root, depth, first)
				g, err := v.Neighborhood(root, depth, nil, first)
				if err != nil {
					t.Fatal(err)
				}
				var gotNodes []graph.NodeID
				for _, n := range g.Nodes {
					gotNodes = append(gotNodes, n.ID)
				}
				var gotEdges []string
				for _, e := range g.Edges {
					gotEdges = append(gotEdges, fmt.Sprint(e))
				}
				slices.Sort(gotEdges)
				if !slices.Equal(gotNodes, wantNodes) {
					t.Errorf("%v depth %d first %d: nodes %v, a full walk takes %v", root, depth, first, gotNodes, wantNodes)
				}
				if !slices.Equal(gotEdges, wantEdges) {
					t.Errorf("%v depth %d first %d: %d edges, a full walk finds %d", root, depth, first, len(gotEdges), len(wantEdges))
				}
			}
		}
	}
	if cut < 6 {
		t.Errorf("only %d roots have more edges than first 2 reads of them: the cut was hardly tested", cut)
	}
}

// Two concepts of many co-occurring concepts each, taken beside a third:
// the pair between them lies past the first edges read at either end,
// and is found by a point read.
func TestNeighborhoodFindsEdgesPastBothCuts(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	c := func(i uint64) graph.NodeID { return graph.MakeID(graph.KindConcept, i) }
	root, h1, h2 := c(2000), c(1000), c(1001)
	err := db.Update(context.Background(), func(tx graph.Tx) error {
		for _, id := range []graph.NodeID{root, h1, h2} {
			tx.PutNode(graph.Node{ID: id, Label: fmt.Sprint(id)})
		}
		for i := uint64(1); i <= 10; i++ { // fillers, ids below the hubs'
			tx.PutNode(graph.Node{ID: c(i), Label: fmt.Sprint("filler ", i)})
			tx.AddPair(graph.CoOccurs, h1, c(i), 1)
			tx.AddPair(graph.CoOccurs, h2, c(i), 1)
		}
		tx.AddPair(graph.CoOccurs, h1, h2, 7)
		tx.AddPair(graph.CoOccurs, root, h1, 1)
		_, err := tx.AddPair(graph.CoOccurs, root, h2, 1)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	g, err := view(t, svc).Neighborhood(root, 1, nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range g.Edges {
		got = append(got, fmt.Sprintf("%v-%v %v", e.Source, e.Target, e.Weight))
	}
	slices.Sort(got)
	want := []string{fmt.Sprintf("%v-%v 7", h1, h2), fmt.Sprintf("%v-%v 1", h1, root), fmt.Sprintf("%v-%v 1", h2, root)}
	if len(g.Nodes) != 3 || !slices.Equal(got, want) {
		t.Errorf("%d nodes, edges %v; want 3 nodes, edges %v", len(g.Nodes), got, want)
	}
}

// Edges among several nodes whose pair blocks are all cut short are read
// from one pass of each row (edgesTo), with their counts.
func TestNeighborhoodReadsCutPairRowsOnce(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	c := func(i uint64) graph.NodeID { return graph.MakeID(graph.KindConcept, i) }
	root, hubs := c(2000), []graph.NodeID{c(1000), c(1001), c(1002)}
	err := db.Update(context.Background(), func(tx graph.Tx) error {
		for _, id := range append([]graph.NodeID{root}, hubs...) {
			tx.PutNode(graph.Node{ID: id, Label: fmt.Sprint(id)})
		}
		for i := uint64(1); i <= 10; i++ { // fillers cut every hub's block
			tx.PutNode(graph.Node{ID: c(i), Label: fmt.Sprint("filler ", i)})
			for _, h := range hubs {
				tx.AddPair(graph.CoOccurs, h, c(i), 1)
			}
		}
		tx.AddPair(graph.CoOccurs, hubs[0], hubs[1], 7)
		tx.AddPair(graph.CoOccurs, hubs[0], hubs[2], 8)
		tx.AddPair(graph.CoOccurs, hubs[1], hubs[2], 9)
		for _, h := range hubs {
			if _, err := tx.AddPair(graph.CoOccurs, root, h, 1); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	g, err := view(t, svc).Neighborhood(root, 1, nil, 4)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range g.Edges {
		got = append(got, fmt.Sprintf("%v-%v %v", e.Source, e.Target, e.Weight))
	}
	slices.Sort(got)
	want := []string{
		fmt.Sprintf("%v-%v 7", hubs[0], hubs[1]), fmt.Sprintf("%v-%v 8", hubs[0], hubs[2]),
		fmt.Sprintf("%v-%v 1", hubs[0], root), fmt.Sprintf("%v-%v 9", hubs[1], hubs[2]),
		fmt.Sprintf("%v-%v 1", hubs[1], root), fmt.Sprintf("%v-%v 1", hubs[2], root),
	}
	if len(g.Nodes) != 4 || !slices.Equal(got, want) {
		t.Errorf("%d nodes, edges %v; want 4 nodes, edges %v", len(g.Nodes), got, want)
	}
}

// Search reads nodes a score at a time until it has first: its answer is
// the head of the answer that reads every matched node.
func TestSearchStopsEarlyAnswersTheSame(t *testing.T) {
	svc, r := traverseGraph(t)
	v := view(t, svc)
	queries := []string{"learning", "model", "reinforcement learning", "rein", "deep reinforcement learning model", "large language models reasoning", "Xiaoxi Jiang", "Jiang", "cs.LG", "a", "agent skills"}
	r.NodeIDs(graph.KindConcept, 0, func(id graph.NodeID) bool {
		if n, err := r.Node(id); err == nil && id.Seq()%7 == 0 {
			queries = append(queries, n.Label)
		}
		return true
	})
	for _, q := range queries {
		all, err := v.Search(q, nil, 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		for _, first := range []int{1, 3, 10} {
			got, err := v.Search(q, nil, first)
			if err != nil {
				t.Fatal(err)
			}
			want := all[:min(first, len(all))]
			if len(got) != len(want) {
				t.Errorf("%q first %d: %d hits, want %d", q, first, len(got), len(want))
				continue
			}
			for i := range got {
				if got[i].Node.ID != want[i].Node.ID || got[i].Score != want[i].Score {
					t.Errorf("%q first %d: hit %d is %q %.2f, want %q %.2f", q, first, i, got[i].Node.Label, got[i].Score, want[i].Node.Label, want[i].Score)
				}
			}
		}
	}
}

// People who share a name come out of a search in one order, most
// papers first, whatever the order of the maps behind it.
func TestSearchOrdersNamesakesByPapers(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ingestFiles(t, svc, seedFiles(t)...)
	ctx := context.Background()
	v := view(t, svc)
	a, err := v.AuthorByName("Xiaoxi Jiang")
	if err != nil {
		t.Fatal(err)
	}
	pg, err := v.Papers(a.ID, 100, "")
	if err != nil || len(pg.Papers) < 4 {
		t.Fatalf("Xiaoxi Jiang's papers: %d, %v", len(pg.Papers), err)
	}
	// three people named Xiaoxi Jiang: 1 paper, 2 papers, the rest
	for _, split := range [][]*graph.Node{pg.Papers[:1], pg.Papers[1:3]} {
		var ids []graph.NodeID
		for _, p := range split {
			ids = append(ids, p.ID)
		}
		if _, err := svc.SplitAuthor(ctx, a.ID, ids, "test"); err != nil {
			t.Fatal(err)
		}
	}
	var first []graph.NodeID
	for i := range 10 {
		hits, err := view(t, svc).Search("Xiaoxi Jiang", []graph.Kind{graph.KindAuthor}, 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []graph.NodeID
		var papers []int
		for _, h := range hits {
			if h.Node.Label == "Xiaoxi Jiang" {
				got = append(got, h.Node.ID)
				pg, _ := view(t, svc).Papers(h.Node.ID, 100, "")
				papers = append(papers, pg.Total)
			}
		}
		if len(got) < 3 || !slices.IsSortedFunc(papers, func(a, b int) int { return b - a }) {
			t.Fatalf("Xiaoxi Jiang: %v with %v papers; want ≥ 3 people, most papers first", got, papers)
		}
		if i == 0 {
			first = got
		} else if !slices.Equal(got, first) {
			t.Fatalf("search %d ordered the namesakes %v, the first %v", i, got, first)
		}
	}
}

// A node with more co-occurring concepts than a view holds shows the ones
// it shares most papers with, not the lowest ids: after its broader and
// narrower concepts (an earlier edge type), a view of one more neighbour
// takes the concept of the largest co-occurrence among the rest (the
// smallest id among equals).
func TestNeighborhoodTakesTheStrongestPairs(t *testing.T) {
	svc, r := traverseGraph(t)
	v := view(t, svc)
	tested := 0
	r.NodeIDs(graph.KindConcept, 0, func(c graph.NodeID) bool {
		taken := map[graph.NodeID]bool{c: true}
		for _, dir := range []graph.Direction{graph.Out, graph.In} {
			r.Edges(c, graph.Broader, dir, func(o graph.NodeID, _ float64) bool { taken[o] = true; return true })
		}
		var best, lowest graph.NodeID
		var bestN, lowestN int64 = 0, 1 << 62
		r.Pairs(graph.CoOccurs, c, func(o graph.NodeID, n int64) bool {
			if taken[o] {
				return true
			}
			if n > bestN {
				best, bestN = o, n
			}
			if lowest == 0 {
				lowest, lowestN = o, n
			}
			return true
		})
		if bestN == 0 || bestN == lowestN {
			return true // the lowest id is the strongest: nothing to tell apart
		}
		g, err := v.Neighborhood(c, 1, []graph.Kind{graph.KindConcept}, len(taken)+1)
		if err != nil {
			t.Fatal(err)
		}
		if last := g.Nodes[len(g.Nodes)-1].ID; len(g.Nodes) != len(taken)+1 || last != best {
			t.Errorf("%v: took %v, want %v (%d shared papers; the lowest id %v has %d)", c, last, best, bestN, lowest, lowestN)
		}
		tested++
		return true
	})
	if tested < 3 {
		t.Errorf("only %d concepts whose lowest-id co-occurrence is not the strongest: the order was hardly tested", tested)
	}
}
