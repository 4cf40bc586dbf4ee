package main

import (
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kg export writes each format of the seed graph to --out, with as many
// nodes as kg stats counts; bad flags, an unknown subject in --filter and
// a missing scope are errors that name the flag, and leave no file.
func TestExportCommand(t *testing.T) {
	_, data := seededStore(t)
	code, out, errs := runKG(t, "stats", "--data", data)
	if code != 0 {
		t.Fatalf("stats: %s", errs)
	}
	var st map[string]int
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	nodes := st["papers"] + st["authors"] + st["subjects"] + st["concepts"] + st["repositories"] + st["organizations"]
	dir := t.TempDir()
	gml := filepath.Join(dir, "seeds.graphml")
	if code, _, errs := runKG(t, "export", "--data", data, "--format", "graphml", "--all", "--out", gml); code != 0 {
		t.Fatalf("export: %s", errs)
	}
	b, err := os.ReadFile(gml)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Nodes []struct {
			ID string `xml:"id,attr"`
		} `xml:"graph>node"`
		Edges []struct{} `xml:"graph>edge"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("GraphML: %v", err)
	}
	if len(doc.Nodes) != nodes || len(doc.Edges) != st["edges"] {
		t.Errorf("GraphML: %d nodes, %d edges; kg stats: %d, %d", len(doc.Nodes), len(doc.Edges), nodes, st["edges"])
	}
	if fi, _ := os.Stat(gml); fi == nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("the file's mode: %v", fi)
	}
	folder := filepath.Join(dir, "neo4j")
	if code, _, errs := runKG(t, "export", "--data", data, "--format", "csv", "--filter", `{"subjects":["cs.CV"]}`, "--out", folder); code != 0 {
		t.Fatalf("csv: %s", errs)
	}
	for _, f := range []string{"nodes.csv", "edges.csv"} {
		fh, err := os.Open(filepath.Join(folder, f))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(fh).ReadAll()
		fh.Close()
		if err != nil || len(rows) < 2 {
			t.Errorf("%s: %d rows, %v", f, len(rows), err)
		}
	}
	code, out, errs = runKG(t, "export", "--data", data, "--format", "vosviewer", "--root", doc.Nodes[0].ID)
	if code != 0 || !strings.HasPrefix(out, `{"network":{"items":[`) {
		t.Errorf("vosviewer to standard output: exit %d, %.80s %s", code, out, errs)
	}
	before, _ := os.ReadDir(dir)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "graphml"}, "one of --root ID, --filter JSON and --all"},
		{[]string{"--format", "graphml", "--all", "--root", "paper:1"}, "one of --root"},
		{[]string{"--format", "pdf", "--all"}, `--format "pdf"`},
		{[]string{"--format", "csv", "--all"}, "--out FOLDER"},
		{[]string{"--format", "vosviewer", "--map", "papers", "--all"}, `--map "papers"`},
		{[]string{"--format", "gexf", "--filter", `{"subject":["cs.CV"]}`}, `unknown field "subject"`},
		{[]string{"--format", "gexf", "--filter", `{"authors":["paper:1"]}`}, "not a person's id"},
		{[]string{"--format", "gexf", "--filter", `{"subjects":["xx.YY"]}`, "--out", filepath.Join(dir, "x.gexf")}, `unknown subject "xx.YY"`},
		{[]string{"--format", "gexf", "--root", "nonsense"}, "--root"},
		{[]string{"--format", "gexf", "--root", "paper:1", "--depth", "4", "--out", filepath.Join(dir, "y.gexf")}, "depth must be between 1 and 3"},
	} {
		code, _, errs := runKG(t, append([]string{"export", "--data", data}, c.args...)...)
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want an error with %q", c.args, code, errs, c.want)
		}
	}
	if after, _ := os.ReadDir(dir); len(after) != len(before) {
		t.Errorf("failed exports left files: %v, before %v", after, before)
	}
}
