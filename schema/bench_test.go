package schema_test

import (
	"context"
	"testing"

	"github.com/researchkg/kg/schema"
)

func benchHandler(b *testing.B) *schema.Handler {
	h, err := newHandler(b)
	if err != nil {
		b.Fatal(err)
	}
	return h
}

func benchQuery(b *testing.B, q string) {
	h := benchHandler(b)
	ctx := context.Background()
	if r := h.Execute(ctx, schema.Request{Query: q}); len(r.Errors) > 0 {
		b.Fatal(r.Errors)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r := h.Execute(ctx, schema.Request{Query: q}); len(r.Errors) > 0 {
			b.Fatal(r.Errors)
		}
	}
}

// BenchmarkExecuteTypename is the baseline: a cached document that touches
// no data.
func BenchmarkExecuteTypename(b *testing.B) { benchQuery(b, `{ __typename }`) }

// BenchmarkExecuteCoauthors is the dashboard's co-author panel.
func BenchmarkExecuteCoauthors(b *testing.B) {
	benchQuery(b, `{ author(name: "Xiaoxi Jiang") { name coauthors(first: 10) { weight author { name } sharedPapers { title year } } } }`)
}

// BenchmarkExecuteRelated is a paper page's related-work panel.
func BenchmarkExecuteRelated(b *testing.B) {
	benchQuery(b, `{ paper(title: "GD2PO") { title related(first: 10) { score paper { title } sharedConcepts { name } sharedAuthors { name } } } }`)
}
