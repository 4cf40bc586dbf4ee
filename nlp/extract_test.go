package nlp_test

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/nlp"
)

var ex = nlp.New()

func find(terms []graph.Term, name string) *graph.Term {
	for i := range terms {
		if terms[i].Name == name {
			return &terms[i]
		}
	}
	return nil
}

func TestAcronymDefinitions(t *testing.T) {
	for _, tc := range []struct{ text, name, alias string }{
		{"We study reinforcement learning (RL) for agents. RL is hard.", "reinforcement learning", "RL"},
		{"Interleaved generation for Multimodal Large Language Models (MLLMs) is new.", "multimodal large language model", "MLLM"},
		{"Vision-language process reward models (VL-PRMs) score steps.", "vision-language process reward model", "VL-PRM"},
		{`We propose \textbf{D}ebiasing via \textbf{I}nformation optimization for \textbf{R}M (DIR), a method.`, "debiasing via information optimization for RM", "DIR"},
	} {
		terms := ex.Extract("A title", tc.text)
		got := find(terms, tc.name)
		if got == nil {
			t.Errorf("%q: no term %q in %v", tc.text, tc.name, names(terms))
			continue
		}
		if !slices.Contains(got.Aliases, tc.alias) {
			t.Errorf("%q: %q aliases %v, want %s", tc.text, tc.name, got.Aliases, tc.alias)
		}
	}
}

func names(ts []graph.Term) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

func TestCanonicalForms(t *testing.T) {
	terms := ex.Extract("Scaling Reward Models", "Reward models guide policies. We train process reward models and reward models on many strategies.")
	if find(terms, "reward model") == nil {
		t.Errorf("want singular lower-case \"reward model\" in %v", names(terms))
	}
	for _, tm := range terms {
		if tm.Score <= 0 || tm.Score > 1 {
			t.Errorf("%s: score %v outside (0, 1]", tm.Name, tm.Score)
		}
		if strings.ToLower(tm.Name) != tm.Name && !strings.ContainsAny(tm.Name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			t.Errorf("%q", tm.Name)
		}
	}
	for _, generic := range []string{"method", "result", "experiment", "paper"} {
		if find(terms, generic) != nil {
			t.Errorf("generic term %q extracted", generic)
		}
	}
	// a -che word's plural: "caches" is "cache", "approaches" "approach"
	terms = ex.Extract("Compressing key-value caches", "Key-value caches grow with context. We compress key-value caches with two approaches.")
	if find(terms, "key-value cache") == nil {
		t.Errorf("want \"key-value cache\" in %v", names(terms))
	}
}

// The themes a reader sees at once on the seed pages come out as terms.
func TestSeedThemes(t *testing.T) {
	b, err := os.ReadFile("../testdata/seeds/000_2b6da9e22186d8f2.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	all := map[string]bool{}
	for i := 2; i+1 < len(lines); i += 2 {
		for _, tm := range ex.Extract(lines[i], lines[i+1]) {
			all[tm.Name] = true
		}
	}
	for _, want := range []string{"multimodal large language model", "large language model", "skill", "transferable agent skill", "process reward model", "vision-language process reward model", "Trace2Skill"} {
		if !all[want] {
			t.Errorf("seed page 000: no %q among %d terms", want, len(all))
		}
	}
}

func TestDeterministic(t *testing.T) {
	text := "Large language models (LLMs) use reinforcement learning (RL) with reward models."
	a, b := ex.Extract("T", text), ex.Extract("T", text)
	if len(a) != len(b) {
		t.Fatal("different lengths")
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Score != b[i].Score {
			t.Fatalf("run differs at %d: %v vs %v", i, a[i], b[i])
		}
	}
}

func FuzzExtract(f *testing.F) {
	f.Add("Title", "reinforcement learning (RL) and RL")
	f.Add("", "((()))")
	f.Add("$x$", `\textbf{`)
	f.Fuzz(func(t *testing.T, title, text string) {
		for _, tm := range ex.Extract(title, text) {
			if tm.Name == "" || tm.Score <= 0 {
				t.Fatalf("bad term %+v", tm)
			}
		}
	})
}

func BenchmarkExtract(b *testing.B) {
	data, err := os.ReadFile("../testdata/seeds/000_2b6da9e22186d8f2.txt")
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ex.Extract(lines[2], lines[3])
	}
}

// Ranking does not change the analysis it ranks: ingest caches analyses,
// reads their keys for document frequencies and may rank them again. It
// did once (a bare acronym resolved through corpus statistics renamed the
// candidate in place), and the arXiv ingest then counted a few texts under
// "artificial intelligence" instead of "AI" depending on what had been
// ranked before.
func TestRankLeavesTheAnalysisAlone(t *testing.T) {
	e := nlp.New()
	a := e.Candidates("AI for reinforcement learning", "We apply AI and RL agents to AI planning problems in robotics.")
	stats := nlp.NewMemStats()
	stats.N = 100
	stats.Acronyms["AI"] = "artificial intelligence"
	stats.Acronyms["RL"] = "reinforcement learning"
	stats.DF["acr:AI"], stats.DF["acr:RL"] = 10, 10 // spelled out, so a short form
	keys := slices.Clone(a.Keys())
	first := a.Rank(stats, 10)
	if !slices.Equal(keys, a.Keys()) {
		t.Errorf("keys changed by ranking:\n%v\n%v", keys, a.Keys())
	}
	if again := a.Rank(stats, 10); !reflect.DeepEqual(first, again) {
		t.Errorf("ranking twice differs:\n%v\n%v", first, again)
	}
	found := false
	for _, term := range first {
		found = found || term.Name == "artificial intelligence"
	}
	if !found {
		t.Errorf("the bare acronym was not resolved through the statistics: %v", first)
	}
}
