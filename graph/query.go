package graph

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/researchkg/kg/graph/ident"
)

// Limits on list sizes: a "first" above its maximum is an Invalid error.
const (
	DefaultFirst      = 10
	MaxFirst          = 100
	MaxNeighborhood   = 500
	MaxDepth          = 3
	MaxSearch         = 100
	maxFanout         = 2000 // papers read per concept/author when ranking related work
	maxSearchPostings = 5000 // index entries read per query token
)

// View is a per-request read of the graph: one snapshot, with a node cache
// so a query touching the same node many times loads it once. It is not safe
// for concurrent use; graphql-go runs resolvers on one goroutine.
type View struct {
	svc      *Service
	r        Reader
	nodes    map[NodeID]*Node
	profiles map[NodeID]*profile
	edges    map[edgeSel]edgeRun // read ahead by Prefetch
}

// View opens a snapshot. Close it when the request ends.
func (s *Service) View(ctx context.Context) (*View, error) {
	r, err := s.store.Read(ctx)
	if err != nil {
		return nil, err
	}
	return &View{svc: s, r: r, nodes: map[NodeID]*Node{}}, nil
}

// Close releases the snapshot.
func (v *View) Close() { v.r.Close() }

// Node loads a node; ErrNotFound when absent.
func (v *View) Node(id NodeID) (*Node, error) {
	if n, ok := v.nodes[id]; ok {
		return n, nil
	}
	if !id.Kind().Valid() {
		return nil, ErrNotFound
	}
	n, err := v.r.Node(id)
	if err != nil {
		return nil, err
	}
	v.nodes[id] = &n
	return &n, nil
}

// Abstracts returns a paper's distinct abstracts, first seen first.
func (v *View) Abstracts(id NodeID) ([]string, error) { return v.r.Abstracts(id) }

// Nodes loads many nodes, skipping ids that no longer exist.
func (v *View) Nodes(ids []NodeID) ([]*Node, error) {
	out := make([]*Node, 0, len(ids))
	for _, id := range ids {
		n, err := v.Node(id)
		if ErrorCode(err) == NotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

func (v *View) lookup(ns Index, key string) (NodeID, error) {
	if key == "" {
		return 0, ErrNotFound
	}
	return v.r.Lookup(ns, key)
}

// AuthorByName finds an author by name: exactly (case and spacing folded),
// else ignoring diacritics and punctuation.
func (v *View) AuthorByName(name string) (*Node, error) {
	id, err := v.lookup(IdxAuthorName, ident.NameKey(name))
	if ErrorCode(err) == NotFound {
		id, err = v.lookup(IdxAuthorFold, ident.FoldKey(name))
	}
	if err != nil {
		return nil, err
	}
	return v.Node(id)
}

// PaperByTitle finds a paper by its full title in any spelling (case,
// punctuation, LaTeX and Unicode forms folded), else by its short name (the
// part before ":", e.g. "GD2PO").
func (v *View) PaperByTitle(title string) (*Node, error) {
	id, err := v.lookup(IdxPaperTitle, ident.TitleKey(title))
	if ErrorCode(err) == NotFound {
		id, err = v.lookup(IdxPaperShort, ident.TitleKey(title))
	}
	if err != nil {
		return nil, err
	}
	return v.Node(id)
}

// SubjectByCode finds a subject by arXiv code (any case).
func (v *View) SubjectByCode(code string) (*Node, error) {
	id, err := v.lookup(IdxSubject, ident.CanonicalSubject(code))
	if err != nil {
		return nil, err
	}
	return v.Node(id)
}

// ConceptByName finds a concept by its canonical name or any alias, in any
// case, spacing or spelling, also in the plural ("reward models",
// "MLLMs", "rl").
func (v *View) ConceptByName(name string) (*Node, error) {
	key := ident.ConceptKey(name)
	id, err := v.lookup(IdxConcept, key)
	if ErrorCode(err) == NotFound && strings.HasSuffix(key, "s") {
		id, err = v.lookup(IdxConcept, strings.TrimSuffix(key, "s"))
	}
	if ErrorCode(err) == NotFound && strings.Contains(strings.TrimSpace(name), " ") {
		// an acronym inside a name: "agent RL" is agent reinforcement learning
		words, expanded := strings.Fields(name), false
		stats := v.CorpusStats()
		for i, w := range words {
			if ident.IsAcronym(w) {
				if long, ok := stats.Acronym(w); ok {
					words[i], expanded = long, true
				}
			}
		}
		if err := stats.Err(); err != nil {
			return nil, err
		}
		if expanded {
			return v.ConceptByName(strings.Join(words, " "))
		}
	}
	if ErrorCode(err) == NotFound {
		if s := strings.TrimSpace(name); s != "" && !strings.Contains(s, " ") {
			for _, a := range []string{ident.SingularAcronym(s), ident.SingularAcronym(strings.ToUpper(s)), strings.ToUpper(strings.TrimSuffix(s, "s"))} {
				if id, err = v.lookup(IdxAcronym, a); ErrorCode(err) != NotFound {
					break
				}
			}
		}
	}
	if err != nil {
		return nil, err
	}
	return v.Node(id)
}

// edgeList collects the far ends of one edge type.
func (v *View) edgeList(id NodeID, t EdgeType, dir Direction) ([]NodeID, []float64, error) {
	if e, ok := v.edges[edgeSel{id, t, dir}]; ok {
		return e.ids, e.ws, nil
	}
	return edgeList(v.r, id, t, dir)
}

// edgeSel names one node's edges of a type in a direction.
type edgeSel struct {
	id  NodeID
	t   EdgeType
	dir Direction
}

// edgeRun is a node's edges read ahead (Prefetch).
type edgeRun struct {
	ids []NodeID
	ws  []float64
}

// maxPrefetched bounds the edge lists a View keeps from Prefetch.
const maxPrefetched = 4096

// Prefetch reads the edges of one type of several nodes in one read of the
// store, and their far ends' nodes, for the calls that follow on this View
// (PaperAuthors, PaperSubjects, ...): GraphQL resolves a page of papers'
// authors paper by paper, and this turns twenty reads into one.
func (v *View) Prefetch(ids []NodeID, t EdgeType, dir Direction) error {
	var want []NodeID
	for _, id := range ids {
		if _, ok := v.edges[edgeSel{id, t, dir}]; !ok && id.Kind().Valid() {
			want = append(want, id)
		}
	}
	if len(want) == 0 {
		return nil
	}
	if v.edges == nil || len(v.edges)+len(want) > maxPrefetched {
		v.edges = make(map[edgeSel]edgeRun, len(want))
	}
	runs := make([]edgeRun, len(want))
	if err := v.r.EdgesOf(want, t, dir, func(i int, o NodeID, w float64) bool {
		runs[i].ids = append(runs[i].ids, o)
		runs[i].ws = append(runs[i].ws, w)
		return true
	}); err != nil {
		return err
	}
	var far []NodeID
	for i, id := range want {
		v.edges[edgeSel{id, t, dir}] = runs[i]
		far = append(far, runs[i].ids...)
	}
	_, err := v.Nodes(far)
	return err
}

// edgeList collects the far ends of one edge type at a node, with the
// edges' weights.
func edgeList(r Reader, id NodeID, t EdgeType, dir Direction) ([]NodeID, []float64, error) {
	var ids []NodeID
	var ws []float64
	err := r.Edges(id, t, dir, func(o NodeID, w float64) bool {
		ids = append(ids, o)
		ws = append(ws, w)
		return true
	})
	return ids, ws, err
}

// paperAuthors returns the authors of a paper, in id order.
func paperAuthors(r Reader, paper NodeID) ([]NodeID, error) {
	ids, _, err := edgeList(r, paper, Authored, In)
	return ids, err
}

// byWeight orders ids by ascending weight (positions), ties by id.
func byWeight(ids []NodeID, ws []float64) []NodeID {
	idx := make([]int, len(ids))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(ws[a], ws[b]) })
	out := make([]NodeID, len(ids))
	for i, j := range idx {
		out[i] = ids[j]
	}
	return out
}

// PaperAuthors returns a paper's authors in byline order.
func (v *View) PaperAuthors(p NodeID) ([]*Node, error) {
	ids, ws, err := v.edgeList(p, Authored, In)
	if err != nil {
		return nil, err
	}
	return v.Nodes(byWeight(ids, ws))
}

// PaperSubjects returns a paper's subjects, primary first.
func (v *View) PaperSubjects(p NodeID) ([]*Node, error) {
	ids, ws, err := v.edgeList(p, InSubject, Out)
	if err != nil {
		return nil, err
	}
	return v.Nodes(byWeight(ids, ws))
}

// PaperRepositories returns the code repositories a paper links to.
func (v *View) PaperRepositories(p NodeID) ([]*Node, error) {
	ids, _, err := v.edgeList(p, HasCode, Out)
	if err != nil {
		return nil, err
	}
	return v.Nodes(ids)
}

// RepositoryOwner returns the organisation owning a repository.
func (v *View) RepositoryOwner(r NodeID) (*Node, error) {
	ids, _, err := v.edgeList(r, OwnedBy, Out)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	return v.Node(ids[0])
}

// OrganizationRepositories returns an organisation's repositories by URL.
func (v *View) OrganizationRepositories(o NodeID) ([]*Node, error) {
	ids, _, err := v.edgeList(o, OwnedBy, In)
	if err != nil {
		return nil, err
	}
	ns, err := v.Nodes(ids)
	slices.SortFunc(ns, func(a, b *Node) int { return strings.Compare(strings.ToLower(a.Label), strings.ToLower(b.Label)) })
	return ns, err
}

// Coauthor is an author who wrote papers with another.
type Coauthor struct {
	Author *Node
	Weight int // number of shared papers
}

// CoAuthors returns the co-authors of a, by number of shared papers, then
// name: read from a's profile (one value), so a hot read costs the
// co-authors' names only.
func (v *View) CoAuthors(a NodeID, first int) ([]Coauthor, error) {
	if first > MaxFirst { // beyond what a profile keeps (not through GraphQL)
		weights, err := coauthorWeights(v.r, a)
		if err != nil {
			return nil, err
		}
		return topCoauthors(weights, first, v.Node)
	}
	p, err := v.profile(a)
	if err != nil {
		return nil, err
	}
	return v.coauthorsOf(p, first)
}

// Stats are the graph's counts.
type Stats struct {
	Papers, Authors, Subjects, Concepts, Repositories, Organizations int
	// Edges counts stored edges plus derived co-author and co-occurrence
	// pairs (each unordered pair once).
	Edges int
}

// Stats reads the graph's counts from a snapshot of their own.
func (s *Service) Stats(ctx context.Context) (Stats, error) {
	v, err := s.View(ctx)
	if err != nil {
		return Stats{}, err
	}
	defer v.Close()
	return v.Stats()
}

// Stats reads the graph's counters.
func (v *View) Stats() (Stats, error) {
	var s Stats
	for _, c := range []struct {
		name string
		dst  *int
	}{
		{cntPapers, &s.Papers}, {cntAuthors, &s.Authors}, {cntSubjects, &s.Subjects},
		{cntConcepts, &s.Concepts}, {cntRepositories, &s.Repositories}, {cntOrganizations, &s.Organizations},
		{cntEdges, &s.Edges},
	} {
		n, err := v.r.Counter(c.name)
		if err != nil {
			return s, err
		}
		*c.dst = int(n)
	}
	for _, t := range []EdgeType{CoAuthor, CoOccurs} {
		n, err := v.r.Counter(pairCounter(t))
		if err != nil {
			return s, err
		}
		s.Edges += int(n)
	}
	return s, nil
}
