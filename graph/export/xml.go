package export

import (
	"encoding/xml"
	"strconv"
	"strings"

	"github.com/researchkg/kg/graph"
)

// nodeAttrs are the node attributes GraphML and GEXF declare, with their
// types; edgeAttrs the edge attributes.
var nodeAttrs = []struct{ id, typ string }{
	{"kind", "string"}, {"year", "int"}, {"date", "string"}, {"subject", "string"},
	{"papers", "int"}, {"arxiv", "string"}, {"doi", "string"}, {"venue", "string"}, {"name", "string"},
}

var edgeAttrs = []struct{ id, typ string }{{"type", "string"}, {"weight", "double"}}

// attrValues are a node's attribute values by id ("" or 0: absent).
func attrValues(n graph.ExportNode) [][2]string {
	var out [][2]string
	add := func(k, v string) {
		if v != "" {
			out = append(out, [2]string{k, v})
		}
	}
	add("kind", n.Kind().String())
	if n.Year > 0 {
		add("year", strconv.Itoa(n.Year))
	}
	add("date", n.Date)
	add("subject", n.Subject)
	if n.Kind() != graph.KindPaper {
		add("papers", strconv.Itoa(n.Papers))
	}
	add("arxiv", n.ArXivID)
	add("doi", n.DOI)
	add("venue", n.Venue)
	add("name", n.Name)
	return out
}

// esc escapes text for XML character data and attribute values: markup,
// quotes and whitespace other than spaces as references, characters XML
// forbids as U+FFFD.
func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(clean(s)))
	return b.String()
}

func weight(e graph.Edge) string {
	if !e.HasWeight {
		return "1"
	}
	return strconv.FormatFloat(e.Weight, 'g', -1, 64)
}

// graphML writes GraphML (graphml.graphdrawing.org) as Gephi and networkx
// read it: typed keys for the attributes, the label as the "label" key,
// every edge directed (pairs from the lower id) with its type and weight.
type graphML struct {
	*out
	started bool
	n       int
}

func (g *graphML) start() {
	if g.started {
		return
	}
	g.started = true
	g.str(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">` + "\n")
	g.str(`  <key id="label" for="node" attr.name="label" attr.type="string"/>` + "\n")
	for _, a := range nodeAttrs {
		g.str(`  <key id="` + a.id + `" for="node" attr.name="` + a.id + `" attr.type="` + a.typ + `"/>` + "\n")
	}
	for _, a := range edgeAttrs {
		g.str(`  <key id="e_` + a.id + `" for="edge" attr.name="` + a.id + `" attr.type="` + a.typ + `"/>` + "\n")
	}
	g.str(`  <graph id="kg" edgedefault="directed">` + "\n")
}

func (g *graphML) Node(n graph.ExportNode) error {
	g.start()
	g.str(`    <node id="` + n.ID.String() + `"><data key="label">` + esc(n.Shown()) + `</data>`)
	for _, kv := range attrValues(n) {
		g.str(`<data key="` + kv[0] + `">` + esc(kv[1]) + `</data>`)
	}
	g.str("</node>\n")
	return g.err
}

func (g *graphML) Edge(e graph.Edge) error {
	g.start()
	g.n++
	g.str(`    <edge id="e` + strconv.Itoa(g.n) + `" source="` + e.Source.String() + `" target="` + e.Target.String() + `"><data key="e_type">` +
		e.Type.String() + `</data><data key="e_weight">` + weight(e) + "</data></edge>\n")
	return g.err
}

func (g *graphML) Close() error {
	g.start()
	g.str("  </graph>\n</graphml>\n")
	return g.flush()
}

// gexf writes GEXF 1.3 (gexf.net), Gephi's own format: declared node and
// edge attributes, the edge type as its kind, and a colour a kind
// (viz:color) so a map opens coloured. Every edge is directed, pairs from
// the lower id, as in GraphML: a mixed graph (undirected pairs) opens in
// Gephi but networkx refuses it.
type gexf struct {
	*out
	started, edges bool
	n              int
}

// kindColors are the colours of the kinds (the explorer's palette).
var kindColors = map[graph.Kind][3]int{
	graph.KindPaper: {66, 133, 244}, graph.KindAuthor: {219, 68, 55}, graph.KindSubject: {15, 157, 88},
	graph.KindConcept: {244, 160, 0}, graph.KindRepository: {120, 94, 240}, graph.KindOrganization: {96, 125, 139},
}

func (g *gexf) start() {
	if g.started {
		return
	}
	g.started = true
	g.str(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<gexf xmlns="http://gexf.net/1.3" xmlns:viz="http://gexf.net/1.3/viz" version="1.3">` + "\n" +
		"  <meta><creator>kg</creator><description>papers, people, subjects and concepts</description></meta>\n" +
		`  <graph defaultedgetype="directed" idtype="string">` + "\n" +
		`    <attributes class="node">` + "\n")
	for _, a := range nodeAttrs {
		typ := a.typ
		if typ == "int" {
			typ = "integer"
		}
		g.str(`      <attribute id="` + a.id + `" title="` + a.id + `" type="` + typ + `"/>` + "\n")
	}
	g.str("    </attributes>\n" + `    <attributes class="edge">` + "\n" +
		`      <attribute id="type" title="type" type="string"/>` + "\n" +
		"    </attributes>\n    <nodes>\n")
}

func (g *gexf) Node(n graph.ExportNode) error {
	g.start()
	g.str(`      <node id="` + n.ID.String() + `" label="` + esc(n.Shown()) + `"><attvalues>`)
	for _, kv := range attrValues(n) {
		g.str(`<attvalue for="` + kv[0] + `" value="` + esc(kv[1]) + `"/>`)
	}
	g.str("</attvalues>")
	if c, ok := kindColors[n.Kind()]; ok {
		g.str(`<viz:color r="` + strconv.Itoa(c[0]) + `" g="` + strconv.Itoa(c[1]) + `" b="` + strconv.Itoa(c[2]) + `"/>`)
	}
	g.str("</node>\n")
	return g.err
}

func (g *gexf) Edge(e graph.Edge) error {
	g.start()
	if !g.edges {
		g.edges = true
		g.str("    </nodes>\n    <edges>\n")
	}
	g.n++
	t := e.Type.String()
	g.str(`      <edge id="e` + strconv.Itoa(g.n) + `" source="` + e.Source.String() + `" target="` + e.Target.String() +
		`" kind="` + t + `" label="` + t + `" weight="` + weight(e) + `"><attvalues><attvalue for="type" value="` + t + `"/></attvalues></edge>` + "\n")
	return g.err
}

func (g *gexf) Close() error {
	g.start()
	if !g.edges {
		g.edges = true
		g.str("    </nodes>\n    <edges>\n")
	}
	g.str("    </edges>\n  </graph>\n</gexf>\n")
	return g.flush()
}
