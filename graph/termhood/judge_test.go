package termhood_test

import (
	"math"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph/termhood"
)

// arxivDocs is the arXiv file in ../shared: its papers and the words of
// their titles and abstracts (186 a paper); the figures below are its
// store's counters (df/, kt/) before termhood.
var arxivDocs = termhood.Corpus{Papers: 47919, Words: 8_932_000}

func words(name string) []string {
	return strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == ' ' || r == '-' })
}

func concept(name string, df, votes int) termhood.Concept {
	acr := !strings.Contains(name, " ") && strings.ToUpper(name) == name && strings.ToLower(name) != name
	return termhood.Concept{Name: name, Words: words(name), Acronym: acr, DocFreq: df, Votes: votes, Broader: -1}
}

// narrowerOf makes concepts whose broader concept is cs[0].
func narrowerOf(cs []termhood.Concept, kids ...termhood.Concept) []termhood.Concept {
	for _, k := range kids {
		k.Broader = 0
		cs = append(cs, k)
	}
	return cs
}

func TestJudge(t *testing.T) {
	for _, tc := range []struct {
		name string
		cs   []termhood.Concept // the first is judged
		want termhood.Reason
	}{
		// a word that papers are about, far more common in them than in speech
		{"quantization", []termhood.Concept{concept("quantization", 448, 45)}, termhood.Term},
		{"hallucination", []termhood.Concept{concept("hallucination", 1333, 164)}, termhood.Term},
		// mostly the head of compounds: its own uses are what counts, and
		// those are rarely what a paper is about (C-value)
		{"network", narrowerOf([]termhood.Concept{concept("network", 5663, 14)}, concept("neural network", 2309, 126),
			concept("convolutional network", 500, 30), concept("adversarial network", 600, 20), concept("graph network", 300, 20)), termhood.RarelyKey},
		{"space", narrowerOf([]termhood.Concept{concept("space", 4057, 3)}, concept("latent space", 724, 87)), termhood.CommonWord},
		// the head of compounds that are kinds of it, with its own papers about it
		{"segmentation", narrowerOf([]termhood.Concept{concept("segmentation", 3155, 29)}, concept("semantic segmentation", 619, 149),
			concept("image segmentation", 574, 56), concept("medical image segmentation", 400, 80),
			concept("instance segmentation", 400, 60), concept("video object segmentation", 653, 60)), termhood.Term},
		// used only inside its narrower concept, and its own few uses
		// are no key term of anyone's
		{"splatting", narrowerOf([]termhood.Concept{concept("splatting", 928, 2)}, concept("gaussian splatting", 908, 157)), termhood.RarelyKey},
		// as common in speech as in papers
		{"failure", []termhood.Concept{concept("failure", 1401, 20)}, termhood.CommonWord},
		{"family", []termhood.Concept{concept("family", 700, 10)}, termhood.CommonWord},
		// rare in speech, never what a paper is about
		{"consistency", []termhood.Concept{concept("consistency", 3629, 13)}, termhood.RarelyKey},
		{"detection", []termhood.Concept{concept("detection", 5671, 8)}, termhood.RarelyKey},
		// phrases: what papers are about, and what they only say
		{"large language model", []termhood.Concept{concept("large language model", 13745, 9493)}, termhood.Term},
		{"reward model", []termhood.Concept{concept("reward model", 468, 124)}, termhood.Term},
		{"training data", []termhood.Concept{concept("training data", 1967, 112)}, termhood.RarelyKey},
		{"computational cost", []termhood.Concept{concept("computational cost", 1385, 21)}, termhood.RarelyKey},
		// nested: "language model" is mostly "large language model", and
		// its own uses are about it often enough
		{"language model", narrowerOf([]termhood.Concept{concept("language model", 16057, 245)},
			concept("large language model", 13745, 9493), concept("small language model", 300, 100)), termhood.Term},
		// the front of longer terms (all of them together)
		{"natural language", []termhood.Concept{concept("natural language", 595, 119), concept("natural language processing", 772, 472),
			concept("natural language understanding", 300, 100), concept("natural language generation", 63, 37),
			concept("natural language inference", 150, 40)}, termhood.Front},
		// hyphenated words are ranked as one word: a lower bar
		{"fine-tuning", narrowerOf([]termhood.Concept{concept("fine-tuning", 3980, 37)}, concept("supervised fine-tuning", 924, 457)), termhood.Term},
		{"trade-off", []termhood.Concept{concept("trade-off", 1745, 7)}, termhood.RarelyKey},
		// names and acronyms are terms; a name that is a word is the word
		{"RL", []termhood.Concept{concept("RL", 500, 0)}, termhood.Term},
		{"ImageNet", []termhood.Concept{concept("ImageNet", 450, 3)}, termhood.Term},
		{"GPT-5", []termhood.Concept{concept("GPT-5", 216, 1)}, termhood.Term},
		{"Stream", []termhood.Concept{concept("Stream", 700, 3)}, termhood.CommonWord},
		{"ReVision", []termhood.Concept{concept("ReVision", 129, 5)}, termhood.CommonWord},
		// a concept of few papers keeps the benefit of the doubt
		{"agent skill", []termhood.Concept{concept("agent skill", 4, 2)}, termhood.Term},
		{"reward hacking", []termhood.Concept{concept("reward hacking", 74, 11)}, termhood.Term},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := termhood.Judge(tc.cs, arxivDocs)[0]
			if v.Reason != tc.want {
				t.Errorf("%s: %s (keyness %.3f, weirdness %.1f), want reason %d", tc.name, v, v.Keyness, v.Weirdness, tc.want)
			}
		})
	}
}

// Screen rejects only what no narrower concept could save, and nothing
// of few papers.
func TestScreen(t *testing.T) {
	for _, tc := range []struct {
		c    termhood.Concept
		want bool
	}{
		{concept("space", 4057, 3), false},
		{concept("failure", 1401, 20), false},
		{concept("segmentation", 3155, 29), true}, // its narrower concepts may make it one
		{concept("training data", 1967, 112), true},
		{concept("model performance", 1039, 28), true}, // 28 votes of a tenth of its papers is over the bar
		{concept("learning framework", 973, 2), false},
		{concept("space", 25, 0), true}, // too few papers to tell
	} {
		if got := termhood.Screen(tc.c, arxivDocs).IsTerm(); got != tc.want {
			t.Errorf("Screen(%s, df %d, votes %d) = %v, want %v", tc.c.Name, tc.c.DocFreq, tc.c.Votes, got, tc.want)
		}
	}
}

func TestKindOf(t *testing.T) {
	for _, tc := range []struct {
		modifier, head string
		want           bool
	}{
		{"multi-agent", "reinforcement learning", true},
		{"offline", "reinforcement learning", true},
		{"inverse", "reinforcement learning", true},
		{"hierarchical", "reinforcement learning", true},
		{"deep", "reinforcement learning", true},
		{"preference-based", "reinforcement learning", true},
		{"captioning", "reinforcement learning", false},
		{"scaling", "reinforcement learning", false},
		{"generation", "reinforcement learning", false},
		{"complexity-boosting", "reinforcement learning", false},
		{"multi-image reasoning and grounding with", "reinforcement learning", false},
		{"instruction", "tuning", false},
		{"hallucination", "detection", true},
		{"image", "generation", true},
		{"visual", "question answering", true},
		{"process", "reward model", true},
	} {
		if got := termhood.KindOf(strings.Fields(tc.modifier), tc.head); got != tc.want {
			t.Errorf("KindOf(%q, %q) = %v, want %v", tc.modifier, tc.head, got, tc.want)
		}
	}
}

func TestWeirdness(t *testing.T) {
	// spoken English says "failure" often, "segmentation" hardly ever
	if f, s := termhood.EnglishPerMillion("failure"), termhood.EnglishPerMillion("segmentation"); f < 10 || s > 0.1 {
		t.Errorf("per million words: failure %.2f, segmentation %.2f", f, s)
	}
	if p, s := termhood.EnglishPerMillion("Failures"), termhood.EnglishPerMillion("failure"); p <= 0 || p >= s {
		t.Errorf("failures %.2f a million, failure and failures %.2f: a singular counts its plural too, in any case", p, s)
	}
	if w := termhood.Weirdness("failure", 1401, arxivDocs); w > 20 {
		t.Errorf("weirdness of failure %.1f, want under 20", w)
	}
	if w := termhood.Weirdness("transformer", 3499, arxivDocs); w < 100 {
		t.Errorf("weirdness of transformer %.1f, want over 100", w)
	}
	if w := termhood.Weirdness("tokenization", 264, arxivDocs); !math.IsInf(w, 1) {
		t.Errorf("weirdness of a word speech never says: %.1f, want +Inf", w)
	}
	if w := termhood.Weirdness("space", 0, arxivDocs); w != 0 {
		t.Errorf("weirdness of an unused word %.1f, want 0", w)
	}
	// the ACL anthology's titles alone (18,041 papers, 8.3 words a title):
	// "reasoning" in 31 titles is a topic of the field, as specific as in
	// one abstract in 20; "news" in 45 is still a word of speech
	acl := termhood.Corpus{Papers: 18041, Words: 150_000}
	if w, a := termhood.Weirdness("reasoning", 31, acl), termhood.Weirdness("reasoning", 31, termhood.Corpus{Papers: 18041}); w < 20 || a >= w/10 {
		t.Errorf("weirdness of reasoning in 31 of 18,041 titles %.1f (want ≥ 20), in as many abstracts %.1f (want a tenth or less)", w, a)
	}
	if w := termhood.Weirdness("news", 45, acl); w >= 20 {
		t.Errorf("weirdness of news in 45 of 18,041 titles %.1f, want under 20", w)
	}
}

// Judge takes whatever the store holds, however inconsistent: broader
// indexes out of range or pointing at themselves, negative counts.
func FuzzJudge(f *testing.F) {
	f.Add("space", 4057, 3, -1, "latent space", 724, 87, 0, 47919, 8_932_000)
	f.Fuzz(func(t *testing.T, a string, dfA, vA, bA int, b string, dfB, vB, bB, papers, nwords int) {
		docs := termhood.Corpus{Papers: papers, Words: nwords}
		cs := []termhood.Concept{
			{Name: a, Words: words(a), DocFreq: dfA, Votes: vA, Broader: bA},
			{Name: b, Words: words(b), DocFreq: dfB, Votes: vB, Broader: bB},
		}
		vs := termhood.Judge(cs, docs)
		if len(vs) != 2 {
			t.Fatalf("%d verdicts for 2 concepts", len(vs))
		}
		for _, v := range vs {
			_ = v.String()
			if v.IsTerm() != (v.Reason == termhood.Term) {
				t.Fatalf("IsTerm %v for reason %d", v.IsTerm(), v.Reason)
			}
		}
		termhood.Screen(cs[0], docs)
		termhood.Topical(cs[1], docs)
		termhood.KindOf(words(a), b)
	})
}

// A term is a topic when its papers are about it twice as often as its
// shape needs: the counters of the arXiv store (df, votes).
func TestTopical(t *testing.T) {
	for _, tc := range []struct {
		name      string
		df, votes int
		want      bool
	}{
		{"world model", 344, 156, true},
		{"flow matching", 170, 78, true},
		{"visual evidence", 127, 23, false},
		{"memory system", 77, 14, false},
		{"task completion", 81, 12, false},
		{"rubric", 201, 17, true},  // a word speech hardly says: its bar is low
		{"solver", 385, 12, false}, // rarely what its papers are about
		{"VGGT", 40, 1, true},      // a name
		{"LLaDA", 60, 4, true},     // a name
		{"fine-tuning", 5000, 120, true},
	} {
		c := termhood.Concept{Name: tc.name, Words: words(tc.name), Acronym: tc.name == "VGGT", DocFreq: tc.df, Votes: tc.votes, Broader: -1}
		if got := termhood.Topical(c, arxivDocs); got != tc.want {
			t.Errorf("Topical(%s, df %d, votes %d) = %v, want %v", tc.name, tc.df, tc.votes, got, tc.want)
		}
	}
}
