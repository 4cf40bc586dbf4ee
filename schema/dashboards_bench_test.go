package schema_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/schema"
	"github.com/researchkg/kg/store"
)

// BenchmarkDashboards replays dashboard questions over real HTTP against
// a handler on a store (KG_BENCH_DATA: a folder kg ingest filled; skipped
// without it), one request at a time, and reports each question's p50 and
// p99 latency:
//
//	facet-1   a facet or top-N, unfiltered or with one filter (a subject, a
//	          concept, a person, a year);
//	facet-2   a facet or top-N with two or three filters;
//	path-4    a collaboration path between two people 4 hops apart;
//	drilldown the list behind a bar (a concept in a subject in a month);
//	emerging  emerging concepts, unfiltered or in a subject.
//
// Names and ids are drawn from the store with a fixed seed:
//
//	KG_BENCH_DATA=/tmp/kg-arxiv go test -run '^$' -bench Dashboards -benchtime 400x ./schema
func BenchmarkDashboards(b *testing.B) {
	ask, _ := benchServer(b, nil)
	rng := rand.New(rand.NewPCG(20, 26))
	// the values questions are drawn from: subjects, concepts and people
	// with papers, weighted as a dashboard's clicks would be (by papers)
	pick := func(kind string, n int) []string {
		r, _ := ask(fmt.Sprintf(`{ top(kind: %s, first: %d) { node { id label } } }`, kind, n), nil)
		var out []string
		for _, x := range get(r.Data, "top").([]any) {
			key := "id"
			if kind != "AUTHOR" {
				key = "label"
			}
			out = append(out, get(x, "node", key).(string))
		}
		return out
	}
	subjects, concepts, people := pick("SUBJECT", 20), pick("CONCEPT", 100), pick("AUTHOR", 100)
	months := []string{"2025-04", "2025-07", "2025-10", "2026-01"}
	one := func() (string, map[string]any) {
		s, c, a := subjects[rng.IntN(len(subjects))], concepts[rng.IntN(len(concepts))], people[rng.IntN(len(people))]
		switch rng.IntN(7) {
		case 0:
			return `{ facets(by: MONTH) { total buckets { key count } } }`, nil
		case 1:
			return `query($s: String!) { facets(by: CONCEPT, filter: {subjects: [$s]}) { total buckets { key label count } } }`, map[string]any{"s": s}
		case 2:
			return `query($c: String!) { top(kind: AUTHOR, filter: {concepts: [$c]}) { count node { label } } }`, map[string]any{"c": c}
		case 3:
			return `query($c: String!) { facets(by: MONTH, filter: {concepts: [$c]}) { total buckets { key count } } }`, map[string]any{"c": c}
		case 4:
			return `{ top(kind: CONCEPT, filter: {yearFrom: 2025, yearTo: 2025}) { count node { label } } }`, nil
		case 5:
			return `query($a: ID!) { facets(by: SUBJECT, filter: {authors: [$a]}) { total buckets { key count } } }`, map[string]any{"a": a}
		}
		return `query($s: String!) { top(kind: AUTHOR, filter: {subjects: [$s]}) { count node { label } } }`, map[string]any{"s": s}
	}
	two := func() (string, map[string]any) {
		s, c := subjects[rng.IntN(len(subjects))], concepts[rng.IntN(len(concepts))]
		m := months[rng.IntN(len(months))]
		switch rng.IntN(3) {
		case 0:
			return `query($s: String!) { facets(by: CONCEPT, filter: {subjects: [$s], yearFrom: 2025, yearTo: 2025}) { total buckets { key label count } } }`, map[string]any{"s": s}
		case 1:
			return `query($s: String!, $c: String!) { facets(by: MONTH, filter: {subjects: [$s], concepts: [$c]}) { total buckets { key count } } }`, map[string]any{"s": s, "c": c}
		}
		return `query($c: String!, $m: String!, $s: String!) { top(kind: AUTHOR, filter: {concepts: [$c], subjects: [$s], monthFrom: $m}) { count node { label } } }`, map[string]any{"c": c, "m": m, "s": s}
	}
	drill := func() (string, map[string]any) {
		return `query($s: String!, $c: String!, $m: String!) { papers(filter: {subjects: [$s], concepts: [$c], monthFrom: $m, monthTo: $m}, first: 20) { totalCount nodes { title month authors { name } } pageInfo { endCursor } } }`,
			map[string]any{"s": subjects[rng.IntN(len(subjects))], "c": concepts[rng.IntN(len(concepts))], "m": months[rng.IntN(len(months))]}
	}
	emerging := func() (string, map[string]any) {
		if rng.IntN(2) == 0 {
			return `{ emerging(first: 10) { count score since node { label } } }`, nil
		}
		return `query($s: String!) { emerging(first: 10, filter: {subjects: [$s], monthFrom: "2025-10"}) { count score since node { label } } }`, map[string]any{"s": subjects[rng.IntN(len(subjects))]}
	}
	// pairs of people 4 hops apart, found before the timing
	var pairs [][2]string
	var authors []string
	for len(authors) < 400 {
		r, _ := ask(`query($s: String!) { top(kind: AUTHOR, first: 100, filter: {subjects: [$s]}) { node { id } } }`, map[string]any{"s": subjects[len(authors)/100%len(subjects)]})
		for _, x := range get(r.Data, "top").([]any) {
			authors = append(authors, get(x, "node", "id").(string))
		}
	}
	for tries := 0; len(pairs) < 50 && tries < 5000; tries++ {
		a, z := authors[rng.IntN(len(authors))], authors[rng.IntN(len(authors))]
		r, _ := ask(`query($a: ID!, $z: ID!) { path(from: $a, to: $z, maxLength: 4) { length } }`, map[string]any{"a": a, "z": z})
		if num(get(r.Data, "path", "length")) == 4 {
			pairs = append(pairs, [2]string{a, z})
		}
	}
	if len(pairs) == 0 {
		b.Fatal("no two people 4 hops apart among the most prolific")
	}
	path := func() (string, map[string]any) {
		p := pairs[rng.IntN(len(pairs))]
		return `query($a: ID!, $z: ID!) { path(from: $a, to: $z) { length authors { name } hops { papers { title } } } }`, map[string]any{"a": p[0], "z": p[1]}
	}
	runQuestions(b, ask, []question{{"facet-1", one}, {"facet-2", two}, {"path-4", path}, {"drilldown", drill}, {"emerging", emerging}})
}

// askFunc posts a query and returns the answer and the time it took.
type askFunc func(q string, vars map[string]any) (gqlResponse, time.Duration)

// benchServer opens the store KG_BENCH_DATA names (skipping without it),
// builds its facet index, and serves it over real HTTP; terms is the
// extractor (nil: none, for questions that analyse no text).
func benchServer(b *testing.B, terms graph.TermExtractor) (askFunc, *store.DB) {
	dir := os.Getenv("KG_BENCH_DATA")
	if dir == "" {
		b.Skip("KG_BENCH_DATA names no store (fill one with kg ingest)")
	}
	db, err := store.Open(store.DefaultOptions(dir))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	ctx := context.Background()
	svc := graph.NewService(db, terms)
	start := time.Now()
	if err := svc.PrepareIndex(ctx); err != nil {
		b.Fatal(err)
	}
	b.Logf("facet index built in %v", time.Since(start))
	h, err := schema.NewHandler(svc, schema.Options{})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	return func(q string, vars map[string]any) (gqlResponse, time.Duration) {
		body, _ := json.Marshal(map[string]any{"query": q, "variables": vars})
		t := time.Now()
		resp, err := http.Post(srv.URL+"/graphql", "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		var out gqlResponse
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		el := time.Since(t)
		if err != nil || len(out.Errors) > 0 {
			b.Fatalf("%s %v: %v %+v", q, vars, err, out.Errors)
		}
		return out, el
	}, db
}

// question is one kind of request of a benchmark: next draws one.
type question struct {
	name string
	next func() (string, map[string]any)
}

// runQuestions times each question as a sub-benchmark, reporting its p50
// and p99 latency.
func runQuestions(b *testing.B, ask askFunc, qs []question) {
	for _, q := range qs {
		b.Run(q.name, func(b *testing.B) {
			var lat []time.Duration
			for b.Loop() {
				query, vars := q.next()
				_, el := ask(query, vars)
				lat = append(lat, el)
			}
			slices.Sort(lat)
			ms := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
			b.ReportMetric(ms(0.5), "p50-ms")
			b.ReportMetric(ms(0.99), "p99-ms")
		})
	}
}
