package schema_test

import (
	"strings"
	"testing"
)

// relatedWork over HTTP on the seed graph: a seed paper's own title and
// abstract find it first; seed papers are never answers; every answer has
// its line of reasons; bad input is INVALID, naming what is wrong.
func TestRelatedWorkQuery(t *testing.T) {
	srv := newServer(t)
	r := post(t, srv, `{ paper(title: "GD2PO") { id title abstract } }`, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("errors: %+v", r.Errors)
	}
	id, _ := get(r.Data, "paper", "id").(string)
	title, _ := get(r.Data, "paper", "title").(string)
	abstract, _ := get(r.Data, "paper", "abstract").(string)
	if id == "" || abstract == "" {
		t.Fatalf("seed paper: %v", r.Data)
	}
	r = post(t, srv, `query($text: String!, $id: ID!) {
		byText: relatedWork(text: $text, first: 3) { why score paper { id } concepts { weight concept { name } } sharedTerms }
		bySeed: relatedWork(papers: [$id], first: 5) { why paper { id } sharedConcepts { name } sharedAuthors { name } }
		byConcept: relatedWork(concepts: ["reinforcement learning"], exclude: [$id], first: 5) { why paper { id } concepts { concept { name } } }
	}`, map[string]any{"text": title + "\n" + abstract, "id": id})
	if len(r.Errors) > 0 {
		t.Fatalf("errors: %+v", r.Errors)
	}
	if got := get(r.Data, "byText", 0, "paper", "id"); got != id {
		t.Errorf("its own title and abstract: first answer %v, want %s", got, id)
	}
	for _, field := range []string{"byText", "bySeed", "byConcept"} {
		list, _ := get(r.Data, field).([]any)
		if len(list) == 0 {
			t.Errorf("%s: no answers", field)
		}
		for i := range list {
			why, _ := get(r.Data, field, i, "why").(string)
			if why == "" {
				t.Errorf("%s[%d]: no reason", field, i)
			}
			if field != "byText" && get(r.Data, field, i, "paper", "id") == id {
				t.Errorf("%s[%d]: the seed or excluded paper is an answer", field, i)
			}
		}
	}
	if name := get(r.Data, "byConcept", 0, "concepts", 0, "concept", "name"); name != "reinforcement learning" {
		t.Errorf("by concept: first answer shares %v", name)
	}
	for q, want := range map[string]string{
		`{ relatedWork { why } }`:                                           "give text, concepts or papers",
		`{ relatedWork(concepts: ["no such idea"]) { why } }`:               "no such idea",
		`{ relatedWork(papers: ["author:1"]) { why } }`:                     "is not a paper",
		`{ relatedWork(text: "x", filter: {subjects: ["zz.ZZ"]}) { why } }`: "zz.ZZ",
	} {
		r := post(t, srv, q, nil)
		if len(r.Errors) == 0 || !strings.Contains(r.Errors[0].Message, want) || r.Errors[0].Extensions["code"] != "INVALID" {
			t.Errorf("%s: %+v, want INVALID naming %q", q, r.Errors, want)
		}
	}
}
