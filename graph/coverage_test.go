package graph_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/source"
	"github.com/researchkg/kg/store"
)

// Concept coverage: of the papers whose title or abstract says a concept's
// name (testdata/concepts/coverage.tsv; see mentionOracle), the share
// linked to the concept; and of the papers linked to it, the share that
// say neither the name nor an acronym of it (nor the name with a listed
// acronym for part of it: "multimodal LLM"). Goals: coverage at least
// 0.95, links without a mention at most 0.05.
const (
	minCoverage = 0.95
	maxUnsaid   = 0.05
)

// The concepts drawn at random are held to more (issue 31): macro coverage
// at least 0.97, none under 0.85, and at most 3% of their links unsaid.
const (
	sampleMinCoverage = 0.97
	sampleFloor       = 0.85
	sampleMaxUnsaid   = 0.03
)

type coverageConcept struct {
	name     string
	acronyms []string
	// variants are other ways to say it: the name with an acronym for a
	// part of it that is a concept ("LLM pretraining")
	variants []string
	// id: the concept drawn, when its name may find another ("UNet", a
	// name, and "unet", the word papers write "U-Net")
	id graph.NodeID
}

func readCoverageList(t testing.TB) (out []coverageConcept, words []string) {
	t.Helper()
	f, err := os.Open("../testdata/concepts/coverage.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, acr, _ := strings.Cut(line, "\t")
		if w, ok := strings.CutPrefix(name, "-"); ok {
			words = append(words, w)
			continue
		}
		c := coverageConcept{name: name}
		if acr != "" {
			c.acronyms = strings.Split(acr, ",")
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out, words
}

// checkWords holds the listed words to what a word of the corpus is: no
// concept is named by it, and search still finds the papers whose titles
// say it.
func checkWords(t *testing.T, db graph.Store, words []string) {
	t.Helper()
	v := view(t, graph.NewService(db, nil))
	for _, w := range words {
		c, err := v.ConceptByName(w)
		switch {
		case err == nil && ident.IsAcronym(c.Label):
			// an acronym that spells the word ("STAGE") is a name
		case err == nil:
			t.Errorf("%q is a concept (%s): it is a word of the corpus, no term", w, c.Label)
		case graph.ErrorCode(err) != graph.NotFound:
			t.Fatal(err)
		}
		hits, err := v.Search(w, []graph.Kind{graph.KindPaper}, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 {
			t.Errorf("search(%q) finds no paper", w)
		}
	}
}

type coverageRow struct {
	name                        string
	says, linked, saysAndLinked int
	unsaid                      int // linked, saying neither the name nor an acronym
	// a few titles of papers that say it and are not linked, and of linked
	// papers that say neither it nor an acronym, for the log
	missed, unsaidTitles []string
}

func (r coverageRow) coverage() float64 { return float64(r.saysAndLinked) / float64(max(r.says, 1)) }
func (r coverageRow) unsaidShare() float64 {
	return float64(r.unsaid) / float64(max(r.linked, 1))
}

// measureCoverage measures every listed concept over the papers of a store.
func measureCoverage(t testing.TB, db interface {
	Read(context.Context) (graph.Reader, error)
}, list []coverageConcept) []coverageRow {
	t.Helper()
	texts := paperTexts(t, db)
	svc := graph.NewService(db.(graph.Store), nil)
	v := view(t, svc)
	r, err := db.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var rows []coverageRow
	for _, c := range list {
		row := coverageRow{name: c.name}
		saysName := mentionOracle(c.name)
		// an acronym may stand for part of the name: "multimodal LLM" is
		// a multimodal large language model (the "agent RL")
		said := []func(string) bool{mentionOracle(c.name, c.acronyms...)}
		for _, v := range c.variants {
			said = append(said, mentionOracle(v))
		}
		for _, sub := range list {
			if sub.name == c.name || !strings.Contains(c.name, sub.name) {
				continue
			}
			for _, a := range sub.acronyms {
				said = append(said, mentionOracle(strings.Replace(c.name, sub.name, a, 1)))
			}
		}
		saysAny := func(text string) bool {
			for _, f := range said {
				if f(text) {
					return true
				}
			}
			return false
		}
		linked := map[graph.NodeID]bool{}
		n, err := v.ConceptByName(c.name)
		if c.id != 0 {
			n, err = &graph.Node{ID: c.id}, nil
		}
		if err == nil {
			if err := r.Edges(n.ID, graph.Mentions, graph.In, func(p graph.NodeID, _ float64) bool {
				linked[p] = true
				return true
			}); err != nil {
				t.Fatal(err)
			}
		} else if graph.ErrorCode(err) != graph.NotFound {
			t.Fatal(err)
		}
		row.linked = len(linked)
		for id, text := range texts {
			says := saysName(text)
			if says {
				row.says++
				if linked[id] {
					row.saysAndLinked++
				} else if len(row.missed) < 3 {
					row.missed = append(row.missed, titleOf(text))
				}
			}
			if linked[id] && !says && !saysAny(text) {
				row.unsaid++
				if len(row.unsaidTitles) < 3 {
					row.unsaidTitles = append(row.unsaidTitles, titleOf(text))
				}
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// checkCoverage logs the table and holds the rows with enough papers to
// the goals.
func checkCoverage(t *testing.T, rows []coverageRow, minPapers int) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "%-32s %7s %7s %9s %7s\n", "concept", "say it", "linked", "coverage", "unsaid")
	for _, r := range rows {
		fmt.Fprintf(&b, "%-32s %7d %7d %9.3f %7.3f\n", r.name, r.says, r.linked, r.coverage(), r.unsaidShare())
	}
	for _, r := range rows {
		for _, x := range r.missed {
			fmt.Fprintf(&b, "%s: not linked: %q\n", r.name, x)
		}
		for _, x := range r.unsaidTitles {
			fmt.Fprintf(&b, "%s: linked, unsaid: %q\n", r.name, x)
		}
	}
	t.Log("\n" + b.String())
	for _, r := range rows {
		if r.says < minPapers {
			continue
		}
		if r.coverage() < minCoverage {
			t.Errorf("%s: coverage %.3f (%d of %d papers that say it), want ≥ %.2f", r.name, r.coverage(), r.saysAndLinked, r.says, minCoverage)
		}
		if r.unsaidShare() > maxUnsaid {
			t.Errorf("%s: %d of %d linked papers say neither it nor an acronym (%.3f), want ≤ %.2f", r.name, r.unsaid, r.linked, r.unsaidShare(), maxUnsaid)
		}
	}
}

// coverageRecords is how many records of the arXiv file the coverage test
// ingests: enough for most listed concepts to have 30 papers, small enough
// for a test under -race.
const coverageRecords = 3000

// The listed concepts are linked to at least 95% of the papers that say
// them, and at most 5% of their papers say neither them nor an acronym:
// on the first records of the arXiv file, ingested as `kg ingest` does.
// Skips without ../shared. The whole file: TestConceptCoverageOnStore.
func TestConceptCoverage(t *testing.T) {
	heavyUnderRace(t)
	f, err := os.Open("../../shared/data/arxiv/arxiv-cs-2025-03_2026-02.jsonl.gz")
	if err != nil {
		t.Skipf("arXiv file not available (%v): it is in ../shared, beside the clone", err)
	}
	defer f.Close()
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ctx := context.Background()
	p := svc.NewPipeline(ctx, 2, func(d graph.Document, _ graph.IngestResult, err error) {
		if err != nil && graph.ErrorCode(err) != graph.Invalid {
			t.Error(err)
		}
	})
	n := 0
	err = source.Read("arxiv.jsonl.gz", f, func(d graph.Document) error {
		if n == coverageRecords {
			return errEnough
		}
		n++
		return p.Add(d)
	}, func(error) {})
	if err != nil && !errors.Is(err, errEnough) {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	list, words := readCoverageList(t)
	checkCoverage(t, measureCoverage(t, db, list), 30)
	checkWords(t, db, words)
	checkSampleCoverage(t, db, 100, 20)
	checkFunctionWordCoverage(t, db, 10)
	st, err := view(t, svc).Stats()
	if err != nil {
		t.Fatal(err)
	}
	if perPaper := float64(st.Concepts) / float64(st.Papers); perPaper > 3 {
		t.Errorf("%d concepts for %d papers: %.2f a paper, want at most 3", st.Concepts, st.Papers, perPaper)
	}
}

// The same on a store the whole arXiv file was ingested into (minutes to
// build, so only when KG_BENCH_DATA names one):
//
//	go run ./cmd/kg ingest --data /tmp/kg-arxiv ../shared/data/arxiv/arxiv-cs-2025-03_2026-02.jsonl.gz
//	KG_BENCH_DATA=/tmp/kg-arxiv go test -timeout 30m -run ConceptCoverageOnStore -v ./graph
func TestConceptCoverageOnStore(t *testing.T) {
	dir := os.Getenv("KG_BENCH_DATA")
	if dir == "" {
		t.Skip("KG_BENCH_DATA not set: see the comment on TestConceptCoverageOnStore")
	}
	db, err := store.Open(store.DefaultOptions(dir).WithReadOnly(true))
	if err != nil {
		t.Fatal(err)
	}
	defer closeStore(t, db)
	list, words := readCoverageList(t)
	checkCoverage(t, measureCoverage(t, db, list), 30)
	checkWords(t, db, words)
	checkSampleCoverage(t, db, 100, 30)
	checkFunctionWordCoverage(t, db, 30)
	st, err := view(t, graph.NewService(db, nil)).Stats()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d concepts for %d papers: %.2f a paper", st.Concepts, st.Papers, float64(st.Concepts)/float64(st.Papers))
}

// checkSampleCoverage measures n concepts of at least minPapers papers
// drawn at random (fixed seed), not chosen: their macro-averaged coverage
// must reach minCoverage and their unsaid share stay under maxUnsaid. Each
// one's figures are logged.
func checkSampleCoverage(t *testing.T, db interface {
	Read(context.Context) (graph.Reader, error)
}, n, minPapers int) {
	t.Helper()
	r, err := db.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var pool []coverageConcept
	err = r.NodeIDs(graph.KindConcept, 0, func(id graph.NodeID) bool {
		papers := 0
		if err := r.Edges(id, graph.Mentions, graph.In, func(graph.NodeID, float64) bool { papers++; return true }); err != nil {
			t.Fatal(err)
		}
		if papers < minPapers {
			return true
		}
		c, err := r.Node(id)
		if err != nil {
			t.Fatal(err)
		}
		cc := coverageConcept{name: c.Label, id: id}
		for _, a := range c.Aliases {
			switch {
			case ident.IsAcronym(a) && !strings.Contains(a, " "):
				cc.acronyms = append(cc.acronyms, a)
			case sameLetters(a, c.Label) || hasAcronymWord(a):
				// a spelling ("multi-scale feature" of "multiscale
				// feature") or a short form ("KV cache") says it too
				cc.variants = append(cc.variants, a)
			}
		}
		pool = append(pool, cc)
		return true
	})
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(21, 4))
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	pool = pool[:min(n, len(pool))]
	// an acronym may stand for a part of the name that is a concept
	v := view(t, graph.NewService(db.(graph.Store), nil))
	for i := range pool {
		words := strings.Fields(pool[i].name)
		for a := 0; a < len(words); a++ {
			for b := a + 2; b <= len(words); b++ {
				if b-a == len(words) {
					continue
				}
				part := strings.Join(words[a:b], " ")
				c, err := v.ConceptByName(part)
				if err != nil {
					continue
				}
				for _, al := range c.Aliases {
					if ident.IsAcronym(al) && !strings.Contains(al, " ") {
						pool[i].variants = append(pool[i].variants, strings.Replace(pool[i].name, part, al, 1))
					}
				}
			}
		}
	}
	rows := measureCoverage(t, db, pool)
	var cov, unsaid float64
	var b strings.Builder
	fmt.Fprintf(&b, "%d concepts drawn at random (of %d papers or more):\n", len(rows), minPapers)
	// a concept no paper names in full ("low-rank adaptation adapter",
	// said "LoRA adapter") has no coverage to measure
	var said []coverageRow
	for _, row := range rows {
		if row.says > 0 {
			said = append(said, row)
			cov += row.coverage()
		}
		unsaid += row.unsaidShare()
		fmt.Fprintf(&b, "%-40s %5d say it %5d linked  coverage %.3f  unsaid %.3f\n", row.name, row.says, row.linked, row.coverage(), row.unsaidShare())
		for _, x := range row.missed {
			fmt.Fprintf(&b, "    not linked: %q\n", x)
		}
	}
	cov /= float64(max(len(said), 1))
	unsaid /= float64(max(len(rows), 1))
	fmt.Fprintf(&b, "macro coverage %.3f, unsaid %.3f", cov, unsaid)
	t.Log("\n" + b.String())
	if len(rows) < n/2 || cov < sampleMinCoverage || unsaid > sampleMaxUnsaid {
		t.Errorf("%d random concepts: macro coverage %.3f (want ≥ %.2f), unsaid %.3f (want ≤ %.2f)", len(rows), cov, sampleMinCoverage, unsaid, sampleMaxUnsaid)
	}
	for _, row := range said {
		if row.coverage() < sampleFloor {
			t.Errorf("%s: coverage %.3f (%d of %d papers that say it), want ≥ %.2f", row.name, row.coverage(), row.saysAndLinked, row.says, sampleFloor)
		}
	}
}

// checkFunctionWordCoverage measures every concept whose name opens with
// a preposition ("in-context learning", "out-of-distribution detection"),
// which papers write with hyphens and with spaces: each is linked to at
// least sampleFloor of the papers that say it, like any other.
func checkFunctionWordCoverage(t *testing.T, db graph.Store, minPapers int) {
	t.Helper()
	r, err := db.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var list []coverageConcept
	err = r.NodeIDs(graph.KindConcept, 0, func(id graph.NodeID) bool {
		n, err := r.Node(id)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(strings.ToLower(n.Label), "-")
		switch first {
		case "in", "on", "off", "out", "over", "under":
			list = append(list, coverageConcept{name: n.Label})
		}
		return true
	})
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, row := range measureCoverage(t, db, list) {
		if row.says < minPapers {
			continue
		}
		fmt.Fprintf(&b, "%-40s %5d say it %5d linked  coverage %.3f\n", row.name, row.says, row.linked, row.coverage())
		if row.coverage() < sampleFloor {
			t.Errorf("%s: coverage %.3f (%d of %d papers that say it), want ≥ %.2f", row.name, row.coverage(), row.saysAndLinked, row.says, sampleFloor)
		}
	}
	t.Log("concepts that open with a preposition:\n" + b.String())
}

// titleOf is the start of a paper's text (its title, then its abstracts).
func titleOf(text string) string {
	if r := []rune(text); len(r) > 90 {
		return string(r[:90]) + "…"
	}
	return text
}

// sameLetters: two names spelled alike but for case, spaces and hyphens.
func sameLetters(a, b string) bool {
	strip := func(s string) string { return strings.ToLower(strings.NewReplacer(" ", "", "-", "").Replace(s)) }
	return strip(a) == strip(b)
}

// hasAcronymWord: a name of several words one of which is an acronym.
func hasAcronymWord(name string) bool {
	f := strings.Fields(name)
	return len(f) > 1 && slices.ContainsFunc(f, ident.IsAcronym)
}
