package export_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/export"
	"github.com/researchkg/kg/graph/source"
	"github.com/researchkg/kg/nlp"
	"github.com/researchkg/kg/store"
)

var extractor = nlp.New()

// testGraph is the seed pages with the arXiv, Atom and BibTeX fixtures:
// papers with arXiv ids, a DOI, a venue, dates, repositories and their
// organisations, and two people who share papers.
func testGraph(t testing.TB) (*graph.Service, *store.DB) {
	t.Helper()
	db, err := store.Open(store.DefaultOptions("").WithInMemory(true))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := graph.NewService(db, extractor)
	seeds, _ := filepath.Glob("../../testdata/seeds/*.txt")
	files := append(seeds, "../../testdata/arxiv/sample.jsonl", "../../testdata/atom/query.xml", "../../testdata/bibtex/orcid.bib")
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		err = source.Read(filepath.Base(f), fh, func(d graph.Document) error {
			_, err := svc.Ingest(context.Background(), d)
			return err
		}, func(error) {})
		fh.Close()
		if err != nil {
			t.Fatalf("ingest %s: %v", f, err)
		}
	}
	return svc, db
}

func exportTo(t testing.TB, svc *graph.Service, sc graph.ExportScope, format string) ([]byte, graph.ExportCounts) {
	t.Helper()
	v, err := svc.View(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	var b bytes.Buffer
	w, err := export.New(format, &b)
	if err != nil {
		t.Fatal(err)
	}
	n, err := v.Export(context.Background(), sc, w)
	if err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("%s: close: %v", format, err)
	}
	return b.Bytes(), n
}

// truth is what the store holds, read without the export: nodes by kind
// (counters), edges by type (scans), and every co-author weight from the
// people's profiles.
type truth struct {
	kinds     map[string]int
	nodes     int
	types     map[string]int
	edges     int
	coauthors map[[2]string]int
}

func storeTruth(t *testing.T, svc *graph.Service, db *store.DB) truth {
	t.Helper()
	ctx := context.Background()
	st, err := svc.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tr := truth{kinds: map[string]int{"paper": st.Papers, "author": st.Authors, "subject": st.Subjects, "concept": st.Concepts,
		"repository": st.Repositories, "organization": st.Organizations}, edges: st.Edges, types: map[string]int{}, coauthors: map[[2]string]int{}}
	for _, n := range tr.kinds {
		tr.nodes += n
	}
	r, err := db.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, e := range []struct {
		k graph.Kind
		t graph.EdgeType
	}{{graph.KindAuthor, graph.Authored}, {graph.KindPaper, graph.InSubject}, {graph.KindPaper, graph.Mentions},
		{graph.KindPaper, graph.HasCode}, {graph.KindRepository, graph.OwnedBy}, {graph.KindConcept, graph.Broader}} {
		if err := r.KindEdges(e.k, e.t, func(_, _ graph.NodeID, _ float64) bool { tr.types[e.t.String()]++; return true }); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []graph.EdgeType{graph.CoAuthor, graph.CoOccurs} {
		if err := r.AllPairs(p, func(_, _ graph.NodeID, _ int64) bool { tr.types[p.String()]++; return true }); err != nil {
			t.Fatal(err)
		}
	}
	v, err := svc.View(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	var people []graph.NodeID
	if err := r.NodeIDs(graph.KindAuthor, 0, func(id graph.NodeID) bool { people = append(people, id); return true }); err != nil {
		t.Fatal(err)
	}
	for _, a := range people {
		cs, err := v.CoAuthors(a, 1000)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			tr.coauthors[[2]string{a.String(), c.Author.ID.String()}] = c.Weight
		}
	}
	// co-authors as the people's profiles count them (with the papers
	// of more than graph.BigPaperAuthors authors, which the stored
	// counters leave out)
	tr.edges += len(tr.coauthors)/2 - tr.types["CO_AUTHOR"]
	tr.types["CO_AUTHOR"] = len(tr.coauthors) / 2
	return tr
}

// xmlGraph parses GraphML or GEXF back with encoding/xml: nodes by kind,
// edges by type, and the weight of each co-author pair.
type parsedGraph struct {
	kinds   map[string]int
	types   map[string]int
	nodes   int
	edges   int
	weights map[[2]string]float64
	labels  map[string]string
}

func parseXML(t *testing.T, b []byte, gexf bool) parsedGraph {
	t.Helper()
	g := parsedGraph{kinds: map[string]int{}, types: map[string]int{}, weights: map[[2]string]float64{}, labels: map[string]string{}}
	dec := xml.NewDecoder(bytes.NewReader(b))
	var node, edgeType, src, dst, key string
	var w float64
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch el.Name.Local {
			case "node":
				g.nodes++
				node = attr["id"]
				if gexf {
					g.labels[node] = attr["label"]
				}
			case "edge":
				g.edges++
				node, src, dst = "", attr["source"], attr["target"]
				if gexf {
					edgeType = attr["kind"]
					w, _ = strconv.ParseFloat(attr["weight"], 64)
					g.types[edgeType]++
					if edgeType == "CO_AUTHOR" {
						g.weights[[2]string{src, dst}] = w
					}
				}
			case "attvalue":
				if attr["for"] == "kind" && node != "" {
					g.kinds[attr["value"]]++
				}
			case "data":
				key = attr["key"]
			}
		case xml.CharData:
			switch key {
			case "kind":
				g.kinds[string(el)]++
			case "label":
				g.labels[node] = string(el)
			case "e_type":
				edgeType = string(el)
				g.types[edgeType]++
			case "e_weight":
				w, _ = strconv.ParseFloat(string(el), 64)
				if edgeType == "CO_AUTHOR" {
					g.weights[[2]string{src, dst}] = w
				}
			}
		case xml.EndElement:
			key = ""
		}
	}
	return g
}

// checkGraph compares a parsed export with the store.
func checkGraph(t *testing.T, name string, g parsedGraph, tr truth) {
	t.Helper()
	if g.nodes != tr.nodes || g.edges != tr.edges {
		t.Errorf("%s: %d nodes, %d edges; the store has %d, %d", name, g.nodes, g.edges, tr.nodes, tr.edges)
	}
	for k, n := range tr.kinds {
		if g.kinds[k] != n {
			t.Errorf("%s: %d %s nodes, want %d", name, g.kinds[k], k, n)
		}
	}
	for ty, n := range tr.types {
		if g.types[ty] != n {
			t.Errorf("%s: %d %s edges, want %d", name, g.types[ty], ty, n)
		}
	}
	checkWeights(t, name, g.weights, tr)
}

// checkWeights compares co-author weights with the people's profiles,
// both ways.
func checkWeights(t *testing.T, name string, ws map[[2]string]float64, tr truth) {
	t.Helper()
	for p, w := range ws {
		if want := tr.coauthors[p]; float64(want) != w || tr.coauthors[[2]string{p[1], p[0]}] != want {
			t.Errorf("%s: %s and %s weigh %g, their profiles %d", name, p[0], p[1], w, want)
		}
	}
	if 2*len(ws) != len(tr.coauthors) {
		t.Errorf("%s: %d co-author pairs, the profiles have %d", name, len(ws), len(tr.coauthors)/2)
	}
}

// Every format of the whole graph parses back with the store's nodes by
// kind, edges by type and co-author weights; the GEXF is valid against
// the GEXF 1.3 RELAX NG grammar; networkx reads the GraphML and GEXF.
func TestExportAll(t *testing.T) {
	svc, db := testGraph(t)
	tr := storeTruth(t, svc, db)
	if tr.kinds["repository"] == 0 || tr.types["CO_AUTHOR"] == 0 || tr.types["BROADER"] == 0 {
		t.Fatalf("the fixtures should give repositories, co-authors and broader concepts: %+v", tr)
	}
	dir := t.TempDir()
	files := map[string]string{}
	for _, f := range export.Formats {
		b, n := exportTo(t, svc, graph.ExportScope{All: true}, f)
		if f == "graphml" || f == "gexf" {
			if n.Nodes != tr.nodes || n.Edges != tr.edges {
				t.Errorf("%s: counted %+v, the store has %d nodes, %d edges", f, n, tr.nodes, tr.edges)
			}
		}
		files[f] = filepath.Join(dir, "all."+f)
		if err := os.WriteFile(files[f], b, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Run(f, func(t *testing.T) {
			switch f {
			case "graphml", "gexf":
				checkGraph(t, f, parseXML(t, b, f == "gexf"), tr)
			case "vosviewer-authors", "vosviewer-concepts":
				checkVOSviewer(t, f, b, tr)
			case "nquads":
				checkNQuads(t, b, tr)
			case "csv-nodes", "csv-edges":
				checkCSV(t, f, b, tr)
			}
		})
	}
	t.Run("gexf-grammar", func(t *testing.T) { validGEXF(t, files["gexf"]) })
	t.Run("networkx", func(t *testing.T) { readByNetworkx(t, files["graphml"], files["gexf"], tr) })
	t.Run("oxigraph", func(t *testing.T) { loadIntoOxigraph(t, files["nquads"], tr) })
}

type vosFile struct {
	Network struct {
		Items []struct {
			ID      *int64             `json:"id"`
			Label   string             `json:"label"`
			Desc    string             `json:"description"`
			Cluster int                `json:"cluster"`
			Weights map[string]float64 `json:"weights"`
		} `json:"items"`
		Links []struct {
			Source   *int64   `json:"source_id"`
			Target   *int64   `json:"target_id"`
			Strength *float64 `json:"strength"`
		} `json:"links"`
		Clusters []struct {
			Cluster int    `json:"cluster"`
			Label   string `json:"label"`
		} `json:"clusters"`
	} `json:"network"`
}

func checkVOSviewer(t *testing.T, f string, b []byte, tr truth) {
	var v vosFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not a VOSviewer network: %v", err)
	}
	kind, link := "author", "CO_AUTHOR"
	if f == "vosviewer-concepts" {
		kind, link = "concept", "CO_OCCURS"
	}
	if len(v.Network.Items) != tr.kinds[kind] || len(v.Network.Links) != tr.types[link] {
		t.Errorf("%d items, %d links; the store has %d %ss, %d %s pairs", len(v.Network.Items), len(v.Network.Links), tr.kinds[kind], kind, tr.types[link], link)
	}
	ids := map[int64]bool{}
	for _, it := range v.Network.Items {
		if it.ID == nil || it.Label == "" || it.Cluster < 0 || it.Cluster > len(v.Network.Clusters) || it.Weights["Documents"] < 1 {
			t.Errorf("item %+v: want an id, a label, a named cluster or none, and its papers", it)
			continue
		}
		ids[*it.ID] = true
	}
	ws := map[[2]string]float64{}
	for _, l := range v.Network.Links {
		if l.Source == nil || l.Target == nil || l.Strength == nil || !ids[*l.Source] || !ids[*l.Target] {
			t.Errorf("link %+v: want two items and a strength", l)
			continue
		}
		if kind == "author" {
			ws[[2]string{"author:" + strconv.FormatInt(*l.Source, 10), "author:" + strconv.FormatInt(*l.Target, 10)}] = *l.Strength
		}
	}
	for i, c := range v.Network.Clusters {
		if c.Cluster != i+1 || c.Label == "" {
			t.Errorf("cluster %d: %+v", i+1, c)
		}
	}
	if kind == "author" {
		checkWeights(t, f, ws, tr)
	}
}

// nquadLine is RDF 1.1 N-Quads' statement grammar for what kg writes:
// IRIs and literals (with escapes, a datatype or none), no blank nodes,
// the default graph.
var nquadLine = regexp.MustCompile(`^(<[^<>"{}|^` + "`" + `\\\x00-\x20]+>) (<[^<>"{}|^` + "`" + `\\\x00-\x20]+>) (<[^<>"{}|^` + "`" + `\\\x00-\x20]+>|"(?:[^"\\\n\r]|\\["\\nrtbf])*"(?:\^\^<[^<>"{}|^` + "`" + `\\\x00-\x20]+>)?) \.$`)

func checkNQuads(t *testing.T, b []byte, tr truth) {
	preds := map[string]int{}
	for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		m := nquadLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("line %d is not an N-Quads statement: %s", i+1, line)
		}
		preds[m[2]]++
	}
	for ty, p := range map[string]string{"AUTHORED": "<http://schema.org/author>", "IN_SUBJECT": "<http://purl.org/dc/terms/subject>",
		"MENTIONS": "<http://schema.org/about>", "HAS_CODE": "<http://schema.org/isBasedOn>", "OWNED_BY": "<http://schema.org/maintainer>",
		"BROADER": "<http://www.w3.org/2004/02/skos/core#broader>"} {
		if preds[p] != tr.types[ty] {
			t.Errorf("%d %s statements, the store has %d %s edges", preds[p], p, tr.types[ty], ty)
		}
	}
}

func checkCSV(t *testing.T, f string, b []byte, tr truth) {
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v", err)
	}
	if f == "csv-nodes" {
		if len(rows) != tr.nodes+1 || rows[0][0] != "id:ID" || rows[0][1] != ":LABEL" {
			t.Fatalf("%d rows, header %v; want %d nodes under id:ID,:LABEL", len(rows)-1, rows[0], tr.nodes)
		}
		labels := map[string]int{}
		for _, r := range rows[1:] {
			labels[strings.ToLower(r[1])]++
		}
		for k, n := range tr.kinds {
			if labels[k] != n {
				t.Errorf("%d %s rows, want %d", labels[k], k, n)
			}
		}
		return
	}
	if len(rows) != tr.edges+1 || strings.Join(rows[0], ",") != ":START_ID,:END_ID,:TYPE,weight:double" {
		t.Fatalf("%d rows, header %v; want %d edges", len(rows)-1, rows[0], tr.edges)
	}
	types := map[string]int{}
	ws := map[[2]string]float64{}
	for _, r := range rows[1:] {
		types[r[2]]++
		if r[2] == "CO_AUTHOR" {
			ws[[2]string{r[0], r[1]}], _ = strconv.ParseFloat(r[3], 64)
		}
	}
	for ty, n := range tr.types {
		if types[ty] != n {
			t.Errorf("%d %s rows, want %d", types[ty], ty, n)
		}
	}
	checkWeights(t, f, ws, tr)
}

// validGEXF checks a file against the GEXF 1.3 RELAX NG grammar of
// ../shared/formats with xmllint (Debian: libxml2-utils).
func validGEXF(t *testing.T, file string) {
	rng := "../../../shared/formats/gexf-1.3/gexf.rng"
	if _, err := os.Stat(rng); err != nil {
		t.Skip("no GEXF grammar at ../shared/formats/gexf-1.3 (it is beside the clone in CI): " + err.Error())
	}
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not found: install it (Debian: apt-get install libxml2-utils) to validate GEXF")
	}
	if out, err := exec.Command(xmllint, "--noout", "--nonet", "--relaxng", rng, file).CombinedOutput(); err != nil {
		t.Errorf("GEXF 1.3 grammar: %v\n%s", err, out)
	}
}

// python finds a Python 3 that has networkx.
func python(t *testing.T) string {
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if path, err := exec.LookPath(p); err == nil && exec.Command(path, "-c", "import networkx").Run() == nil {
			return path
		}
	}
	t.Skip("no Python 3 with networkx: install it (Debian: apt-get install python3-networkx) to read the exports back with networkx")
	return ""
}

func readByNetworkx(t *testing.T, graphml, gexf string, tr truth) {
	py := python(t)
	out, err := exec.Command(py, "-c", `
import json, sys, networkx as nx
out = {"version": nx.__version__}
reads = [("graphml", nx.read_graphml, sys.argv[1])]
if int(nx.__version__.split(".")[0]) >= 3:  # GEXF 1.3 came with networkx 3
    reads.append(("gexf", nx.read_gexf, sys.argv[2]))
for name, read, path in reads:
    g = read(path)
    kinds = {}
    for _, d in g.nodes(data=True):
        kinds[d["kind"]] = kinds.get(d["kind"], 0) + 1
    w = {u + " " + v: d["weight"] for u, v, d in g.edges(data=True) if d.get("type") == "CO_AUTHOR"}
    out[name] = {"nodes": g.number_of_nodes(), "edges": g.number_of_edges(), "kinds": kinds, "coauthors": w}
print(json.dumps(out))
`, graphml, gexf).Output()
	if err != nil {
		t.Fatalf("networkx: %v", err)
	}
	var res map[string]json.RawMessage
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("networkx: %v: %s", err, out)
	}
	if res["gexf"] == nil {
		t.Logf("networkx %s reads GEXF up to 1.2: the GEXF is checked by encoding/xml and xmllint only", res["version"])
	}
	for name, raw := range res {
		if name == "version" {
			continue
		}
		var r struct {
			Nodes, Edges int
			Kinds        map[string]int
			Coauthors    map[string]float64
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatalf("networkx: %v: %s", err, raw)
		}
		if r.Nodes != tr.nodes || r.Edges != tr.edges {
			t.Errorf("networkx read %s: %d nodes, %d edges; the store has %d, %d", name, r.Nodes, r.Edges, tr.nodes, tr.edges)
		}
		for k, n := range tr.kinds {
			if r.Kinds[k] != n {
				t.Errorf("networkx read %s: %d %s nodes, want %d", name, r.Kinds[k], k, n)
			}
		}
		ws := map[[2]string]float64{}
		for k, w := range r.Coauthors {
			a, b, _ := strings.Cut(k, " ")
			ws[[2]string{a, b}] = w
		}
		checkWeights(t, "networkx "+name, ws, tr)
	}
}

// loadIntoOxigraph loads the N-Quads into Oxigraph (npm, pinned by
// testdata/export/package-lock.json) and counts with SPARQL.
func loadIntoOxigraph(t *testing.T, file string, tr truth) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("Node.js not found: install it (Debian: apt-get install nodejs npm) to load the N-Quads into Oxigraph")
	}
	dir := "../../testdata/export"
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "oxigraph")); err != nil {
		cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
		}
	}
	abs, _ := filepath.Abs(file)
	cmd := exec.CommandContext(ctx, node, "load.mjs", abs)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oxigraph: %v\n%s", err, stderr.String())
	}
	var res struct {
		Papers, People, Authorship int
		Predicates                 map[string]int
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("oxigraph: %v: %s", err, out)
	}
	if res.Papers != tr.kinds["paper"] || res.People != tr.kinds["author"] || res.Authorship != tr.types["AUTHORED"] {
		t.Errorf("SPARQL counts %d papers, %d people, %d authorship links; the store has %d, %d, %d",
			res.Papers, res.People, res.Authorship, tr.kinds["paper"], tr.kinds["author"], tr.types["AUTHORED"])
	}
	if n := res.Predicates["http://www.w3.org/2004/02/skos/core#broader"]; n != tr.types["BROADER"] {
		t.Errorf("%d skos:broader, the store has %d BROADER edges", n, tr.types["BROADER"])
	}
}
