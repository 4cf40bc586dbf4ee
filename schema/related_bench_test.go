package schema_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/nlp"
)

// BenchmarkRelatedWork replays related-work questions over real HTTP
// against a handler on a store (KG_BENCH_DATA, as BenchmarkDashboards),
// one request at a time, and reports each one's p50 and p99 latency:
//
//	paper      a paper's related(first: 10) with the reasons;
//	person     a person's five papers, each with its related(first: 10);
//	draft-200  relatedWork(text:) with a title and a 200-word abstract;
//	seeds-3    relatedWork(papers:) with three seed papers;
//	concepts-2 relatedWork(concepts:) with two concept names.
//
// Papers, people and texts are drawn from the store with a fixed seed:
//
//	KG_BENCH_DATA=/tmp/kg-arxiv go test -run '^$' -bench RelatedWork -benchtime 400x ./schema
func BenchmarkRelatedWork(b *testing.B) {
	ask, db := benchServer(b, nlp.New())
	r, err := db.Read(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	var papers []graph.NodeID
	if err := r.NodeIDs(graph.KindPaper, 0, func(id graph.NodeID) bool { papers = append(papers, id); return true }); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(21, 5))
	rng.Shuffle(len(papers), func(i, j int) { papers[i], papers[j] = papers[j], papers[i] })
	papers = papers[:1000]
	var drafts []string
	for _, id := range papers {
		n, err := r.Node(id)
		if err != nil {
			b.Fatal(err)
		}
		abs, err := r.Abstracts(id)
		if err != nil {
			b.Fatal(err)
		}
		if words := strings.Fields(strings.Join(abs, " ")); len(words) >= 200 {
			drafts = append(drafts, n.Label+"\n"+strings.Join(words[:200], " "))
		}
	}
	r.Close()
	res, _ := ask(`{ top(kind: CONCEPT, first: 100) { node { label } } top2: top(kind: AUTHOR, first: 100) { node { id } } }`, nil)
	var concepts, people []string
	for _, x := range get(res.Data, "top").([]any) {
		concepts = append(concepts, get(x, "node", "label").(string))
	}
	for _, x := range get(res.Data, "top2").([]any) {
		people = append(people, get(x, "node", "id").(string))
	}
	const reasons = `score why paper { id title } concepts { weight concept { name } } sharedAuthors { name }`
	paper := func() (string, map[string]any) {
		return `query($p: ID!) { node(id: $p) { ... on Paper { related(first: 10) { ` + reasons + ` } } } }`,
			map[string]any{"p": papers[rng.IntN(len(papers))].String()}
	}
	person := func() (string, map[string]any) {
		return `query($a: ID!) { node(id: $a) { ... on Author { papers(first: 5) { nodes { title related(first: 10) { ` + reasons + ` } } } } } }`,
			map[string]any{"a": people[rng.IntN(len(people))]}
	}
	draft := func() (string, map[string]any) {
		return `query($t: String!) { relatedWork(text: $t) { ` + reasons + ` } }`, map[string]any{"t": drafts[rng.IntN(len(drafts))]}
	}
	seeds := func() (string, map[string]any) {
		var ids []string
		for range 3 {
			ids = append(ids, papers[rng.IntN(len(papers))].String())
		}
		return `query($p: [ID!]) { relatedWork(papers: $p) { ` + reasons + ` } }`, map[string]any{"p": ids}
	}
	named := func() (string, map[string]any) {
		return `query($c: [String!]) { relatedWork(concepts: $c) { ` + reasons + ` } }`,
			map[string]any{"c": []string{concepts[rng.IntN(len(concepts))], concepts[rng.IntN(len(concepts))]}}
	}
	runQuestions(b, ask, []question{{"paper", paper}, {"person", person}, {"draft-200", draft}, {"seeds-3", seeds}, {"concepts-2", named}})
}
