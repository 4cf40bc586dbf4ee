package schema_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/researchkg/kg/schema"
)

// TestPageReadsAreBatched: a page of papers with their authors, subjects
// and concepts reads each kind of edge of the whole page in one Badger
// iterator, not one a paper, and answers what asking paper by paper does.
func TestPageReadsAreBatched(t *testing.T) {
	h, db, err := newHandlerDB(t, schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const page = `{ author(name: "Xiaoxi Jiang") { papers(first: 20) { nodes { id title
		authors { id name } subjects { code } concepts(first: 3) { weight concept { name } } } } } }`
	h.Execute(ctx, schema.Request{Query: page}) // the person's own reads, the first time
	before := db.Scans()
	r := h.Execute(ctx, schema.Request{Query: page})
	scans := db.Scans() - before
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	var got struct {
		Author struct {
			Papers struct {
				Nodes []json.RawMessage
			}
		}
	}
	b, _ := json.Marshal(r.Data)
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	papers := got.Author.Papers.Nodes
	if len(papers) < 5 {
		t.Fatalf("%d papers of Xiaoxi Jiang in the seeds, want several", len(papers))
	}
	// the person, the page (two scans: the list and its count at most),
	// then one scan each for authors, subjects and concepts
	t.Logf("%d papers, %d Badger iterators", len(papers), scans)
	if scans > 6 {
		t.Errorf("a page of %d papers with authors, subjects and concepts took %d Badger iterators, want at most 6", len(papers), scans)
	}
	for _, p := range papers {
		var id struct{ ID string }
		if err := json.Unmarshal(p, &id); err != nil {
			t.Fatal(err)
		}
		one := h.Execute(ctx, schema.Request{Query: `query($id: ID!) { node(id: $id) { ... on Paper { id title
			authors { id name } subjects { code } concepts(first: 3) { weight concept { name } } } } }`, Variables: map[string]any{"id": id.ID}})
		if len(one.Errors) > 0 {
			t.Fatal(one.Errors)
		}
		alone, _ := json.Marshal(one.Data.(map[string]any)["node"])
		if !jsonEqual(t, alone, p) {
			t.Errorf("paper %s in a page:\n%s\nalone:\n%s", id.ID, p, alone)
		}
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}
