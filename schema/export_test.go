package schema_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// Query.export over HTTP: the neighbourhood of Xiaoxi Jiang as a
// VOSviewer co-authorship map (Guanjun Jiang, strength 7) and as GraphML
// (every node of the neighbourhood query); its cost counts its nodes; bad
// arguments are errors with codes.
func TestExportOverHTTP(t *testing.T) {
	srv := newServer(t)
	r := post(t, srv, `{ author(name: "Xiaoxi Jiang") { id } }`, nil)
	id, _ := get(r.Data, "author", "id").(string)
	if id == "" {
		t.Fatalf("no Xiaoxi Jiang: %+v", r)
	}
	r = post(t, srv, `query($id: ID!) { export(id: $id, format: VOSVIEWER_AUTHORS) neighborhood(id: $id, first: 200) { nodes { id } } }`, map[string]any{"id": id})
	if len(r.Errors) > 0 {
		t.Fatalf("errors: %+v", r.Errors)
	}
	var vos struct {
		Network struct {
			Items []struct {
				ID    int64  `json:"id"`
				Label string `json:"label"`
			} `json:"items"`
			Links []struct {
				Source   int64   `json:"source_id"`
				Target   int64   `json:"target_id"`
				Strength float64 `json:"strength"`
			} `json:"links"`
		} `json:"network"`
	}
	if err := json.Unmarshal([]byte(r.Data["export"].(string)), &vos); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	labels := map[string]bool{}
	for _, it := range vos.Network.Items {
		labels[it.Label] = true
	}
	if !labels["Guanjun Jiang"] || !labels["Xiaoxi Jiang"] || len(vos.Network.Links) != 1 || vos.Network.Links[0].Strength != 7 {
		t.Errorf("VOSviewer map: items %v, links %+v; want the two people, strength 7", labels, vos.Network.Links)
	}
	if c := num(r.Extensions["cost"]); c < 200*5 {
		t.Errorf("cost %d: an export of up to 200 nodes costs at least 1,000", c)
	}
	r = post(t, srv, `query($id: ID!) { export(id: $id, format: GRAPHML, first: 500) neighborhood(id: $id, first: 500) { nodes { id } } }`, map[string]any{"id": id})
	doc, _ := r.Data["export"].(string)
	nodes, _ := get(r.Data, "neighborhood", "nodes").([]any)
	if len(nodes) == 0 || strings.Count(doc, "<node ") != len(nodes) {
		t.Errorf("GraphML has %d nodes, the neighbourhood %d", strings.Count(doc, "<node "), len(nodes))
	}
	for _, c := range []struct{ query, code string }{
		{`{ export(id: "author:999999", format: GEXF) }`, "NOT_FOUND"},
		{`{ export(id: "paper:1", depth: 4, format: GEXF) }`, "INVALID"},
		{`{ export(id: "paper:1", first: 501, format: GEXF) }`, "INVALID"},
		{`{ export(id: "nonsense", format: GEXF) }`, "INVALID"},
		{`{ export(id: "paper:1", format: PDF) }`, "GRAPHQL_VALIDATION_FAILED"},
	} {
		r := post(t, srv, c.query, nil)
		if len(r.Errors) == 0 || r.Errors[0].Extensions["code"] != c.code {
			t.Errorf("%s: %+v, want %s", c.query, r.Errors, c.code)
		}
	}
}
