package schema_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/researchkg/kg/schema"
)

// FuzzExecute sends arbitrary query text and variables through every check
// and the executor: nothing may panic, every answer is data or coded
// errors, and each returns quickly.
func FuzzExecute(f *testing.F) {
	for _, q := range []string{
		`{ stats { papers } }`,
		`{ author(name: "Xiaoxi Jiang") { coauthors(first: 3) { weight author { name } } } }`,
		`query($n: Int) { author(name: "Xiaoxi Jiang") { papers(first: $n) { nodes { title } } } }`,
		`query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }`,
		`{ neighborhood(id: "author:1", first: 500) { nodes { ... on Paper { related(first: 100) { paper { title } } } } } }`,
		`{ node(id: "paper:-1") { id } }`,
		`mutation { ingest(name: "x", text: "y") { documents } }`,
		`{ a: stats { papers } b: stats { papers } }`,
		fragmentBomb(6),
	} {
		f.Add(q, `{"n": 3}`)
	}
	h, err := newHandlerWith(f, schema.Options{CostBudget: 5000})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, query, vars string) {
		var v map[string]any
		_ = json.Unmarshal([]byte(vars), &v)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		start := time.Now()
		r := h.Execute(ctx, schema.Request{Query: query, Variables: v})
		if r.Data == nil && len(r.Errors) == 0 {
			t.Fatalf("no data and no error for %q", query)
		}
		for _, e := range r.Errors {
			if e.Extensions["code"] == nil && r.Data == nil {
				t.Errorf("error without a code: %v", e.Message)
			}
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("took %v for %q", d, query)
		}
	})
}
