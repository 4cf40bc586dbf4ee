// Related work: Query.relatedWork, from a draft's text, concept names or
// seed papers.

package schema

import (
	"github.com/graphql-go/graphql"

	"github.com/researchkg/kg/graph"
)

// relatedWorkField is Query.relatedWork.
func (t *types) relatedWorkField(f graphql.Fields) {
	f["relatedWork"] = &graphql.Field{Type: nnList(t.related),
		Description: "The work to cite for what you bring: a draft's title and abstract (text), concepts by name, seed papers (positive examples), or any of them together; best first, each with its reasons. " +
			"Seed and excluded papers are never answers. Without text, concepts and papers: INVALID. The score is explained in the README.",
		Args: graphql.FieldConfigArgument{
			"text":     {Type: graphql.String, Description: "A draft: title on the first line, then the abstract; analysed as stored papers are (concepts, acronyms, aliases). At most 20,000 bytes."},
			"concepts": {Type: graphql.NewList(graphql.NewNonNull(graphql.String)), Description: "Concept names or aliases, as Query.concept resolves them; an unknown one is INVALID. At most 100."},
			"papers":   {Type: graphql.NewList(graphql.NewNonNull(graphql.ID)), Description: "Seed papers: papers sharing concepts and people with several of them rank first. At most 100."},
			"exclude":  {Type: graphql.NewList(graphql.NewNonNull(graphql.ID)), Description: "Papers to leave out: already cited, or not wanted. At most 100."},
			"filter":   t.filterArg("Which papers may be answers; default any."),
			"first":    {Type: graphql.Int, DefaultValue: graph.DefaultFirst, Description: "How many: default 10, at most 100."},
		},
		Resolve: rootView(func(p graphql.ResolveParams, v *graph.View) (any, error) {
			first, err := firstArg(p, graph.DefaultFirst, graph.MaxFirst)
			if err != nil {
				return nil, err
			}
			q := graph.RelatedQuery{First: first, Concepts: stringList(p.Args["concepts"])}
			q.Text, _ = p.Args["text"].(string)
			if q.Papers, err = idsArg(p, "papers"); err != nil {
				return nil, err
			}
			if q.Exclude, err = idsArg(p, "exclude"); err != nil {
				return nil, err
			}
			if q.Filter, err = parseFilter(p.Args["filter"]); err != nil {
				return nil, err
			}
			return v.RelatedWork(q)
		})}
}

// relatedFields are RelatedPaper's fields.
func (t *types) relatedFields() graphql.Fields {
	rel := func(p graphql.ResolveParams) graph.Related { return p.Source.(graph.Related) }
	return graphql.Fields{
		"paper": {Type: graphql.NewNonNull(t.paper), Resolve: func(p graphql.ResolveParams) (any, error) { return rel(p).Paper, nil }},
		"score": {Type: graphql.NewNonNull(graphql.Float), Description: "The concept cosine plus the evidence of people, venue, subjects and years (README).",
			Resolve: func(p graphql.ResolveParams) (any, error) { return rel(p).Score, nil }},
		"concepts": {Type: nnList(t.weighted), Description: "The concepts shared with what was asked, each with its part of the score, largest first.",
			Resolve: func(p graphql.ResolveParams) (any, error) {
				r := rel(p)
				out := make([]graph.Weighted, len(r.SharedConcepts))
				for i, c := range r.SharedConcepts {
					out[i] = graph.Weighted{Node: c, Weight: r.ConceptShares[i]}
				}
				return out, nil
			}},
		"sharedConcepts": {Type: nnList(t.concept), Description: "The shared concepts, as in concepts.",
			Resolve: func(p graphql.ResolveParams) (any, error) { return nonNilNodes(rel(p).SharedConcepts), nil }},
		"sharedAuthors": {Type: nnList(t.author), Description: "People of the seed papers who wrote it.",
			Resolve: func(p graphql.ResolveParams) (any, error) { return nonNilNodes(rel(p).SharedAuthors), nil }},
		"sharedSubjects": {Type: nnList(t.subject), Description: "Subjects it shares with the seed papers.",
			Resolve: func(p graphql.ResolveParams) (any, error) { return nonNilNodes(rel(p).SharedSubjects), nil }},
		"sharedTerms": {Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(graphql.String))), Description: "relatedWork(text:): key terms of the draft that are no concepts yet (too few papers use them) and that this paper uses too.",
			Resolve: func(p graphql.ResolveParams) (any, error) {
				if ts := rel(p).SharedTerms; ts != nil {
					return ts, nil
				}
				return []string{}, nil
			}},
		"why": {Type: graphql.NewNonNull(graphql.String), Description: "The reasons in one line: \"shares reward model, RLHF; by Wei Zhang; cs.CL, 2025\".",
			Resolve: func(p graphql.ResolveParams) (any, error) { return rel(p).Why, nil }},
	}
}

func nonNilNodes(ns []*graph.Node) []*graph.Node {
	if ns == nil {
		return []*graph.Node{}
	}
	return ns
}
