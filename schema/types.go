package schema

import (
	"errors"

	"github.com/graphql-go/graphql"

	"github.com/researchkg/kg/graph"
)

// coauthorVal is a Coauthor with the author it is a co-author of, so
// sharedPapers can be resolved.
type coauthorVal struct {
	of graph.NodeID
	c  graph.Coauthor
}

func build() (graphql.Schema, error) {
	kindEnum := graphql.NewEnum(graphql.EnumConfig{
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
	idField := &graphql.Field{Type: graphql.NewNonNull(graphql.ID), Description: "Opaque, stable id.",
		Resolve: func(p graphql.ResolveParams) (any, error) { return node(p).ID.String(), nil }}
	kindField := &graphql.Field{Type: graphql.NewNonNull(kindEnum), Description: "What the node is.",
		Resolve: func(p graphql.ResolveParams) (any, error) { return node(p).Kind(), nil }}
	labelField := &graphql.Field{Type: graphql.NewNonNull(graphql.String), Description: "What a person reads: title, name, code or URL; for people who share a name, the name with what tells them apart (\"Yang Liu (cs.CV; with Wei Zhang)\").",
		Resolve: safe(func(p graphql.ResolveParams) (any, error) {
			n := node(p)
			if n.Kind() != graph.KindAuthor {
				return n.Label, nil
			}
			v, err := viewOf(p)
			if err != nil {
				return nil, err
			}
			return v.PersonLabel(n)
		})}
	labelAs := func(desc string) *graphql.Field {
		return &graphql.Field{Type: graphql.NewNonNull(graphql.String), Description: desc,
			Resolve: func(p graphql.ResolveParams) (any, error) { return node(p).Label, nil }}
	}
	nodeFields := func(extra graphql.Fields) graphql.Fields {
		extra["id"], extra["kind"], extra["label"] = idField, kindField, labelField
		return extra
	}

	var paperT, authorT, subjectT, conceptT, repoT, orgT *graphql.Object
	nodeI := graphql.NewInterface(graphql.InterfaceConfig{
		Name:        "Node",
		Description: "Anything in the graph.",
		Fields:      graphql.Fields{"id": idField, "kind": kindField, "label": labelField},
		ResolveType: func(p graphql.ResolveTypeParams) *graphql.Object {
			n, _ := p.Value.(*graph.Node)
			if n == nil {
				return nil
			}
			switch n.Kind() {
			case graph.KindPaper:
				return paperT
			case graph.KindAuthor:
				return authorT
			case graph.KindSubject:
				return subjectT
			case graph.KindConcept:
				return conceptT
			case graph.KindRepository:
				return repoT
			case graph.KindOrganization:
				return orgT
			}
			return nil
		},
	})
	firstArgs := func(def int) graphql.FieldConfigArgument {
		return graphql.FieldConfigArgument{"first": {Type: graphql.Int, DefaultValue: def}}
	}
	pageArgs := graphql.FieldConfigArgument{
		"first": {Type: graphql.Int, DefaultValue: graph.DefaultFirst, Description: "At most 100."},
		"after": {Type: graphql.String, Description: "endCursor of the previous page."},
	}

	pageInfoT := graphql.NewObject(graphql.ObjectConfig{Name: "PageInfo", Fields: graphql.Fields{
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
	type edgeVal struct {
		cursor string
		node   *graph.Node
	}
	var paperEdgeT, paperConnT *graphql.Object
	paperEdgeT = graphql.NewObject(graphql.ObjectConfig{Name: "PaperEdge", Fields: graphql.FieldsThunk(func() graphql.Fields {
		return graphql.Fields{
			"cursor": {Type: graphql.NewNonNull(graphql.String), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(edgeVal).cursor, nil }},
			"node":   {Type: graphql.NewNonNull(paperT), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(edgeVal).node, nil }},
		}
	})})
	paperConnT = graphql.NewObject(graphql.ObjectConfig{Name: "PaperConnection", Fields: graphql.FieldsThunk(func() graphql.Fields {
		return graphql.Fields{
			"totalCount": {Type: graphql.NewNonNull(graphql.Int), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.PaperPage).Total, nil }},
			"nodes":      {Type: nnList(paperT), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.PaperPage).Papers, nil }},
			"edges": {Type: nnList(paperEdgeT), Resolve: func(p graphql.ResolveParams) (any, error) {
				pg := p.Source.(graph.PaperPage)
				out := make([]edgeVal, len(pg.Papers))
				for i := range pg.Papers {
					out[i] = edgeVal{pg.Cursors[i], pg.Papers[i]}
				}
				return out, nil
			}},
			"pageInfo": {Type: graphql.NewNonNull(pageInfoT), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source, nil }},
		}
	})})
	papersField := &graphql.Field{Type: graphql.NewNonNull(paperConnT), Args: pageArgs,
		Description: "Papers, newest first, then by title.",
		Resolve: safe(func(p graphql.ResolveParams) (any, error) {
			v, err := viewOf(p)
			if err != nil {
				return nil, err
			}
			first, err := firstArg(p, graph.DefaultFirst, graph.MaxFirst)
			if err != nil {
				return nil, err
			}
			after, _ := strArg(p, "after")
			return v.Papers(node(p).ID, first, after)
		})}

	weightedT := graphql.NewObject(graphql.ObjectConfig{Name: "WeightedConcept", Fields: graphql.FieldsThunk(func() graphql.Fields {
		return graphql.Fields{
			"concept": {Type: graphql.NewNonNull(conceptT), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Weighted).Node, nil }},
			"weight":  {Type: graphql.NewNonNull(graphql.Float), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Weighted).Weight, nil }},
		}
	})})
	viewList := func(fn func(v *graph.View, n *graph.Node) (any, error)) graphql.FieldResolveFn {
		return safe(func(p graphql.ResolveParams) (any, error) {
			v, err := viewOf(p)
			if err != nil {
				return nil, err
			}
			return fn(v, node(p))
		})
	}
	viewFirst := func(def, maxN int, fn func(v *graph.View, n *graph.Node, first int) (any, error)) graphql.FieldResolveFn {
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

	coauthorT := graphql.NewObject(graphql.ObjectConfig{Name: "Coauthor", Fields: graphql.FieldsThunk(func() graphql.Fields {
		return graphql.Fields{
			"author": {Type: graphql.NewNonNull(authorT), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(coauthorVal).c.Author, nil }},
			"weight": {Type: graphql.NewNonNull(graphql.Int), Description: "Number of papers written together.",
				Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(coauthorVal).c.Weight, nil }},
			"sharedPapers": {Type: nnList(paperT), Description: "The papers written together, newest first.",
				Resolve: safe(func(p graphql.ResolveParams) (any, error) {
					v, err := viewOf(p)
					if err != nil {
						return nil, err
					}
					c := p.Source.(coauthorVal)
					return v.SharedPapers(c.of, c.c.Author.ID)
				})},
		}
	})})

	authorT = graphql.NewObject(graphql.ObjectConfig{Name: "Author", Interfaces: []*graphql.Interface{nodeI},
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return nodeFields(graphql.Fields{
				"name": labelAs("Full name as first seen."),
				"aliases": {Type: nnList(graphql.String), Description: "Other spellings seen.",
					Resolve: func(p graphql.ResolveParams) (any, error) { return nonNil(node(p).Aliases), nil }},
				"papers": papersField,
				"coauthors": {Type: nnList(coauthorT), Args: firstArgs(graph.DefaultFirst),
					Description: "By number of shared papers, then name.",
					Resolve: viewFirst(graph.DefaultFirst, graph.MaxFirst, func(v *graph.View, n *graph.Node, first int) (any, error) {
						cs, err := v.CoAuthors(n.ID, first)
						out := make([]coauthorVal, len(cs))
						for i, c := range cs {
							out[i] = coauthorVal{n.ID, c}
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
				"concepts": {Type: nnList(weightedT), Args: firstArgs(graph.DefaultFirst),
					Description: "Concepts of the author's papers, weighted by summed scores.",
					Resolve: viewFirst(graph.DefaultFirst, graph.MaxFirst, func(v *graph.View, n *graph.Node, first int) (any, error) {
						return v.AuthorConcepts(n.ID, first)
					})},
			})
		})})

	relatedT := graphql.NewObject(graphql.ObjectConfig{Name: "RelatedPaper", Fields: graphql.FieldsThunk(func() graphql.Fields {
		return graphql.Fields{
			"paper":          {Type: graphql.NewNonNull(paperT), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Related).Paper, nil }},
			"score":          {Type: graphql.NewNonNull(graphql.Float), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Related).Score, nil }},
			"sharedConcepts": {Type: nnList(conceptT), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Related).SharedConcepts, nil }},
			"sharedAuthors":  {Type: nnList(authorT), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Related).SharedAuthors, nil }},
			"sharedSubjects": {Type: nnList(subjectT), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Related).SharedSubjects, nil }},
		}
	})})

	paperT = graphql.NewObject(graphql.ObjectConfig{Name: "Paper", Interfaces: []*graphql.Interface{nodeI},
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return nodeFields(graphql.Fields{
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
				"titles": {Type: nnList(graphql.String), Description: "Other spellings of the title (e.g. with LaTeX).",
					Resolve: func(p graphql.ResolveParams) (any, error) { return nonNil(node(p).Aliases), nil }},
				"year": {Type: graphql.Int, Resolve: func(p graphql.ResolveParams) (any, error) {
					if y := node(p).Year; y != 0 {
						return y, nil
					}
					return nil, nil
				}},
				"subjects": {Type: nnList(subjectT), Description: "Primary first.",
					Resolve: viewList(func(v *graph.View, n *graph.Node) (any, error) { return v.PaperSubjects(n.ID) })},
				"authors": {Type: nnList(authorT), Description: "In byline order.",
					Resolve: viewList(func(v *graph.View, n *graph.Node) (any, error) { return v.PaperAuthors(n.ID) })},
				"concepts": {Type: nnList(weightedT), Args: firstArgs(graph.DefaultFirst), Description: "By descending score.",
					Resolve: viewFirst(graph.DefaultFirst, graph.MaxFirst, func(v *graph.View, n *graph.Node, first int) (any, error) {
						return v.PaperConcepts(n.ID, first)
					})},
				"repositories": {Type: nnList(repoT),
					Resolve: viewList(func(v *graph.View, n *graph.Node) (any, error) { return v.PaperRepositories(n.ID) })},
				"related": {Type: nnList(relatedT), Args: firstArgs(graph.DefaultFirst),
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

	conceptT = graphql.NewObject(graphql.ObjectConfig{Name: "Concept", Interfaces: []*graphql.Interface{nodeI},
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return nodeFields(graphql.Fields{
				"name": labelAs("Canonical name."),
				"aliases": {Type: nnList(graphql.String), Description: "Acronyms and other forms.",
					Resolve: func(p graphql.ResolveParams) (any, error) { return nonNil(node(p).Aliases), nil }},
				"papers": papersField,
				"broader": {Type: nnList(conceptT),
					Resolve: viewList(func(v *graph.View, n *graph.Node) (any, error) { return v.Broader(n.ID) })},
				"narrower": {Type: nnList(conceptT),
					Resolve: viewList(func(v *graph.View, n *graph.Node) (any, error) { return v.Narrower(n.ID) })},
				"related": {Type: nnList(weightedT), Args: firstArgs(graph.DefaultFirst),
					Description: "Co-occurring concepts; weight = both / sqrt(papers(this) · papers(other)), the Ochiai coefficient in (0, 1].",
					Resolve: viewFirst(graph.DefaultFirst, graph.MaxFirst, func(v *graph.View, n *graph.Node, first int) (any, error) {
						return v.ConceptRelated(n.ID, first)
					})},
			})
		})})

	subjectT = graphql.NewObject(graphql.ObjectConfig{Name: "Subject", Interfaces: []*graphql.Interface{nodeI},
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return nodeFields(graphql.Fields{
				"code": labelAs("arXiv category code, e.g. cs.LG."),
				"name": {Type: graphql.NewNonNull(graphql.String), Description: "Official name, e.g. Machine Learning.",
					Resolve: func(p graphql.ResolveParams) (any, error) {
						if n := node(p); n.Name != "" {
							return n.Name, nil
						}
						return node(p).Label, nil
					}},
				"papers": papersField,
			})
		})})

	repoT = graphql.NewObject(graphql.ObjectConfig{Name: "Repository", Interfaces: []*graphql.Interface{nodeI},
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return nodeFields(graphql.Fields{
				"url": labelAs("https://github.com/OWNER/REPO"),
				"owner": {Type: orgT, Resolve: viewList(func(v *graph.View, n *graph.Node) (any, error) {
					return nullIfMissing(v.RepositoryOwner(n.ID))
				})},
			})
		})})

	orgT = graphql.NewObject(graphql.ObjectConfig{Name: "Organization", Interfaces: []*graphql.Interface{nodeI},
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return nodeFields(graphql.Fields{
				"name": labelAs("Owner name as written in links."),
				"repositories": {Type: nnList(repoT),
					Resolve: viewList(func(v *graph.View, n *graph.Node) (any, error) { return v.OrganizationRepositories(n.ID) })},
			})
		})})

	hitT := graphql.NewObject(graphql.ObjectConfig{Name: "SearchHit", Fields: graphql.Fields{
		"node":  {Type: graphql.NewNonNull(nodeI), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Hit).Node, nil }},
		"score": {Type: graphql.NewNonNull(graphql.Float), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Hit).Score, nil }},
	}})
	edgeT := graphql.NewObject(graphql.ObjectConfig{Name: "Edge", Fields: graphql.Fields{
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
	subgraphT := graphql.NewObject(graphql.ObjectConfig{Name: "Subgraph", Fields: graphql.Fields{
		"nodes": {Type: nnList(nodeI), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Subgraph).Nodes, nil }},
		"edges": {Type: nnList(edgeT), Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Subgraph).Edges, nil }},
	}})
	statInt := func(f func(graph.Stats) int) *graphql.Field {
		return &graphql.Field{Type: graphql.NewNonNull(graphql.Int), Resolve: func(p graphql.ResolveParams) (any, error) { return f(p.Source.(graph.Stats)), nil }}
	}
	statsT := graphql.NewObject(graphql.ObjectConfig{Name: "Stats", Fields: graphql.Fields{
		"papers":        statInt(func(s graph.Stats) int { return s.Papers }),
		"authors":       statInt(func(s graph.Stats) int { return s.Authors }),
		"subjects":      statInt(func(s graph.Stats) int { return s.Subjects }),
		"concepts":      statInt(func(s graph.Stats) int { return s.Concepts }),
		"repositories":  statInt(func(s graph.Stats) int { return s.Repositories }),
		"organizations": statInt(func(s graph.Stats) int { return s.Organizations }),
		"edges": {Type: graphql.NewNonNull(graphql.Int), Description: "Stored edges plus co-author and co-occurrence pairs (each pair once).",
			Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Stats).Edges, nil }},
	}})

	rootView := func(fn func(p graphql.ResolveParams, v *graph.View) (any, error)) graphql.FieldResolveFn {
		return safe(func(p graphql.ResolveParams) (any, error) {
			v, err := viewOf(p)
			if err != nil {
				return nil, err
			}
			return fn(p, v)
		})
	}
	kindsArg := func(p graphql.ResolveParams) []graph.Kind {
		raw, _ := p.Args["kinds"].([]any)
		var ks []graph.Kind
		for _, k := range raw {
			if kk, ok := k.(graph.Kind); ok {
				ks = append(ks, kk)
			}
		}
		return ks
	}
	query := graphql.NewObject(graphql.ObjectConfig{Name: "Query", Fields: graphql.Fields{
		"author": {Type: authorT, Description: "An author by name; case, spacing and diacritics are ignored. Null when unknown.",
			Args: graphql.FieldConfigArgument{"name": {Type: graphql.NewNonNull(graphql.String)}},
			Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) {
				name, _ := strArg(p, "name")
				return nullIfMissing(v.AuthorByName(name))
			})},
		"authors": {Type: nnList(authorT), Description: "Every person who carries a name, most papers first.",
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
		"paper": {Type: paperT, Description: "A paper by id, or by title in any spelling (or its short name before \":\"). Null when unknown.",
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
		"subject": {Type: subjectT, Description: "An arXiv subject by code (cs.LG). Null when unknown.",
			Args: graphql.FieldConfigArgument{"code": {Type: graphql.NewNonNull(graphql.String)}},
			Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) {
				code, _ := strArg(p, "code")
				return nullIfMissing(v.SubjectByCode(code))
			})},
		"concept": {Type: conceptT, Description: "A concept by canonical name or any alias (\"RL\"). Null when unknown.",
			Args: graphql.FieldConfigArgument{"name": {Type: graphql.NewNonNull(graphql.String)}},
			Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) {
				name, _ := strArg(p, "name")
				return nullIfMissing(v.ConceptByName(name))
			})},
		"node": {Type: nodeI, Description: "Any node by id. Null when unknown.",
			Args: graphql.FieldConfigArgument{"id": {Type: graphql.NewNonNull(graphql.ID)}},
			Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) {
				s, _ := strArg(p, "id")
				id, err := graph.ParseID(s)
				if err != nil {
					return nil, err
				}
				return nullIfMissing(v.Node(id))
			})},
		"search": {Type: nnList(hitT), Description: "Nodes whose labels contain the words of text; a word of 3+ letters also matches as a prefix.",
			Args: graphql.FieldConfigArgument{
				"text":  {Type: graphql.NewNonNull(graphql.String)},
				"kinds": {Type: graphql.NewList(graphql.NewNonNull(kindEnum))},
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
		"neighborhood": {Type: graphql.NewNonNull(subgraphT),
			Description: "Nodes within depth hops (at most 3) of id, at most first (≤ 500), and the edges among them.",
			Args: graphql.FieldConfigArgument{
				"id":    {Type: graphql.NewNonNull(graphql.ID)},
				"depth": {Type: graphql.Int, DefaultValue: 1},
				"kinds": {Type: graphql.NewList(graphql.NewNonNull(kindEnum))},
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
		"stats": {Type: graphql.NewNonNull(statsT), Description: "Counts of the whole graph.",
			Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) { return v.Stats() })},
	}})
	reportInt := func(f func(ingestReport) int) *graphql.Field {
		return &graphql.Field{Type: graphql.NewNonNull(graphql.Int), Resolve: func(p graphql.ResolveParams) (any, error) { return f(p.Source.(ingestReport)), nil }}
	}
	reportT := graphql.NewObject(graphql.ObjectConfig{Name: "IngestReport", Description: "What an ingest changed. Each document is stored whole or not at all.",
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
	mutation := graphql.NewObject(graphql.ObjectConfig{Name: "Mutation", Fields: graphql.Fields{
		"ingest": {Type: graphql.NewNonNull(reportT),
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
		"splitAuthor": {Type: nnList(authorT),
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
		"mergeAuthors": {Type: graphql.NewNonNull(authorT),
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
	return graphql.NewSchema(graphql.SchemaConfig{
		Query:    query,
		Mutation: mutation,
		Types:    []graphql.Type{paperT, authorT, subjectT, conceptT, repoT, orgT},
	})
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

// maxIDs bounds the ids one mutation takes.
const maxIDs = 1000

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
