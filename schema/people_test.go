package schema_test

import (
	"bufio"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/researchkg/kg/schema"
)

// peopleServer serves the seed pages plus the arXiv records of five names
// (graph/testdata/arxiv-people.jsonl, without its 3,303-author record),
// ingested through the mutation, with writes allowed.
func peopleServer(t *testing.T) *httptest.Server {
	t.Helper()
	f, err := os.Open("../graph/testdata/arxiv-people.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(sc.Text()) < 50_000 {
			b.WriteString(sc.Text() + "\n")
		}
	}
	srv := serverWith(t, schema.Options{WriteToken: token})
	r := postAs(t, srv, "Bearer "+token, `mutation($t: String!) { ingest(name: "arxiv-people.jsonl", text: $t) { failed papersAdded } }`,
		map[string]any{"t": b.String()})
	if len(r.Errors) > 0 || r.Data["ingest"].(map[string]any)["papersAdded"].(float64) != 49 {
		t.Fatalf("ingest: %+v", r)
	}
	return srv
}

func list(v any) []map[string]any {
	var out []map[string]any
	for _, x := range v.([]any) {
		out = append(out, x.(map[string]any))
	}
	return out
}

// People who share a name are several authors, most papers first, each
// labelled with what tells them apart; a name nobody shares is one.
func TestAuthorsByName(t *testing.T) {
	srv := peopleServer(t)
	q := `query($n: String!) {
  authors(name: $n, first: 10) { id name label homonyms disambiguation papers(first: 1) { totalCount } }
  author(name: $n) { id }
}`
	r := post(t, srv, q, map[string]any{"n": "jun yan"})
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	people := list(r.Data["authors"])
	if len(people) < 2 {
		t.Fatalf("Jun Yan: %d people, want several: %+v", len(people), people)
	}
	labels := map[string]bool{}
	last := 1e9
	for _, p := range people {
		n := p["papers"].(map[string]any)["totalCount"].(float64)
		if n > last {
			t.Errorf("not most papers first: %+v", people)
		}
		last = n
		if p["name"] != "Jun Yan" || int(p["homonyms"].(float64)) != len(people)-1 || p["disambiguation"] == nil {
			t.Errorf("person %+v: want name Jun Yan, %d homonyms, a disambiguation", p, len(people)-1)
		}
		l := p["label"].(string)
		if !strings.HasPrefix(l, "Jun Yan (") || labels[l] {
			t.Errorf("label %q: want \"Jun Yan (…)\", distinct", l)
		}
		labels[l] = true
	}
	if r.Data["author"].(map[string]any)["id"] != people[0]["id"] {
		t.Errorf("author(name) is %v, want the one with most papers %v", r.Data["author"], people[0]["id"])
	}
	// the second person by id, and their co-authors
	r = post(t, srv, `query($id: ID!) { node(id: $id) { ... on Author { name coauthors(first: 3) { weight author { name } } } } }`,
		map[string]any{"id": people[1]["id"]})
	if len(r.Errors) > 0 || r.Data["node"].(map[string]any)["name"] != "Jun Yan" || len(list(r.Data["node"].(map[string]any)["coauthors"])) == 0 {
		t.Errorf("node(id) of the second Jun Yan: %+v", r)
	}
	r = post(t, srv, q, map[string]any{"n": "Norimichi Ukita"})
	people = list(r.Data["authors"])
	if len(people) != 1 || people[0]["homonyms"].(float64) != 0 || people[0]["disambiguation"] != nil || people[0]["label"] != "Norimichi Ukita" {
		t.Errorf("Norimichi Ukita: %+v", people)
	}
	r = post(t, srv, q, map[string]any{"n": "Nobody Atall"})
	if len(r.Errors) > 0 || len(r.Data["authors"].([]any)) != 0 || r.Data["author"] != nil {
		t.Errorf("unknown name: %+v", r)
	}
}

// splitAuthor and mergeAuthors need the token, check their arguments, and
// change the people at once.
func TestSplitAndMergeAuthors(t *testing.T) {
	srv := peopleServer(t)
	who := `{ authors(name: "Norimichi Ukita") { id homonyms papers(first: 3) { nodes { id } } } }`
	r := post(t, srv, who, nil)
	people := list(r.Data["authors"])
	if len(people) != 1 {
		t.Fatalf("Norimichi Ukita: %+v", r)
	}
	id := people[0]["id"]
	var papers []any
	for _, p := range list(people[0]["papers"].(map[string]any)["nodes"]) {
		papers = append(papers, p["id"])
	}
	split := `mutation($a: ID!, $p: [ID!]!) { splitAuthor(author: $a, papers: $p, note: "test") { id papers(first: 10) { totalCount } } }`
	vars := map[string]any{"a": id, "p": papers[:2]}
	if r := post(t, srv, split, vars); code(r) != "UNAUTHENTICATED" {
		t.Errorf("split without the token: %+v", r.Errors)
	}
	if r := postAs(t, srv, "Bearer "+token, split, map[string]any{"a": id, "p": []any{"paper:999999"}}); code(r) != "INVALID" {
		t.Errorf("split of a paper not his: %+v", r.Errors)
	}
	if r := postAs(t, srv, "Bearer "+token, split, map[string]any{"a": "author:x", "p": papers[:1]}); code(r) != "INVALID" {
		t.Errorf("split of a bad id: %+v", r.Errors)
	}
	r = postAs(t, srv, "Bearer "+token, split, vars)
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	got := list(r.Data["splitAuthor"])
	if len(got) != 2 || got[0]["papers"].(map[string]any)["totalCount"].(float64) != 2 || got[1]["id"] != id {
		t.Errorf("split: %+v", got)
	}
	r = post(t, srv, who, nil)
	if people = list(r.Data["authors"]); len(people) != 2 || people[0]["homonyms"].(float64) != 1 {
		t.Errorf("after the split: %+v", people)
	}
	merge := `mutation($a: [ID!]!) { mergeAuthors(authors: $a) { id homonyms papers(first: 1) { totalCount } } }`
	r = postAs(t, srv, "Bearer "+token, merge, map[string]any{"a": []any{got[0]["id"], got[1]["id"]}})
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	if m := r.Data["mergeAuthors"].(map[string]any); m["homonyms"].(float64) != 0 {
		t.Errorf("merge: %+v", m)
	}
	if r := postAs(t, srv, "Bearer "+token, merge, map[string]any{"a": []any{id}}); code(r) != "INVALID" {
		t.Errorf("merge of one: %+v", r.Errors)
	}
}
