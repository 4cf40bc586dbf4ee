package graph_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/researchkg/kg/graph"
)

// A settle whose reclustering spans many transactions marks a person's
// profile once and skips the marks of later transactions (markProfile):
// every profile is still rebuilt, at this settle and at the next one. The
// people fixture is ingested in two halves, each settled once, in settle
// transactions of at most 16 writes; then every author has a stored
// profile, no mark is left, the counts and co-author lists are exact
// (checkPeopleExact) and the graph is the one ingested in one go with the
// default transactions.
func TestProfileMarksAcrossSettleTransactions(t *testing.T) {
	recs := peopleRecords(t)
	if raceDetector { // the large collaboration's marks take the same path; 26 s under -race with it
		recs = withoutLarge(recs)
	}
	whole := graph.NewService(MustOpen(t), nil)
	ingestPipeline(t, whole, recs)
	want := mustDigest(t, whole)

	restore := graph.SetSettleWrites(16)
	defer restore()
	db := MustOpen(t)
	svc := graph.NewService(db, nil)
	half := len(recs) / 2
	ingestPipeline(t, svc, recs[:half])
	ingestPipeline(t, svc, recs[half:])
	if got := mustDigest(t, svc); got != want {
		t.Errorf("in two halves with small settle transactions: graph %+v %s, in one go %+v %s", got.Stats, got.Hash[:12], want.Stats, want.Hash[:12])
	}

	r, err := db.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	marks := 0
	if err := r.Terms(graph.IdxProfileDirty, "", func(string, graph.NodeID) bool { marks++; return true }); err != nil {
		t.Fatal(err)
	}
	if marks != 0 {
		t.Errorf("%d profile marks left after the settle", marks)
	}
	authors, missing := 0, 0
	if err := r.NodeIDs(graph.KindAuthor, 0, func(a graph.NodeID) bool {
		authors++
		if _, err := r.Value(graph.ValProfile, fmt.Sprintf("%016x", uint64(a))); graph.ErrorCode(err) == graph.NotFound {
			missing++
		} else if err != nil {
			t.Fatal(err)
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	r.Close()
	if authors == 0 || missing != 0 {
		t.Errorf("%d of %d authors have no stored profile", missing, authors)
	}
	checkPeopleExact(t, svc)
}
