package ident_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/researchkg/kg/graph/ident"
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
		if got := ident.LatexToText(tc.in); got != tc.want {
			t.Errorf("ident.LatexToText(%q): got %q, want %q", tc.in, got, tc.want)
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
		k := ident.TitleKey(group[0])
		for _, s := range group[1:] {
			if got := ident.TitleKey(s); got != k {
				t.Errorf("ident.TitleKey(%q) = %q, want %q (as for %q)", s, got, k, group[0])
			}
		}
	}
	if ident.TitleKey("Skill Self-Play") == ident.TitleKey("Search Self-play") {
		t.Error("different titles share a key")
	}
}

func TestNameKeys(t *testing.T) {
	if a, b := ident.NameKey("Hinrich  Schütze"), ident.NameKey("hinrich schu\u0308tze"); a != b {
		t.Errorf("NFC: %q vs %q", a, b)
	}
	if ident.NameKey("Hinrich Schütze") == ident.NameKey("Hinrich Schutze") {
		t.Error("NameKey must keep diacritics")
	}
	if a, b := ident.FoldKey("Hinrich Schütze"), ident.FoldKey("HINRICH SCHUTZE"); a != b {
		t.Errorf("FoldKey: %q vs %q", a, b)
	}
	if got := ident.NameKey(`Sch{\"u}tze, Hinrich`); got != "schütze, hinrich" {
		t.Errorf("NameKey with LaTeX accent: %q", got)
	}
}

func TestSubjects(t *testing.T) {
	if n, ok := ident.SubjectName("cs.LG"); !ok || n != "Machine Learning" {
		t.Errorf("cs.LG: %q %v", n, ok)
	}
	if c := ident.CanonicalSubject(" CS.lg "); c != "cs.LG" {
		t.Errorf("CanonicalSubject: %q", c)
	}
	for s, want := range map[string]bool{"cs.LG": true, "eess.AS": true, "quant-ph": true, "physics.comp-ph": true, "hello world": false, "cs.": false, "Dynamo": false} {
		if ident.LooksLikeSubject(s) != want {
			t.Errorf("ident.LooksLikeSubject(%q) != %v", s, want)
		}
	}
}

func FuzzLatexToText(f *testing.F) {
	for _, s := range []string{`GD$^2$PO`, `\textbf{D}e`, `{\"u}`, `$$`, `\`, `{{{{`, `}}}`, `$^{`, `\'{`, "\xff$x$"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := ident.LatexToText(s)
		if utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of valid input %q: %q", s, out)
		}
		if len(out) > 4*len(s)+16 {
			t.Fatalf("output grew from %d to %d bytes", len(s), len(out))
		}
		k := ident.TitleKey(s)
		if strings.Contains(k, "  ") || strings.TrimSpace(k) != k {
			t.Fatalf("key %q not space-normalised", k)
		}
	})
}

func TestConceptKeyMergesVariants(t *testing.T) {
	for _, group := range [][]string{
		{"pre-training", "pretraining", "Pre Training", "PRE-TRAINING"},
		{"vision-language model", "vision language model", "Vision-Language Model"},
		{"RL", "rl"},
	} {
		k := ident.ConceptKey(group[0])
		for _, s := range group[1:] {
			if ident.ConceptKey(s) != k {
				t.Errorf("ident.ConceptKey(%q) = %q, want %q as for %q", s, ident.ConceptKey(s), k, group[0])
			}
		}
	}
	if ident.ConceptKey("reward model") == ident.ConceptKey("reward modeling") {
		t.Error("different terms share a key")
	}
}

// The ASCII fast path of the fold gives what the Unicode path gives.
func FuzzFoldASCII(f *testing.F) {
	for _, s := range []string{"Pre-Training", "GPT-4o", "a  b", "", "x_y.z", "3D Gaussian", "ÀB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ident.FoldKey(s), ident.FoldKeySlow(s); got != want {
			t.Fatalf("ident.FoldKey(%q) = %q, want %q", s, got, want)
		}
	})
}

// The clean-text fast path returns what the full cleaning returns.
func FuzzCleanText(f *testing.F) {
	for _, s := range []string{"a b", " a", "a  b", "a\tb", "é", "", "x ", "\ufeffa"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ident.CleanText(s), ident.CleanTextSlow(s); got != want {
			t.Fatalf("ident.CleanText(%q) = %q, want %q", s, got, want)
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
		if got := ident.AmericanSpelling(in); got != want {
			t.Errorf("ident.AmericanSpelling(%q) = %q, want %q", in, got, want)
		}
	}
	if ident.ConceptKey("Policy Optimisation") != ident.ConceptKey("policy optimization") {
		t.Error("British and American spellings are two concept keys")
	}
	if ident.ConceptKey("dialogue system") != ident.ConceptKey("dialog systems"[:13]) {
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
		for _, key := range []string{ident.FoldKey(q), ident.FoldKey(s), q} {
			if got, want := ident.FoldedEqual(s, key), ident.FoldKey(s) == key; got != want {
				t.Fatalf("ident.FoldedEqual(%q, %q) = %v, want %v", s, key, got, want)
			}
		}
	})
}
