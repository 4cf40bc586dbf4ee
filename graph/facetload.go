// How the facet index is built from the store and kept current with it.

package graph

import (
	"context"
	"sync"
	"time"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/paperindex"
)

// facetHolder holds a service's facet index. The index is built on first
// use (kg serve builds it at startup: PrepareIndex) from one pass over the
// store's papers and their edges. From then on the store tells after each
// commit which nodes it wrote (CommitNotifier); the papers among them are
// read again before the next use, so a write is seen by the next read. A
// store that cannot tell gets an index built afresh for each use.
type facetHolder struct {
	mu sync.RWMutex // guards ix; readers hold it while they compute
	ix *paperindex.Index

	notified bool           // the store reports commits
	notifier CommitNotifier // asked for reports once an index is built
	listen   sync.Once

	dmu      sync.Mutex
	tracking bool              // an index exists or is being built: record changes
	have     bool              // ix is built
	dirty    map[NodeID]bool   // papers written since the index read them
	built    func(IndexReport) // told of each build (nil: nobody)
}

// IndexReport says what building or refreshing the facet index did.
type IndexReport struct {
	Papers  int           // papers in the index
	Read    int           // papers read from the store
	Rebuilt bool          // the whole index was built
	Took    time.Duration // time spent
}

// watch notes whether the store reports its commits; the holder asks for
// the reports when it first builds an index (refresh), so a process that
// never builds one (kg ingest) pays nothing for them.
func (h *facetHolder) watch(s Store) {
	if n, ok := s.(CommitNotifier); ok {
		h.notified, h.notifier = true, n
	}
}

// changed records the papers a commit wrote.
func (h *facetHolder) changed(ids []NodeID) {
	h.dmu.Lock()
	defer h.dmu.Unlock()
	if !h.tracking {
		return // no index to keep current: it will read everything
	}
	for _, id := range ids {
		if id.Kind() == KindPaper {
			if h.dirty == nil {
				h.dirty = map[NodeID]bool{}
			}
			h.dirty[id] = true
		}
	}
}

// OnIndex registers fn to be told each time the facet index is built or
// brought up to date (logs, metrics).
func (s *Service) OnIndex(fn func(IndexReport)) {
	s.facets.dmu.Lock()
	defer s.facets.dmu.Unlock()
	s.facets.built = fn
}

// PrepareIndex builds the facet index now (kg serve at startup) instead of
// at the first request that needs it.
func (s *Service) PrepareIndex(ctx context.Context) error {
	return s.withIndex(ctx, func(*paperindex.Index) error { return nil })
}

// withIndex runs fn with the current facet index, read-locked.
func (s *Service) withIndex(ctx context.Context, fn func(*paperindex.Index) error) error {
	h := &s.facets
	if err := h.refresh(ctx, s.store); err != nil {
		return err
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	return fn(h.ix)
}

// withIndex runs fn with the facet index, current as of this call.
func (v *View) withIndex(fn func(*paperindex.Index) error) error {
	return v.svc.withIndex(context.Background(), fn)
}

// refresh builds the index or reads again the papers written since.
func (h *facetHolder) refresh(ctx context.Context, st Store) error {
	h.dmu.Lock()
	stale := !h.have || !h.notified || len(h.dirty) > 0
	h.dmu.Unlock()
	if !stale {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	// the changes to read are taken before the snapshot is: a commit after
	// this goes to the next refresh, and reading a paper twice is harmless
	if h.notified { // before the snapshot: every later commit is reported
		h.listen.Do(func() { h.notifier.OnCommit(h.changed) })
	}
	h.dmu.Lock()
	rebuild := h.ix == nil || !h.notified
	dirty := h.dirty
	h.dirty = nil
	h.tracking = true
	report := h.built
	h.dmu.Unlock()
	if !rebuild && len(dirty) == 0 {
		return nil
	}
	start := time.Now()
	restore := func() {
		h.dmu.Lock()
		for id := range dirty {
			if h.dirty == nil {
				h.dirty = map[NodeID]bool{}
			}
			h.dirty[id] = true
		}
		h.dmu.Unlock()
	}
	r, err := st.Read(ctx)
	if err != nil {
		restore()
		return err
	}
	defer r.Close()
	rep := IndexReport{Rebuilt: rebuild}
	if rebuild {
		facts, err := loadFacts(ctx, r)
		if err != nil {
			return err
		}
		h.ix = paperindex.New(facts)
		rep.Read = len(facts)
		h.dmu.Lock()
		h.have = true
		h.dmu.Unlock()
	} else {
		var facts []paperindex.Facts
		var gone []uint64
		for id := range dirty {
			f, ok, err := readFacts(r, id)
			if err != nil {
				restore()
				return err
			}
			if ok {
				facts = append(facts, f)
			} else {
				gone = append(gone, uint64(id))
			}
		}
		h.ix.Update(facts, gone)
		rep.Read = len(dirty)
	}
	rep.Papers, rep.Took = h.ix.Live(), time.Since(start)
	if report != nil {
		report(rep)
	}
	return nil
}

// loadFacts reads every paper with its subjects, concepts and people:
// three passes over the store (nodes, paper out-edges, paper in-edges).
func loadFacts(ctx context.Context, r Reader) ([]paperindex.Facts, error) {
	var facts []paperindex.Facts
	at := map[NodeID]int{}
	if err := r.KindNodes(KindPaper, func(n Node) bool {
		at[n.ID] = len(facts)
		facts = append(facts, nodeFacts(&n))
		return ctx.Err() == nil
	}); err != nil {
		return nil, err
	}
	for _, dir := range []Direction{Out, In} {
		if err := r.KindAllEdges(KindPaper, dir, func(p NodeID, t EdgeType, o NodeID, w float64) bool {
			if i, ok := at[p]; ok {
				addFact(&facts[i], t, o, w)
			}
			return ctx.Err() == nil
		}); err != nil {
			return nil, err
		}
	}
	return facts, ctx.Err()
}

// readFacts reads one paper's facts; false when it is no longer stored.
func readFacts(r Reader, id NodeID) (paperindex.Facts, bool, error) {
	n, err := r.Node(id)
	if ErrorCode(err) == NotFound {
		return paperindex.Facts{}, false, nil
	} else if err != nil {
		return paperindex.Facts{}, false, err
	}
	f := nodeFacts(&n)
	for _, dir := range []Direction{Out, In} {
		if err := r.AllEdges(id, dir, func(t EdgeType, o NodeID, w float64) bool {
			addFact(&f, t, o, w)
			return true
		}); err != nil {
			return f, false, err
		}
	}
	return f, true, nil
}

func nodeFacts(n *Node) paperindex.Facts {
	return paperindex.Facts{ID: uint64(n.ID), Date: PaperDate(n).packed(), Title: ident.TitleKey(n.Label), Venue: ident.FoldKey(n.Venue), Words: titleWords(n.Label)}
}

// addFact records one of the paper's edges.
func addFact(f *paperindex.Facts, t EdgeType, o NodeID, w float64) {
	switch t {
	case Mentions:
		f.Concepts = append(f.Concepts, uint64(o))
		f.Weights = append(f.Weights, w)
	case InSubject:
		f.Subjects = append(f.Subjects, uint64(o))
	case Authored:
		f.Authors = append(f.Authors, uint64(o))
	}
}
