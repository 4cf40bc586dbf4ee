package graph_test

import (
	"context"
	"testing"

	"github.com/researchkg/kg/graph"
)

// conceptsConsistent checks that every concept node has papers and that the
// concept counter matches the nodes.
func conceptsConsistent(t *testing.T, svc *graph.Service, db interface {
	Read(context.Context) (graph.Reader, error)
}) {
	t.Helper()
	r, err := db.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var ids []graph.NodeID
	if err := r.NodeIDs(graph.KindConcept, 0, func(id graph.NodeID) bool { ids = append(ids, id); return true }); err != nil {
		t.Fatal(err)
	}
	v := view(t, svc)
	st := mustStats(t, v)
	if st.Concepts != len(ids) {
		t.Errorf("concept counter %d, concept nodes %d", st.Concepts, len(ids))
	}
	for _, id := range ids {
		pg, err := v.Papers(id, 1, "")
		if err != nil || pg.Total < 1 || len(pg.Papers) != 1 {
			n, _ := v.Node(id)
			t.Errorf("concept %v (%s) has no papers: %+v %v", n.Label, id, pg.Total, err)
		}
	}
}

func TestRecomputeConcepts(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ingestFiles(t, svc, seedFiles(t)...)
	conceptsConsistent(t, svc, db)

	var passes []graph.RecomputeProgress
	res, err := svc.RecomputeConcepts(context.Background(), 2, func(p graph.RecomputeProgress) { passes = append(passes, p) })
	if err != nil {
		t.Fatal(err)
	}
	if res.Records != 18 || len(passes) == 0 || passes[len(passes)-1].Pass != graph.RecomputePasses || passes[len(passes)-1].Done != 18 {
		t.Errorf("recompute: %+v, progress %+v", res, passes)
	}
	conceptsConsistent(t, svc, db)

	// document frequencies equal an independent count over the stored texts
	want := map[string]int{}
	r, _ := db.Read(context.Background())
	defer r.Close()
	var papers []graph.NodeID
	r.NodeIDs(graph.KindPaper, 0, func(id graph.NodeID) bool { papers = append(papers, id); return true })
	for _, id := range papers {
		n, _ := r.Node(id)
		abs, _ := r.Abstracts(id)
		text := ""
		for i, a := range abs {
			if i > 0 {
				text += "\n\n"
			}
			text += a
		}
		seen := map[string]bool{}
		for _, k := range extractor.Analyze(n.Label, text).Keys() {
			if !seen[k] {
				seen[k] = true
				want[k]++
			}
		}
	}
	stats := view(t, svc).CorpusStats()
	for _, key := range []string{"rewardmodel", "largelanguagemodel", "reinforcementlearning", "skill"} {
		got := stats.DocFreq(key)
		if got != want[key] || want[key] == 0 {
			t.Errorf("df %s: stored %d, counted %d", key, got, want[key])
		}
	}

	// recompute again: the same graph (concepts get new ids: compare by
	// identity, not bytes)
	before := mustDigest(t, svc)
	if _, err := svc.RecomputeConcepts(context.Background(), 1, nil); err != nil {
		t.Fatal(err)
	}
	if d := mustDigest(t, svc); d != before {
		t.Error("second recompute changed the graph")
	}
	// a concept too large for one transaction (on the arXiv file "large
	// language model" alone is 50,000 keys) is cleared over several: the
	// same graph whatever the bound
	restore := graph.SetClearWrites(7)
	if _, err := svc.RecomputeConcepts(context.Background(), 1, nil); err != nil {
		t.Fatal(err)
	}
	restore()
	if d := mustDigest(t, svc); d != before {
		t.Error("a recompute clearing in small transactions changed the graph")
	}
	conceptsConsistent(t, svc, db)
	after := checksum(t, db)
	// and ingesting the same pages again changes nothing either
	ingestFiles(t, svc, seedFiles(t)...)
	if again := checksum(t, db); again != after {
		t.Error("re-ingest after recompute changed the store")
	}
}
