package schema

import (
	"github.com/graphql-go/graphql"

	"github.com/researchkg/kg/graph"
)

// coauthorVal is a Coauthor with the author it is a co-author of, so
// sharedPapers can be resolved.
type coauthorVal struct {
	of  graph.NodeID
	c   graph.Coauthor
	sel *graph.Selection // the filter the weight counts over (nil: none)
}

// types are the schema's object types, built by one constructor per
// group; fields that name a type built later resolve it through a thunk.
type types struct {
	kind                            *graphql.Enum
	node                            *graphql.Interface
	idField, kindField, labelField  *graphql.Field
	paper, author, subject, concept *graphql.Object
	repo, org                       *graphql.Object
	pageInfo, paperEdge, paperConn  *graphql.Object
	weighted, coauthor, related     *graphql.Object
	hit, edge, subgraph, stats      *graphql.Object
	report                          *graphql.Object
	// dashboards (dashboards.go)
	filter                                 *graphql.InputObject
	facet, order                           *graphql.Enum
	bucket, facetResult, ranked, hop, path *graphql.Object
}

func build() (graphql.Schema, error) {
	t := &types{}
	t.buildNodes()
	t.buildDashboards()
	t.buildPages()
	t.buildAuthors()
	t.buildPapers()
	t.buildVocabulary()
	t.buildViews()
	return graphql.NewSchema(graphql.SchemaConfig{
		Query:    t.queryType(),
		Mutation: t.mutationType(),
		Types:    []graphql.Type{t.paper, t.author, t.subject, t.concept, t.repo, t.org},
	})
}

// buildNodes: the Kind enum, the Node interface and its fields.
func (t *types) buildNodes() {
	t.kind = graphql.NewEnum(graphql.EnumConfig{
		Name:        "Kind",
		Description: "The kind of a node.",
		Values: graphql.EnumValueConfigMap{
			"PAPER":        {Value: graph.KindPaper},
			"AUTHOR":       {Value: graph.KindAuthor},
			"SUBJECT":      {Value: graph.KindSubject},
			"CONCEPT":      {Value: graph.KindConcept},
			"REPOSITORY":   {Value: graph.KindRepository},
			"ORGANIZATION": {Value: graph.KindOrganization},
		},
	})
	t.idField = &graphql.Field{Type: graphql.NewNonNull(graphql.ID), Description: "Opaque, stable id.",
		Resolve: func(p graphql.ResolveParams) (any, error) { return strPtr(node(p).ID.String()), nil }}
	t.kindField = &graphql.Field{Type: graphql.NewNonNull(t.kind), Description: "What the node is.",
		Resolve: func(p graphql.ResolveParams) (any, error) { return node(p).Kind(), nil }}
	t.labelField = &graphql.Field{Type: graphql.NewNonNull(graphql.String), Description: "What a person reads: title, name, code or URL; for people who share a name, the name with what tells them apart (\"Yang Liu (cs.CV; with Wei Zhang)\").",
		Resolve: safe(func(p graphql.ResolveParams) (any, error) {
			n := node(p)
			if n.Kind() != graph.KindAuthor {
				return &n.Label, nil
			}
			v, err := viewOf(p)
			if err != nil {
				return nil, err
			}
			return v.PersonLabel(n)
		})}
	t.node = graphql.NewInterface(graphql.InterfaceConfig{
		Name:        "Node",
		Description: "Anything in the graph.",
		Fields:      graphql.Fields{"id": t.idField, "kind": t.kindField, "label": t.labelField},
		ResolveType: func(p graphql.ResolveTypeParams) *graphql.Object {
			n, _ := p.Value.(*graph.Node)
			if n == nil {
				return nil
			}
			switch n.Kind() {
			case graph.KindPaper:
				return t.paper
			case graph.KindAuthor:
				return t.author
			case graph.KindSubject:
				return t.subject
			case graph.KindConcept:
				return t.concept
			case graph.KindRepository:
				return t.repo
			case graph.KindOrganization:
				return t.org
			}
			return nil
		},
	})
}

func labelAs(desc string) *graphql.Field {
	return &graphql.Field{Type: graphql.NewNonNull(graphql.String), Description: desc,
		Resolve: func(p graphql.ResolveParams) (any, error) { return &node(p).Label, nil }}
}

// strPtr is how string fields answer: graphql-go serializes a *string as
// it is, and any other value (a string too) through fmt.Sprintf("%v"),
// an allocation and a format on every id and name of a page.
func strPtr(s string) *string { return &s }

// aliasesAs is a list of the node's other names, described as desc.
func aliasesAs(desc string) *graphql.Field {
	return &graphql.Field{Type: nnList(graphql.String), Description: desc,
		Resolve: func(p graphql.ResolveParams) (any, error) { return nonNil(node(p).Aliases), nil }}
}

// nodeFields adds the Node interface's fields to a type's own.
func (t *types) nodeFields(extra graphql.Fields) graphql.Fields {
	extra["id"], extra["kind"], extra["label"] = t.idField, t.kindField, t.labelField
	return extra
}

func firstArgs(def int) graphql.FieldConfigArgument {
	return graphql.FieldConfigArgument{"first": {Type: graphql.Int, DefaultValue: def}}
}

// edgeVal is a PaperEdge.
type edgeVal struct {
	cursor string
	node   *graph.Node
}

// buildPages: PageInfo, PaperEdge, PaperConnection.
func (t *types) buildPages() {
	t.pageInfo = graphql.NewObject(graphql.ObjectConfig{Name: "PageInfo", Fields: graphql.Fields{
		"hasNextPage": {Type: graphql.NewNonNull(graphql.Boolean), Resolve: func(p graphql.ResolveParams) (any, error) {
			return p.Source.(graph.PaperPage).HasNext, nil
		}},
		"endCursor": {Type: graphql.String, Resolve: func(p graphql.ResolveParams) (any, error) {
			if c := p.Source.(graph.PaperPage).EndCursor; c != "" {
				return c, nil
			}
			return nil, nil
		}},
	}})
	t.paperEdge = graphql.NewObject(graphql.ObjectConfig{Name: "PaperEdge", Fields: graphql.FieldsThunk(func() graphql.Fields {
		return graphql.Fields{
			"cursor": {Type: graphql.NewNonNull(graphql.String), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(edgeVal).cursor, nil }},
			"node":   {Type: graphql.NewNonNull(t.paper), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(edgeVal).node, nil }},
		}
	})})
	t.paperConn = graphql.NewObject(graphql.ObjectConfig{Name: "PaperConnection", Fields: graphql.FieldsThunk(func() graphql.Fields {
		return graphql.Fields{
			"totalCount": {Type: graphql.NewNonNull(graphql.Int), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.PaperPage).Total, nil }},
			"nodes":      {Type: nnList(t.paper), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.PaperPage).Papers, nil }},
			"edges": {Type: nnList(t.paperEdge), Resolve: func(p graphql.ResolveParams) (any, error) {
				pg := p.Source.(graph.PaperPage)
				out := make([]edgeVal, len(pg.Papers))
				for i := range pg.Papers {
					out[i] = edgeVal{pg.Cursors[i], pg.Papers[i]}
				}
				return out, nil
			}},
			"pageInfo": {Type: graphql.NewNonNull(t.pageInfo), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source, nil }},
		}
	})})
}

// papersField is the papers field of a person, subject or concept: a page
// of its papers, in order (default def), over a filter.
func (t *types) papersField(def, desc string) *graphql.Field {
	return &graphql.Field{Type: graphql.NewNonNull(t.paperConn), Description: desc,
		Args: graphql.FieldConfigArgument{
			"first":   {Type: graphql.Int, DefaultValue: graph.DefaultFirst, Description: "How many: default 10, at most 100."},
			"after":   {Type: graphql.String, Description: "endCursor of the previous page (of the same filter and order)."},
			"filter":  t.filterArg("Only the papers it selects; default all."),
			"orderBy": {Type: t.order, DefaultValue: def, Description: "Default " + def + "."},
		},
		Resolve: safe(func(p graphql.ResolveParams) (any, error) {
			v, err := viewOf(p)
			if err != nil {
				return nil, err
			}
			return paperPage(p, v, node(p).ID, graph.DefaultFirst)
		})}
}

func viewList(fn func(v *graph.View, n *graph.Node) (any, error)) graphql.FieldResolveFn {
	return safe(func(p graphql.ResolveParams) (any, error) {
		v, err := viewOf(p)
		if err != nil {
			return nil, err
		}
		return fn(v, node(p))
	})
}

func viewFirst(def, maxN int, fn func(v *graph.View, n *graph.Node, first int) (any, error)) graphql.FieldResolveFn {
	return safe(func(p graphql.ResolveParams) (any, error) {
		v, err := viewOf(p)
		if err != nil {
			return nil, err
		}
		first, err := firstArg(p, def, maxN)
		if err != nil {
			return nil, err
		}
		return fn(v, node(p), first)
	})
}

// batched resolves a field read from one kind of edge of its node, for a
// list of nodes at once: each resolver queues its node and returns a thunk;
// graphql-go calls the thunks after the level's resolvers (breadth first),
// and the first to run reads the edges of every queued node in one read
// of the store (View.Prefetch). So a page of twenty papers with their
// authors costs one edge read, not twenty (TestPageReadsAreBatched).
func batched(t graph.EdgeType, dir graph.Direction, fn func(v *graph.View, n *graph.Node, p graphql.ResolveParams) (any, error)) graphql.FieldResolveFn {
	return safe(func(p graphql.ResolveParams) (any, error) {
		v, err := viewOf(p)
		if err != nil {
			return nil, err
		}
		s, n := state(p.Context), node(p)
		q := s.queue(t, dir)
		q.ids = append(q.ids, n.ID)
		return func() (any, error) {
			// a thunk runs outside safe: its panics and errors are ours
			return safe(func(graphql.ResolveParams) (any, error) {
				if len(q.ids) > 0 {
					ids := q.ids
					q.ids = nil
					if err := v.Prefetch(ids, t, dir); err != nil {
						return nil, err
					}
				}
				return fn(v, n, p)
			})(p)
		}, nil
	})
}

// buildAuthors: WeightedConcept, Coauthor, Author.
func (t *types) buildAuthors() {
	t.weighted = graphql.NewObject(graphql.ObjectConfig{Name: "WeightedConcept", Fields: graphql.FieldsThunk(func() graphql.Fields {
		return graphql.Fields{
			"concept": {Type: graphql.NewNonNull(t.concept), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Weighted).Node, nil }},
			"weight":  {Type: graphql.NewNonNull(graphql.Float), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Weighted).Weight, nil }},
		}
	})})
	t.coauthor = graphql.NewObject(graphql.ObjectConfig{Name: "Coauthor", Fields: graphql.FieldsThunk(func() graphql.Fields {
		return graphql.Fields{
			"author": {Type: graphql.NewNonNull(t.author), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(coauthorVal).c.Author, nil }},
			"weight": {Type: graphql.NewNonNull(graphql.Int), Description: "Number of papers written together.",
				Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(coauthorVal).c.Weight, nil }},
			"sharedPapers": {Type: nnList(t.paper), Description: "The papers written together, newest first.",
				Resolve: safe(func(p graphql.ResolveParams) (any, error) {
					v, err := viewOf(p)
					if err != nil {
						return nil, err
					}
					c := p.Source.(coauthorVal)
					if c.sel != nil {
						return v.SharedPapersWhere(c.sel, c.of, c.c.Author.ID)
					}
					return v.SharedPapers(c.of, c.c.Author.ID)
				})},
		}
	})})

	t.author = graphql.NewObject(graphql.ObjectConfig{Name: "Author", Interfaces: []*graphql.Interface{t.node},
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return t.nodeFields(graphql.Fields{
				"name":    labelAs("Full name as first seen."),
				"aliases": aliasesAs("Other spellings seen."),
				"papers":  t.papersField("NEWEST", "The person's papers, newest first."),
				"coauthors": {Type: nnList(t.coauthor),
					Args: graphql.FieldConfigArgument{
						"first":  {Type: graphql.Int, DefaultValue: graph.DefaultFirst},
						"filter": t.filterArg("Count only the papers it selects (weight and sharedPapers alike); default all."),
					},
					Description: "By number of shared papers, then name.",
					Resolve: safe(func(p graphql.ResolveParams) (any, error) {
						v, err := viewOf(p)
						if err != nil {
							return nil, err
						}
						first, err := firstArg(p, graph.DefaultFirst, graph.MaxFirst)
						if err != nil {
							return nil, err
						}
						n := node(p)
						var sel *graph.Selection
						var cs []graph.Coauthor
						if p.Args["filter"] == nil {
							cs, err = v.CoAuthors(n.ID, first)
						} else if sel, err = selection(p, v); err == nil {
							cs, err = v.CoAuthorsWhere(sel, n.ID, first)
						}
						out := make([]coauthorVal, len(cs))
						for i, c := range cs {
							out[i] = coauthorVal{n.ID, c, sel}
						}
						return out, err
					})},
				"homonyms": {Type: graphql.NewNonNull(graphql.Int),
					Resolve: safe(func(p graphql.ResolveParams) (any, error) {
						v, err := viewOf(p)
						if err != nil {
							return nil, err
						}
						return v.Homonyms(node(p).ID)
					})},
				"disambiguation": {Type: graphql.String,
					Resolve: safe(func(p graphql.ResolveParams) (any, error) {
						v, err := viewOf(p)
						if err != nil {
							return nil, err
						}
						d, err := v.Disambiguation(node(p).ID)
						return nilIfEmpty(d), err
					})},
				"concepts": {Type: nnList(t.weighted), Args: firstArgs(graph.DefaultFirst),
					Description: "Concepts of the author's papers, weighted by summed scores.",
					Resolve: viewFirst(graph.DefaultFirst, graph.MaxFirst, func(v *graph.View, n *graph.Node, first int) (any, error) {
						return v.AuthorConcepts(n.ID, first)
					})},
			})
		})})
}

// buildPapers: RelatedPaper, Paper.
func (t *types) buildPapers() {
	t.related = graphql.NewObject(graphql.ObjectConfig{Name: "RelatedPaper", Description: "A related paper with its reasons.",
		Fields: graphql.FieldsThunk(t.relatedFields)})

	t.paper = graphql.NewObject(graphql.ObjectConfig{Name: "Paper", Interfaces: []*graphql.Interface{t.node},
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return t.nodeFields(graphql.Fields{
				"title": labelAs("Title as readable text (LaTeX rendered)."),
				"abstract": {Type: graphql.String, Description: "The first abstract seen.",
					Resolve: viewList(func(v *graph.View, n *graph.Node) (any, error) {
						a, err := v.Abstracts(n.ID)
						if err != nil || len(a) == 0 {
							return nil, err
						}
						return a[0], nil
					})},
				"abstracts": {Type: nnList(graphql.String), Description: "Every distinct abstract, first seen first.",
					Resolve: viewList(func(v *graph.View, n *graph.Node) (any, error) {
						a, err := v.Abstracts(n.ID)
						return nonNil(a), err
					})},
				"titles": aliasesAs("Other spellings of the title (e.g. with LaTeX)."),
				"year": {Type: graphql.Int, Resolve: func(p graphql.ResolveParams) (any, error) {
					if y := node(p).Year; y != 0 {
						return y, nil
					}
					return nil, nil
				}},
				"date": {Type: graphql.String, Description: "The first version's day, \"2025-07-14\", where a source gives it (arXiv versions, an Atom feed's published, biblatex's date); null otherwise.",
					Resolve: func(p graphql.ResolveParams) (any, error) {
						if d := graph.PaperDate(node(p)); d.Day != 0 {
							return d.String(), nil
						}
						return nil, nil
					}},
				"month": {Type: graphql.String, Description: "The first version's month, \"2025-07\": from its date, or the YYMM of its arXiv id (the month of first submission); null when unknown.",
					Resolve: func(p graphql.ResolveParams) (any, error) {
						return nilIfEmpty(graph.PaperDate(node(p)).MonthString()), nil
					}},
				"subjects": {Type: nnList(t.subject), Description: "Primary first.",
					Resolve: batched(graph.InSubject, graph.Out, func(v *graph.View, n *graph.Node, _ graphql.ResolveParams) (any, error) {
						return v.PaperSubjects(n.ID)
					})},
				"authors": {Type: nnList(t.author), Description: "In byline order.",
					Resolve: batched(graph.Authored, graph.In, func(v *graph.View, n *graph.Node, _ graphql.ResolveParams) (any, error) {
						return v.PaperAuthors(n.ID)
					})},
				"concepts": {Type: nnList(t.weighted), Args: firstArgs(graph.DefaultFirst), Description: "By descending score.",
					Resolve: batched(graph.Mentions, graph.Out, func(v *graph.View, n *graph.Node, p graphql.ResolveParams) (any, error) {
						first, err := firstArg(p, graph.DefaultFirst, graph.MaxFirst)
						if err != nil {
							return nil, err
						}
						return v.PaperConcepts(n.ID, first)
					})},
				"repositories": {Type: nnList(t.repo),
					Resolve: viewList(func(v *graph.View, n *graph.Node) (any, error) { return v.PaperRepositories(n.ID) })},
				"related": {Type: nnList(t.related), Args: firstArgs(graph.DefaultFirst),
					Description: "Papers sharing concepts, authors and subjects, by score, with the reasons.",
					Resolve: viewFirst(graph.DefaultFirst, graph.MaxFirst, func(v *graph.View, n *graph.Node, first int) (any, error) {
						return v.RelatedPapers(n.ID, first)
					})},
				"arxivId": {Type: graphql.String, Description: "arXiv identifier without version.",
					Resolve: func(p graphql.ResolveParams) (any, error) { return nilIfEmpty(node(p).ArXivID), nil }},
				"doi": {Type: graphql.String, Description: "DOI, lower case.",
					Resolve: func(p graphql.ResolveParams) (any, error) { return nilIfEmpty(node(p).DOI), nil }},
				"venue": {Type: graphql.String, Description: "Journal reference or venue as written.",
					Resolve: func(p graphql.ResolveParams) (any, error) { return nilIfEmpty(node(p).Venue), nil }},
				"sources": {Type: nnList(graphql.String), Description: "Every document the paper was read from.",
					Resolve: func(p graphql.ResolveParams) (any, error) { return nonNil(node(p).Sources), nil }},
			})
		})})
}

// buildVocabulary: Concept, Subject, Repository, Organization.
func (t *types) buildVocabulary() {
	t.concept = graphql.NewObject(graphql.ObjectConfig{Name: "Concept", Interfaces: []*graphql.Interface{t.node},
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return t.nodeFields(graphql.Fields{
				"name":    labelAs("Canonical name."),
				"aliases": aliasesAs("Acronyms and other forms."),
				"papers":  t.papersField("RELEVANCE", "The papers that mention it (in any surface form), most relevant first: by the concept's weight in the paper, then newest."),
				"broader": {Type: nnList(t.concept),
					Resolve: viewList(func(v *graph.View, n *graph.Node) (any, error) { return v.Broader(n.ID) })},
				"narrower": {Type: nnList(t.concept),
					Resolve: viewList(func(v *graph.View, n *graph.Node) (any, error) { return v.Narrower(n.ID) })},
				"related": {Type: nnList(t.weighted), Args: firstArgs(graph.DefaultFirst),
					Description: "Co-occurring concepts; weight = both / sqrt(papers(this) · papers(other)), the Ochiai coefficient in (0, 1].",
					Resolve: viewFirst(graph.DefaultFirst, graph.MaxFirst, func(v *graph.View, n *graph.Node, first int) (any, error) {
						return v.ConceptRelated(n.ID, first)
					})},
			})
		})})

	t.subject = graphql.NewObject(graphql.ObjectConfig{Name: "Subject", Interfaces: []*graphql.Interface{t.node},
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return t.nodeFields(graphql.Fields{
				"code": labelAs("arXiv category code, e.g. cs.LG."),
				"name": {Type: graphql.NewNonNull(graphql.String), Description: "Official name, e.g. Machine Learning.",
					Resolve: func(p graphql.ResolveParams) (any, error) {
						if n := node(p); n.Name != "" {
							return n.Name, nil
						}
						return node(p).Label, nil
					}},
				"papers": t.papersField("NEWEST", "Papers of the subject, newest first."),
			})
		})})

	t.repo = graphql.NewObject(graphql.ObjectConfig{Name: "Repository", Interfaces: []*graphql.Interface{t.node},
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return t.nodeFields(graphql.Fields{
				"url": labelAs("https://github.com/OWNER/REPO"),
				"owner": {Type: t.org, Resolve: viewList(func(v *graph.View, n *graph.Node) (any, error) {
					return nullIfMissing(v.RepositoryOwner(n.ID))
				})},
			})
		})})

	t.org = graphql.NewObject(graphql.ObjectConfig{Name: "Organization", Interfaces: []*graphql.Interface{t.node},
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return t.nodeFields(graphql.Fields{
				"name": labelAs("Owner name as written in links."),
				"repositories": {Type: nnList(t.repo),
					Resolve: viewList(func(v *graph.View, n *graph.Node) (any, error) { return v.OrganizationRepositories(n.ID) })},
			})
		})})
}

func statInt(f func(graph.Stats) int) *graphql.Field {
	return &graphql.Field{Type: graphql.NewNonNull(graphql.Int), Resolve: func(p graphql.ResolveParams) (any, error) { return f(p.Source.(graph.Stats)), nil }}
}

// buildViews: SearchHit, Edge, Subgraph, Stats.
func (t *types) buildViews() {
	t.hit = graphql.NewObject(graphql.ObjectConfig{Name: "SearchHit", Fields: graphql.Fields{
		"node":  {Type: graphql.NewNonNull(t.node), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Hit).Node, nil }},
		"score": {Type: graphql.NewNonNull(graphql.Float), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Hit).Score, nil }},
	}})
	t.edge = graphql.NewObject(graphql.ObjectConfig{Name: "Edge", Fields: graphql.Fields{
		"source": {Type: graphql.NewNonNull(graphql.ID), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Edge).Source.String(), nil }},
		"target": {Type: graphql.NewNonNull(graphql.ID), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Edge).Target.String(), nil }},
		"type": {Type: graphql.NewNonNull(graphql.String), Description: "AUTHORED, IN_SUBJECT, MENTIONS, HAS_CODE, OWNED_BY, BROADER, CO_AUTHOR, CO_OCCURS.",
			Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Edge).Type.String(), nil }},
		"weight": {Type: graphql.Float, Resolve: func(p graphql.ResolveParams) (any, error) {
			if e := p.Source.(graph.Edge); e.HasWeight {
				return e.Weight, nil
			}
			return nil, nil
		}},
	}})
	t.subgraph = graphql.NewObject(graphql.ObjectConfig{Name: "Subgraph", Fields: graphql.Fields{
		"nodes": {Type: nnList(t.node), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Subgraph).Nodes, nil }},
		"edges": {Type: nnList(t.edge), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Subgraph).Edges, nil }},
	}})
	t.stats = graphql.NewObject(graphql.ObjectConfig{Name: "Stats", Fields: graphql.Fields{
		"papers":        statInt(func(s graph.Stats) int { return s.Papers }),
		"authors":       statInt(func(s graph.Stats) int { return s.Authors }),
		"subjects":      statInt(func(s graph.Stats) int { return s.Subjects }),
		"concepts":      statInt(func(s graph.Stats) int { return s.Concepts }),
		"repositories":  statInt(func(s graph.Stats) int { return s.Repositories }),
		"organizations": statInt(func(s graph.Stats) int { return s.Organizations }),
		"edges": {Type: graphql.NewNonNull(graphql.Int), Description: "Stored edges plus co-author and co-occurrence pairs (each pair once).",
			Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Stats).Edges, nil }},
	}})
}

func nnList(t graphql.Type) graphql.Output {
	return graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(t)))
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// maxIDs bounds the ids one mutation takes.
const maxIDs = 1000
