package graph_test

import (
	"context"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/store"
)

// Links to the concepts an ingest makes wait for its settle (pending.go):
// a word the settle rejects ("leverage", a verb to most papers that say
// it) is never linked, so the settle deletes no mention; the concepts it
// keeps are linked to every paper that held a pending link to them, and
// each concept's paper count is its number of papers.
//
// Two corpora: words that are modifiers (rejected as papers are linked,
// checkModifier), and 49 arXiv records (without the one of 1,114
// authors), whose settle judges concepts no terms (termhood.Judge) after
// they had papers: the judgement must come before the links.
func TestLinksWaitForTheSettle(t *testing.T) {
	var arxiv []graph.Record
	for _, r := range peopleRecords(t) {
		if len(r.Authors) < 100 {
			arxiv = append(arxiv, r)
		}
	}
	t.Run("modifiers", func(t *testing.T) { linksWaitForTheSettle(t, modifierCorpus, "leverage") })
	t.Run("arxiv", func(t *testing.T) { linksWaitForTheSettle(t, arxiv, "") })
}

func linksWaitForTheSettle(t *testing.T, recs []graph.Record, rejected string) {
	db, err := store.Open(store.DefaultOptions("").WithInMemory(true).WithCensus(true))
	if err != nil {
		t.Fatal(err)
	}
	defer closeStore(t, db)
	svc := graph.NewService(db, extractor)
	p := pipeRecords(t, svc, recs)
	if err := p.Wait(); err != nil {
		t.Fatal(err)
	}

	// before the settle: the papers' links wait, none is an edge
	waiting := pendingPapers(t, db)
	if len(waiting) == 0 {
		t.Fatal("no paper holds pending links after the records of a fresh ingest")
	}
	if n := mentionEdges(t, db); n != 0 {
		t.Errorf("%d mention edges before the settle of a fresh ingest, want 0: every concept is new", n)
	}
	before := censusOf(db)

	if err := p.Close(); err != nil { // the settle
		t.Fatal(err)
	}
	if left := pendingPapers(t, db); len(left) != 0 {
		t.Errorf("%d papers still hold pending links after the settle", len(left))
	}
	after := censusOf(db)
	for _, kind := range []string{"edge-out MENTIONS", "edge-in MENTIONS", "list MENTIONS"} {
		if d := after[kind].Deletes - before[kind].Deletes; d != 0 {
			t.Errorf("the settle deleted %d %s keys: a link was written that the settle then rejected", d, kind)
		}
	}
	v := view(t, svc)
	if _, err := v.ConceptByName(rejected); rejected != "" && err == nil {
		t.Errorf("%s is a concept after the settle", rejected)
	}
	if n := mentionEdges(t, db); n == 0 {
		t.Error("no mention edge after the settle: the waiting links were not written")
	}
	degreesMatchEdges(t, svc, db)
}

// A recompute makes its links afresh: pending links an interrupted ingest
// left (no settle) go, and the concepts' degrees are their papers.
func TestRecomputeDropsPendingLinks(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	if err := pipeRecords(t, svc, modifierCorpus).Wait(); err != nil { // no settle
		t.Fatal(err)
	}
	if len(pendingPapers(t, db)) == 0 {
		t.Fatal("no pending links to drop")
	}
	if _, err := svc.RecomputeConcepts(context.Background(), 2, nil); err != nil {
		t.Fatal(err)
	}
	if left := pendingPapers(t, db); len(left) != 0 {
		t.Errorf("%d papers hold pending links after a recompute", len(left))
	}
	degreesMatchEdges(t, svc, db)
}

func pendingPapers(t *testing.T, db *store.DB) []graph.NodeID {
	t.Helper()
	var ids []graph.NodeID
	if err := readEach(t, db, func(r graph.Reader) error {
		return r.Values(graph.ValPendingMentions, "", func(key string, v []byte) bool {
			var id uint64
			for _, c := range key {
				id = id<<4 | uint64(hexDigit(c))
			}
			ids = append(ids, graph.NodeID(id))
			return true
		})
	}); err != nil {
		t.Fatal(err)
	}
	return ids
}

func hexDigit(c rune) int {
	if c >= 'a' {
		return int(c-'a') + 10
	}
	return int(c - '0')
}

func mentionEdges(t *testing.T, db *store.DB) int {
	t.Helper()
	n := 0
	if err := readEach(t, db, func(r graph.Reader) error {
		return r.KindEdges(graph.KindPaper, graph.Mentions, func(_, _ graph.NodeID, _ float64) bool { n++; return true })
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// degreesMatchEdges checks that every concept's paper count is the number
// of papers linked to it.
func degreesMatchEdges(t *testing.T, svc *graph.Service, db *store.DB) {
	t.Helper()
	v := view(t, svc)
	if err := readEach(t, db, func(r graph.Reader) error {
		return r.NodeIDs(graph.KindConcept, 0, func(c graph.NodeID) bool {
			edges := 0
			if err := r.Edges(c, graph.Mentions, graph.In, func(graph.NodeID, float64) bool { edges++; return true }); err != nil {
				t.Fatal(err)
			}
			if deg, err := v.PaperCount(c); err != nil || deg != edges {
				n, _ := r.Node(c)
				t.Errorf("concept %q: paper count %d (%v), %d papers linked", n.Label, deg, err, edges)
			}
			return true
		})
	}); err != nil {
		t.Fatal(err)
	}
}

func readEach(t *testing.T, db *store.DB, fn func(graph.Reader) error) error {
	t.Helper()
	r, err := db.Read(context.Background())
	if err != nil {
		return err
	}
	defer r.Close()
	return fn(r)
}

func censusOf(db *store.DB) map[string]store.CensusRow {
	out := map[string]store.CensusRow{}
	for _, r := range db.Census() {
		out[r.Kind] = r
	}
	return out
}
