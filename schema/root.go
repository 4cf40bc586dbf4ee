// The root types: Query, and Mutation with its IngestReport.

package schema

import (
	"errors"

	"github.com/graphql-go/graphql"

	"github.com/researchkg/kg/graph"
)

func rootView(fn func(p graphql.ResolveParams, v *graph.View) (any, error)) graphql.FieldResolveFn {
	return safe(func(p graphql.ResolveParams) (any, error) {
		v, err := viewOf(p)
		if err != nil {
			return nil, err
		}
		return fn(p, v)
	})
}

func kindsArg(p graphql.ResolveParams) []graph.Kind {
	raw, _ := p.Args["kinds"].([]any)
	var ks []graph.Kind
	for _, k := range raw {
		if kk, ok := k.(graph.Kind); ok {
			ks = append(ks, kk)
		}
	}
	return ks
}

// queryType is Query.
func (t *types) queryType() *graphql.Object {
	fields := graphql.Fields{
		"author": {Type: t.author, Description: "An author by name; case, spacing and diacritics are ignored. Null when unknown.",
			Args: graphql.FieldConfigArgument{"name": {Type: graphql.NewNonNull(graphql.String)}},
			Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) {
				name, _ := strArg(p, "name")
				return nullIfMissing(v.AuthorByName(name))
			})},
		"authors": {Type: nnList(t.author), Description: "Every person who carries a name, most papers first.",
			Args: graphql.FieldConfigArgument{
				"name":  {Type: graphql.NewNonNull(graphql.String)},
				"first": {Type: graphql.Int, DefaultValue: graph.DefaultFirst},
			},
			Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) {
				first, err := firstArg(p, graph.DefaultFirst, graph.MaxFirst)
				if err != nil {
					return nil, err
				}
				name, _ := strArg(p, "name")
				return v.AuthorsByName(name, first)
			})},
		"paper": {Type: t.paper, Description: "A paper by id, or by title in any spelling (or its short name before \":\"). Null when unknown.",
			Args: graphql.FieldConfigArgument{"id": {Type: graphql.ID}, "title": {Type: graphql.String}},
			Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) {
				if s, ok := strArg(p, "id"); ok {
					id, err := graph.ParseID(s)
					if err != nil {
						return nil, err
					}
					if id.Kind() != graph.KindPaper {
						return nil, graph.Errorf(graph.Invalid, "id %s is not a paper", s)
					}
					return nullIfMissing(v.Node(id))
				}
				if t, ok := strArg(p, "title"); ok {
					return nullIfMissing(v.PaperByTitle(t))
				}
				return nil, graph.Errorf(graph.Invalid, "paper needs an id or a title")
			})},
		"subject": {Type: t.subject, Description: "An arXiv subject by code (cs.LG). Null when unknown.",
			Args: graphql.FieldConfigArgument{"code": {Type: graphql.NewNonNull(graphql.String)}},
			Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) {
				code, _ := strArg(p, "code")
				return nullIfMissing(v.SubjectByCode(code))
			})},
		"concept": {Type: t.concept, Description: "A concept by canonical name or any alias (\"RL\"). Null when unknown.",
			Args: graphql.FieldConfigArgument{"name": {Type: graphql.NewNonNull(graphql.String)}},
			Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) {
				name, _ := strArg(p, "name")
				return nullIfMissing(v.ConceptByName(name))
			})},
		"node": {Type: t.node, Description: "Any node by id. Null when unknown.",
			Args: graphql.FieldConfigArgument{"id": {Type: graphql.NewNonNull(graphql.ID)}},
			Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) {
				s, _ := strArg(p, "id")
				id, err := graph.ParseID(s)
				if err != nil {
					return nil, err
				}
				return nullIfMissing(v.Node(id))
			})},
		"search": {Type: nnList(t.hit), Description: "Nodes whose labels contain the words of text; a word of 3+ letters also matches as a prefix.",
			Args: graphql.FieldConfigArgument{
				"text":  {Type: graphql.NewNonNull(graphql.String)},
				"kinds": {Type: graphql.NewList(graphql.NewNonNull(t.kind))},
				"first": {Type: graphql.Int, DefaultValue: graph.DefaultFirst, Description: "At most 100."},
			},
			Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) {
				first, err := firstArg(p, graph.DefaultFirst, graph.MaxSearch)
				if err != nil {
					return nil, err
				}
				text, _ := strArg(p, "text")
				if len(text) > 1000 {
					return nil, graph.Errorf(graph.Invalid, "search text is %d bytes; at most 1000", len(text))
				}
				return v.Search(text, kindsArg(p), first)
			})},
		"neighborhood": {Type: graphql.NewNonNull(t.subgraph),
			Description: "Nodes within depth hops (at most 3) of id, at most first (≤ 500), and the edges among them.",
			Args: graphql.FieldConfigArgument{
				"id":    {Type: graphql.NewNonNull(graphql.ID)},
				"depth": {Type: graphql.Int, DefaultValue: 1},
				"kinds": {Type: graphql.NewList(graphql.NewNonNull(t.kind))},
				"first": {Type: graphql.Int, DefaultValue: 50},
			},
			Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) {
				s, _ := strArg(p, "id")
				id, err := graph.ParseID(s)
				if err != nil {
					return nil, err
				}
				depth, _ := p.Args["depth"].(int)
				if depth < 0 || depth > graph.MaxDepth {
					return nil, graph.Errorf(graph.Invalid, "depth must be between 0 and %d, got %d", graph.MaxDepth, depth)
				}
				first, err := firstArg(p, 50, graph.MaxNeighborhood)
				if err != nil {
					return nil, err
				}
				g, err := v.Neighborhood(id, depth, kindsArg(p), max(first, 1))
				if graph.ErrorCode(err) == graph.NotFound {
					return nil, graph.Errorf(graph.NotFound, "no node %s", s)
				}
				return g, err
			})},
		"stats": {Type: graphql.NewNonNull(t.stats), Description: "Counts of the whole graph.",
			Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) { return v.Stats() })},
	}
	t.dashboardFields(fields)
	t.relatedWorkField(fields)
	t.exportField(fields)
	return graphql.NewObject(graphql.ObjectConfig{Name: "Query", Fields: fields})
}

func reportInt(f func(ingestReport) int) *graphql.Field {
	return &graphql.Field{Type: graphql.NewNonNull(graphql.Int), Resolve: func(p graphql.ResolveParams) (any, error) { return f(p.Source.(ingestReport)), nil }}
}

// mutationType is IngestReport and Mutation.
func (t *types) mutationType() *graphql.Object {
	t.report = graphql.NewObject(graphql.ObjectConfig{Name: "IngestReport", Description: "What an ingest changed. Each document is stored whole or not at all.",
		Fields: graphql.Fields{
			"documents":       reportInt(func(r ingestReport) int { return r.Documents }),
			"failed":          reportInt(func(r ingestReport) int { return r.Failed }),
			"papersAdded":     reportInt(func(r ingestReport) int { return r.PapersAdded }),
			"papersMerged":    reportInt(func(r ingestReport) int { return r.PapersMerged }),
			"papersUnchanged": reportInt(func(r ingestReport) int { return r.PapersSame }),
			"authorsAdded":    reportInt(func(r ingestReport) int { return r.AuthorsAdded }),
			"conceptsAdded":   reportInt(func(r ingestReport) int { return r.ConceptsAdded }),
			"failures": {Type: nnList(graphql.String), Description: "One line per skipped document or record: name:line: reason (at most 100).",
				Resolve: func(p graphql.ResolveParams) (any, error) { return nonNil(p.Source.(ingestReport).Failures), nil }},
			"warnings": {Type: nnList(graphql.String), Description: "At most 100.",
				Resolve: func(p graphql.ResolveParams) (any, error) { return nonNil(p.Source.(ingestReport).Warnings), nil }},
		}})
	return graphql.NewObject(graphql.ObjectConfig{Name: "Mutation", Fields: graphql.Fields{
		"ingest": {Type: graphql.NewNonNull(t.report),
			Description: "Ingests documents given as text, in any format kg ingest reads (detected from the content). Needs Authorization: Bearer <write token>.",
			Args: graphql.FieldConfigArgument{
				"name": {Type: graphql.NewNonNull(graphql.String), Description: "A name for the text, used in errors (like a file name)."},
				"text": {Type: graphql.NewNonNull(graphql.String)},
			},
			Resolve: safe(func(p graphql.ResolveParams) (any, error) {
				s, err := writer(p, "ingest")
				if err != nil {
					return nil, err
				}
				name, _ := strArg(p, "name")
				text, _ := strArg(p, "text")
				return ingestText(s.ctx, s, name, text)
			})},
		"splitAuthor": {Type: nnList(t.author),
			Description: "Makes some papers of a person a person of their own, and keeps it so through re-ingest and reclustering (kg authors --corrections lists it). Returns the new person, then the one keeping the rest.",
			Args: graphql.FieldConfigArgument{
				"author": {Type: graphql.NewNonNull(graphql.ID)},
				"papers": {Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(graphql.ID)))},
				"note":   {Type: graphql.String},
			},
			Resolve: safe(func(p graphql.ResolveParams) (any, error) {
				s, err := writer(p, "splitAuthor")
				if err != nil {
					return nil, err
				}
				a, err := idArg(p, "author")
				if err != nil {
					return nil, err
				}
				papers, err := idsArg(p, "papers")
				if err != nil {
					return nil, err
				}
				note, _ := strArg(p, "note")
				ids, err := s.svc.SplitAuthor(s.ctx, a, papers, truncateNote(note))
				if err != nil {
					return nil, err
				}
				s.log.Info().Str("author", a.String()).Int("papers", len(papers)).Str("note", note).Msg("author split")
				return freshNodes(s, ids)
			})},
		"mergeAuthors": {Type: graphql.NewNonNull(t.author),
			Description: "Makes people who share a name one person, and keeps it so through re-ingest and reclustering (kg authors --corrections lists it).",
			Args: graphql.FieldConfigArgument{
				"authors": {Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(graphql.ID)))},
				"note":    {Type: graphql.String},
			},
			Resolve: safe(func(p graphql.ResolveParams) (any, error) {
				s, err := writer(p, "mergeAuthors")
				if err != nil {
					return nil, err
				}
				ids, err := idsArg(p, "authors")
				if err != nil {
					return nil, err
				}
				note, _ := strArg(p, "note")
				id, err := s.svc.MergeAuthors(s.ctx, ids, truncateNote(note))
				if err != nil {
					return nil, err
				}
				s.log.Info().Int("authors", len(ids)).Str("into", id.String()).Str("note", note).Msg("authors merged")
				ns, err := freshNodes(s, []graph.NodeID{id})
				if err != nil {
					return nil, err
				}
				return ns[0], nil
			})},
	}})
}

// writer returns the request's state when it may write, or why not.
func writer(p graphql.ResolveParams, what string) (*reqState, error) {
	s := state(p.Context)
	switch {
	case s == nil:
		return nil, errors.New("schema: no request state")
	case s.writes != "":
		return nil, &Error{Code: CodeWritesDisabled, Msg: s.writes}
	case !s.writer:
		return nil, &Error{Code: CodeUnauthenticated, Msg: what + " needs the header Authorization: Bearer <write token>"}
	}
	return s, nil
}

func idArg(p graphql.ResolveParams, name string) (graph.NodeID, error) {
	s, _ := strArg(p, name)
	id, err := graph.ParseID(s)
	if err != nil {
		return 0, graph.Errorf(graph.Invalid, "%s: %v", name, err)
	}
	return id, nil
}

func idsArg(p graphql.ResolveParams, name string) ([]graph.NodeID, error) {
	raw, _ := p.Args[name].([]any)
	if len(raw) > maxIDs {
		return nil, graph.Errorf(graph.Invalid, "%s: %d ids; at most %d", name, len(raw), maxIDs)
	}
	out := make([]graph.NodeID, 0, len(raw))
	for i, r := range raw {
		s, _ := r.(string)
		id, err := graph.ParseID(s)
		if err != nil {
			return nil, graph.Errorf(graph.Invalid, "%s[%d]: %v", name, i, err)
		}
		out = append(out, id)
	}
	return out, nil
}

func truncateNote(s string) string {
	if len(s) > 200 {
		return s[:200]
	}
	return s
}

// freshNodes loads nodes from a snapshot opened after a write (the
// request's view, if any, predates it).
func freshNodes(s *reqState, ids []graph.NodeID) ([]*graph.Node, error) {
	if s.view != nil {
		s.view.Close()
		s.view = nil
	}
	v, err := viewOfState(s)
	if err != nil {
		return nil, err
	}
	out := make([]*graph.Node, len(ids))
	for i, id := range ids {
		if out[i], err = v.Node(id); err != nil {
			return nil, err
		}
	}
	return out, nil
}
