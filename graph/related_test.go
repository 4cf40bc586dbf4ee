package graph_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
)

// relatedRecords: the arXiv records the related-work tests ingest.
const relatedRecords = 2000

// Related work on the first records of the arXiv file (skips without
// ../shared): a stored paper's own text finds it first, and with its
// title reworded in the top 3; papers naming every concept asked for come
// before papers naming some; every reason given is true; a filter holds.
func TestRelatedWorkOnArXiv(t *testing.T) {
	heavyUnderRace(t)
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ctx := context.Background()
	p := svc.NewPipeline(ctx, 2, func(d graph.Document, _ graph.IngestResult, err error) {
		if err != nil && graph.ErrorCode(err) != graph.Invalid {
			t.Error(err)
		}
	})
	ingestArXivWith(t, relatedRecords, p.Add)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	v := view(t, svc)
	r, err := db.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var papers []graph.NodeID
	if err := r.NodeIDs(graph.KindPaper, 0, func(id graph.NodeID) bool { papers = append(papers, id); return true }); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(21, 1))
	sample := func(n int) []graph.NodeID {
		s := slices.Clone(papers)
		rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		return s[:min(n, len(s))]
	}

	t.Run("own text first", func(t *testing.T) {
		first, top3, n := 0, 0, 0
		for _, id := range sample(100) {
			node, err := v.Node(id)
			if err != nil {
				t.Fatal(err)
			}
			abs, err := r.Abstracts(id)
			if err != nil || len(abs) == 0 {
				continue
			}
			n++
			rank := func(title string) int {
				rel, err := v.RelatedWork(graph.RelatedQuery{Text: title + "\n" + abs[0], First: 3})
				if err != nil {
					t.Fatal(err)
				}
				return slices.IndexFunc(rel, func(x graph.Related) bool { return x.Paper.ID == id })
			}
			if i := rank(node.Label); i == 0 {
				first++
			} else {
				t.Logf("own text: %q at %d", node.Label, i)
			}
			if i := rank(reword(node.Label)); i >= 0 {
				top3++
			} else {
				t.Logf("reworded %q: not in the top 3", reword(node.Label))
			}
		}
		t.Logf("%d papers: own text first %d, reworded title in the top 3 %d", n, first, top3)
		if n < 90 || first < n || top3 < n*95/100 {
			t.Errorf("%d papers: own text first for %d (want all), reworded title in the top 3 for %d (want ≥ 95%%)", n, first, top3)
		}
	})

	t.Run("both before one", func(t *testing.T) {
		pairs := [][2]string{{"reward model", "skill"}}
		// and pairs drawn from papers: two of a paper's concepts
		for _, id := range sample(40) {
			cs, err := v.PaperConcepts(id, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(cs) >= 2 {
				i := rng.IntN(len(cs) - 1)
				pairs = append(pairs, [2]string{cs[i].Node.Label, cs[i+1].Node.Label})
			}
		}
		checked := 0
		for _, pair := range pairs {
			var ids [2]graph.NodeID
			missing := false
			for i, name := range pair {
				c, err := v.ConceptByName(name)
				if graph.ErrorCode(err) == graph.NotFound {
					missing = true
					break
				} else if err != nil {
					t.Fatal(err)
				}
				ids[i] = c.ID
			}
			if missing {
				continue
			}
			checked++
			rel, err := v.RelatedWork(graph.RelatedQuery{Concepts: pair[:], First: 100})
			if err != nil {
				t.Fatal(err)
			}
			seenOne := false
			for i, x := range rel {
				has := 0
				for _, c := range ids {
					if _, ok, err := r.Edge(x.Paper.ID, graph.Mentions, c); err != nil {
						t.Fatal(err)
					} else if ok {
						has++
					}
				}
				switch {
				case has == 0:
					t.Errorf("%v: answer %d %q mentions neither", pair, i, x.Paper.Label)
				case has == 1:
					seenOne = true
				case seenOne:
					t.Errorf("%v: answer %d %q mentions both, after one that mentions one", pair, i, x.Paper.Label)
				}
			}
		}
		if checked < 20 {
			t.Errorf("only %d concept pairs checked", checked)
		}
	})

	t.Run("reasons are true", func(t *testing.T) {
		linked := func(p, c graph.NodeID) bool {
			_, ok, err := r.Edge(p, graph.Mentions, c)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		wrote := func(a, p graph.NodeID) bool {
			_, ok, err := r.Edge(a, graph.Authored, p)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		answers := 0
		for _, seed := range sample(50) {
			rel, err := v.RelatedPapers(seed, 10)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range rel {
				answers++
				if x.Paper.ID == seed {
					t.Errorf("%s: the seed is its own related paper", seed)
				}
				if len(x.SharedConcepts)+len(x.SharedAuthors) == 0 || x.Why == "" {
					t.Errorf("%s → %q: no reason (%q)", seed, x.Paper.Label, x.Why)
				}
				for i, c := range x.SharedConcepts {
					if !linked(seed, c.ID) || !linked(x.Paper.ID, c.ID) {
						t.Errorf("%s → %q: shares %q, not linked to both", seed, x.Paper.Label, c.Label)
					}
					if x.ConceptShares[i] <= 0 || i > 0 && x.ConceptShares[i] > x.ConceptShares[i-1] {
						t.Errorf("%s → %q: shares %v not positive and descending", seed, x.Paper.Label, x.ConceptShares)
					}
					// the first three are named, unless inside the name of
					// another ("model agent" beside "large language model
					// agent")
					inside := slices.ContainsFunc(x.SharedConcepts, func(b *graph.Node) bool {
						return b != c && strings.Contains(" "+strings.ReplaceAll(b.Label, "-", " ")+" ", " "+strings.ReplaceAll(c.Label, "-", " ")+" ")
					})
					if i < 3 && !inside && !strings.Contains(x.Why, c.Label) && !slices.ContainsFunc(c.Aliases, func(a string) bool { return strings.Contains(x.Why, a) }) {
						t.Errorf("%s → %q: why %q does not name %q", seed, x.Paper.Label, x.Why, c.Label)
					}
				}
				for _, a := range x.SharedAuthors {
					if !wrote(a.ID, seed) || !wrote(a.ID, x.Paper.ID) {
						t.Errorf("%s → %q: by %q, who did not write both", seed, x.Paper.Label, a.Label)
					}
				}
			}
		}
		if answers < 400 {
			t.Errorf("%d answers for 50 seeds", answers)
		}
	})

	t.Run("filter and exclude", func(t *testing.T) {
		seed := sample(1)[0]
		all, err := v.RelatedPapers(seed, 20)
		if err != nil || len(all) < 2 {
			t.Fatalf("%v, %d answers", err, len(all))
		}
		rel, err := v.RelatedWork(graph.RelatedQuery{Papers: []graph.NodeID{seed}, Exclude: []graph.NodeID{all[0].Paper.ID}, First: 20,
			Filter: &graph.PaperFilter{YearFrom: 2025, YearTo: 2025}})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range rel {
			if x.Paper.ID == all[0].Paper.ID || x.Paper.Year != 2025 {
				t.Errorf("%q (%d): excluded or outside the filter", x.Paper.Label, x.Paper.Year)
			}
		}
		if _, err := v.RelatedWork(graph.RelatedQuery{Concepts: []string{"no such concept xyz"}}); graph.ErrorCode(err) != graph.Invalid || !strings.Contains(err.Error(), "no such concept xyz") {
			t.Errorf("unknown concept: %v, want INVALID naming it", err)
		}
		if _, err := v.RelatedWork(graph.RelatedQuery{First: 10}); graph.ErrorCode(err) != graph.Invalid {
			t.Errorf("nothing given: %v, want INVALID", err)
		}
	})

	// the title-word cosine through the words' rows gives every answer
	// of a loop over each candidate's words: the same papers, in the same
	// order, with the same scores
	t.Run("word postings change nothing", func(t *testing.T) {
		ask := func(seed graph.NodeID, first int) []graph.Related {
			rel, err := v.RelatedPapers(seed, first)
			if err != nil {
				t.Fatal(err)
			}
			return rel
		}
		compared := 0
		for i, seed := range sample(150) {
			first := []int{1, 5, 10, 50}[i%4]
			pruned := ask(seed, first) // through the words' rows
			restore := graph.SetRelWordPostings(false)
			full := ask(seed, first)
			restore()
			if len(pruned) != len(full) {
				t.Fatalf("%s first %d: %d answers with the bound, %d without", seed, first, len(pruned), len(full))
			}
			for j := range full {
				if pruned[j].Paper.ID != full[j].Paper.ID || pruned[j].Score != full[j].Score {
					t.Errorf("%s first %d, #%d: %s %v with the bound, %s %v without", seed, first, j,
						pruned[j].Paper.ID, pruned[j].Score, full[j].Paper.ID, full[j].Score)
				}
			}
			compared += len(full)
		}
		if compared == 0 {
			t.Fatal("no answers compared")
		}
	})
}

// reword rewrites a title as a person might: its words in another order,
// lower case, without its punctuation.
func reword(title string) string {
	words := strings.FieldsFunc(strings.ToLower(title), func(r rune) bool { return r == ' ' || r == ':' || r == ',' || r == '?' })
	slices.Reverse(words)
	return strings.Join(words, " ")
}

// A large team's other work does not bury the papers on the same topic:
// people count as shared over the two teams' sizes, not one reason each.
func TestRelatedTeamDoesNotBuryTopic(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	team := []string{"Ann Lee", "Bo Chen", "Cy Dorn", "Di Eng", "Ed Fox", "Flo Gray", "Gus Hale", "Hu Ives", "Ida Jun", "Jo Kell"}
	ingestRecords(t, svc,
		graph.Record{Title: "A benchmark for reward models", Authors: team,
			Abstract: "We release a reward model benchmark. Reward models score responses; the reward model benchmark tests preference accuracy of reward models."},
		graph.Record{Title: "Protein folding with sparse attention", Authors: team[:8],
			Abstract: "We fold proteins with sparse attention. Protein folding needs long context, and sparse attention makes protein folding fast."},
		graph.Record{Title: "Evaluating reward models on hard preferences", Authors: []string{"Kim Lo", "Lu Ma"},
			Abstract: "Reward models are evaluated on a new reward model benchmark of hard preferences; reward models fail on preference accuracy."},
	)
	v := view(t, svc)
	seed, err := v.PaperByTitle("A benchmark for reward models")
	if err != nil {
		t.Fatal(err)
	}
	rel, err := v.RelatedPapers(seed.ID, 2)
	if err != nil || len(rel) == 0 {
		t.Fatalf("%v, %d answers", err, len(rel))
	}
	if got := rel[0].Paper.Label; got != "Evaluating reward models on hard preferences" {
		t.Errorf("first related paper %q (%s), want the paper on the same topic", got, rel[0].Why)
	}
}
