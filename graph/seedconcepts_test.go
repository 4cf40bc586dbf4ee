package graph_test

// Concepts made from the seed pages and small fixtures: themes, related
// concepts, acronyms.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
)

func TestConceptsFromSeeds(t *testing.T) {
	svc, _ := seedGraph(t)
	v := view(t, svc)
	for alias, want := range map[string]string{
		"RL": "reinforcement learning", "MLLM": "multimodal large language model", "MLLMs": "multimodal large language model",
		"LLM": "large language model", "reward models": "reward model", "VL-PRMs": "vision-language process reward model",
	} {
		c, err := v.ConceptByName(alias)
		if err != nil {
			t.Errorf("concept %q: %v", alias, err)
			continue
		}
		if c.Label != want {
			t.Errorf("concept %q: got %q, want %q", alias, c.Label, want)
		}
	}
	// hierarchy by head phrase: "process reward model" is said by one
	// paper only, so it is no concept and "reward model" is next
	c, err := v.ConceptByName("vision-language process reward model")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := v.Broader(c.ID)
	if len(b) != 1 || b[0].Label != "reward model" {
		t.Errorf("broader of %s: got %v, want reward model", c.Label, b)
	}
	rm, _ := v.ConceptByName("reward model")
	narrow, _ := v.Narrower(rm.ID)
	if !slices.ContainsFunc(narrow, func(n *graph.Node) bool { return n.Label == c.Label }) {
		t.Errorf("narrower of reward model: got %v, want %s among them", narrow, c.Label)
	}
	// related papers share concepts and say which
	p, _ := v.PaperByTitle("Skill Self-Play: Pushing the Frontier of LLM Capability with Co-Evolving Skills")
	rel, err := v.RelatedPapers(p.ID, 5)
	if err != nil || len(rel) == 0 {
		t.Fatalf("related: %v %v", rel, err)
	}
	for i, r := range rel {
		if len(r.SharedConcepts)+len(r.SharedAuthors) == 0 || r.Score <= 0 {
			t.Errorf("related %q has no reason: %+v", r.Paper.Label, r)
		}
		if i > 0 && r.Score > rel[i-1].Score {
			t.Errorf("related not sorted by score")
		}
	}
}

// The themes a reader sees at once on the seed pages come out as concepts,
// found by name or acronym, with papers, and linked to other concepts.
func TestSeedThemesAreLinkedConcepts(t *testing.T) {
	svc, _ := seedGraph(t)
	v := view(t, svc)
	for q, want := range map[string]string{
		"RL": "reinforcement learning", "RM": "reward model", "skills": "skill",
		"MLLM": "multimodal large language model", "LLMs": "large language model",
		"policy optimisation": "policy optimization", "GD²PO": "group-dynamic reward-decoupled policy optimization",
	} {
		c, err := v.ConceptByName(q)
		if err != nil {
			t.Errorf("concept %q: %v", q, err)
			continue
		}
		if c.Label != want {
			t.Errorf("concept %q is %q, want %q", q, c.Label, want)
		}
		pg, _ := v.Papers(c.ID, 1, "")
		broader, _ := v.Broader(c.ID)
		narrower, _ := v.Narrower(c.ID)
		related, _ := v.ConceptRelated(c.ID, 5)
		if pg.Total == 0 || len(broader)+len(narrower)+len(related) == 0 {
			t.Errorf("%s: %d papers, %d broader, %d narrower, %d related", want, pg.Total, len(broader), len(narrower), len(related))
		}
		for _, r := range related {
			if r.Weight <= 0 || r.Weight > 1 {
				t.Errorf("%s related %s weight %v outside (0, 1]", want, r.Node.Label, r.Weight)
			}
		}
	}
	// the hierarchy: a broader concept is a concept, its modifier narrows
	// it; "policy optimization" is used by two papers, more than the name
	// of the method, so it is made a concept as the broader one
	for name, want := range map[string]string{
		"vision-language process reward model":               "reward model",
		"group-dynamic reward-decoupled policy optimization": "policy optimization",
		"multimodal large language model":                    "large language model",
	} {
		c, _ := v.ConceptByName(name)
		if c == nil {
			t.Errorf("no concept %q", name)
			continue
		}
		if b, _ := v.Broader(c.ID); len(b) != 1 || b[0].Label != want {
			t.Errorf("broader of %s: %v, want %s", c.Label, b, want)
		}
	}
}

// A concept's related concepts are other ideas, not the parts of its name
// nor the names made of it ("diffusion" of "diffusion model" co-occurs with
// it by construction): on the seed graph, for every concept.
func TestRelatedConceptsAreNoNameParts(t *testing.T) {
	svc, _ := seedGraph(t)
	v := view(t, svc)
	r, err := svc.Store().Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	words := func(s string) string {
		return " " + strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ' ' || r == '-' }), " ") + " "
	}
	checked := 0
	if err := r.NodeIDs(graph.KindConcept, 0, func(id graph.NodeID) bool {
		c, err := v.Node(id)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := v.ConceptRelated(id, 20)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range rel {
			checked++
			a, b := words(c.Label), words(x.Node.Label)
			if strings.Contains(a, b) || strings.Contains(b, a) {
				t.Errorf("%q: related %q is part of its name, or it of its", c.Label, x.Node.Label)
			}
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Error("no related concepts on the seeds")
	}
}

// An acronym defined in one paper counts for its long form in another paper
// that only uses it bare.
func TestAcronymAcrossPapers(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ctx := context.Background()
	for i, rec := range []graph.Record{
		{Title: "Agents that learn", Abstract: "We study reinforcement learning (RL) for embodied agents. RL agents explore.", Authors: []string{"A"}},
		{Title: "Faster exploration", Abstract: "Sample-efficient RL needs exploration. We make RL exploration cheaper with curiosity.", Authors: []string{"B"}},
	} {
		rec.Line = 1
		if _, err := svc.Ingest(ctx, graph.Document{Source: fmt.Sprintf("doc%d", i), Records: []graph.Record{rec}}); err != nil {
			t.Fatal(err)
		}
	}
	v := view(t, svc)
	c, err := v.ConceptByName("RL")
	if err != nil || c.Label != "reinforcement learning" {
		t.Fatalf("RL: %+v %v", c, err)
	}
	if pg, _ := v.Papers(c.ID, 10, ""); pg.Total != 2 {
		t.Errorf("reinforcement learning: %d papers, want 2 (the second uses only RL)", pg.Total)
	}
}
