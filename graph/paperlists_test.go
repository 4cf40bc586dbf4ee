package graph_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/source"
	"github.com/researchkg/kg/store"
)

var (
	listsOnce sync.Once
	listsSvc  *graph.Service
)

// listsGraph is one graph that the read-only tests of lists share (built
// once: ingest with the extractor is slow under -race): the seed pages,
// 50 real arXiv records and an Atom feed (days as dates).
func listsGraph(t *testing.T) *graph.Service {
	t.Helper()
	listsOnce.Do(func() {
		db, err := store.Open(store.DefaultOptions("").WithInMemory(true))
		if err != nil {
			t.Fatal(err)
		}
		listsSvc = graph.NewService(db, extractor) // lives until the tests end
		ingestFiles(t, listsSvc, seedFiles(t)...)
		ingestDocs(t, listsSvc, readDocs(t, "testdata/arxiv-people.jsonl"))
		ingestDocs(t, listsSvc, readDocs(t, "../testdata/atom/query.xml"))
	})
	if listsSvc == nil {
		t.Fatal("the shared graph could not be built")
	}
	return listsSvc
}

// listAll pages through a list a few papers at a time and returns every
// paper, checking each page against the total.
func listAll(t *testing.T, v *graph.View, s *graph.Selection, owner graph.NodeID, order graph.PaperOrder, size int) []*graph.Node {
	t.Helper()
	var out []*graph.Node
	after := ""
	for range 1000 {
		pg, err := v.PaperList(s, owner, order, size, after)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, pg.Papers...)
		if len(pg.Papers) > size || pg.HasNext != (len(out) < pg.Total) {
			t.Fatalf("page of %d (size %d), %d of %d so far, hasNext %v", len(pg.Papers), size, len(out), pg.Total, pg.HasNext)
		}
		if !pg.HasNext {
			if len(out) != pg.Total {
				t.Errorf("pages held %d papers, total %d", len(out), pg.Total)
			}
			return out
		}
		after = pg.EndCursor
	}
	t.Fatal("no last page")
	return nil
}

func ids(ns []*graph.Node) []graph.NodeID {
	out := make([]graph.NodeID, len(ns))
	for i, n := range ns {
		out[i] = n.ID
	}
	return out
}

// Newest first is by date (a month known, a day known), then title;
// oldest first its reverse; pages of any size put together give the whole
// list, once each paper.
func TestPaperListOrders(t *testing.T) {
	v := view(t, listsGraph(t))
	all := selectOrFail(t, v, nil)
	newest := listAll(t, v, all, 0, graph.Newest, 7)
	if len(newest) < 60 || !slices.Equal(ids(newest), ids(listAll(t, v, all, 0, graph.Newest, 100))) {
		t.Fatalf("%d papers newest first; pages of 7 and of 100 differ", len(newest))
	}
	for i := 1; i < len(newest); i++ {
		a, b := graph.PaperDate(newest[i-1]), graph.PaperDate(newest[i])
		if da, db := a.String(), b.String(); da < db && !(len(da) > len(db) && da[:len(db)] == db) {
			t.Errorf("%q (%s) before %q (%s)", newest[i-1].Label, da, newest[i].Label, db)
		}
	}
	oldest := listAll(t, v, all, 0, graph.Oldest, 5)
	slices.Reverse(oldest)
	if !slices.Equal(ids(oldest), ids(newest)) {
		t.Error("oldest first is not newest first reversed")
	}
	if _, err := v.PaperList(all, 0, graph.Oldest, 5, listAll(t, v, all, 0, graph.Newest, 100)[0].ID.String()); graph.ErrorCode(err) != graph.Invalid {
		t.Errorf("an id for a cursor: %v, want INVALID", err)
	}
	pg, err := v.PaperList(all, 0, graph.Newest, 3, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.PaperList(all, 0, graph.Oldest, 3, pg.EndCursor); graph.ErrorCode(err) != graph.Invalid {
		t.Errorf("a newest-first cursor in an oldest-first list: %v, want INVALID", err)
	}
}

// A concept's papers, most relevant first: by its weight in the paper,
// then newest; the same papers as newest first.
func TestConceptPapersByRelevance(t *testing.T) {
	v := view(t, listsGraph(t))
	c, err := v.ConceptByName("reinforcement learning")
	if err != nil {
		t.Fatal(err)
	}
	all := selectOrFail(t, v, nil)
	rel := listAll(t, v, all, c.ID, graph.Relevance, 4)
	newest := listAll(t, v, all, c.ID, graph.Newest, 4)
	if len(rel) < 5 || !slices.Equal(slices.Sorted(slices.Values(ids(rel))), slices.Sorted(slices.Values(ids(newest)))) {
		t.Fatalf("reinforcement learning: %d papers by relevance, %d newest first", len(rel), len(newest))
	}
	weight := func(p *graph.Node) float64 {
		ws, err := v.PaperConcepts(p.ID, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range ws {
			if w.Node.ID == c.ID {
				return w.Weight
			}
		}
		t.Fatalf("%q does not mention the concept", p.Label)
		return 0
	}
	pos := map[graph.NodeID]int{}
	for i, p := range newest {
		pos[p.ID] = i
	}
	for i := 1; i < len(rel); i++ {
		a, b := weight(rel[i-1]), weight(rel[i])
		if a < b || a == b && pos[rel[i-1].ID] > pos[rel[i].ID] {
			t.Errorf("%q (%.3f) before %q (%.3f)", rel[i-1].Label, a, rel[i].Label, b)
		}
	}
	if weight(rel[0]) != 1 {
		t.Errorf("the first paper weighs the concept %.3f, want 1 (its best term)", weight(rel[0]))
	}
}

// The list behind a bar: for each month of a facet, the papers of that
// month are as many as the bar says.
func TestDrillDownMatchesBuckets(t *testing.T) {
	v := view(t, listsGraph(t))
	for _, f := range []*graph.PaperFilter{{}, {Subjects: []string{"cs.CV"}}, {Concepts: []string{"LLM"}}} {
		res, err := v.Facets(graph.FacetMonth, selectOrFail(t, v, f), 20)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0
		for _, b := range res.Buckets {
			month := *f
			month.MonthFrom, month.MonthTo = b.Key, b.Key
			s := selectOrFail(t, v, &month)
			pg, err := v.PaperList(s, 0, graph.Newest, 100, "")
			if err != nil {
				t.Fatal(err)
			}
			if pg.Total != b.Count || len(pg.Papers) != b.Count {
				t.Errorf("%+v, %s: bar %d, list %d (%d on the page)", f, b.Key, b.Count, pg.Total, len(pg.Papers))
			}
			for _, p := range pg.Papers {
				if m := graph.PaperDate(p).MonthString(); m != b.Key {
					t.Errorf("%s's list has %q of %s", b.Key, p.Label, m)
				}
			}
			sum += b.Count
		}
		if sum == 0 || sum > res.Total {
			t.Errorf("%+v: months hold %d papers of %d", f, sum, res.Total)
		}
	}
}

// A concept's relevance order is kept between queries until the index
// changes: it is the order computed afresh, before and after a commit
// that adds a paper to the concept, and the new paper is in the next
// answer.
func TestConceptRelevanceOrderFollowsCommits(t *testing.T) {
	defer graph.SetRelCacheMin(1)()
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ingestFiles(t, svc, seedFiles(t)...)
	list := func(cached bool) []graph.NodeID {
		if !cached {
			defer graph.SetRelCacheMin(1 << 30)()
		}
		v := view(t, svc)
		c, err := v.ConceptByName("reinforcement learning")
		if err != nil {
			t.Fatal(err)
		}
		return ids(listAll(t, v, nil, c.ID, graph.Relevance, 3))
	}
	before := list(true)
	if again := list(true); !slices.Equal(again, before) || !slices.Equal(list(false), before) || len(before) < 5 {
		t.Fatalf("cached order %v, again %v, afresh %v", before, again, list(false))
	}
	line := `{"id": "2601.99999", "title": "Reinforcement learning from scratch", "abstract": "We study reinforcement learning. Reinforcement learning agents learn from rewards; our reinforcement learning method is simple.", "authors": "Ada Lovelace", "categories": "cs.LG", "update_date": "2026-01-05"}` + "\n"
	var docs []graph.Document
	if err := source.Read("new.jsonl", strings.NewReader(line), func(d graph.Document) error { docs = append(docs, d); return nil }, func(err error) { t.Fatal(err) }); err != nil {
		t.Fatal(err)
	}
	ingestDocs(t, svc, docs)
	after := list(true)
	if len(after) != len(before)+1 || !slices.Equal(after, list(false)) {
		t.Errorf("after a commit: %d papers (before %d), cached order equals a fresh one: %v", len(after), len(before), slices.Equal(after, list(false)))
	}
}

// The orders and weights kept between queries are read and filled by
// concurrent queries while commits change the index (run with -race);
// each answer is whole.
func TestKeptOrdersUnderConcurrentWrites(t *testing.T) {
	defer graph.SetRelCacheMin(1)()
	defer graph.SetPostWeightsMin(1)()
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ingestFiles(t, svc, seedFiles(t)...)
	docs := readDocs(t, "testdata/arxiv-people.jsonl")
	docs = docs[:min(len(docs), 8)]
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				v, err := svc.View(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				c, err := v.ConceptByName("reinforcement learning")
				if err == nil {
					if _, err := v.PaperList(nil, c.ID, graph.Relevance, 5, ""); err != nil {
						t.Error(err)
					}
					if _, err := v.RelatedWork(graph.RelatedQuery{Concepts: []string{"reinforcement learning"}, First: 5}); err != nil {
						t.Error(err)
					}
				}
				v.Close()
			}
		}()
	}
	ingestDocs(t, svc, docs)
	close(stop)
	wg.Wait()
}
