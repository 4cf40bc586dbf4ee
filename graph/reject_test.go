package graph_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/store"
)

// modifierCorpus: "skill" is a noun in every paper that says it; "leverage"
// is a noun in two papers (enough votes to make it a concept) and a verb
// in five (a word speech says rarely: "support", said as often in speech,
// is no term whichever way papers use it, see termhood); "large language" is a noun phrase only where a tagger slips on
// "Large Language and Vision Models", the front of "large language model"
// everywhere else.
var modifierCorpus = []graph.Record{
	{Title: "Agent skills", Abstract: "Agents learn a skill from demonstrations. Each skill is stored; the skill library grows, and a skill is reused by large language models."},
	{Title: "Skill discovery", Abstract: "We discover a skill per task. A skill composes; skill reuse is key, and the skill set grows."},
	{Title: "Leverage for tools", Abstract: "Tool leverage matters. The leverage of tools is weak; leverage is costly, and leverage grows. Large language models call tools."},
	{Title: "Leverage in dialogue", Abstract: "Financial leverage helps firms. Leverage is scarce; leverage from debt and leverage ratios help."},
	{Title: "Benchmarks that leverage agents", Abstract: "Our benchmarks leverage agents. They leverage tools and leverage planning with large language models."},
	{Title: "Data that leverage claims", Abstract: "We collect data to leverage claims that leverage reasoning."},
	{Title: "Tools that leverage search", Abstract: "These tools leverage search and leverage ranking."},
	{Title: "Models leverage users", Abstract: "Models leverage users who leverage each other."},
	{Title: "Large language models reason", Abstract: "Large language models reason about charts."},
	{Title: "Large language models plan", Abstract: "Large language models plan tool calls."},
	{Title: "Large language models code", Abstract: "Large language models write code."},
	{Title: "Large Language and Vision Models for charts", Abstract: "Large Language and Vision Models read charts. We test large language and vision models on chart questions; large language models fail."},
	{Title: "Large Language and Vision Assistants", Abstract: "Large Language and Vision Assistants answer questions. Large Language and Vision Assistants see images, unlike large language models."},
}

// A word most papers say as a verb or a modifier is no concept, nor is the
// front of a longer term; a noun is, and so is the longer term. The same
// holds whether the papers come one document at a time (the word becomes
// a concept, then later papers show it is mostly a verb), through a
// pipeline (one settle at the end), or are recomputed; the rejected
// word's papers keep exact co-occurrence pairs, and later votes do not
// make it again.
func TestModifiersAndFrontsAreNoConcepts(t *testing.T) {
	check := func(t *testing.T, db *store.DB, svc *graph.Service) {
		t.Helper()
		v := view(t, svc)
		texts := paperTexts(t, db)
		for _, name := range []string{"skill", "large language model"} {
			c, err := v.ConceptByName(name)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			says, papers := mentionOracle(name), 0
			for _, text := range texts {
				if says(text) {
					papers++
				}
			}
			if pg, _ := v.Papers(c.ID, 50, ""); pg.Total != papers {
				t.Errorf("%s: %d papers, %d say it", name, pg.Total, papers)
			}
		}
		for _, name := range []string{"leverage", "large language"} {
			if c, err := v.ConceptByName(name); err == nil {
				t.Errorf("%q is a concept (%s)", name, c.Label)
			}
		}
		checkCoOccurrence(t, db)
		conceptsConsistent(t, svc, db)
	}
	t.Run("one document at a time", func(t *testing.T) {
		db := MustOpen(t)
		svc := graph.NewService(db, extractor)
		ingestRecords(t, svc, modifierCorpus...)
		check(t, db, svc)
		// one more paper with "leverage" as a noun votes for it again (and
		// one more says it as a verb: three papers in eight as a noun)
		ingestRecords(t, svc,
			graph.Record{Title: "Customer leverage", Abstract: "Customer leverage grows; leverage is slow, and leverage limits grow."},
			graph.Record{Title: "Proofs that leverage theorems", Abstract: "Lemmas leverage theorems and leverage proofs."},
		)
		if c, err := view(t, svc).ConceptByName("leverage"); err == nil {
			t.Errorf("a rejected word is made a concept again (%s)", c.Label)
		}
		if _, err := svc.RecomputeConcepts(context.Background(), 2, nil); err != nil {
			t.Fatal(err)
		}
		check(t, db, svc)
	})
	t.Run("pipeline", func(t *testing.T) {
		db := MustOpen(t)
		svc := graph.NewService(db, extractor)
		if err := pipeRecords(t, svc, modifierCorpus).Close(); err != nil {
			t.Fatal(err)
		}
		check(t, db, svc)
	})
}

// A rejection stopped after any of its transactions (a process killed)
// is finished by the next ingest: the same concepts, links and pairs as
// one never stopped.
func TestRejectionStoppedAnywhere(t *testing.T) {
	defer graph.SetSettleWrites(2)()
	const lastOne = 7 // the sixth paper that says "leverage", a verb
	first := slices.Delete(slices.Clone(modifierCorpus), lastOne, lastOne+1)
	last := func(svc *graph.Service) error {
		rec := modifierCorpus[lastOne]
		rec.Line, rec.Authors = 1, []string{"A. Writer"}
		_, err := svc.Ingest(context.Background(), graph.Document{Source: "last", Records: []graph.Record{rec}})
		return err
	}
	ref := MustOpen(t)
	svc := graph.NewService(ref, extractor)
	ingestRecords(t, svc, first...)
	if _, err := view(t, svc).ConceptByName("leverage"); err != nil {
		t.Fatalf("leverage is no concept before the last paper: the test tests nothing (%v)", err)
	}
	if err := last(svc); err != nil {
		t.Fatal(err)
	}
	want := conceptLayer(t, ref)
	for stopAt := 0; ; stopAt++ {
		db := MustOpen(t)
		st := &stopping{Store: db, stopAt: math.MaxInt}
		svc := graph.NewService(st, extractor)
		ingestRecords(t, svc, first...)
		st.updates, st.stopAt = 0, stopAt
		err := last(svc)
		st.stopAt = math.MaxInt
		if err != nil {
			if !errors.Is(err, errStopped) {
				t.Fatal(err)
			}
			if err := last(svc); err != nil {
				t.Fatal(err)
			}
		}
		if got := conceptLayer(t, db); !slices.Equal(got, want) {
			t.Errorf("stopped after %d transactions: %d lines of concepts and links, want %d", stopAt, len(got), len(want))
		}
		checkCoOccurrence(t, db)
		conceptsConsistent(t, svc, db)
		if err == nil {
			if stopAt < 4 {
				t.Fatalf("the last ingest took %d transactions; the test stops too few", stopAt)
			}
			break
		}
	}
}

// A settle left to the next process (kg ingest interrupted after its
// documents were written) rejects and links the same: the store is
// reopened, so nothing from the first run's memory is there.
func TestSettleInANewProcess(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(store.DefaultOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := pipeRecords(t, graph.NewService(db, extractor), modifierCorpus).Wait(); err != nil { // no settle
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = store.Open(store.DefaultOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer closeStore(t, db)
	svc := graph.NewService(db, extractor)
	if err := svc.SettleConcepts(context.Background()); err != nil {
		t.Fatal(err)
	}
	ref := MustOpen(t)
	if err := pipeRecords(t, graph.NewService(ref, extractor), modifierCorpus).Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := conceptLayer(t, db), conceptLayer(t, ref); !slices.Equal(got, want) {
		t.Errorf("settled in a new process: %d lines of concepts and links, in one: %d\n%s\n---\n%s", len(got), len(want), strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := view(t, svc).ConceptByName("leverage"); err == nil {
		t.Error("leverage is a concept after a settle in a new process")
	}
	checkCoOccurrence(t, db)
	conceptsConsistent(t, svc, db)
}

// pipeRecords adds records to a new pipeline, one document each; the
// caller waits or closes it.
func pipeRecords(t *testing.T, svc *graph.Service, recs []graph.Record) *graph.Pipeline {
	t.Helper()
	p := svc.NewPipeline(context.Background(), 2, func(_ graph.Document, _ graph.IngestResult, err error) {
		if err != nil {
			t.Error(err)
		}
	})
	for i, rec := range recs {
		rec.Line, rec.Authors = 1, []string{"A. Writer"}
		if err := p.Add(graph.Document{Source: "doc" + strconv.Itoa(i), Records: []graph.Record{rec}}); err != nil {
			t.Fatal(err)
		}
	}
	return p
}
