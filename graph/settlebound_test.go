package graph_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/researchkg/kg/graph"
)

// capped refuses a transaction of more than limit writes, as Badger
// refuses one past its batch limits (0: no limit).
type capped struct {
	graph.Store
	limit, most int
}

func (c *capped) Update(ctx context.Context, fn func(tx graph.Tx) error) error {
	return c.Store.Update(ctx, func(tx graph.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		writes, _ := tx.Pending()
		c.most = max(c.most, writes)
		if c.limit > 0 && writes > c.limit {
			return fmt.Errorf("too large for one transaction (%d writes)", writes)
		}
		return nil
	})
}

// Every transaction of a settle is bounded, the one that clears the
// concepts' scan marks too: a 250,000-paper ingest marked 81,464
// concepts and its settle failed at the end, clearing them at once.
func TestSettleTransactionsBounded(t *testing.T) {
	const bound = 4
	defer graph.SetSettleWrites(bound)()
	var recs []graph.Record
	for _, r := range peopleRecords(t) {
		if len(r.Authors) < 100 {
			recs = append(recs, r)
		}
	}
	db := MustOpen(t)
	st := &capped{Store: db}
	svc := graph.NewService(st, extractor)
	if err := pipeRecords(t, svc, recs).Wait(); err != nil { // no settle
		t.Fatal(err)
	}
	marks := func() int {
		n := 0
		readEach(t, db, func(r graph.Reader) error {
			return r.Terms(graph.IdxRescan, "", func(string, graph.NodeID) bool { n++; return true })
		})
		return n
	}
	before := marks()
	// a settle's item may write a few keys past the bound before the
	// transaction closes; the marks were one transaction of all of them
	st.limit, st.most = 8*bound, 0
	if before <= st.limit {
		t.Fatalf("%d concepts marked for a scan, no more than one transaction holds: the test tests nothing", before)
	}
	if err := svc.SettleConcepts(context.Background()); err != nil {
		t.Fatalf("settle with %d marks: %v", before, err)
	}
	if n := marks(); n != 0 {
		t.Errorf("%d of %d scan marks left after the settle", n, before)
	}
	t.Logf("%d marks cleared; largest settle transaction %d writes", before, st.most)
}

// A settle ends where a settle run again would. The concepts it makes (the
// broader term of a word it drops: "urban planning" for "cyclical urban
// planning" when "planning" goes) are marked to be scanned for; a settle
// that left them to the next one made the graph depend on where it
// stopped: killed after making them and run again, it scanned for them
// before their recorded uses were linked, and gave other links and
// weights than a clean run (the crash test, kill -9 in the settle of
// 1,000 arXiv records). The first 300 records of the arXiv file make such
// a concept.
func TestSettleIsAFixedPoint(t *testing.T) {
	recs := mustArXiv(t)[:300]
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	if err := pipeRecords(t, svc, recs).Wait(); err != nil { // no settle
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := svc.SettleConcepts(ctx); err != nil {
		t.Fatal(err)
	}
	var left []graph.NodeID
	readEach(t, db, func(r graph.Reader) error {
		return r.Terms(graph.IdxRescan, "", func(_ string, c graph.NodeID) bool { left = append(left, c); return true })
	})
	if len(left) > 0 {
		t.Errorf("after the settle %d concepts are still marked for a scan: %v", len(left), left)
	}
	once := checksum(t, db)
	if err := svc.SettleConcepts(ctx); err != nil {
		t.Fatal(err)
	}
	if checksum(t, db) != once {
		t.Error("a second settle changed the graph the first left")
	}
}
