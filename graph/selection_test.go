package graph_test

// Selections: co-authors under a filter match the profiles; no filter
// selects every paper.

import (
	"context"
	"testing"

	"github.com/researchkg/kg/graph"
)

// Co-authors counted over a filter that selects every paper are the
// stored co-authors (profiles, pair counters and large collaborations).
func TestCoauthorsWhereAllMatchProfiles(t *testing.T) {
	svc := listsGraph(t)
	v := view(t, svc)
	all := selectOrFail(t, v, &graph.PaperFilter{})
	r, err := svc.Store().Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	checked := 0
	if err := r.NodeIDs(graph.KindAuthor, 0, func(a graph.NodeID) bool {
		if a.Seq()%2 == 1 { // half of them: enough, and quick under -race
			return true
		}
		want, err := v.CoAuthors(a, 100)
		if err != nil {
			t.Fatal(err)
		}
		got, err := v.CoAuthorsWhere(all, a, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d co-authors over every paper, %d stored", a, len(got), len(want))
			return false
		}
		for i := range got {
			if got[i].Author.ID != want[i].Author.ID || got[i].Weight != want[i].Weight {
				t.Errorf("%s's co-author %d: %s (%d) over every paper, %s (%d) stored", a, i, got[i].Author.ID, got[i].Weight, want[i].Author.ID, want[i].Weight)
				return false
			}
		}
		checked++
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Errorf("checked %d people", checked)
	}
}

// A nil selection is no filter: each View method that takes one answers
// as with View.Select(nil).
func TestNilSelectionSelectsAll(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ingestFiles(t, svc, seedFiles(t)...)
	v := view(t, svc)
	all := selectOrFail(t, v, nil)
	f1, err1 := v.Facets(graph.FacetYear, nil, 10)
	f2, err2 := v.Facets(graph.FacetYear, all, 10)
	if err1 != nil || err2 != nil || f1.Total == 0 || f1.Total != f2.Total {
		t.Errorf("facets: %v %v, %v %v", f1.Total, err1, f2.Total, err2)
	}
	t1, err1 := v.Top(graph.KindAuthor, nil, 3)
	t2, err2 := v.Top(graph.KindAuthor, all, 3)
	if err1 != nil || err2 != nil || len(t1) == 0 || len(t1) != len(t2) {
		t.Errorf("top: %v %v, %v %v", t1, err1, t2, err2)
	}
	if _, err := v.Emerging(nil, 3); err != nil {
		t.Error(err)
	}
	a, b := t1[0].Node.ID, t1[1].Node.ID
	if _, err := v.Path(context.Background(), a, b, 6, nil); err != nil {
		t.Error(err)
	}
	if _, err := v.CoAuthorsWhere(nil, a, 5); err != nil {
		t.Error(err)
	}
	if _, err := v.SharedPapersWhere(nil, a, b); err != nil {
		t.Error(err)
	}
	p1, err1 := v.PaperList(nil, a, graph.Newest, 5, "")
	p2, err2 := v.PaperList(all, a, graph.Newest, 5, "")
	if err1 != nil || err2 != nil || p1.Total == 0 || p1.Total != p2.Total {
		t.Errorf("papers: %v %v, %v %v", p1.Total, err1, p2.Total, err2)
	}
}
