package graph_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/researchkg/kg/graph"
)

func TestLatexToText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`GD$^2$PO: Mitigating`, "GD²PO: Mitigating"},
		{`\textbf{D}ebiasing via \textbf{I}nformation optimization for \textbf{R}M (DIR)`, "Debiasing via Information optimization for RM (DIR)"},
		{`\textit{e.g.}, \textit{format} and \textit{response length}`, "e.g., format and response length"},
		{`a $T\times I\times R$ grid`, "a T×I×R grid"},
		{`improves by $57.65$ points`, "improves by 57.65 points"},
		{`Sch{\"u}tze and \'{E}cole and {\ss}`, "Schütze and École and ß"},
		{`Garc\'{\i}a`, "García"},
		{`x$_2$ and $x_{ij}$`, "x₂ and xᵢⱼ"},
		{`costs $5 per month`, "costs $5 per month"},
		{`50\% of \& more`, "50% of & more"},
		{"plain {braces} stay", "plain {braces} stay"},
		{"  spaced\r\n out\ttext  ", "spaced out text"},
		{`\unknown{kept} \alpha`, "kept α"},
		{`$^{\dagger}$ note`, "^† note"},
		{`$O(\log n)$ time`, "O(log n) time"},
	} {
		if got := graph.LatexToText(tc.in); got != tc.want {
			t.Errorf("LatexToText(%q): got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTitleKey(t *testing.T) {
	same := [][]string{
		{"GD$^2$PO: Mitigating Multi-Reward Conflicts", "GD²PO: mitigating multi-reward conflicts", "gd2po  mitigating multi reward conflicts"},
		{"SiameseNorm: Breaking the Barrier to Reconciling Pre/Post-Norm", "siamesenorm breaking the barrier to reconciling pre post norm"},
		{"Café Études", "cafe etudes", "CAFÉ—ÉTUDES"},
		{"ﬁne-tuning", "fine tuning"},
	}
	for _, group := range same {
		k := graph.TitleKey(group[0])
		for _, s := range group[1:] {
			if got := graph.TitleKey(s); got != k {
				t.Errorf("TitleKey(%q) = %q, want %q (as for %q)", s, got, k, group[0])
			}
		}
	}
	if graph.TitleKey("Skill Self-Play") == graph.TitleKey("Search Self-play") {
		t.Error("different titles share a key")
	}
}

func TestNameKeys(t *testing.T) {
	if a, b := graph.NameKey("Hinrich  Schütze"), graph.NameKey("hinrich schu\u0308tze"); a != b {
		t.Errorf("NFC: %q vs %q", a, b)
	}
	if graph.NameKey("Hinrich Schütze") == graph.NameKey("Hinrich Schutze") {
		t.Error("NameKey must keep diacritics")
	}
	if a, b := graph.FoldKey("Hinrich Schütze"), graph.FoldKey("HINRICH SCHUTZE"); a != b {
		t.Errorf("FoldKey: %q vs %q", a, b)
	}
	if got := graph.NameKey(`Sch{\"u}tze, Hinrich`); got != "schütze, hinrich" {
		t.Errorf("NameKey with LaTeX accent: %q", got)
	}
}

func TestParseID(t *testing.T) {
	id := graph.MakeID(graph.KindConcept, 42)
	got, err := graph.ParseID(id.String())
	if err != nil || got != id || id.String() != "concept:42" {
		t.Fatalf("round trip: %s → %v, %v", id, got, err)
	}
	for _, bad := range []string{"", "42", "paper:", "paper:0", "paper:-1", "paper:+1", "paper:01", "nope:3", "paper:1x", "paper:72057594037927936"} {
		if _, err := graph.ParseID(bad); graph.ErrorCode(err) != graph.Invalid {
			t.Errorf("ParseID(%q): got %v, want an Invalid error", bad, err)
		}
	}
}

func TestSubjects(t *testing.T) {
	if n, ok := graph.SubjectName("cs.LG"); !ok || n != "Machine Learning" {
		t.Errorf("cs.LG: %q %v", n, ok)
	}
	if c := graph.CanonicalSubject(" CS.lg "); c != "cs.LG" {
		t.Errorf("CanonicalSubject: %q", c)
	}
	for s, want := range map[string]bool{"cs.LG": true, "eess.AS": true, "quant-ph": true, "physics.comp-ph": true, "hello world": false, "cs.": false, "Dynamo": false} {
		if graph.LooksLikeSubject(s) != want {
			t.Errorf("LooksLikeSubject(%q) != %v", s, want)
		}
	}
}

func FuzzLatexToText(f *testing.F) {
	for _, s := range []string{`GD$^2$PO`, `\textbf{D}e`, `{\"u}`, `$$`, `\`, `{{{{`, `}}}`, `$^{`, `\'{`, "\xff$x$"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := graph.LatexToText(s)
		if utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of valid input %q: %q", s, out)
		}
		if len(out) > 4*len(s)+16 {
			t.Fatalf("output grew from %d to %d bytes", len(s), len(out))
		}
		k := graph.TitleKey(s)
		if strings.Contains(k, "  ") || strings.TrimSpace(k) != k {
			t.Fatalf("key %q not space-normalised", k)
		}
	})
}

func FuzzParseID(f *testing.F) {
	f.Add("paper:1")
	f.Add("author:18446744073709551615")
	f.Fuzz(func(t *testing.T, s string) {
		id, err := graph.ParseID(s)
		if err != nil {
			return
		}
		if back, err := graph.ParseID(id.String()); err != nil || back != id {
			t.Fatalf("%q parsed to %v but %s does not round-trip", s, id, id)
		}
	})
}

func FuzzDecodeCursor(f *testing.F) {
	f.Add("bgAPzRIAAAEAAAAAAAAAAWdyb3VuZGluZ3RoZXNjb3Jl")
	f.Add("cgAPzRIB9AEAAAAAAAAAAQ")
	f.Add("-BVhdHAgYmVuY2gAAQAAAAAAAAE")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		for _, o := range []graph.PaperOrder{graph.Newest, graph.Oldest, graph.Relevance} {
			back, err := graph.ReencodeCursor(s, o)
			if err != nil {
				continue
			}
			if again, err := graph.ReencodeCursor(back, o); err != nil || again != back {
				t.Fatalf("cursor %q decoded and encoded as %q, which reads back as %q (%v)", s, back, again, err)
			}
		}
	})
}

func TestConceptKeyMergesVariants(t *testing.T) {
	for _, group := range [][]string{
		{"pre-training", "pretraining", "Pre Training", "PRE-TRAINING"},
		{"vision-language model", "vision language model", "Vision-Language Model"},
		{"RL", "rl"},
	} {
		k := graph.ConceptKey(group[0])
		for _, s := range group[1:] {
			if graph.ConceptKey(s) != k {
				t.Errorf("ConceptKey(%q) = %q, want %q as for %q", s, graph.ConceptKey(s), k, group[0])
			}
		}
	}
	if graph.ConceptKey("reward model") == graph.ConceptKey("reward modeling") {
		t.Error("different terms share a key")
	}
}

// The ASCII fast path of the fold gives what the Unicode path gives.
func FuzzFoldASCII(f *testing.F) {
	for _, s := range []string{"Pre-Training", "GPT-4o", "a  b", "", "x_y.z", "3D Gaussian", "ÀB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := graph.FoldKey(s), graph.FoldKeySlow(s); got != want {
			t.Fatalf("FoldKey(%q) = %q, want %q", s, got, want)
		}
	})
}

// The clean-text fast path returns what the full cleaning returns.
func FuzzCleanText(f *testing.F) {
	for _, s := range []string{"a b", " a", "a  b", "a\tb", "é", "", "x ", "\ufeffa"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := graph.CleanText(s), graph.CleanTextSlow(s); got != want {
			t.Fatalf("CleanText(%q) = %q, want %q", s, got, want)
		}
	})
}

func TestAmericanSpelling(t *testing.T) {
	for in, want := range map[string]string{
		"optimisation": "optimization", "optimised": "optimized", "generalisation": "generalization",
		"behaviours": "behaviors", "colour": "color", "modelling": "modeling", "labelled": "labeled",
		"centre": "center", "centres": "centers", "analyse": "analyze", "catalogue": "catalogue",
		"supervised": "supervised", "noise": "noise", "promise": "promise", "analyses": "analyses",
		"hour": "hour", "metric": "metric", "fulfil": "fulfill", "grey": "gray", "model": "model",
	} {
		if got := graph.AmericanSpelling(in); got != want {
			t.Errorf("AmericanSpelling(%q) = %q, want %q", in, got, want)
		}
	}
	if graph.ConceptKey("Policy Optimisation") != graph.ConceptKey("policy optimization") {
		t.Error("British and American spellings are two concept keys")
	}
	if graph.ConceptKey("dialogue system") != graph.ConceptKey("dialog systems"[:13]) {
		t.Error("dialogue and dialog are two concept keys")
	}
}

// foldedEqual(s, key) is FoldKey(s) == key, for keys folded from any text
// (a search's query), without folding s when it is plain ASCII.
func FuzzFoldedEqual(f *testing.F) {
	for _, p := range [][2]string{{"Learning", "learning"}, {"Deep  Learning!", "deep learning"}, {"learning", "Learning to Rank"},
		{"GPT-4o", "gpt 4o"}, {"Schrödinger", "schrodinger"}, {`\textbf{Learning}`, "learning"}, {"a\x00b", "ab"}, {"", ""}, {"-", ""}} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, s, q string) {
		for _, key := range []string{graph.FoldKey(q), graph.FoldKey(s), q} {
			if got, want := graph.FoldedEqual(s, key), graph.FoldKey(s) == key; got != want {
				t.Fatalf("foldedEqual(%q, %q) = %v, want %v", s, key, got, want)
			}
		}
	})
}
