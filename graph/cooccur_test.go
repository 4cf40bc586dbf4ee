package graph_test

import (
	"cmp"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/source"
)

// checkCoOccurrence recounts, for every pair of concepts, the papers that
// have both among their ten best-weighted concepts from the stored
// mentions, and compares with the stored pairs and with the number of
// pairs in the statistics.
func checkCoOccurrence(t *testing.T, db graph.Store) {
	t.Helper()
	r, err := db.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	type pair struct{ a, b graph.NodeID }
	want := map[pair]int64{}
	r.NodeIDs(graph.KindPaper, 0, func(p graph.NodeID) bool {
		type cw struct {
			c graph.NodeID
			w float64
		}
		var cs []cw
		r.Edges(p, graph.Mentions, graph.Out, func(c graph.NodeID, w float64) bool { cs = append(cs, cw{c, w}); return true })
		slices.SortFunc(cs, func(x, y cw) int {
			if c := cmp.Compare(y.w, x.w); c != 0 {
				return c
			}
			return cmp.Compare(x.c, y.c)
		})
		cs = cs[:min(len(cs), 10)]
		for i := range cs {
			for j := i + 1; j < len(cs); j++ {
				a, b := min(cs[i].c, cs[j].c), max(cs[i].c, cs[j].c)
				want[pair{a, b}]++
			}
		}
		return true
	})
	got := map[pair]int64{}
	r.NodeIDs(graph.KindConcept, 0, func(a graph.NodeID) bool {
		r.Pairs(graph.CoOccurs, a, func(b graph.NodeID, n int64) bool {
			if a < b {
				got[pair{a, b}] = n
			} else if m, _ := r.Pair(graph.CoOccurs, b, a); m != n {
				t.Errorf("pair %v: %d one way, %d the other", pair{a, b}, n, m)
			}
			return true
		})
		return true
	})
	if len(want) == 0 {
		t.Fatal("no co-occurrence on the seeds")
	}
	for p, n := range want {
		if got[p] != n {
			t.Errorf("pair %v: stored %d, recounted %d", p, got[p], n)
		}
	}
	for p, n := range got {
		if want[p] == 0 {
			t.Errorf("pair %v: stored %d, recounted 0", p, n)
		}
	}
	var dirty int
	r.Terms(graph.IdxCoDirty, "", func(string, graph.NodeID) bool { dirty++; return true })
	if dirty != 0 {
		t.Errorf("%d papers still marked for counting", dirty)
	}
	if n, _ := r.Counter("pairs/" + graph.CoOccurs.String()); n != int64(len(want)) {
		t.Errorf("statistics count %d co-occurrence pairs, stored %d", n, len(want))
	}
}

// Co-occurrence pairs count, for every pair of concepts, the papers that
// have both among their ten best-weighted concepts, including the links
// made when a concept appeared after its first papers: counted paper by
// paper (ingest, one document at a time), in transactions of many papers
// (a small pipeline run) and by a recount (a large one).
func TestCoOccurrenceExact(t *testing.T) {
	t.Run("ingest", func(t *testing.T) {
		db := MustOpen(t)
		ingestFiles(t, graph.NewService(db, extractor), seedFiles(t)...)
		checkCoOccurrence(t, db)
	})
	for _, recount := range []bool{false, true} {
		name := map[bool]string{false: "pipeline", true: "recount"}[recount]
		t.Run(name, func(t *testing.T) {
			if recount {
				defer graph.SetCoRecountMin(1)()
			}
			db := MustOpen(t)
			svc := graph.NewService(db, extractor)
			pipeSeeds(t, svc)
			if err := svc.SettleConcepts(context.Background()); err != nil {
				t.Fatal(err)
			}
			checkCoOccurrence(t, db)
		})
	}
}

// pipeSeeds writes the seed pages through a pipeline without settling.
func pipeSeeds(t *testing.T, svc *graph.Service) { pipeFiles(t, svc, false, seedFiles(t)...) }

// pipeFiles ingests files through one pipeline, then waits for it (and
// settles when settle is set).
func pipeFiles(t *testing.T, svc *graph.Service, settle bool, files ...string) {
	t.Helper()
	p := svc.NewPipeline(context.Background(), 2, func(_ graph.Document, _ graph.IngestResult, err error) {
		if err != nil {
			t.Error(err)
		}
	})
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		err = source.Read(filepath.Base(f), fh, p.Add, func(error) {})
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	wait := p.Wait
	if settle {
		wait = p.Close
	}
	if err := wait(); err != nil {
		t.Fatal(err)
	}
}

// stopping is a store that stops landing writes after a number of updates,
// as a process killed between two transactions.
type stopping struct {
	graph.Store
	updates, stopAt int
}

var errStopped = errors.New("stopped")

func (s *stopping) Update(ctx context.Context, fn func(tx graph.Tx) error) error {
	if s.updates++; s.updates > s.stopAt {
		return errStopped
	}
	return s.Store.Update(ctx, fn)
}

// A settle stopped between any two of its transactions leaves nothing the
// next settle does not complete: the same concepts, links and pairs as a
// settle that was never stopped, counted once (paper by paper, and by a
// recount).
//
// Transactions are made small, so that each step of a settle takes
// several; and a recount is made only when every paper is to count, so
// that a recount stopped after giving some papers their counted sets
// leaves fewer than make a recount (it must recount all the same).
func TestSettleStoppedAnywhere(t *testing.T) {
	defer graph.SetSettleWrites(8)()
	for _, recount := range []bool{false, true} {
		name := map[bool]string{false: "pipeline", true: "recount"}[recount]
		t.Run(name, func(t *testing.T) {
			// the reference
			ref := MustOpen(t)
			svc := graph.NewService(ref, extractor)
			pipeSeeds(t, svc)
			if err := svc.SettleConcepts(context.Background()); err != nil {
				t.Fatal(err)
			}
			want := conceptLayer(t, ref)
			// in a fresh store, the papers to count are those with mentions
			papers := 0
			if r, err := ref.Read(context.Background()); err == nil {
				r.NodeIDs(graph.KindPaper, 0, func(p graph.NodeID) bool {
					r.Edges(p, graph.Mentions, graph.Out, func(graph.NodeID, float64) bool { papers++; return false })
					return true
				})
				r.Close()
			}
			if recount {
				defer graph.SetCoRecountMin(papers)()
			} else {
				defer graph.SetCoRecountMin(1 << 30)()
			}
			recounting := 0 // stops in the middle of a recount
			stop := 0
			for ; ; stop++ {
				db := &stopping{Store: MustOpen(t), stopAt: 1 << 30}
				pipeSeeds(t, graph.NewService(db, extractor))
				db.stopAt = db.updates + stop
				err := graph.NewService(db, extractor).SettleConcepts(context.Background())
				if err == nil {
					break // the settle takes stop transactions
				} else if !errors.Is(err, errStopped) {
					t.Fatalf("stopped after %d transactions: %v", stop, err)
				}
				if r, err := db.Read(context.Background()); err == nil {
					if n, _ := r.Counter("co/recount"); n != 0 {
						recounting++
					}
					r.Close()
				}
				// a new service, as the next run
				if err := graph.NewService(db.Store, extractor).SettleConcepts(context.Background()); err != nil {
					t.Fatal(err)
				}
				if got := conceptLayer(t, db.Store); !slices.Equal(got, want) {
					t.Errorf("stopped after %d transactions, then settled: the concept layer differs from an uninterrupted settle", stop)
				}
				checkCoOccurrence(t, db.Store)
			}
			t.Logf("the settle of %d papers takes %d transactions", papers, stop)
			if stop < 10 {
				t.Errorf("the settle took %d transactions, want many", stop)
			}
			if recount && recounting < 2 || !recount && recounting > 0 {
				t.Errorf("%d of the %d stops were in the middle of a recount", recounting, stop)
			}
		})
	}
}
