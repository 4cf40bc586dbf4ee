package graph_test

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/ident"
)

// mentionOracle says whether a text mentions a concept, by surface form and
// nothing else: the long form's words joined by spaces or hyphens, the last
// one in the plural or not, any case, -ize words in -ise too; or the
// acronym as a word (in the plural too), case kept.
func mentionOracle(long string, acronyms ...string) func(string) bool {
	if ident.IsAcronym(long) && !strings.ContainsAny(long, " -") {
		// a name that is an acronym ("FACE", "CLIP") is said as written,
		// not as the common word
		return mentionOracle("\x00", append(acronyms, long)...)
	}
	words := strings.FieldsFunc(long, func(r rune) bool { return r == ' ' || r == '-' })
	for i, w := range words {
		// British spellings: optimisation
		words[i] = strings.ReplaceAll(regexp.QuoteMeta(w), "iz", "i[sz]")
	}
	last := words[len(words)-1]
	if l, ok := strings.CutSuffix(last, "y"); ok {
		last = l + "(?:y|ies)" // capability, capabilities
	} else {
		last += `(?:s|es)?`
	}
	words[len(words)-1] = last
	// words joined by spaces or hyphens, or by nothing ("pretraining")
	// a name of several words is not said after a hyphen: the tail of a
	// hyphenated word starts no name that goes on past it ("augmented
	// generation" is not said in "retrieval-augmented generation")
	start := `\b`
	if strings.Contains(long, " ") {
		start = `(?:^|[^\p{L}\p{N}-])`
	}
	res := []*regexp.Regexp{regexp.MustCompile(`(?i)` + start + strings.Join(words, `[\s-]*`) + `\b`)}
	for _, a := range acronyms {
		res = append(res, regexp.MustCompile(`\b`+regexp.QuoteMeta(a)+`s?\b`))
	}
	return func(text string) bool {
		for _, re := range res {
			if re.MatchString(text) {
				return true
			}
		}
		return false
	}
}

// paperTexts reads every paper's title and abstracts.
func paperTexts(t testing.TB, db interface {
	Read(context.Context) (graph.Reader, error)
}) map[graph.NodeID]string {
	t.Helper()
	r, err := db.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out := map[graph.NodeID]string{}
	err = r.NodeIDs(graph.KindPaper, 0, func(id graph.NodeID) bool {
		n, abs := paperText(t, r, id)
		// a title ends a sentence: "… Using Large Language Model" and
		// "Knowledge about …" make no "large language model knowledge"
		out[id] = ident.LatexToText(n.Label + ".\n" + strings.Join(abs, "\n"))
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The seed themes of the issue are concepts linked to every seed paper
// that mentions them, and to none that does not, whatever order the pages
// come in: a concept made by the second paper that votes for it is linked
// back to the papers read before it existed.
func TestSeedMentionsAreLinked(t *testing.T) {
	themes := []struct {
		name     string
		acronyms []string
	}{
		{"reinforcement learning", []string{"RL"}},
		{"reward model", []string{"RM"}},
		{"skill", nil},
		{"multimodal large language model", []string{"MLLM"}},
		{"large language model", []string{"LLM"}},
		{"policy optimization", nil},
	}
	files := seedFiles(t)
	rev := slices.Clone(files)
	slices.Reverse(rev)
	for _, order := range []struct {
		name  string
		files []string
	}{{"forward", files}, {"reverse", rev}} {
		t.Run(order.name, func(t *testing.T) {
			db := MustOpen(t)
			svc := graph.NewService(db, extractor)
			ingestFiles(t, svc, order.files...)
			texts := paperTexts(t, db)
			v := view(t, svc)
			for _, th := range themes {
				c, err := v.ConceptByName(th.name)
				if err != nil {
					t.Errorf("%s: %v", th.name, err)
					continue
				}
				pg, err := v.Papers(c.ID, 100, "")
				if err != nil {
					t.Fatal(err)
				}
				linked := map[graph.NodeID]bool{}
				for _, p := range pg.Papers {
					linked[p.ID] = true
				}
				says := mentionOracle(th.name, th.acronyms...)
				want := 0
				for id, text := range texts {
					if !says(text) {
						if linked[id] {
							t.Errorf("%s: linked to %q, which does not mention it", th.name, firstLine(text))
						}
						continue
					}
					want++
					if !linked[id] {
						t.Errorf("%s: not linked to %q, which mentions it", th.name, firstLine(text))
					}
				}
				if want < 2 {
					t.Errorf("%s: mentioned by %d seed papers; the test needs two or more", th.name, want)
				}
			}
		})
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// ingestRecords ingests records, one document each.
func ingestRecords(t *testing.T, svc *graph.Service, recs ...graph.Record) {
	t.Helper()
	for i, rec := range recs {
		rec.Line = 1
		if len(rec.Authors) == 0 {
			rec.Authors = []string{"A. Writer"}
		}
		if _, err := svc.Ingest(context.Background(), graph.Document{Source: "doc" + strconv.Itoa(i), Records: []graph.Record{rec}}); err != nil {
			t.Fatal(err)
		}
	}
}

// One node per idea: case, hyphen and space, plural, British spelling and
// an acronym inside a name are the same concept, whatever the first paper
// wrote.
func TestOneNodePerIdea(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ingestRecords(t, svc,
		graph.Record{Title: "Agent RL at scale", Abstract: "We study reinforcement learning (RL) for agents. Agent RL explores with policy optimisation, and agent RL scales with policy optimisation."},
		graph.Record{Title: "Agent reinforcement learning for web tasks", Abstract: "Agent reinforcement learning trains web agents. Policy optimization of agent reinforcement learning helps, and policy optimization is fast."},
		graph.Record{Title: "Retrieval Augmented Generation for Science", Abstract: "Retrieval augmented generation (RAG) grounds answers; retrieval augmented generation is cheap."},
		graph.Record{Title: "Faster retrieval-augmented generation", Abstract: "Retrieval-augmented generation systems cache documents. Retrieval-augmented generation scales."},
	)
	v := view(t, svc)
	for _, group := range [][]string{
		{"agent reinforcement learning", "agent RL", "Agent Reinforcement-Learning", "agent reinforcement learnings"},
		{"policy optimization", "policy optimisation", "Policy-Optimization"},
		{"retrieval-augmented generation", "retrieval augmented generation", "RAG", "Retrieval Augmented Generations"},
	} {
		first, err := v.ConceptByName(group[0])
		if err != nil {
			t.Errorf("%q: %v", group[0], err)
			continue
		}
		for _, name := range group[1:] {
			if c, err := v.ConceptByName(name); err != nil || c.ID != first.ID {
				t.Errorf("%q is not the concept %q (%v)", name, first.Label, err)
			}
		}
		pg, _ := v.Papers(first.ID, 10, "")
		if pg.Total != 2 {
			t.Errorf("%s: %d papers, want 2", first.Label, pg.Total)
		}
	}
}

// A long form that differs only in a function word from the long form of
// a concept with the same acronym is that concept's alias, not a concept
// of its own: "reinforcement learning with human feedback" is RLHF.
func TestFunctionWordVariantIsAlias(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ingestRecords(t, svc,
		graph.Record{Title: "Reward hacking in RLHF", Abstract: "Reinforcement learning from human feedback (RLHF) aligns models. RLHF needs reward models, and RLHF is costly."},
		graph.Record{Title: "Scaling RLHF", Abstract: "Reinforcement learning from human feedback (RLHF) scales. We study RLHF data and RLHF compute."},
		graph.Record{Title: "Safer RLHF", Abstract: "Reinforcement learning with human feedback (RLHF) can be unsafe. We make RLHF safe; RLHF with constraints works."},
		graph.Record{Title: "RLHF for code", Abstract: "Reinforcement learning with human feedback (RLHF) for code models. RLHF improves tests, and RLHF helps."},
		graph.Record{Title: "Learning to rank documents", Abstract: "Learning to rank (LTR) orders documents. LTR models rank, and learning to rank is old."},
		graph.Record{Title: "Neural learning to rank", Abstract: "Learning to rank (LTR) with networks. LTR losses help learning to rank."},
	)
	v := view(t, svc)
	from, err := v.ConceptByName("reinforcement learning from human feedback")
	if err != nil {
		t.Fatal(err)
	}
	with, err := v.ConceptByName("reinforcement learning with human feedback")
	if err != nil || with.ID != from.ID {
		t.Fatalf("the \"with\" long form is %v (%v), want the concept %q", with, err, from.Label)
	}
	if pg, _ := v.Papers(from.ID, 10, ""); pg.Total != 4 {
		t.Errorf("%s: %d papers, want 4", from.Label, pg.Total)
	}
	if _, err := v.ConceptByName("learning to rank"); err != nil {
		t.Errorf("learning to rank: %v", err)
	}
}

// A concept followed by a genre word ("reinforcement learning method") is
// that concept, not one of its own; a one-word front is left alone.
func TestGenreTailIsNoConcept(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ingestRecords(t, svc,
		graph.Record{Title: "Reinforcement learning for robots", Abstract: "Reinforcement learning trains robots. Reinforcement learning is sample hungry."},
		graph.Record{Title: "Reinforcement learning in games", Abstract: "Reinforcement learning plays games; reinforcement learning wins."},
		graph.Record{Title: "A reinforcement learning method for routing", Abstract: "Our reinforcement learning method routes packets. The reinforcement learning method beats heuristics, and the reinforcement learning method is fast."},
		graph.Record{Title: "A reinforcement learning method for trading", Abstract: "We propose a reinforcement learning method for trading. Our reinforcement learning method learns; the reinforcement learning method wins."},
	)
	v := view(t, svc)
	if c, err := v.ConceptByName("reinforcement learning method"); err == nil && c.Label != "reinforcement learning" {
		t.Errorf("%q is a concept", c.Label)
	}
	rl, err := v.ConceptByName("reinforcement learning")
	if err != nil {
		t.Fatal(err)
	}
	if pg, _ := v.Papers(rl.ID, 10, ""); pg.Total != 4 {
		t.Errorf("reinforcement learning: %d papers, want 4", pg.Total)
	}
}

// A bare acronym stands for the concept most papers that define it define
// it as; when they disagree, a paper that uses it bare is linked to
// neither.
func TestAmbiguousAcronym(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ingestRecords(t, svc,
		graph.Record{Title: "Image super-resolution with diffusion", Abstract: "Image super-resolution (SR) recovers detail. SR models upscale. Super-resolution matters."},
		graph.Record{Title: "Super-resolution transformers", Abstract: "Super-resolution (SR) with transformers. Our SR network sharpens super-resolution output."},
		graph.Record{Title: "Symbolic regression by search", Abstract: "Symbolic regression (SR) finds formulas. SR is hard. Symbolic regression scales."},
		graph.Record{Title: "Symbolic regression with language models", Abstract: "Symbolic regression (SR) with LLMs. SR benchmarks use symbolic regression."},
		graph.Record{Title: "A benchmark for SR", Abstract: "We release a benchmark for SR methods and evaluate SR baselines."},
	)
	v := view(t, svc)
	bare, err := v.PaperByTitle("A benchmark for SR")
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := v.PaperConcepts(bare.ID, 20)
	for _, c := range cs {
		if c.Node.Label == "super-resolution" || c.Node.Label == "symbolic regression" {
			t.Errorf("the bare SR of %q is linked to %s; the corpus defines SR two ways", bare.Label, c.Node.Label)
		}
	}
	for _, name := range []string{"super-resolution", "symbolic regression"} {
		c, err := v.ConceptByName(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if pg, _ := v.Papers(c.ID, 10, ""); pg.Total != 2 {
			t.Errorf("%s: %d papers, want 2", name, pg.Total)
		}
	}
}

// Ingest refuses a store whose concepts an older extractor made, and says
// what to run; recompute brings it to the current rules.
func TestStaleConceptsNeedRecompute(t *testing.T) {
	db := MustOpen(t)
	old := graph.NewService(db, versioned{extractor, "kg-terms-5"})
	ingestFiles(t, old, seedFiles(t)[0])
	svc := graph.NewService(db, extractor)
	err := svc.TermsCurrent(context.Background())
	if graph.ErrorCode(err) != graph.Conflict || !strings.Contains(err.Error(), "kg recompute") {
		t.Fatalf("TermsCurrent on a kg-terms-5 store: %v, want a Conflict naming kg recompute", err)
	}
	_, err = svc.Ingest(context.Background(), graph.Document{Source: "x", Records: []graph.Record{{Title: "A paper", Abstract: "reinforcement learning", Authors: []string{"A"}, Line: 1}}})
	if graph.ErrorCode(err) != graph.Conflict {
		t.Errorf("ingest into a stale store: %v, want Conflict", err)
	}
	if _, err := svc.RecomputeConcepts(context.Background(), 2, nil); err != nil {
		t.Fatal(err)
	}
	if err := svc.TermsCurrent(context.Background()); err != nil {
		t.Errorf("after recompute: %v", err)
	}
	conceptsConsistent(t, svc, db)
}

// versioned is an extractor that says it is another version.
type versioned struct {
	graph.TermExtractor
	v string
}

func (x versioned) Version() string { return x.v }

// conceptLayer describes the concepts of a store by name, not id: each
// concept with its aliases and broader concept, each mention by paper title
// and weight, each co-occurrence pair.
func conceptLayer(t *testing.T, db interface {
	Read(context.Context) (graph.Reader, error)
}) []string {
	t.Helper()
	r, err := db.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	label := func(id graph.NodeID) string {
		n, err := r.Node(id)
		if err != nil {
			t.Fatal(err)
		}
		if id.Kind() == graph.KindPaper {
			return ident.TitleKey(n.Label)
		}
		return n.Label
	}
	var out []string
	r.NodeIDs(graph.KindConcept, 0, func(c graph.NodeID) bool {
		n, _ := r.Node(c)
		line := "C " + n.Label + " | " + strings.Join(n.Aliases, ",")
		r.Edges(c, graph.Broader, graph.Out, func(b graph.NodeID, _ float64) bool { line += " < " + label(b); return true })
		out = append(out, line)
		r.Edges(c, graph.Mentions, graph.In, func(p graph.NodeID, w float64) bool {
			out = append(out, "M "+label(p)+" | "+n.Label+" | "+strconv.FormatFloat(w, 'f', 3, 64))
			return true
		})
		r.Pairs(graph.CoOccurs, c, func(b graph.NodeID, k int64) bool {
			out = append(out, "P "+n.Label+" | "+label(b)+" | "+strconv.FormatInt(k, 10))
			return true
		})
		return true
	})
	slices.Sort(out)
	return out
}

// Recompute rebuilds the concept layer from the stored papers alone: the
// same concepts, names, links, weights and pairs whatever order the papers
// came in.
func TestRecomputeIsOrderIndependent(t *testing.T) {
	files := seedFiles(t)
	rev := slices.Clone(files)
	slices.Reverse(rev)
	var layers [][]string
	for _, order := range [][]string{files, rev} {
		db := MustOpen(t)
		svc := graph.NewService(db, extractor)
		ingestFiles(t, svc, order...)
		if _, err := svc.RecomputeConcepts(context.Background(), 2, nil); err != nil {
			t.Fatal(err)
		}
		conceptsConsistent(t, svc, db)
		layers = append(layers, conceptLayer(t, db))
	}
	if !slices.Equal(layers[0], layers[1]) {
		a, b := layers[0], layers[1]
		for i := 0; i < min(len(a), len(b)); i++ {
			if a[i] != b[i] {
				t.Fatalf("recompute after ingesting the pages in two orders: %d and %d lines, first difference:\n%s\n%s", len(a), len(b), a[i], b[i])
			}
		}
		t.Fatalf("recompute after ingesting the pages in two orders: %d and %d lines", len(a), len(b))
	}
}

// A concept named by an acronym that is also a word ("FACE", a method) is
// linked to the papers that write the acronym, not to the earlier papers
// whose recorded uses of the word share its key.
func TestAcronymNamedConceptIsNotTheWord(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ingestRecords(t, svc,
		graph.Record{Title: "Landmark alignment under occlusion", Abstract: "We align landmarks on the face under occlusion."},
		graph.Record{Title: "Relighting portraits", Abstract: "Light falls on the face of a portrait; we relight portraits."},
		graph.Record{Title: "FACE: Faithful Attribution of Concept Explanations", Abstract: "We propose FACE. FACE attributes concepts to explanations, and FACE is faithful."},
		graph.Record{Title: "Scaling FACE to large models", Abstract: "FACE attributes concepts. We scale FACE, and FACE stays faithful."},
	)
	v := view(t, svc)
	c, err := v.ConceptByName("FACE")
	if err != nil || c.Label != "FACE" {
		t.Fatalf("concept FACE: %v, %v", c, err)
	}
	pg, err := v.Papers(c.ID, 10, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pg.Papers {
		if !strings.Contains(p.Label, "FACE") {
			t.Errorf("%s is linked to %q, which says only the word", c.Label, p.Label)
		}
	}
	if pg.Total < 2 {
		t.Errorf("%s: %d papers, want the 2 that write it", c.Label, pg.Total)
	}
}
