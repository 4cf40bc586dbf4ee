package schema_test

import (
	"cmp"
	"os"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkSoakQueries runs each member of kg soak's mix alone, over real
// HTTP against a handler on a store (KG_BENCH_DATA: a folder kg ingest
// filled; skipped without it), for a person (KG_BENCH_AUTHOR, default
// "Nassir Navab", 52 papers in the arXiv file), so a profile shows one
// question at a time:
//
//	KG_BENCH_DATA=D go test -run '^$' -bench SoakQueries -benchtime 200x -cpuprofile cpu.out ./schema
func BenchmarkSoakQueries(b *testing.B) {
	ask, _ := benchServer(b, nil)
	name := cmp.Or(os.Getenv("KG_BENCH_AUTHOR"), "Nassir Navab")
	r, _ := ask(`query($n: String!) { author(name: $n) { id } }`, map[string]any{"n": name})
	a, _ := get(r.Data, "author").(map[string]any)
	if a == nil {
		b.Fatalf("no author %q in the store", name)
	}
	fill := strings.NewReplacer("$NAME", strconv.Quote(name), "$ID", strconv.Quote(a["id"].(string)))
	for _, q := range []struct{ name, query string }{
		{"stats", `{ stats { papers authors concepts edges } }`},
		{"coauthors", `{ author(name: $NAME) { name coauthors(first: 10) { weight author { name } sharedPapers { title } } } }`},
		{"search", `{ search(text: "learning", first: 10) { score node { id label } } }`},
		{"concept-related", `{ concept(name: "reinforcement learning") { name related(first: 10) { weight concept { name } } } }`},
		{"neighborhood-2", `{ neighborhood(id: $ID, depth: 2, first: 100) { nodes { id label } edges { type weight } } }`},
		{"concept-papers", `{ concept(name: "reinforcement learning") { papers(first: 20) { nodes { id title year authors { id name } } } } }`},
		{"concept-papers-bare", `{ concept(name: "reinforcement learning") { papers(first: 20) { nodes { id title } } } }`},
		{"papers-related", `{ author(name: $NAME) { papers(first: 5) { totalCount nodes { title related(first: 5) { score paper { title } } } } } }`},
	} {
		query := fill.Replace(q.query)
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				ask(query, nil)
			}
		})
	}
}
