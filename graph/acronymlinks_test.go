package graph_test

import (
	"testing"

	"github.com/researchkg/kg/graph"
)

// Concepts named by an acronym are linked to the papers that say them. A
// hyphenated one ("GPT-4o", "MiLorE-SSL", "U-Net") is read as its words,
// never as one acronym, so it is found by its key, a version after the
// hyphen too ("ResNet-50": the word, besides its family ResNet); one that some papers
// spell out ("BERT") names itself whatever they spell: no long form was a
// concept to claim it. On the arXiv file, 1,779 concepts of 29,303 had no
// paper, GPT-4o, U-Net and BERT among them.
func TestAcronymNamedConceptsAreLinked(t *testing.T) {
	recs := []graph.Record{
		{Title: "TriMix-Net: Scaling Vision Encoders", Abstract: "We propose TriMix-Net, a vision encoder. TriMix-Net mixes three scales, and TriMix-Net is fast."},
		{Title: "Benchmarking TriMix-Net on medical images", Abstract: "We evaluate TriMix-Net on scans. TriMix-Net wins on two of three tasks; TriMix-Net fails on the third."},
		{Title: "Pruning VisNet-50 filters", Abstract: "We prune VisNet-50. VisNet-50 keeps its accuracy with half its filters, and VisNet-50 runs faster."},
		{Title: "VisNet-50 on small devices", Abstract: "We run VisNet-50 on phones. VisNet-50 needs little memory; VisNet-50 is quantised."},
		{Title: "Probing BERT layers", Abstract: "BERT encodes syntax in its middle layers. We probe BERT with linear classifiers; BERT layers differ."},
		{Title: "Adapting BERT to tables", Abstract: "We adapt BERT to tables. BERT reads cells, and BERT with row embeddings beats baselines."},
		{Title: "BERT for contracts", Abstract: "We fine-tune BERT on contracts. BERT finds clauses; BERT errs on dates."},
		{Title: "Distilling BERT", Abstract: "We distil BERT into a small model; BERT teaches, the student follows BERT."},
		{Title: "Pruning BERT heads", Abstract: "Most heads of BERT can go. We prune BERT heads and BERT keeps its accuracy."},
		// one paper in six spells it out: people know it by the acronym,
		// and the five that say it bare are its papers (the first was
		// read before it was a concept, and is found by the settle's scan
		// after this definition)
		{Title: "Encoders for legal text", Abstract: "Bidirectional Encoder Representations from Transformers (BERT) encode legal text. BERT is strong on contracts, and BERT is cheap."},
	}
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	if err := pipeRecords(t, svc, recs).Close(); err != nil {
		t.Fatal(err)
	}
	v := view(t, svc)
	for name, want := range map[string]int{"TriMix-Net": 2, "VisNet-50": 2, "BERT": 5} {
		c, err := v.ConceptByName(name)
		if err != nil {
			t.Errorf("%s is no concept: %v", name, err)
			continue
		}
		pg, err := v.Papers(c.ID, 10, "")
		if err != nil {
			t.Fatal(err)
		}
		if pg.Total < want || len(pg.Papers) != pg.Total {
			t.Errorf("%s: %d papers (%d listed), want %d or more", name, pg.Total, len(pg.Papers), want)
		}
	}
	degreesMatchEdges(t, svc, db)
}
