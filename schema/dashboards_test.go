package schema_test

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/researchkg/kg/schema"
)

// The dashboard fields over HTTP on the seed graph: facets, top, path and
// the drill-down list agree with each other.
func TestDashboardQueries(t *testing.T) {
	srv := newServer(t)
	r := post(t, srv, `{
		years: facets(by: YEAR) { total buckets { key label count node { id } } }
		subjects: facets(by: SUBJECT, first: 3) { total buckets { key label count node { id } } }
		people: top(kind: AUTHOR, first: 5) { count score node { id label } }
		x: authors(name: "Xiaoxi Jiang", first: 1) { id coauthors(first: 1) { weight author { id name } } }
	}`, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("errors: %+v", r.Errors)
	}
	total := num(get(r.Data, "years", "total"))
	if total == 0 || num(get(r.Data, "subjects", "total")) != total {
		t.Errorf("totals: years %d, subjects %v", total, get(r.Data, "subjects", "total"))
	}
	if get(r.Data, "years", "buckets", 0, "node") != nil || get(r.Data, "subjects", "buckets", 0, "node", "id") == nil {
		t.Errorf("bucket nodes: a year's %v, a subject's %v", get(r.Data, "years", "buckets", 0, "node"), get(r.Data, "subjects", "buckets", 0, "node"))
	}
	if k, _ := get(r.Data, "subjects", "buckets", 0, "key").(string); !strings.HasPrefix(k, "cs.") {
		t.Errorf("a subject bucket's key %q, want its code", k)
	}
	if n := len(get(r.Data, "subjects", "buckets").([]any)); n > 3 {
		t.Errorf("%d subject buckets, asked for 3", n)
	}
	if l := get(r.Data, "people", 0, "node", "label"); l != "Xiaoxi Jiang" {
		t.Errorf("the person with most papers: %v", l)
	}
	x, _ := get(r.Data, "x", 0, "id").(string)
	g, _ := get(r.Data, "x", 0, "coauthors", 0, "author", "id").(string)
	weight := num(get(r.Data, "x", 0, "coauthors", 0, "weight"))
	if get(r.Data, "x", 0, "coauthors", 0, "author", "name") != "Guanjun Jiang" || weight != 7 {
		t.Fatalf("Xiaoxi Jiang's first co-author: %v", get(r.Data, "x", 0, "coauthors", 0))
	}
	r = post(t, srv, `query($x: ID!, $g: ID!) {
		path(from: $x, to: $g) { length authors { name } hops { from { id } to { id } papers { title year } } }
		either: papers(filter: {authors: [$x, $g]}, first: 100) { totalCount nodes { title month date } }
		xs: papers(filter: {authors: [$x]}, orderBy: OLDEST, first: 2) { totalCount pageInfo { hasNextPage endCursor } }
		gs: papers(filter: {authors: [$g]}) { totalCount }
		cl: top(kind: AUTHOR, filter: {subjects: ["cs.CL"], authors: [$x]}) { count node { label } }
		coauthors2026: authors(name: "Xiaoxi Jiang", first: 1) { coauthors(first: 3, filter: {yearFrom: 2026}) { weight sharedPapers { year } } }
	}`, map[string]any{"x": x, "g": g})
	if len(r.Errors) > 0 {
		t.Fatalf("errors: %+v", r.Errors)
	}
	if num(get(r.Data, "path", "length")) != 1 || len(get(r.Data, "path", "hops", 0, "papers").([]any)) != weight {
		t.Errorf("path: %v, want one hop of %d papers", get(r.Data, "path"), weight)
	}
	xs, gs := num(get(r.Data, "xs", "totalCount")), num(get(r.Data, "gs", "totalCount"))
	if n := num(get(r.Data, "either", "totalCount")); n != xs+gs-weight { // a list's values are OR
		t.Errorf("papers of either: %d; Xiaoxi Jiang's %d, Guanjun Jiang's %d, shared %d", n, xs, gs, weight)
	}
	if xs < weight || get(r.Data, "xs", "pageInfo", "hasNextPage") != true {
		t.Errorf("Xiaoxi Jiang's papers: %v", get(r.Data, "xs"))
	}
	for _, c := range get(r.Data, "coauthors2026", 0, "coauthors").([]any) {
		for _, p := range get(c, "sharedPapers").([]any) {
			if y := num(get(p, "year")); y < 2026 {
				t.Errorf("a shared paper of %d under a filter from 2026", y)
			}
		}
	}
}

// Errors of the dashboard fields: unknown names and bad months name what
// is wrong; first, maxLength and the kind have bounds.
func TestDashboardErrors(t *testing.T) {
	srv := newServer(t)
	r := post(t, srv, `{ authors(name: "Xiaoxi Jiang") { id } }`, nil)
	x, _ := get(r.Data, "authors", 0, "id").(string)
	for _, c := range []struct{ query, code, says string }{
		{`{ facets(by: SUBJECT, filter: {subjects: ["cs.XX"]}) { total } }`, "INVALID", `unknown subject "cs.XX"`},
		{`{ facets(by: MONTH, filter: {concepts: ["no such thing at all"]}) { total } }`, "INVALID", `unknown concept "no such thing at all"`},
		{`{ top(kind: CONCEPT, filter: {authors: ["author:999999"]}) { count } }`, "INVALID", "unknown person author:999999"},
		{`{ top(kind: CONCEPT, filter: {authors: ["nobody"]}) { count } }`, "INVALID", "filter.authors[0]"},
		{`{ papers(filter: {monthFrom: "2025-7"}) { totalCount } }`, "INVALID", `month "2025-7"`},
		{`{ papers(filter: {monthFrom: "2025-08", monthTo: "2025-07"}) { totalCount } }`, "INVALID", "after monthTo"},
		{`{ facets(by: CONCEPT, first: 101) { total } }`, "INVALID", "first must be between 0 and 100"},
		{`{ top(kind: PAPER) { count } }`, "INVALID", "not paper"},
		{`{ emerging(first: 1000) { count } }`, "INVALID", "first must be"},
		{`{ path(from: "X", to: "X", maxLength: 9) { length } }`, "INVALID", "maxLength must be between 1 and 8"},
		{`{ path(from: "X", to: "paper:2") { length } }`, "INVALID", "paper:2 is not a person"},
		{`{ path(from: "X", to: "author:999999") { length } }`, "NOT_FOUND", "no person author:999999"},
		{`{ papers(filter: {}, after: "bm90IGEgY3Vyc29y") { totalCount } }`, "INVALID", "invalid cursor"},
	} {
		r := post(t, srv, strings.ReplaceAll(c.query, `"X"`, `"`+x+`"`), nil)
		if code(r) != c.code || !strings.Contains(r.Errors[0].Message, c.says) {
			t.Errorf("%s: %s %+v; want %s saying %s", c.query, code(r), r.Errors, c.code, c.says)
		}
	}
}

// A field that scans papers costs what its filter may read: a facet over
// the whole corpus more than one over a subject's papers; a query of many
// is refused before it runs. (The seed graph is small: one more per paper
// here.)
func TestDashboardCost(t *testing.T) {
	srv := serverWith(t, schema.Options{CostBudget: 300, ScanPerCost: 1})
	cost := func(q string) (int, string) {
		t.Helper()
		r := post(t, srv, q, nil)
		return num(r.Extensions["cost"]), code(r)
	}
	plain, _ := cost(`{ stats { papers } }`)
	all, c1 := cost(`{ facets(by: CONCEPT) { total } }`)
	person, c2 := cost(`{ facets(by: CONCEPT, filter: {subjects: ["cs.CL"]}) { total } }`)
	if c1 != "" || c2 != "" || all <= plain+1 || person > all {
		t.Errorf("costs: stats %d, a facet of every paper %d (%s), of cs.CL %d (%s)", plain, all, c1, person, c2)
	}
	var many []string
	for i := range 30 {
		many = append(many, fmt.Sprintf("f%d: facets(by: YEAR) { total }", i))
	}
	if n, c := cost("{" + strings.Join(many, " ") + "}"); c != "TOO_COSTLY" {
		t.Errorf("30 facets of every paper: cost %d, %q; want TOO_COSTLY", n, c)
	}
	// a list of people each asking a filtered list costs per person
	one, _ := cost(`{ authors(name: "Xiaoxi Jiang", first: 1) { coauthors(filter: {yearFrom: 2025}) { weight } } }`)
	ten, _ := cost(`{ authors(name: "Xiaoxi Jiang", first: 10) { coauthors(filter: {yearFrom: 2025}) { weight } } }`)
	if ten <= one {
		t.Errorf("filtered co-authors of 1 person cost %d, of 10 %d", one, ten)
	}
}

// A write over HTTP is in the next answer: facets follow ingest (under
// -race, with dashboards reading meanwhile).
func TestFacetsFollowIngest(t *testing.T) {
	srv := serverWith(t, schema.Options{WriteToken: token})
	lines, err := os.ReadFile("../testdata/arxiv/sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	total := func() int {
		r := post(t, srv, `{ facets(by: MONTH) { total } stats { papers } }`, nil)
		if len(r.Errors) > 0 {
			t.Errorf("facets: %+v", r.Errors)
			return -1
		}
		if a, b := num(get(r.Data, "facets", "total")), num(get(r.Data, "stats", "papers")); a != b {
			t.Errorf("facets count %d papers, stats %d", a, b)
		}
		return num(get(r.Data, "facets", "total"))
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				r := post(t, srv, `{ facets(by: SUBJECT) { total } top(kind: CONCEPT) { count } }`, nil)
				if len(r.Errors) > 0 {
					t.Errorf("facets during ingest: %+v", r.Errors)
					return
				}
			}
		}()
	}
	before := total()
	for _, l := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
		r := postAs(t, srv, "Bearer "+token, `mutation($t: String!) { ingest(name: "s", text: $t) { papersAdded } }`, map[string]any{"t": l})
		if len(r.Errors) > 0 || num(get(r.Data, "ingest", "papersAdded")) == 0 {
			continue
		}
		if now := total(); now != before+1 {
			t.Errorf("after one more paper: %d, was %d", now, before)
		} else {
			before = now
		}
	}
	close(stop)
	wg.Wait()
	r := post(t, srv, `{ facets(by: MONTH, filter: {monthFrom: "2025-07", monthTo: "2025-07"}) { total buckets { key count } } }`, nil)
	if num(get(r.Data, "facets", "total")) != 1 || get(r.Data, "facets", "buckets", 0, "key") != "2025-07" {
		t.Errorf("July 2025 after the sample: %v", get(r.Data, "facets"))
	}
}
