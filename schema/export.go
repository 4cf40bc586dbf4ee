// Exports over GraphQL: Query.export writes a node's neighbourhood in a
// format other tools read (graph/export).

package schema

import (
	"strings"

	"github.com/graphql-go/graphql"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/export"
)

// exportCostPerNode is what each node of an export costs against the
// budget: the node, its attributes and its share of the edges, written as
// text.
const exportCostPerNode = 5

// exportField is Query.export.
func (t *types) exportField(f graphql.Fields) {
	values := graphql.EnumValueConfigMap{}
	desc := map[string]string{
		"graphml":            "GraphML (Gephi, networkx, Cytoscape): typed node attributes (kind, year, subject, papers …), edge type and weight.",
		"gexf":               "GEXF 1.3 (Gephi): the same, nodes coloured by kind.",
		"vosviewer-authors":  "VOSviewer JSON: a co-authorship map of the people, clustered by subject, links weighted by shared papers.",
		"vosviewer-concepts": "VOSviewer JSON: a term co-occurrence map of the concepts, clustered by subject.",
		"nquads":             "RDF N-Quads: schema.org, DC terms, FOAF and SKOS; arXiv and DOI IRIs where they exist.",
		"csv-nodes":          "The node file of neo4j-admin database import.",
		"csv-edges":          "The relationship file of neo4j-admin database import.",
	}
	for _, name := range export.Formats {
		values[strings.ToUpper(strings.ReplaceAll(name, "-", "_"))] = &graphql.EnumValueConfig{Value: name, Description: desc[name]}
	}
	format := graphql.NewEnum(graphql.EnumConfig{Name: "ExportFormat", Description: "A file format of Query.export (graph/export/doc.go has each one's layout).", Values: values})
	f["export"] = &graphql.Field{Type: graphql.NewNonNull(graphql.String),
		Description: "The neighbourhood of id (as neighborhood gives it: nodes within depth hops, of kinds, at most first, and the edges among them) as a file in format. " +
			"Each node costs 5 against the budget. Whole-graph and filtered exports: kg export.",
		Args: graphql.FieldConfigArgument{
			"id":     {Type: graphql.NewNonNull(graphql.ID), Description: "The node at the centre; an unknown id is NOT_FOUND."},
			"depth":  {Type: graphql.Int, DefaultValue: 1, Description: "Hops from id: 1 to 3."},
			"first":  {Type: graphql.Int, DefaultValue: 200, Description: "At most this many nodes: 1 to 500."},
			"kinds":  {Type: graphql.NewList(graphql.NewNonNull(t.kind)), Description: "Only nodes of these kinds besides id, as in neighborhood; default all."},
			"format": {Type: graphql.NewNonNull(format), Description: "The file format."},
		},
		Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) {
			s, _ := strArg(p, "id")
			id, err := graph.ParseID(s)
			if err != nil {
				return nil, err
			}
			first, err := firstArg(p, 200, graph.MaxNeighborhood)
			if err != nil {
				return nil, err
			}
			depth, _ := p.Args["depth"].(int)
			name, _ := p.Args["format"].(string)
			var b strings.Builder
			w, err := export.New(name, &b)
			if err != nil {
				return nil, err
			}
			_, err = v.Export(state(p.Context).ctx, graph.ExportScope{Root: id, Depth: depth, First: max(first, 1), Kinds: kindsArg(p)}, w)
			if graph.ErrorCode(err) == graph.NotFound {
				return nil, graph.Errorf(graph.NotFound, "no node %s", s)
			}
			if err != nil {
				return nil, err
			}
			if err := w.Close(); err != nil {
				return nil, err
			}
			out := b.String()
			return &out, nil
		})}
}
