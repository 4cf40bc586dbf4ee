package graph_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/researchkg/kg/graph"
)

// plantedCorpus is eight months of papers on eight topics, each paper on
// one topic chosen at random; in the last two months a third of the papers
// are on skill libraries, a topic no paper had before.
func plantedCorpus() []graph.Document {
	topics := []string{"graph neural networks", "speech recognition", "question answering", "object detection",
		"machine translation", "recommender systems", "protein folding", "image segmentation"}
	rng := rand.New(rand.NewPCG(7, 11))
	var docs []graph.Document
	for month := 1; month <= 8; month++ {
		for i := range 40 {
			topic := topics[rng.IntN(len(topics))]
			if month >= 7 && i%3 == 0 {
				topic = "skill libraries"
			}
			id := fmt.Sprintf("25%02d.%05d", month, i+1)
			title := fmt.Sprintf("Improving %s with structured priors, study %d-%d", topic, month, i)
			abstract := fmt.Sprintf("We study %s in a new setting. Our approach to %s uses structured priors and "+
				"outperforms strong baselines on %s benchmarks. Code for %s is released.", topic, topic, topic, topic)
			docs = append(docs, graph.Document{Source: "planted", Format: "test", Records: []graph.Record{{
				Title: title, Abstract: abstract, ArXivID: id, Authors: []string{fmt.Sprintf("Author %d-%d", month, i)},
				Subjects: []string{"cs.LG"},
			}}})
		}
	}
	return docs
}

// A concept planted in the last two months of a corpus is the first
// emerging one; with a window that ends before it, it is not there.
func TestEmergingFindsAPlantedBurst(t *testing.T) {
	ctx := context.Background()
	svc := graph.NewService(MustOpen(t), extractor)
	p := svc.NewPipeline(ctx, 2, func(d graph.Document, _ graph.IngestResult, err error) {
		if err != nil {
			t.Error(err)
		}
	})
	for _, d := range plantedCorpus() {
		if err := p.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	v := view(t, svc)
	es, err := v.Emerging(selectOrFail(t, v, nil), 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) == 0 || es[0].Node.Label != "skill library" || es[0].Since != "2025-07" || es[0].Burst.Papers < 20 {
		for _, e := range es {
			t.Logf("%s since %s: %+v", e.Node.Label, e.Since, e.Burst)
		}
		t.Fatalf("emerging: %d concepts, want skill library first, since 2025-07", len(es))
	}
	before, err := v.Emerging(selectOrFail(t, v, &graph.PaperFilter{MonthTo: "2025-06"}), 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range before {
		if e.Node.Label == "skill library" {
			t.Errorf("skill library emerging before it existed: %+v", e)
		}
	}
	// a window that starts after the burst began finds it no more
	late, err := v.Emerging(selectOrFail(t, v, &graph.PaperFilter{MonthFrom: "2025-08"}), 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range late {
		if e.Node.Label == "skill library" {
			t.Errorf("a burst begun before the window: %+v", e)
		}
	}
}

// A field whose papers grow in the last months brings no burst of its
// words: "channel coding" is as common among the information-theory
// papers at the end as before, though those papers are now half the
// corpus; the planted topic still emerges.
func TestEmergingIsNoShiftOfSubjects(t *testing.T) {
	ctx := context.Background()
	svc := graph.NewService(MustOpen(t), extractor)
	p := svc.NewPipeline(ctx, 2, func(d graph.Document, _ graph.IngestResult, err error) {
		if err != nil {
			t.Error(err)
		}
	})
	docs := plantedCorpus()
	for month := 1; month <= 8; month++ {
		n := 4
		if month >= 7 {
			n = 40 // the field's papers grow tenfold
		}
		for i := range n {
			topic := "channel coding"
			if i%2 == 1 {
				topic = "network information theory"
			}
			docs = append(docs, graph.Document{Source: "shift", Format: "test", Records: []graph.Record{{
				Title:    fmt.Sprintf("Bounds for %s, study %d-%d", topic, month, i),
				Abstract: fmt.Sprintf("We study %s. New bounds for %s are proved, and %s codes are built.", topic, topic, topic),
				ArXivID:  fmt.Sprintf("25%02d.%05d", month, 500+i), Authors: []string{fmt.Sprintf("Coder %d-%d", month, i)},
				Subjects: []string{"cs.IT"},
			}}})
		}
	}
	for _, d := range docs {
		if err := p.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	v := view(t, svc)
	es, err := v.Emerging(selectOrFail(t, v, nil), 10)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range es {
		t.Logf("%s since %s: %+v", e.Node.Label, e.Since, e.Burst)
		switch e.Node.Label {
		case "skill library":
			found = true
		case "channel coding", "network information theory":
			t.Errorf("%s emerges with its field's papers: %+v", e.Node.Label, e.Burst)
		}
	}
	if !found {
		t.Error("skill library does not emerge")
	}
}
