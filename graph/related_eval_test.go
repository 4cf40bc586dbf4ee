package graph_test

import (
	"bufio"
	"context"
	"encoding/json"
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

// Related work judged by citations (../shared/data/citations/SOURCE.md):
// 18,041 ACL papers (titles, people, venue, year: no abstracts) go into kg
// as BibTeX would bring them; for 300 query papers drawn at random (fixed
// seed) among those with at least 5 citation links and a unique title, the
// share of the first 10 related papers that cite or are cited by the query
// (P@10). The citations only judge; they never enter kg. The floors are
// the two plain methods of SOURCE.md on the same split.
const (
	aanDir            = "../../shared/data/citations/"
	aanQueries        = 300
	aanMinLinks       = 5
	floorTitleTFIDF   = 0.102
	floorSharedAuthor = 0.122
	// goalRelatedP10 is the goal, not yet reached (doc.go,
	// "Related work", says why); the test holds kg above both floors
	goalRelatedP10 = 0.20
)

type aanPaper struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Authors []string `json:"authors"`
	Venue   string   `json:"venue"`
	Year    int      `json:"year"`
}

func readAAN(t testing.TB) ([]aanPaper, map[string][]string) {
	t.Helper()
	f, err := os.Open(aanDir + "aan_papers.jsonl")
	if err != nil {
		t.Skipf("ACL citation data not available (%v): it is in ../shared, beside the clone", err)
	}
	defer f.Close()
	var papers []aanPaper
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p aanPaper
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		papers = append(papers, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	c, err := os.Open(aanDir + "aan_citations_dev.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	links := map[string][]string{}
	sc = bufio.NewScanner(c)
	for sc.Scan() {
		a, b, ok := strings.Cut(sc.Text(), "\t")
		if !ok || a == b {
			continue
		}
		links[a] = append(links[a], b) // undirected
		links[b] = append(links[b], a)
	}
	return papers, links
}

// aanDocuments are the papers as a BibTeX export gives them: "Last, First"
// names, the venue as booktitle.
func aanDocuments(papers []aanPaper) []graph.Document {
	docs := make([]graph.Document, len(papers))
	for i, p := range papers {
		docs[i] = graph.Document{Source: "aan.bib", Format: "bibtex", Records: []graph.Record{{
			Title: p.Title, Authors: source.BibNames(strings.Join(p.Authors, " and ")),
			Venue: p.Venue, Year: p.Year, Line: i + 1,
		}}}
	}
	return docs
}

// aanStore ingests the ACL papers into an in-memory store, or opens the
// store KG_ACL_STORE names (`kg ingest` of the same papers as BibTeX).
func aanStore(t *testing.T, papers []aanPaper) (*graph.Service, func()) {
	t.Helper()
	if dir := os.Getenv("KG_ACL_STORE"); dir != "" {
		db, err := store.Open(store.DefaultOptions(dir).WithReadOnly(true))
		if err != nil {
			t.Fatal(err)
		}
		return graph.NewService(db, extractor), func() { closeStore(t, db) }
	}
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	p := svc.NewPipeline(context.Background(), 2, func(d graph.Document, _ graph.IngestResult, err error) {
		if err != nil && graph.ErrorCode(err) != graph.Invalid {
			t.Error(err)
		}
	})
	for _, d := range aanDocuments(papers) {
		if err := p.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	return svc, func() {}
}

// relatedEval is a P@10 run: for each query, the answers' ACL ids.
type relatedEval struct {
	byTitle map[string][]string        // TitleKey → ACL ids
	links   map[string]map[string]bool // undirected citation links
	queries []aanPaper
}

func newRelatedEval(papers []aanPaper, links map[string][]string) *relatedEval {
	e := &relatedEval{byTitle: map[string][]string{}, links: map[string]map[string]bool{}}
	for _, p := range papers {
		k := ident.TitleKey(p.Title)
		e.byTitle[k] = append(e.byTitle[k], p.ID)
	}
	for a, bs := range links {
		e.links[a] = map[string]bool{}
		for _, b := range bs {
			e.links[a][b] = true
		}
	}
	var cands []aanPaper
	for _, p := range papers {
		if len(e.links[p.ID]) >= aanMinLinks && len(e.byTitle[ident.TitleKey(p.Title)]) == 1 {
			cands = append(cands, p)
		}
	}
	rng := rand.New(rand.NewPCG(21, 10))
	rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	e.queries = cands[:min(aanQueries, len(cands))]
	return e
}

// precision runs each query through fn (the query paper's node) and
// returns P@10.
func (e *relatedEval) precision(t *testing.T, v *graph.View, fn func(p graph.NodeID) ([]graph.Related, error)) float64 {
	t.Helper()
	total := 0.0
	for _, q := range e.queries {
		hits, err := v.Search(q.Title, []graph.Kind{graph.KindPaper}, 5)
		if err != nil {
			t.Fatal(err)
		}
		var id graph.NodeID
		for _, h := range hits {
			if ident.TitleKey(h.Node.Label) == ident.TitleKey(q.Title) {
				id = h.Node.ID
			}
		}
		if id == 0 {
			t.Fatalf("query %s %q: not found in kg", q.ID, q.Title)
		}
		rel, err := fn(id)
		if err != nil {
			t.Fatal(err)
		}
		good := 0
		for _, r := range rel {
			if slices.ContainsFunc(e.byTitle[ident.TitleKey(r.Paper.Label)], func(x string) bool { return e.links[q.ID][x] }) {
				good++
			}
		}
		total += float64(good) / 10
	}
	return total / float64(len(e.queries))
}

// P@10 of Paper.related and of relatedWork(papers: [one seed]) on the dev
// split, beside the floors; and the concept layer on titles only: concept
// nodes per paper and the share of papers with a concept. Skips without
// ../shared.
func TestRelatedOnACLCitations(t *testing.T) {
	heavyUnderRace(t)
	papers, links := readAAN(t)
	svc, done := aanStore(t, papers)
	defer done()
	e := newRelatedEval(papers, links)
	v := view(t, svc)
	related := e.precision(t, v, func(p graph.NodeID) ([]graph.Related, error) { return v.RelatedPapers(p, 10) })
	work := e.precision(t, v, func(p graph.NodeID) ([]graph.Related, error) {
		return v.RelatedWork(graph.RelatedQuery{Papers: []graph.NodeID{p}, First: 10})
	})
	st, err := v.Stats()
	if err != nil {
		t.Fatal(err)
	}
	withConcept, err := papersWithConcepts(svc)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "ACL dev split, %d queries, P@10:\n", len(e.queries))
	fmt.Fprintf(&b, "  Paper.related                      %.3f\n", related)
	fmt.Fprintf(&b, "  relatedWork(papers: [seed])        %.3f\n", work)
	fmt.Fprintf(&b, "  floor: title TF-IDF cosine         %.3f\n", floorTitleTFIDF)
	fmt.Fprintf(&b, "  floor: most shared authors         %.3f\n", floorSharedAuthor)
	fmt.Fprintf(&b, "titles only: %d concepts for %d papers (%.3f a paper); %.3f of the papers have a concept",
		st.Concepts, st.Papers, float64(st.Concepts)/float64(st.Papers), withConcept)
	t.Log("\n" + b.String())
	for name, p := range map[string]float64{"Paper.related": related, "relatedWork": work} {
		if p <= floorSharedAuthor || p <= floorTitleTFIDF {
			t.Errorf("%s: P@10 %.3f, want above both floors", name, p)
		} else if p < goalRelatedP10 {
			t.Logf("%s: P@10 %.3f, above both floors, short of the goal %.2f", name, p, goalRelatedP10)
		}
	}
	if withConcept < 0.9 {
		t.Errorf("titles only: %.3f of the papers have a concept, want ≥ 0.9", withConcept)
	}
}

// papersWithConcepts is the share of papers linked to at least one
// concept.
func papersWithConcepts(svc *graph.Service) (float64, error) {
	r, err := svc.Store().Read(context.Background())
	if err != nil {
		return 0, err
	}
	defer r.Close()
	var papers, with int
	err = r.NodeIDs(graph.KindPaper, 0, func(id graph.NodeID) bool {
		papers++
		has := false
		if err := r.Edges(id, graph.Mentions, graph.Out, func(graph.NodeID, float64) bool { has = true; return false }); err == nil && has {
			with++
		}
		return true
	})
	return float64(with) / float64(max(papers, 1)), err
}
