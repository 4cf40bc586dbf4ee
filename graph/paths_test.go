package graph_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/researchkg/kg/graph"
)

// bfsDistances are the lengths of shortest co-authorship paths from a
// person to everyone they are joined to, by a plain breadth-first search
// over the stored authorship edges.
func bfsDistances(t *testing.T, r graph.Reader, from graph.NodeID) map[graph.NodeID]int {
	t.Helper()
	dist := map[graph.NodeID]int{from: 0}
	frontier := []graph.NodeID{from}
	for d := 0; len(frontier) > 0; d++ {
		var next []graph.NodeID
		for _, a := range frontier {
			var papers []graph.NodeID
			if err := r.Edges(a, graph.Authored, graph.Out, func(p graph.NodeID, _ float64) bool { papers = append(papers, p); return true }); err != nil {
				t.Fatal(err)
			}
			for _, p := range papers {
				if err := r.Edges(p, graph.Authored, graph.In, func(b graph.NodeID, _ float64) bool {
					if _, ok := dist[b]; !ok {
						dist[b] = d + 1
						next = append(next, b)
					}
					return true
				}); err != nil {
					t.Fatal(err)
				}
			}
		}
		frontier = next
	}
	return dist
}

// checkPath checks a path's shape: it joins from and to, has the length
// wanted, and each hop's papers are papers of both its people.
func checkPath(t *testing.T, r graph.Reader, p *graph.CollaborationPath, from, to graph.NodeID, want int) {
	t.Helper()
	if want < 0 {
		if p != nil {
			t.Errorf("%s → %s: path of %d hops, want none", from, to, len(p.Hops))
		}
		return
	}
	if p == nil {
		t.Errorf("%s → %s: no path, want %d hops", from, to, want)
		return
	}
	if len(p.Hops) != want || len(p.Authors) != want+1 || p.Authors[0].ID != from || p.Authors[len(p.Authors)-1].ID != to {
		t.Errorf("%s → %s: %d hops through %d people, want %d", from, to, len(p.Hops), len(p.Authors), want)
		return
	}
	for i, h := range p.Hops {
		if h.From.ID != p.Authors[i].ID || h.To.ID != p.Authors[i+1].ID || len(h.Papers) == 0 {
			t.Errorf("hop %d: %s → %s with %d papers", i, h.From.ID, h.To.ID, len(h.Papers))
		}
		for _, paper := range h.Papers {
			for _, a := range []graph.NodeID{h.From.ID, h.To.ID} {
				if _, ok, err := r.Edge(a, graph.Authored, paper.ID); err != nil || !ok {
					t.Errorf("hop %d: paper %s is not %s's (%v)", i, paper.ID, a, err)
				}
			}
		}
	}
}

// Path lengths equal a plain breadth-first search's, on 800 real records:
// from 40 people chosen at random, to one person at each distance there is
// and to one they are not joined to; and with maxLength one short of the
// distance, no path. Skips without ../shared.
func TestPathMatchesBFS(t *testing.T) {
	svc := graph.NewService(MustOpen(t), nil)
	ctx := context.Background()
	ingestArXiv(t, svc, 800, nil)
	r, err := svc.Store().Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var authors []graph.NodeID
	if err := r.NodeIDs(graph.KindAuthor, 0, func(id graph.NodeID) bool { authors = append(authors, id); return true }); err != nil {
		t.Fatal(err)
	}
	v := view(t, svc)
	all := selectOrFail(t, v, nil)
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[int]int{}
	for range 40 {
		a := authors[rng.IntN(len(authors))]
		dist := bfsDistances(t, r, a)
		byDist := map[int][]graph.NodeID{}
		for b, d := range dist {
			byDist[d] = append(byDist[d], b)
		}
		for _, b := range authors {
			if _, ok := dist[b]; !ok {
				byDist[-1] = append(byDist[-1], b)
			}
		}
		for d, bs := range byDist {
			slices.Sort(bs)
			b := bs[rng.IntN(len(bs))]
			want := d
			if d > graph.MaxPathLength {
				want = -1
			}
			p, err := v.Path(ctx, a, b, graph.MaxPathLength, all)
			if err != nil {
				t.Fatal(err)
			}
			checkPath(t, r, p, a, b, want)
			seen[d]++
			if d >= 2 && d <= graph.MaxPathLength {
				if p, err := v.Path(ctx, a, b, d-1, all); err != nil || p != nil {
					t.Errorf("%s → %s, %d apart, within %d: %v %v; want none", a, b, d, d-1, p, err)
				}
			}
		}
	}
	if seen[-1] == 0 || seen[3] == 0 || seen[4] == 0 {
		t.Errorf("distances met: %v; want unjoined pairs and pairs 3 and 4 apart", seen)
	}
	t.Logf("pairs checked by distance (-1: not joined): %v", seen)
}

// On the seeds: co-authors are one hop apart, with their shared papers;
// a person to themself is no hop; bounds and unknown people are errors.
func TestPathOnSeeds(t *testing.T) {
	ctx := context.Background()
	svc := graph.NewService(MustOpen(t), extractor)
	ingestFiles(t, svc, seedFiles(t)...)
	v := view(t, svc)
	r, err := svc.Store().Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	x, err := v.AuthorByName("Xiaoxi Jiang")
	if err != nil {
		t.Fatal(err)
	}
	g, err := v.AuthorByName("Guanjun Jiang")
	if err != nil {
		t.Fatal(err)
	}
	all := selectOrFail(t, v, nil)
	p, err := v.Path(ctx, x.ID, g.ID, 6, all)
	if err != nil {
		t.Fatal(err)
	}
	checkPath(t, r, p, x.ID, g.ID, 1)
	if shared, _ := v.SharedPapers(x.ID, g.ID); p != nil && len(p.Hops[0].Papers) != len(shared) {
		t.Errorf("the hop has %d papers, they share %d", len(p.Hops[0].Papers), len(shared))
	}
	self, err := v.Path(ctx, x.ID, x.ID, 6, all)
	if err != nil || self == nil || len(self.Hops) != 0 || len(self.Authors) != 1 {
		t.Errorf("a person to themself: %+v, %v; want no hop", self, err)
	}
	// with a filter that selects none of their shared papers, no path
	none := selectOrFail(t, v, &graph.PaperFilter{YearTo: 1990})
	if p, err := v.Path(ctx, x.ID, g.ID, 6, none); err != nil || p != nil {
		t.Errorf("over no papers: %+v, %v; want none", p, err)
	}
	for _, c := range []struct {
		from, to graph.NodeID
		max      int
		code     graph.Code
	}{
		{x.ID, g.ID, 0, graph.Invalid},
		{x.ID, g.ID, graph.MaxPathLength + 1, graph.Invalid},
		{x.ID, graph.MakeID(graph.KindPaper, 1), 6, graph.Invalid},
		{x.ID, graph.MakeID(graph.KindAuthor, 999999), 6, graph.NotFound},
	} {
		if _, err := v.Path(ctx, c.from, c.to, c.max, all); graph.ErrorCode(err) != c.code {
			t.Errorf("path %s → %s within %d: %v, want %s", c.from, c.to, c.max, err, c.code)
		}
	}
	done, cancel := context.WithDeadline(ctx, time.Now().Add(-time.Second))
	defer cancel()
	if _, err := v.Path(done, x.ID, g.ID, 6, all); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("path past its deadline: %v", err)
	}
}
