// What dashboards ask: facets, rankings, emerging concepts, collaboration
// paths and filtered paper lists, over a PaperFilter.

package schema

import (
	"context"
	"fmt"
	"math"

	"github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"

	"github.com/researchkg/kg/graph"
)

// Defaults and maxima of the dashboard fields.
const (
	defaultFacetFirst = 20
	defaultPagesFirst = 20
)

// rankedVal is a RankedNode.
type rankedVal struct {
	node  *graph.Node
	count int
	score float64
	since string // emerging: the burst's first month
}

// buildDashboards: PaperFilter, Facet, PaperOrder, Bucket, FacetResult,
// RankedNode, Hop, CollaborationPath.
func (t *types) buildDashboards() {
	list := func(of graphql.Input) graphql.Input { return graphql.NewList(graphql.NewNonNull(of)) }
	t.filter = graphql.NewInputObject(graphql.InputObjectConfig{
		Name: "PaperFilter",
		Description: "Selects papers: the fields given combine with AND, the values of a list with OR. " +
			"An unknown subject, concept or person, or a malformed month, is an INVALID error that names it.",
		Fields: graphql.InputObjectConfigFieldMap{
			"subjects":  {Type: list(graphql.String), Description: "Subject codes (\"cs.LG\"); at most 100."},
			"concepts":  {Type: list(graphql.String), Description: "Concept names or aliases, resolved as Query.concept resolves them; a concept's papers are exactly Concept.papers. At most 100."},
			"authors":   {Type: list(graphql.ID), Description: "People, by id (from Query.authors: a name may be several people); at most 100."},
			"yearFrom":  {Type: graphql.Int, Description: "First year, inclusive."},
			"yearTo":    {Type: graphql.Int, Description: "Last year, inclusive."},
			"monthFrom": {Type: graphql.String, Description: "First month, \"YYYY-MM\", inclusive; papers whose month is unknown match no month bound."},
			"monthTo":   {Type: graphql.String, Description: "Last month, \"YYYY-MM\", inclusive."},
		},
	})
	t.facet = graphql.NewEnum(graphql.EnumConfig{Name: "Facet", Description: "What papers are counted by.",
		Values: graphql.EnumValueConfigMap{
			"YEAR":    {Value: graph.FacetYear, Description: "The year of the paper's date; a paper of unknown year is in no bucket."},
			"MONTH":   {Value: graph.FacetMonth, Description: "The month of the paper's date (\"2025-07\"); a paper of unknown month is in no bucket."},
			"SUBJECT": {Value: graph.FacetSubject, Description: "Each arXiv subject of the paper."},
			"CONCEPT": {Value: graph.FacetConcept, Description: "Each concept the paper mentions (as Concept.papers lists them)."},
			"AUTHOR":  {Value: graph.FacetAuthor, Description: "Each person who wrote the paper."},
		}})
	// string values: graphql-go's introspection prints an argument's
	// default only when the enum's value is a string
	t.order = graphql.NewEnum(graphql.EnumConfig{Name: "PaperOrder", Description: "The order of a paper list.",
		Values: graphql.EnumValueConfigMap{
			"NEWEST":    {Value: "NEWEST", Description: "By date, newest first (a paper known by its month after that month's dated papers, one known by its year after that year's), then by title."},
			"OLDEST":    {Value: "OLDEST", Description: "The reverse of NEWEST."},
			"RELEVANCE": {Value: "RELEVANCE", Description: "By the weight in the paper of the list's concept (Concept.papers) or of the filter's concepts (the best of them), then NEWEST; without concepts, NEWEST."},
		}})
	t.bucket = graphql.NewObject(graphql.ObjectConfig{Name: "Bucket", Description: "One bar of a facet.",
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"key": {Type: graphql.NewNonNull(graphql.String), Description: "\"2025\", \"2025-07\", a subject's code (\"cs.LG\"), or a concept's or person's id.",
					Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Bucket).Key, nil }},
				"label": {Type: graphql.NewNonNull(graphql.String), Description: "What a person reads: \"2025\", \"July 2025\", \"Machine Learning\", a concept's name, a person's label.",
					Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Bucket).Label, nil }},
				"count": {Type: graphql.NewNonNull(graphql.Int), Description: "Papers in the bucket among those the filter selects (exact).",
					Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Bucket).Count, nil }},
				"node": {Type: t.node, Description: "The subject, concept or person; null for years and months.",
					Resolve: func(p graphql.ResolveParams) (any, error) {
						if n := p.Source.(graph.Bucket).Node; n != nil {
							return n, nil
						}
						return nil, nil
					}},
			}
		})})
	t.facetResult = graphql.NewObject(graphql.ObjectConfig{Name: "FacetResult", Description: "Papers counted by a facet.",
		Fields: graphql.Fields{
			"total": {Type: graphql.NewNonNull(graphql.Int), Description: "Distinct papers the filter selects (a paper is in several subject, concept and person buckets, and in none when its date is unknown).",
				Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.FacetResult).Total, nil }},
			"buckets": {Type: nnList(t.bucket), Description: "YEAR and MONTH: every bucket from the first to the last with papers, empty ones between included, by key. SUBJECT, CONCEPT, AUTHOR: the first by count descending, then key.",
				Resolve: func(p graphql.ResolveParams) (any, error) {
					return nonNilBuckets(p.Source.(graph.FacetResult).Buckets), nil
				}},
		}})
	t.ranked = graphql.NewObject(graphql.ObjectConfig{Name: "RankedNode", Description: "A node ranked by papers among those a filter selects.",
		Fields: graphql.Fields{
			"node": {Type: graphql.NewNonNull(t.node), Description: "The person, concept or subject.",
				Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(rankedVal).node, nil }},
			"count": {Type: graphql.NewNonNull(graphql.Int), Description: "top: its papers among those the filter selects. emerging: its papers in the burst's months.",
				Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(rankedVal).count, nil }},
			"score": {Type: graphql.Float, Description: "top: the share of the filter's papers, in (0, 1]. emerging: the burst's weight (Kleinberg's: how much better a doubled rate explains its months than the concept's usual rate; see the README).",
				Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(rankedVal).score, nil }},
			"since": {Type: graphql.String, Description: "emerging: the burst's first month (\"2026-01\"); null for top.",
				Resolve: func(p graphql.ResolveParams) (any, error) { return nilIfEmpty(p.Source.(rankedVal).since), nil }},
		}})
	t.hop = graphql.NewObject(graphql.ObjectConfig{Name: "Hop", Description: "One link of a collaboration path.",
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"from": {Type: graphql.NewNonNull(t.author), Description: "The person nearer the path's start.",
					Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Hop).From, nil }},
				"to": {Type: graphql.NewNonNull(t.author), Description: "The next person.",
					Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Hop).To, nil }},
				"papers": {Type: nnList(t.paper), Description: "Every paper the two wrote together that the filter selects, newest first.",
					Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(graph.Hop).Papers, nil }},
			}
		})})
	t.path = graphql.NewObject(graphql.ObjectConfig{Name: "CollaborationPath", Description: "A shortest chain of co-authorship between two people.",
		Fields: graphql.FieldsThunk(func() graphql.Fields {
			return graphql.Fields{
				"length": {Type: graphql.NewNonNull(graphql.Int), Description: "Hops: 1 for co-authors, 0 from a person to themself.",
					Resolve: func(p graphql.ResolveParams) (any, error) { return len(p.Source.(*graph.CollaborationPath).Hops), nil }},
				"authors": {Type: nnList(t.author), Description: "The people, from the first to the last.",
					Resolve: func(p graphql.ResolveParams) (any, error) { return p.Source.(*graph.CollaborationPath).Authors, nil }},
				"hops": {Type: nnList(t.hop), Description: "Each person and the next, with their shared papers.",
					Resolve: func(p graphql.ResolveParams) (any, error) {
						if h := p.Source.(*graph.CollaborationPath).Hops; h != nil {
							return h, nil
						}
						return []graph.Hop{}, nil
					}},
			}
		})})
}

func nonNilBuckets(b []graph.Bucket) []graph.Bucket {
	if b == nil {
		return []graph.Bucket{}
	}
	return b
}

// filterArgs is the filter argument of a field.
func (t *types) filterArg(desc string) *graphql.ArgumentConfig {
	return &graphql.ArgumentConfig{Type: t.filter, Description: desc}
}

// selection reads a field's filter argument and resolves it (nil filter:
// every paper).
func selection(p graphql.ResolveParams, v *graph.View) (*graph.Selection, error) {
	f, err := parseFilter(p.Args["filter"])
	if err != nil {
		return nil, err
	}
	return v.Select(f)
}

// parseFilter reads a PaperFilter value as graphql-go gives it (or as
// JSON variables decode: numbers as float64); nil for none.
func parseFilter(raw any) (*graph.PaperFilter, error) {
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, nil
	}
	f := &graph.PaperFilter{Subjects: stringList(m["subjects"]), Concepts: stringList(m["concepts"])}
	for i, s := range stringList(m["authors"]) {
		id, err := graph.ParseID(s)
		if err != nil {
			return nil, graph.Errorf(graph.Invalid, "filter.authors[%d]: %v", i, err)
		}
		f.Authors = append(f.Authors, id)
	}
	for _, y := range []struct {
		name string
		dst  *int
	}{{"yearFrom", &f.YearFrom}, {"yearTo", &f.YearTo}} {
		switch v := m[y.name].(type) {
		case int:
			*y.dst = v
		case float64:
			if v != math.Trunc(v) || math.Abs(v) > 1e6 {
				return nil, graph.Errorf(graph.Invalid, "filter.%s: %v is not a year", y.name, v)
			}
			*y.dst = int(v)
		}
		if *y.dst == 0 && m[y.name] != nil {
			return nil, graph.Errorf(graph.Invalid, "filter.%s: 0 is not a year", y.name)
		}
	}
	f.MonthFrom, _ = m["monthFrom"].(string)
	f.MonthTo, _ = m["monthTo"].(string)
	if m["monthFrom"] != nil && f.MonthFrom == "" || m["monthTo"] != nil && f.MonthTo == "" {
		return nil, graph.Errorf(graph.Invalid, "filter: a month is \"YYYY-MM\"")
	}
	return f, nil
}

func stringList(raw any) []string {
	l, _ := raw.([]any)
	out := make([]string, 0, len(l))
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	if raw == nil {
		return nil
	}
	return out
}

// dashboardFields are the Query fields of dashboards.
func (t *types) dashboardFields(f graphql.Fields) {
	f["facets"] = &graphql.Field{Type: graphql.NewNonNull(t.facetResult),
		Description: "Papers counted by year, month, subject, concept or person, over the papers a filter selects. Exact; each answer is computed from the in-memory index of every paper's facets.",
		Args: graphql.FieldConfigArgument{
			"by":     {Type: graphql.NewNonNull(t.facet), Description: "What to count by."},
			"filter": t.filterArg("Which papers; default every paper."),
			"first":  {Type: graphql.Int, DefaultValue: defaultFacetFirst, Description: "SUBJECT, CONCEPT, AUTHOR: how many buckets, default 20, at most 100. YEAR and MONTH give every bucket."},
		},
		Resolve: overFilter(defaultFacetFirst, func(p graphql.ResolveParams, v *graph.View, s *graph.Selection, first int) (any, error) {
			by, _ := p.Args["by"].(graph.Facet)
			return v.Facets(by, s, first)
		})}
	f["top"] = &graphql.Field{Type: nnList(t.ranked),
		Description: "People, concepts or subjects ranked by their papers among those a filter selects: count descending, then key (as facets orders buckets).",
		Args: graphql.FieldConfigArgument{
			"kind":   {Type: graphql.NewNonNull(t.kind), Description: "AUTHOR, CONCEPT or SUBJECT; another kind is INVALID."},
			"filter": t.filterArg("Which papers; default every paper."),
			"first":  {Type: graphql.Int, DefaultValue: graph.DefaultFirst, Description: "How many: default 10, at most 100."},
		},
		Resolve: overFilter(graph.DefaultFirst, func(p graphql.ResolveParams, v *graph.View, s *graph.Selection, first int) (any, error) {
			kind, _ := p.Args["kind"].(graph.Kind)
			rs, err := v.Top(kind, s, first)
			out := make([]rankedVal, len(rs))
			for i, r := range rs {
				out[i] = rankedVal{node: r.Node, count: r.Count, score: r.Score}
			}
			return out, err
		})}
	f["emerging"] = &graphql.Field{Type: nnList(t.ranked),
		Description: "Concepts in a burst of use at the end of the filter's window, begun within it (Kleinberg's burst detection over months, as CiteSpace uses it; see the README): strongest burst first. The months before the window are each concept's history.",
		Args: graphql.FieldConfigArgument{
			"filter": t.filterArg("Which papers, and the window: monthFrom/monthTo or yearFrom/yearTo; default every paper and every month."),
			"first":  {Type: graphql.Int, DefaultValue: graph.DefaultFirst, Description: "How many: default 10, at most 100."},
		},
		Resolve: overFilter(graph.DefaultFirst, func(_ graphql.ResolveParams, v *graph.View, s *graph.Selection, first int) (any, error) {
			es, err := v.Emerging(s, first)
			out := make([]rankedVal, len(es))
			for i, e := range es {
				out[i] = rankedVal{node: e.Node, count: e.Burst.Papers, score: e.Burst.Weight, since: e.Since}
			}
			return out, err
		})}
	f["path"] = &graphql.Field{Type: t.path,
		Description: "A shortest co-authorship path between two people (breadth-first search from both ends); with a filter only its papers link people. Null when none is within maxLength.",
		Args: graphql.FieldConfigArgument{
			"from":      {Type: graphql.NewNonNull(graphql.ID), Description: "A person's id."},
			"to":        {Type: graphql.NewNonNull(graphql.ID), Description: "A person's id."},
			"maxLength": {Type: graphql.Int, DefaultValue: graph.DefaultPathLength, Description: fmt.Sprintf("At most this many hops: default %d, 1 to %d.", graph.DefaultPathLength, graph.MaxPathLength)},
			"filter":    t.filterArg("Which papers link people; default every paper."),
		},
		Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) {
			from, err := idArg(p, "from")
			if err != nil {
				return nil, err
			}
			to, err := idArg(p, "to")
			if err != nil {
				return nil, err
			}
			s, err := selection(p, v)
			if err != nil {
				return nil, err
			}
			maxLength, _ := p.Args["maxLength"].(int)
			path, err := v.Path(state(p.Context).ctx, from, to, maxLength, s)
			if path == nil || err != nil {
				return nil, err
			}
			return path, nil
		})}
	f["papers"] = &graphql.Field{Type: graphql.NewNonNull(t.paperConn),
		Description: "The papers a filter selects, a page at a time: the list behind a bar of a chart.",
		Args: graphql.FieldConfigArgument{
			"filter":  {Type: graphql.NewNonNull(t.filter), Description: "Which papers."},
			"orderBy": {Type: t.order, DefaultValue: "NEWEST", Description: "Default NEWEST."},
			"first":   {Type: graphql.Int, DefaultValue: defaultPagesFirst, Description: "How many: default 20, at most 100."},
			"after":   {Type: graphql.String, Description: "endCursor of the previous page (of the same filter and order)."},
		},
		Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) {
			return paperPage(p, v, 0, defaultPagesFirst)
		})}
}

var orders = map[any]graph.PaperOrder{"NEWEST": graph.Newest, "OLDEST": graph.Oldest, "RELEVANCE": graph.Relevance}

// overFilter is a root resolver over a filter: fn gets the selection and
// first (default def, at most 100) read from the arguments.
func overFilter(def int, fn func(p graphql.ResolveParams, v *graph.View, s *graph.Selection, first int) (any, error)) graphql.FieldResolveFn {
	return rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) {
		first, s, err := firstAndSelection(p, v, def)
		if err != nil {
			return nil, err
		}
		return fn(p, v, s, first)
	})
}

// firstAndSelection reads a field's first (default def, at most 100) and
// resolves its filter.
func firstAndSelection(p graphql.ResolveParams, v *graph.View, def int) (int, *graph.Selection, error) {
	first, err := firstArg(p, def, graph.MaxFirst)
	if err != nil {
		return 0, nil, err
	}
	s, err := selection(p, v)
	return first, s, err
}

// paperPage answers a papers field: the page of owner's papers (0: of
// every paper) the arguments ask for.
func paperPage(p graphql.ResolveParams, v *graph.View, owner graph.NodeID, def int) (any, error) {
	first, s, err := firstAndSelection(p, v, def)
	if err != nil {
		return nil, err
	}
	order := orders[p.Args["orderBy"]]
	if order == 0 {
		order = graph.Newest
	}
	after, _ := strArg(p, "after")
	return v.PaperList(s, owner, order, first, after)
}

// scanPerCost is Options.ScanPerCost's default: a field costs one more per
// this many papers its filter may read (ScanEstimate). A facet over the
// 47,919 papers of the arXiv file costs 480, so a query may ask ~100 such
// questions of it within the default budget, and fewer as the corpus
// grows.
const scanPerCost = 100

// scanningFields are the Query fields that read papers without a filter
// too (Query.papers always has one); the paper lists and co-authors of
// people, subjects and concepts read only their owner's papers unless
// given a filter.
var scanningFields = map[string]bool{"facets": true, "top": true, "emerging": true, "path": true}

// pricer prices the fields that scan papers, with a snapshot opened on
// first need.
type pricer struct {
	h    *Handler
	ctx  context.Context
	vars map[string]any
	view *graph.View
	err  error
}

func (h *Handler) pricer(ctx context.Context, vars map[string]any) *pricer {
	return &pricer{h: h, ctx: ctx, vars: vars}
}

func (p *pricer) price(fd *graphql.FieldDefinition, f *ast.Field) int {
	if fd.Name == "export" {
		n, ok := firstValue(fd, f, p.vars)
		if !ok {
			n = 200
		}
		return max(n, 1) * exportCostPerNode
	}
	hasFilter := false
	for _, a := range fd.Args {
		hasFilter = hasFilter || a.PrivateName == "filter"
	}
	raw := argValue(f, "filter", p.vars)
	if !hasFilter || raw == nil && !scanningFields[fd.Name] {
		return 0
	}
	if p.view == nil && p.err == nil {
		p.view, p.err = p.h.svc.View(p.ctx)
	}
	if p.err != nil {
		return 0 // the query will meet the store's error itself
	}
	filter, err := parseFilter(raw)
	if err != nil {
		return 0 // and this one its own error
	}
	n, err := p.view.ScanEstimate(filter)
	if err != nil {
		return 0
	}
	per := p.h.opts.ScanPerCost
	return (n + per - 1) / per
}

func (p *pricer) close() {
	if p.view != nil {
		p.view.Close()
	}
}
