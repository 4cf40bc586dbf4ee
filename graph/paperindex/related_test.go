package paperindex_test

import (
	"slices"
	"testing"

	"github.com/researchkg/kg/graph/paperindex"
)

// A copy of a seed paper under another id is its best related paper; the
// seed and the excluded papers are never answers; a filter bounds the
// answers; the reasons are the shared concepts, by their share of the
// score, and the seed's people.
func TestRelatedFindsTheSeedsTwin(t *testing.T) {
	facts := corpus(11, 800)
	twins := map[uint64]uint64{}
	for i := range 20 {
		seed := facts[i*13]
		twin := seed
		twin.ID = uint64(10_000 + i)
		facts = append(facts, twin)
		twins[seed.ID] = twin.ID
	}
	ix := paperindex.New(facts)
	for seed, twin := range twins {
		q := ix.Resolve(&paperindex.Ask{Seeds: []uint64{seed}, Exclude: []uint64{seed + 1}})
		found := ix.Related(q, 10)
		if len(found) != 10 || found[0].Paper != twin {
			t.Fatalf("seed %d: best %+v, want its twin %d", seed, found[0], twin)
		}
		for i, f := range found {
			if f.Paper == seed || f.Paper == seed+1 {
				t.Errorf("seed %d: answer %d is a seed or excluded", seed, f.Paper)
			}
			if i > 0 && f.Score > found[i-1].Score {
				t.Errorf("seed %d: answer %d scores %.3f after %.3f", seed, i, f.Score, found[i-1].Score)
			}
			if !slices.IsSortedFunc(f.Shares, func(a, b float64) int { return int(b*1e9 - a*1e9) }) {
				t.Errorf("seed %d: shares not by size: %v", seed, f.Shares)
			}
			sum := 0.0
			for _, s := range f.Shares {
				sum += s
			}
			if sum > f.Score+1e-9 {
				t.Errorf("seed %d: concept shares %.3f beyond the score %.3f", seed, sum, f.Score)
			}
		}
		if len(found[0].Authors) == 0 {
			t.Errorf("seed %d: its twin shares no people in the reasons", seed)
		}
		// a filter to one subject: every answer has it
		var subj uint64 = 1001
		filter := paperindex.Everything()
		filter.Any[paperindex.Subject] = []uint64{subj}
		q = ix.Resolve(&paperindex.Ask{Seeds: []uint64{seed}, Filter: &filter})
		for _, f := range ix.Related(q, 10) {
			if !slices.Contains(facts[slices.IndexFunc(facts, func(x paperindex.Facts) bool { return x.ID == f.Paper })].Subjects, subj) {
				t.Errorf("seed %d: answer %d is not of subject %d", seed, f.Paper, subj)
			}
		}
	}
}

// Concepts asked for by name come first: every paper naming both before
// any naming one.
func TestRelatedNamedConceptsFirst(t *testing.T) {
	facts := corpus(12, 600)
	ix := paperindex.New(facts)
	a, b := uint64(3003), uint64(3011)
	q := ix.Resolve(&paperindex.Ask{Concepts: map[uint64]float64{a: 1, b: 1}, Named: []uint64{a, b}})
	found := ix.Related(q, 50)
	has := func(id, c uint64) bool {
		return slices.Contains(facts[id-1].Concepts, c)
	}
	seenOne := false
	for _, f := range found {
		both := has(f.Paper, a) && has(f.Paper, b)
		if !both && !has(f.Paper, a) && !has(f.Paper, b) {
			t.Errorf("answer %d names neither concept", f.Paper)
		}
		if both && seenOne {
			t.Errorf("answer %d names both concepts after one naming one", f.Paper)
		}
		seenOne = seenOne || !both
	}
}

// The two ways of summing the title words (through the words' rows, or
// each candidate's words) and the cached and uncached weights give the
// same answers.
func TestRelatedPathsAgree(t *testing.T) {
	facts := corpus(13, 900)
	ask := &paperindex.Ask{Seeds: []uint64{5, 77, 300}, TitleWords: []string{"reward", "agent"},
		Terms: []paperindex.Term{{Name: "rare term", Weight: 0.5, IDF: 4, Papers: []uint64{8, 9, 10}, PW: []float64{0.2, 0.4, 0.9}}}}
	run := func(k paperindex.Knobs) []paperindex.Found {
		defer paperindex.SetKnobs(k)()
		ix := paperindex.New(facts)
		return ix.Related(ix.Resolve(ask), 30)
	}
	base := run(paperindex.Knobs{RelevanceCacheMin: 512, PostingWeightsMin: 64, WordPostings: true})
	for _, k := range []paperindex.Knobs{{RelevanceCacheMin: 1, PostingWeightsMin: 1, WordPostings: true}, {RelevanceCacheMin: 512, PostingWeightsMin: 1 << 30, WordPostings: false}} {
		got := run(k)
		if len(got) != len(base) {
			t.Fatalf("%+v: %d answers, want %d", k, len(got), len(base))
		}
		for i := range got {
			if got[i].Paper != base[i].Paper || got[i].Score-base[i].Score > 1e-6 || base[i].Score-got[i].Score > 1e-6 {
				t.Fatalf("%+v: answer %d is %d (%.6f), want %d (%.6f)", k, i, got[i].Paper, got[i].Score, base[i].Paper, base[i].Score)
			}
		}
	}
	terms := 0
	for _, f := range base {
		if slices.Contains(f.Terms, "rare term") {
			terms++
		}
	}
	if terms == 0 {
		t.Error("no answer shares the draft's rare term")
	}
}

func FuzzDecodeCursor(f *testing.F) {
	f.Add("bgAPzRIAAAEAAAAAAAAAAWdyb3VuZGluZ3RoZXNjb3Jl")
	f.Add("cgAPzRIB9AEAAAAAAAAAAQ")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		for _, o := range []paperindex.Order{paperindex.Newest, paperindex.Oldest, paperindex.Relevance} {
			c, err := paperindex.DecodeCursor(s, o)
			if err != nil {
				continue
			}
			back, err := paperindex.DecodeCursor(c.Encode(), o)
			if err != nil || back != c {
				t.Fatalf("cursor %q decoded as %+v, which reads back as %+v (%v)", s, c, back, err)
			}
		}
	})
}
