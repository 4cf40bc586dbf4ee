package graph_test

import (
	"context"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/nlp"
)

// plainTerms is the extractor without its prints (not a ScanPrinter).
type plainTerms struct{ graph.TermExtractor }

// Adding papers to a settled store reads only the earlier texts whose
// prints may say the new concepts, and links exactly the papers a scan of
// every text links: the same graph, digest for digest. On the first 1,500
// records of the arXiv file, then 250 more; skips without ../shared.
func TestRescanReadsByPrint(t *testing.T) {
	heavyUnderRace(t)
	ctx := context.Background()
	digests := map[string]graph.Digest{}
	for _, mode := range []string{"prints", "every text"} {
		var terms graph.TermExtractor = nlp.New()
		if mode == "every text" {
			terms = plainTerms{terms}
		}
		db := MustOpen(t)
		svc := graph.NewService(db, terms)
		var read, scanned int
		svc.OnProgress(func(stage string, done, total int) {
			if stage == graph.StageRescanRead {
				read, scanned = done, total
			}
		})
		pipe := func(from, to int) {
			i := 0
			p := svc.NewPipeline(ctx, 2, func(_ graph.Document, _ graph.IngestResult, err error) {
				if err != nil {
					t.Error(err)
				}
			})
			ingestArXivWith(t, to, func(d graph.Document) error {
				i++
				if i <= from {
					return nil
				}
				return p.Add(d)
			})
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
		}
		pipe(0, 1500)
		pipe(1500, 1750)
		t.Logf("%s: the second settle read %d of %d earlier texts", mode, read, scanned)
		if scanned < 1000 {
			t.Fatalf("%s: the second settle scanned %d texts; expected the earlier papers", mode, scanned)
		}
		switch {
		case mode == "prints" && read*4 > scanned*3:
			// the 250 new papers have no prints yet, and the new concepts of
			// a small corpus include words many texts say ("pose", "camera")
			t.Errorf("prints ruled out %d of %d texts; expected at least a quarter", scanned-read, scanned)
		case mode == "every text" && read != scanned:
			t.Errorf("without prints %d of %d texts read", read, scanned)
		}
		d, err := svc.Digest(ctx)
		if err != nil {
			t.Fatal(err)
		}
		digests[mode] = d
		closeStore(t, db)
	}
	if a, b := digests["prints"], digests["every text"]; a != b {
		t.Errorf("graphs differ:\nprints     %+v\nevery text %+v", a, b)
	}
}
