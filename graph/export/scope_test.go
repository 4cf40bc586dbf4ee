package export_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/export"
	"github.com/researchkg/kg/graph/source"
)

// A person's neighbourhood exports as Neighborhood returns it: the same
// nodes and edges, Xiaoxi Jiang's co-author Guanjun Jiang with weight 7.
func TestExportNeighborhood(t *testing.T) {
	svc, _ := testGraph(t)
	v, err := svc.View(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	x, err := v.AuthorByName("Xiaoxi Jiang")
	if err != nil {
		t.Fatal(err)
	}
	g, err := v.Neighborhood(x.ID, 1, nil, 200)
	if err != nil {
		t.Fatal(err)
	}
	b, n := exportTo(t, svc, graph.ExportScope{Root: x.ID, Depth: 1, First: 200}, "gexf")
	p := parseXML(t, b, true)
	if n.Nodes != len(g.Nodes) || n.Edges != len(g.Edges) || p.nodes != n.Nodes || p.edges != n.Edges {
		t.Errorf("exported %+v (parsed %d, %d); the neighbourhood has %d nodes, %d edges", n, p.nodes, p.edges, len(g.Nodes), len(g.Edges))
	}
	var guanjun string
	for id, l := range p.labels {
		if l == "Guanjun Jiang" {
			guanjun = id
		}
	}
	w := p.weights[[2]string{min(x.ID.String(), guanjun), max(x.ID.String(), guanjun)}]
	if guanjun == "" || w != 7 {
		t.Errorf("Guanjun Jiang (%q) weighs %g with Xiaoxi Jiang, want 7; weights %v", guanjun, w, p.weights)
	}
	for _, sc := range []graph.ExportScope{{Root: x.ID, Depth: 0, First: 10}, {Root: x.ID, Depth: 1, First: 501}, {Root: graph.MakeID(graph.KindAuthor, 99999), Depth: 1, First: 10}} {
		if _, err := v.Export(context.Background(), sc, discard{}); err == nil {
			t.Errorf("%+v: no error", sc)
		}
	}
}

type discard struct{}

func (discard) Node(graph.ExportNode) error { return nil }
func (discard) Edge(graph.Edge) error       { return nil }

// A filtered export holds the papers the filter selects (as many as its
// facet total), their people, subjects and concepts, and co-author
// weights counted over those papers only (as Author.coauthors(filter)).
func TestExportFiltered(t *testing.T) {
	svc, _ := testGraph(t)
	v, err := svc.View(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for _, f := range []*graph.PaperFilter{{Subjects: []string{"cs.LG"}}, {Subjects: []string{"cs.AI"}, YearFrom: 2026}, {Concepts: []string{"reinforcement learning"}}} {
		sel, err := v.Select(f)
		if err != nil {
			t.Fatal(err)
		}
		fr, err := v.Facets(graph.FacetYear, sel, 20)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := exportTo(t, svc, graph.ExportScope{Filter: f}, "graphml")
		p := parseXML(t, b, false)
		if p.kinds["paper"] != fr.Total || fr.Total == 0 {
			t.Errorf("%+v: %d papers exported, the facet total is %d", f, p.kinds["paper"], fr.Total)
		}
		if p.types["AUTHORED"] == 0 || p.types["IN_SUBJECT"] < fr.Total {
			t.Errorf("%+v: %v edges for %d papers", f, p.types, fr.Total)
		}
		for pair, w := range p.weights {
			a, _ := graph.ParseID(pair[0])
			cs, err := v.CoAuthorsWhere(sel, a, 100)
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			for _, c := range cs {
				if c.Author.ID.String() == pair[1] {
					want = c.Weight
				}
			}
			if float64(want) != w {
				t.Errorf("%+v: %s and %s weigh %g, coauthors(filter) says %d", f, pair[0], pair[1], w, want)
			}
		}
	}
	if _, err := v.Export(context.Background(), graph.ExportScope{Filter: &graph.PaperFilter{Subjects: []string{"xx.YY"}}}, discard{}); graph.ErrorCode(err) != graph.Invalid || !strings.Contains(err.Error(), "xx.YY") {
		t.Errorf("an unknown subject: %v, want INVALID naming it", err)
	}
}

// A paper of more than graph.BigPaperAuthors authors links its people by
// AUTHORED and adds nothing to their co-authorship (as the stored pairs):
// every exported weight is the people's own less their shared large
// papers, and no pair is missing.
func TestExportLargeCollaboration(t *testing.T) {
	svc, db := testGraph(t)
	var lines []string
	big := map[string]bool{}
	for p := range 2 {
		var names []string
		for i := range graph.BigPaperAuthors + 5 {
			names = append(names, fmt.Sprintf("Member%c%c Collab", 'a'+i/26, 'a'+i%26))
		}
		if p == 0 {
			for _, n := range names {
				big[n] = true
			}
		} else {
			names = append(names[:3], "Xiaoxi Jiang")
		}
		rec, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("2501.0%04d", p+1), "title": fmt.Sprintf("Collaboration report %d", p+1),
			"authors": strings.Join(names, ", "), "categories": "hep-ex", "abstract": "A measurement with a large detector."})
		lines = append(lines, string(rec))
	}
	if ingestText(t, svc, "big.jsonl", strings.Join(lines, "\n")) != 2 {
		t.Fatal("the two papers were not ingested")
	}
	tr := storeTruth(t, svc, db)
	v, err := svc.View(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	var nb, eb bytes.Buffer
	nw, _ := export.New("csv-nodes", &nb)
	ew, _ := export.New("csv-edges", &eb)
	w := export.Tee(nw, ew)
	if _, err := v.Export(context.Background(), graph.ExportScope{All: true}, w); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	nodes, _ := csv.NewReader(&nb).ReadAll()
	edges, _ := csv.NewReader(&eb).ReadAll()
	label := map[string]string{}
	for _, r := range nodes[1:] {
		label[r[0]] = r[2]
	}
	authored := 0
	got := map[[2]string]int{}
	for _, r := range edges[1:] {
		switch r[2] {
		case "AUTHORED":
			if label[r[1]] == "Collaboration report 1" {
				authored++
			}
		case "CO_AUTHOR":
			n, _ := strconv.Atoi(r[3])
			got[[2]string{r[0], r[1]}] = n
		}
	}
	if authored != graph.BigPaperAuthors+5 {
		t.Errorf("the large paper has %d AUTHORED edges, want %d", authored, graph.BigPaperAuthors+5)
	}
	for p, n := range tr.coauthors {
		if p[0] > p[1] {
			continue
		}
		want := n
		if big[label[p[0]]] && big[label[p[1]]] {
			want-- // the large paper
		}
		if got[p] != want {
			t.Errorf("%s and %s (%s, %s): exported %d, want %d (profile %d)", p[0], p[1], label[p[0]], label[p[1]], got[p], want, n)
		}
		delete(got, p)
	}
	if len(got) > 0 {
		t.Errorf("pairs the profiles do not have: %v", got)
	}
}

// Labels with markup, quotes, control characters, broken UTF-8 and line
// breaks come out of every writer in a file its readers parse, with the
// text intact but for what the format cannot carry.
func FuzzWriters(f *testing.F) {
	f.Add(`Ann "the <b>best</b>" O'Brien & co`, "10.1000/x y")
	f.Add("line\nbreak\r\x00\x1b\xff\xfe tab\there", "")
	f.Add(`back\slash}{|^`+"`", "10.1/a\"b")
	f.Add("; semi;colons, and \"quotes\"", "")
	f.Fuzz(func(t *testing.T, label, doi string) {
		nodes := []graph.ExportNode{
			{Node: &graph.Node{ID: graph.MakeID(graph.KindPaper, 1), Label: label, DOI: doi, Venue: label, Date: "2025-07"}},
			{Node: &graph.Node{ID: graph.MakeID(graph.KindAuthor, 2), Label: label}, Papers: 1, Subject: label},
			{Node: &graph.Node{ID: graph.MakeID(graph.KindAuthor, 3), Label: "B"}, Papers: 1},
			{Node: &graph.Node{ID: graph.MakeID(graph.KindConcept, 4), Label: label, Aliases: []string{label, "x;y"}}, Papers: 1, Subject: label},
			{Node: &graph.Node{ID: graph.MakeID(graph.KindRepository, 5), Label: "https://github.com/" + label}},
			{Node: &graph.Node{ID: graph.MakeID(graph.KindOrganization, 6), Label: label}},
		}
		edges := []graph.Edge{
			{Source: nodes[1].ID, Target: nodes[0].ID, Type: graph.Authored},
			{Source: nodes[0].ID, Target: nodes[3].ID, Type: graph.Mentions, Weight: 0.5, HasWeight: true},
			{Source: nodes[1].ID, Target: nodes[2].ID, Type: graph.CoAuthor, Weight: 1, HasWeight: true},
		}
		for _, format := range export.Formats {
			var b bytes.Buffer
			w, err := export.New(format, &b)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range nodes {
				if err := w.Node(n); err != nil {
					t.Fatal(err)
				}
			}
			for _, e := range edges {
				if err := w.Edge(e); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			parses(t, format, b.Bytes(), label)
		}
	})
}

var fuzzNQuad = regexp.MustCompile(`^<[^<>"{}|^` + "`" + `\\\x00-\x20]+> <[^<>"{}|^` + "`" + `\\\x00-\x20]+> (<[^<>"{}|^` + "`" + `\\\x00-\x20]+>|"(?:[^"\\\n\r]|\\["\\nrtbf])*"(?:\^\^<[^<>"{}|^` + "`" + `\\\x00-\x20]+>)?) \.$`)

func parses(t *testing.T, format string, b []byte, label string) {
	switch format {
	case "graphml", "gexf":
		dec := xml.NewDecoder(bytes.NewReader(b))
		for {
			_, err := dec.Token()
			if err != nil {
				if err.Error() != "EOF" {
					t.Fatalf("%s: %v\n%s", format, err, b)
				}
				break
			}
		}
	case "vosviewer-authors", "vosviewer-concepts":
		var v vosFile
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v\n%s", format, err, b)
		}
	case "nquads":
		for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			if !fuzzNQuad.MatchString(line) {
				t.Fatalf("not an N-Quads statement: %q", line)
			}
		}
	case "csv-nodes", "csv-edges":
		rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if format == "csv-nodes" && len(rows) != 7 {
			t.Fatalf("%d node rows, want 6 and the header", len(rows)-1)
		}
		if format == "csv-edges" && len(rows) != 4 {
			t.Fatalf("%d edge rows, want 3 and the header", len(rows)-1)
		}
		if format == "csv-nodes" && !strings.ContainsAny(label, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\v\f\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f\ufffe\uffff") &&
			utf8.ValidString(label) && rows[2][2] != label {
			t.Fatalf("label %q came back as %q", label, rows[2][2])
		}
	}
}

// ingestText reads text as a file of that name and ingests it; it
// returns how many records were added.
func ingestText(t *testing.T, svc *graph.Service, name, text string) int {
	t.Helper()
	n := 0
	err := source.Read(name, strings.NewReader(text), func(d graph.Document) error {
		r, err := svc.Ingest(context.Background(), d)
		n += len(d.Records)
		_ = r
		return err
	}, func(err error) { t.Errorf("%s: %v", name, err) })
	if err != nil {
		t.Fatal(err)
	}
	return n
}
