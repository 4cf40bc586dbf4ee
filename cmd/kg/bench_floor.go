package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/rs/zerolog"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/store"
)

// floor is kg in process: the graph calls the GraphQL fields make, one
// snapshot (View) per question as a request has.
type floor struct {
	db  *store.DB
	svc *graph.Service
	ctx context.Context
}

func openFloor(ctx context.Context, dir string) (*floor, error) {
	db, err := store.Open(store.DefaultOptions(dir).WithLogger(zerolog.Nop()))
	if err != nil {
		return nil, err
	}
	svc := graph.NewService(db, nil)
	if err := svc.PrepareIndex(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return &floor{db: db, svc: svc, ctx: ctx}, nil
}

func (f *floor) close() { f.db.Close() }

func (f *floor) describe() string {
	st, err := f.svc.Stats(f.ctx)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%d papers, %d authors, %d concepts, %d subjects", st.Papers, st.Authors, st.Concepts, st.Subjects)
}

// The questions, in the order they are run and reported. "noop" asks
// nothing of the graph: kg over HTTP answers { __typename }, PostgreSQL
// SELECT 1, Kuzu RETURN 1, the floor opens and closes a snapshot. It is
// each system's ceiling for any question on this machine, with its client
// beside it: a question one system answers faster than another's noop
// cannot be won by that other at any speed of its own.
var questionNames = []string{"coauthors", "person-papers", "related", "concept-papers", "neighborhood-2", "search", "facet", "top", "path", "noop"}

// draw picks n inputs per question with a fixed seed: people, papers,
// concepts and subjects uniformly among those with papers; search words
// are concept names; paths join two people at most 6 hops apart (pairs
// drawn among people with co-authors until n are joined).
func (f *floor) draw(n int) ([]*question, error) {
	v, err := f.svc.View(f.ctx)
	if err != nil {
		return nil, err
	}
	defer v.Close()
	rng := rand.New(rand.NewPCG(22, 2026))
	ids := map[graph.Kind][]graph.NodeID{}
	r, err := f.db.Read(f.ctx)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	for _, k := range []graph.Kind{graph.KindAuthor, graph.KindPaper, graph.KindConcept, graph.KindSubject} {
		if err := r.NodeIDs(k, 0, func(id graph.NodeID) bool { ids[k] = append(ids[k], id); return true }); err != nil {
			return nil, err
		}
	}
	pick := func(k graph.Kind) graph.NodeID { return ids[k][rng.IntN(len(ids[k]))] }
	label := func(id graph.NodeID) string {
		n, err := v.Node(id)
		if err != nil {
			return ""
		}
		return n.Label
	}
	qs := make([]*question, len(questionNames))
	for i, name := range questionNames {
		qs[i] = &question{Name: name}
	}
	for range n {
		qs[9].inputs = append(qs[9].inputs, input{})
	}
	for len(qs[0].inputs) < n {
		a, p, c := pick(graph.KindAuthor), pick(graph.KindPaper), pick(graph.KindConcept)
		s := pick(graph.KindSubject)
		cl, sl := label(c), label(s)
		if cl == "" || sl == "" {
			continue
		}
		qs[0].inputs = append(qs[0].inputs, input{a: int64(a.Seq()), kind: "author"})
		qs[1].inputs = append(qs[1].inputs, input{a: int64(a.Seq()), kind: "author"})
		qs[2].inputs = append(qs[2].inputs, input{a: int64(p.Seq()), kind: "paper"})
		qs[3].inputs = append(qs[3].inputs, input{a: int64(c.Seq()), kind: "concept"})
		qs[4].inputs = append(qs[4].inputs, input{a: int64(a.Seq()), kind: "author"})
		qs[5].inputs = append(qs[5].inputs, input{text: cl})
		qs[6].inputs = append(qs[6].inputs, input{a: int64(c.Seq()), text: cl})
		qs[7].inputs = append(qs[7].inputs, input{a: int64(s.Seq()), text: sl})
	}
	for tries := 0; len(qs[8].inputs) < n && tries < 50*n; tries++ {
		a, b := pick(graph.KindAuthor), pick(graph.KindAuthor)
		if a == b {
			continue
		}
		p, err := v.Path(f.ctx, a, b, 6, nil)
		if err != nil {
			return nil, err
		}
		if p != nil {
			qs[8].inputs = append(qs[8].inputs, input{a: int64(a.Seq()), b: int64(b.Seq())})
		}
	}
	if len(qs[8].inputs) == 0 {
		qs = slices.Delete(qs, 8, 9)
	}
	return qs, nil
}

// ask answers one question in process.
func (f *floor) ask(q *question, in input) error {
	v, err := f.svc.View(f.ctx)
	if err != nil {
		return err
	}
	defer v.Close()
	author, paper, concept := graph.MakeID(graph.KindAuthor, uint64(in.a)), graph.MakeID(graph.KindPaper, uint64(in.a)), graph.MakeID(graph.KindConcept, uint64(in.a))
	switch q.Name {
	case "coauthors":
		_, err = v.CoAuthors(author, 20)
	case "person-papers":
		_, err = v.Papers(author, 20, "")
	case "related":
		_, err = v.RelatedPapers(paper, 10)
	case "concept-papers":
		var s *graph.Selection
		if s, err = v.Select(nil); err == nil {
			_, err = v.PaperList(s, concept, graph.Relevance, 20, "")
		}
	case "neighborhood-2":
		_, err = v.Neighborhood(author, 2, nil, 50)
	case "search":
		_, err = v.Search(in.text, nil, 10)
	case "facet":
		var s *graph.Selection
		if s, err = v.Select(&graph.PaperFilter{Concepts: []string{in.text}}); err == nil {
			_, err = v.Facets(graph.FacetMonth, s, 20)
		}
	case "top":
		var s *graph.Selection
		if s, err = v.Select(&graph.PaperFilter{Subjects: []string{in.text}}); err == nil {
			_, err = v.Top(graph.KindAuthor, s, 10)
		}
	case "path":
		_, err = v.Path(f.ctx, author, graph.MakeID(graph.KindAuthor, uint64(in.b)), 6, nil)
	case "noop":
	default:
		err = fmt.Errorf("unknown question %q", q.Name)
	}
	return err
}
