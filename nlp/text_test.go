package nlp

import "testing"

func TestRepairText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text stays", "plain text stays"},
		{"improve classification perfor- mance. We", "improve classification performance. We"},
		{"pre- and post-training", "pre- and post-training"},
		{"low- to high-level", "low- to high-level"},
		{"multi- agent", "multi- agent"},
		{"large language models(MLLMs) eliminate", "large language models (MLLMs) eliminate"},
		{"(RAG)technologies and f(x) = 1", "(RAG) technologies and f (x) = 1"},
		{"regularization/machine learning, 3/4", "regularization / machine learning, 3/4"},
		{"inference.Transformers renowned; e.g. U.S.", "inference. Transformers renowned; e.g. U.S."},
		{"Large language models~(LLMs) in ``Machine Learning''", `Large language models (LLMs) in "Machine Learning"`},
		{"see https://github.com/a/b-c. Then", "see   Then"},
	} {
		if got := repairText(tc.in); got != tc.want {
			t.Errorf("repairText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzRepairText(f *testing.F) {
	for _, s := range []string{"a- b", "x(Y)z", "a/b", "ab.Cd", "~``''", "é(Ü)", "\xff(\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := repairText(s)
		if len(out) > 3*len(s)+8 {
			t.Fatalf("repairText grew %q to %q", s, out)
		}
		if repairText(out) != repairText(repairText(out)) {
			t.Fatalf("not stable on %q", s)
		}
	})
}
