package nlp_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/nlp"
)

func candidateNames(a *nlp.Analysis) []string {
	var out []string
	for _, c := range a.Cands {
		out = append(out, c.Name)
	}
	return out
}

// Candidates as researchers write them (the cases).
func TestCandidateRules(t *testing.T) {
	for _, tc := range []struct {
		title, text string
		want, not   []string
	}{
		// an -ing head, read as a verb by the tagger in a title
		{"Multi-Reward Reinforcement Learning via Group Decoupled Policy Optimization", "",
			[]string{"multi-reward reinforcement learning", "reinforcement learning", "policy optimization"},
			[]string{"reinforcement", "multi-reward reinforcement"}},
		{"", "We use reinforcement learning to improve data mining, image processing and instruction tuning.",
			[]string{"reinforcement learning", "data mining", "image processing", "instruction tuning"}, nil},
		// "calling" after a noun is a call, the name of a task of agents
		// ("tool calling", "function calling"); before its object a verb
		{"", "We study multi-turn tool calling and function calling. Agents keep calling the tools.",
			[]string{"multi-turn tool calling", "tool calling", "function calling"},
			[]string{"multi-turn tool", "agent calling", "calling the tool"}},
		// a verb with its object is no head
		{"", "The agent keeps learning the policy while mining these logs.",
			nil, []string{"agent learning", "learning the policy"}},
		// participles open a phrase, but not after a noun or an auxiliary
		{"", "Federated learning and supervised fine-tuning have shown immense potential.",
			[]string{"federated learning", "supervised fine-tuning"}, []string{"shown immense potential", "immense potential"}},
		// evaluative openers, dependent words and verb-led fragments go
		{"", "Diverse skills help. We propose a novel framework with uncertainty aware RL by applying RL.",
			[]string{"skill"}, []string{"diverse skill", "novel framework", "aware RL", "applying RL"}},
		// the front of a hyphenated modifier is a use of a term
		{"", "We present a transductive deep learning-based formulation and LLM-driven agents.",
			[]string{"deep learning", "LLM"}, nil},
		// an acronym the text defines stands for its long form, inside names too
		{"", "Reinforcement learning (RL) is hard. Agent RL explores, and RL agents learn.",
			[]string{"reinforcement learning", "agent reinforcement learning", "reinforcement learning agent"},
			[]string{"agent RL", "RL agent"}},
		// generic words of the genre are never candidates
		{"", "Our method, model and framework improve performance on the task; experiments and results show it.",
			nil, []string{"method", "model", "framework", "performance", "task", "experiment", "result"}},
	} {
		a := ex.Candidates(tc.title, tc.text)
		got := candidateNames(a)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q %q: no candidate %q in %q", tc.title, tc.text, w, got)
			}
		}
		// a fragment of a longer phrase may be a candidate, but no term
		var terms []string
		for _, tm := range a.Rank(nil, 100) {
			if !tm.Fragment {
				terms = append(terms, tm.Name)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(terms, n) {
				t.Errorf("%q %q: %q should be no term (%q)", tc.title, tc.text, n, terms)
			}
		}
	}
}

// Names are the form people write: acronyms upper case, common words lower
// case and American, never a shouted or broken variant.
func TestDisplayNames(t *testing.T) {
	for _, tc := range []struct{ title, text, want string }{
		{"A STUDY OF METHODS FOR GRAPH NEURAL NETWORKS", "Graph neural networks (GNNs) are used.", "graph neural network"},
		{"", "The ModEl of policy optimisation behaviours.", "policy optimization behavior"},
		{"", "We improve classification perfor- mance of 3D Gaussian splatting.", "3D gaussian splatting"},
		{"", "Large language models(LLMs) reason.", "large language model"},
		{"Dynamo: Dynamic Skill-Tool Evolution", "We present Dynamo, a framework. Dynamo improves agents.", "Dynamo"},
	} {
		got := candidateNames(ex.Candidates(tc.title, tc.text))
		if !slices.Contains(got, tc.want) {
			t.Errorf("%q %q: no %q in %q", tc.title, tc.text, tc.want, got)
		}
		for _, g := range got {
			if strings.Contains(g, "ModEl") || strings.Contains(g, "STUDY") || strings.Contains(g, "perfor ") {
				t.Errorf("%q: shouted or broken name %q", tc.text, g)
			}
		}
	}
}

// An acronym's long form is the words whose initials spell it when there
// are such: Schwartz & Hearst's shortest match takes "policy optimization"
// for PPO (its second p is the one in "optimization").
func TestAcronymLongForms(t *testing.T) {
	for text, want := range map[string]string{
		"We train with proximal policy optimization (PPO) and compare.":    "proximal policy optimization",
		"Low-rank adaptation (LoRA) is cheap.":                             "low-rank adaptation",
		"Mixture of Experts (MoE) layers route tokens.":                    "mixture of experts",
		"Vision-language process reward models (VL-PRMs) score steps.":     "vision-language process reward model",
		"Reinforcement learning from human feedback (RLHF) aligns models.": "reinforcement learning from human feedback",
		"The Vision Transformer (ViT) splits images.":                      "vision transformer",
		"Neural radiance fields (NeRF) render views.":                      "neural radiance field",
		// a capital matched inside a word: no definition
		"We apply reinforcement learning (RRL) to robots.": "",
		"We apply policy optimization (PPO) to robots.":    "",
	} {
		defs := ex.Candidates("", text).Definitions()
		switch {
		case want == "" && len(defs) > 0:
			t.Errorf("%q: definitions %v, want none", text, defs)
		case want != "" && (len(defs) == 0 || defs[0].Name != want):
			t.Errorf("%q: definitions %v, want %q", text, defs, want)
		}
	}
}

// Mentions are found by surface form, whatever the tags: every form of a
// concept in a text is a span with its key.
func TestMentionsBySurfaceForm(t *testing.T) {
	key := ident.ConceptKey("reinforcement learning")
	for _, text := range []string{
		"Reinforcement Learning agents explore.",
		"We use reinforcement-learning to train.",
		"A deep reinforcement learning agent.",
		"The reinforcement learning-based planner works.",
		"Reinforcement learnings differ.",
		"Both reinforcement learning,and planning.",
	} {
		found := false
		ex.ScanMentions("", text, map[string]bool{key: true}, nil, func(k string, acronym bool, n int) {
			found = found || k == key && !acronym && n > 0
		})
		if !found {
			t.Errorf("%q: no mention of reinforcement learning", text)
		}
	}
	// British spelling, "of" names in the plural, acronyms as written
	for text, want := range map[string]string{
		"Policy optimisation of agents.":    ident.ConceptKey("policy optimization"),
		"More chains of thought help.":      ident.ConceptKey("chain of thought"),
		"Generating chain-of-thoughts.":     ident.ConceptKey("chain-of-thought"),
		"Mixture-of-Experts (MoE) routing.": ident.ConceptKey("mixture of experts"),
		// a concept whose name starts with a function word, mid-sentence
		"We leverage in-context learning and domain adaptation.": ident.ConceptKey("in-context learning"),
		"Models run on-device inference.":                        ident.ConceptKey("on-device inference"),
		"An off-policy method.":                                  ident.ConceptKey("off-policy"),
		"Robust to out-of-distribution inputs.":                  ident.ConceptKey("out-of-distribution"),
		// and written with spaces, three words or more
		"Models learn in context learning settings.": ident.ConceptKey("in-context learning"),
		"Detecting out of distribution samples.":     ident.ConceptKey("out-of-distribution"),
		// a version number written apart ends a name
		"Images from Stable Diffusion 3 look real.": ident.ConceptKey("stable diffusion 3"),
	} {
		found := false
		ex.ScanMentions("", text, map[string]bool{want: true}, nil, func(k string, _ bool, _ int) { found = found || k == want })
		if !found {
			t.Errorf("%q: no mention with key %q", text, want)
		}
	}
	// two words after a preposition are the preposition and its noun; a
	// number starts no name
	for text, key := range map[string]string{
		"Methods based on policy gradients.": ident.ConceptKey("on-policy"),
		"A shift in distribution.":           ident.ConceptKey("in-distribution"),
		"Table 3 lists results.":             ident.ConceptKey("3 list"),
	} {
		ex.ScanMentions("", text, map[string]bool{key: true}, nil, func(k string, _ bool, _ int) {
			t.Errorf("%q: a mention with key %q", text, k)
		})
	}
	found := false
	ex.ScanMentions("", "We train LLMs and an LLM-as-a-Judge.", nil, map[string]bool{"LLM": true}, func(k string, acronym bool, n int) {
		found = k == "LLM" && acronym && n == 2
	})
	if !found {
		t.Error("LLM twice as an acronym: not found")
	}
}

func FuzzScanMentions(f *testing.F) {
	f.Add("Title", "reinforcement learning (RL) and RL-based deep reinforcement-learning")
	f.Add("", "((( - -- -x- é’s")
	f.Fuzz(func(t *testing.T, title, text string) {
		ex.ScanMentions(title, text, map[string]bool{"reinforcementlearning": true}, map[string]bool{"RL": true},
			func(k string, _ bool, n int) {
				if n <= 0 || k == "" {
					t.Fatalf("bad mention %q %d", k, n)
				}
			})
		for _, tm := range ex.Candidates(title, text).Rank(nil, 10) {
			if tm.Name == "" || tm.Score <= 0 || tm.Score > 1 {
				t.Fatalf("bad term %+v", tm)
			}
		}
	})
}

// A concept named by an acronym that is also a word ("FACE") is linked
// where the acronym is written, not where the word is: a paper on face
// recognition does not mention the method FACE.
func TestAcronymNamedConceptIsNoWord(t *testing.T) {
	face := graph.Concept{ID: graph.MakeID(graph.KindConcept, 1), Name: "FACE", Key: ident.ConceptKey("FACE")}
	resolve := func(key string, acronym bool) (graph.Concept, bool) {
		return face, key == face.Key || acronym && key == "FACE"
	}
	for text, want := range map[string]bool{
		"Face recognition under occlusion: we align faces and face images.": false,
		"We compare against FACE, a strong baseline for explanation.":       true,
	} {
		links := ex.Analyze("", text).Ranked(nil).Link(resolve)
		if got := len(links) > 0; got != want {
			t.Errorf("%q: linked to FACE %v, want %v", text, got, want)
		}
	}
}

// A product's name is no concept of its parts: the variant after a version
// ("Pro" of "Gemini 2.5 Pro") is no candidate, and an acronym with a
// version ("GPT-4") is not linked to the idea the acronym spells out,
// though a concept named by the acronym itself (a model family) is.
func TestProductNames(t *testing.T) {
	text := "We compare Gemini 2.5 Pro, Claude 3.5 Sonnet and GPT-4 Turbo on reasoning. Gemini 2.5 Pro wins; Claude 3.5 Sonnet is second."
	for _, c := range ex.Candidates("", text).Rank(nil, 20) {
		if k := ident.ConceptKey(c.Name); k == "pro" || k == "sonnet" || k == "turbo" {
			t.Errorf("candidate %q: a model's variant", c.Name)
		}
	}
	gpt := graph.Concept{ID: graph.MakeID(graph.KindConcept, 1), Name: "generative pre-trained transformer", Key: ident.ConceptKey("generative pre-trained transformer")}
	llama := graph.Concept{ID: graph.MakeID(graph.KindConcept, 2), Name: "LLaMA", Key: ident.ConceptKey("LLaMA")}
	resolve := func(key string, acronym bool) (graph.Concept, bool) {
		switch {
		case acronym && key == "GPT", key == gpt.Key:
			return gpt, true
		case acronym && key == "LLaMA":
			return llama, true
		}
		return graph.Concept{}, false
	}
	for text, want := range map[string][]graph.NodeID{
		"We prompt GPT-4 and GPT-4o to grade essays.":               nil,
		"We fine-tune LLaMA-2 on essays.":                           {llama.ID},
		"Generative pre-trained transformers (GPT) model language.": {gpt.ID},
		"A GPT model writes essays.":                                {gpt.ID},
	} {
		var got []graph.NodeID
		for _, l := range ex.Analyze("", text).Ranked(nil).Link(resolve) {
			got = append(got, l.Concept)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: linked %v, want %v", text, got, want)
		}
	}
}

// The tail of a hyphenated word starts no name that goes on past it:
// "retrieval-augmented generation" does not say "augmented generation",
// nor "self-supervised learning" "supervised learning"; the head of a
// hyphenated word, or a name inside it, still counts.
func TestHyphenTailStartsNoName(t *testing.T) {
	for text, want := range map[string]map[string]bool{
		"We build retrieval-augmented generation pipelines.": {"augmented generation": false, "retrieval-augmented generation": true, "generation": true},
		"A self-supervised learning objective.":              {"supervised learning": false, "self-supervised learning": true},
		"Multi-agent reinforcement learning scales.":         {"agent reinforcement learning": false, "reinforcement learning": true, "multi-agent": true},
		"Self-attention layers.":                             {"attention": true},
	} {
		keys := map[string]bool{}
		for name := range want {
			keys[ident.ConceptKey(name)] = true
		}
		got := map[string]bool{}
		ex.ScanMentions("", text, keys, nil, func(k string, _ bool, _ int) { got[k] = true })
		for name, w := range want {
			if got[ident.ConceptKey(name)] != w {
				t.Errorf("%q says %q: %v, want %v", text, name, !w, w)
			}
		}
	}
}

// wordConcepts makes test concepts of names, ids 1, 2, … in order, and a
// resolver that finds them by their word keys (no acronyms).
func wordConcepts(names ...string) ([]graph.Concept, func(string, bool) (graph.Concept, bool)) {
	cs := make([]graph.Concept, len(names))
	byKey := map[string]graph.Concept{}
	for i, n := range names {
		cs[i] = graph.Concept{ID: graph.MakeID(graph.KindConcept, uint64(i+1)), Name: n, Key: ident.ConceptKey(n)}
		byKey[cs[i].Key] = cs[i]
	}
	return cs, func(key string, acronym bool) (graph.Concept, bool) {
		c, ok := byKey[key]
		return c, ok && !acronym
	}
}

// "bases" is the plural of base and of basis: a text that says "knowledge
// bases" mentions the knowledge base, one that says "Fourier bases" the
// Fourier basis, by a scan of stored texts too; names take "base".
func TestBasesOfTwoNouns(t *testing.T) {
	cs, resolve := wordConcepts("knowledge base", "Fourier basis")
	kb, fb := cs[0], cs[1]
	text := "Agents query external knowledge bases. The signal is expanded in Fourier bases of low order."
	got := map[graph.NodeID]bool{}
	for _, l := range ex.Analyze("", text).Ranked(nil).Link(resolve) {
		got[l.Concept] = true
	}
	if !got[kb.ID] || !got[fb.ID] {
		t.Errorf("linked %v, want both the knowledge base and the Fourier basis", got)
	}
	scanned := map[string]bool{}
	ex.ScanMentions("", text, map[string]bool{kb.Key: true, fb.Key: true}, nil, func(key string, _ bool, _ int) { scanned[key] = true })
	if !scanned[kb.Key] || !scanned[fb.Key] {
		t.Errorf("a scan found %v, want %s and %s", scanned, kb.Key, fb.Key)
	}
	for _, c := range ex.Candidates("", text).Rank(nil, 10) {
		if ident.ConceptKey(c.Name) == ident.ConceptKey("knowledge basis") {
			t.Errorf("candidate %q: knowledge bases are knowledge bases", c.Name)
		}
	}
}

// The last part of a hyphenated word ends a name even when it is a
// preposition ("virtual try-on", "plug-in"), but starts none.
func TestHyphenatedTailEndsName(t *testing.T) {
	cs, resolve := wordConcepts("virtual try-on", "on")
	vton, on := cs[0], cs[1]
	for _, text := range []string{
		"It supports product image generation and virtual try-on simulation.",
		"We study virtual try-on.",
	} {
		got := map[graph.NodeID]bool{}
		for _, l := range ex.Analyze("", text).Ranked(nil).Link(resolve) {
			got[l.Concept] = true
		}
		if !got[vton.ID] || got[on.ID] {
			t.Errorf("%q: linked %v, want virtual try-on and not %q", text, got, on.Name)
		}
	}
}

// A name written in mixed case ("UNet") names the concept its letters
// spell, which papers also write "U-Net", unless it names a concept as an
// acronym ("LiDAR"); one in capitals ("FACE") does not name the word.
func TestMixedCaseNameIsItsWord(t *testing.T) {
	unet := graph.Concept{ID: graph.MakeID(graph.KindConcept, 1), Name: "unet", Key: ident.ConceptKey("unet")}
	face := graph.Concept{ID: graph.MakeID(graph.KindConcept, 2), Name: "face", Key: ident.ConceptKey("face")}
	ldar := graph.Concept{ID: graph.MakeID(graph.KindConcept, 3), Name: "light detection and ranging", Key: ident.ConceptKey("light detection and ranging")}
	lidar := graph.Concept{ID: graph.MakeID(graph.KindConcept, 4), Name: "lidar", Key: ident.ConceptKey("lidar")}
	resolve := func(key string, acronym bool) (graph.Concept, bool) {
		switch {
		case !acronym && key == unet.Key:
			return unet, true
		case !acronym && key == face.Key:
			return face, true
		case acronym && key == "LiDAR":
			return ldar, true
		case !acronym && key == lidar.Key:
			return lidar, true
		}
		return graph.Concept{}, false
	}
	for text, want := range map[string]graph.NodeID{
		"LiDAR point clouds are sparse.":       ldar.ID,
		"A UNet segments the scans.":           unet.ID,
		"A U-Net segments the scans.":          unet.ID,
		"Two UNets are trained jointly.":       unet.ID,
		"We compare against FACE, a baseline.": 0,
	} {
		links := ex.Analyze("", text).Ranked(nil).Link(resolve)
		var got graph.NodeID
		if len(links) > 0 {
			got = links[0].Concept
		}
		if got != want || len(links) > 1 {
			t.Errorf("%q: linked %v, want %v alone", text, links, want)
		}
	}
}
