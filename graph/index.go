// The paper index as graph holds it: built from one pass over the store,
// kept current with the store's commits, and the filters a dashboard sends
// resolved into the Selection it matches (package paperindex has the index
// and the questions).

package graph

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
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
		ix, n, err := loadIndex(ctx, r)
		if err != nil {
			restore()
			return err
		}
		h.ix = ix
		rep.Read = n
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

// loadIndex builds the index of every paper with its subjects, concepts
// and people: three passes over the store (nodes, paper out-edges, paper
// in-edges), each value put in its row as it is read.
func loadIndex(ctx context.Context, r Reader) (*paperindex.Index, int, error) {
	b := paperindex.NewBuilder(0)
	n := 0
	if err := r.KindNodes(KindPaper, func(p Node) bool {
		f := nodeFacts(&p)
		b.Paper(&f)
		n++
		return ctx.Err() == nil
	}); err != nil {
		return nil, 0, err
	}
	for _, dir := range []Direction{Out, In} {
		if err := r.KindAllEdges(KindPaper, dir, func(p NodeID, t EdgeType, o NodeID, w float64) bool {
			if d, ok := factDim(t); ok {
				b.Add(uint64(p), d, uint64(o), w)
			}
			return ctx.Err() == nil
		}); err != nil {
			return nil, 0, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	return b.Build(), n, nil
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

// factDim is the index's dimension of a paper's edge of type t.
func factDim(t EdgeType) (int, bool) {
	switch t {
	case Mentions:
		return paperindex.Concept, true
	case InSubject:
		return paperindex.Subject, true
	case Authored:
		return paperindex.Author, true
	}
	return 0, false
}

// addFact records one of the paper's edges.
func addFact(f *paperindex.Facts, t EdgeType, o NodeID, w float64) {
	d, ok := factDim(t)
	if !ok {
		return
	}
	switch d {
	case paperindex.Concept:
		f.Concepts = append(f.Concepts, uint64(o))
		f.Weights = append(f.Weights, w)
	case paperindex.Subject:
		f.Subjects = append(f.Subjects, uint64(o))
	case paperindex.Author:
		f.Authors = append(f.Authors, uint64(o))
	}
}

// PaperFilter selects papers. Fields combine with AND, the values of a list
// with OR; an empty filter selects every paper.
type PaperFilter struct {
	Subjects []string // subject codes ("cs.LG")
	Concepts []string // concept names or aliases, resolved as ConceptByName
	Authors  []NodeID // people
	// YearFrom and YearTo bound the year (0: open).
	YearFrom, YearTo int
	// MonthFrom and MonthTo bound the month ("YYYY-MM"; "": open); a
	// paper whose month is unknown matches no month bound.
	MonthFrom, MonthTo string
}

// MaxFilterValues bounds the values of one list of a filter.
const MaxFilterValues = 100

// Empty reports whether the filter selects every paper.
func (f *PaperFilter) Empty() bool {
	return f == nil || len(f.Subjects)+len(f.Concepts)+len(f.Authors) == 0 &&
		f.YearFrom == 0 && f.YearTo == 0 && f.MonthFrom == "" && f.MonthTo == ""
}

// Selection is a filter resolved to nodes (View.Select; nil selects
// every paper), as the paper index matches it (paperindex.Selection).
type Selection struct{ q paperindex.Selection }

// selectAll matches every paper.
func selectAll() *Selection { return &Selection{paperindex.Everything()} }

// dimOf is the paper index's dimension of a kind's nodes.
func dimOf(k Kind) (int, bool) {
	switch k {
	case KindSubject:
		return paperindex.Subject, true
	case KindAuthor:
		return paperindex.Author, true
	case KindConcept:
		return paperindex.Concept, true
	}
	return 0, false
}

// dimKinds are the node kinds of the index's dimensions.
var dimKinds = [paperindex.NumDims]Kind{KindSubject, KindAuthor, KindConcept}

// orAll is s, or every paper when s is nil: the View methods that take a
// selection take nil for "no filter".
func (s *Selection) orAll() *Selection {
	if s == nil {
		return selectAll()
	}
	return s
}

// with adds the condition "has node id" (a person's, a subject's or a
// concept's own papers); a node of a kind without papers matches none.
func (s *Selection) with(id NodeID) *Selection {
	d, ok := dimOf(id.Kind())
	if !ok {
		out := s.q
		out.None = true
		return &Selection{out}
	}
	return &Selection{s.q.With(d, uint64(id))}
}

// nodeIDs are the index's ids as nodes.
func nodeIDs(ids []uint64) []NodeID {
	if ids == nil {
		return nil
	}
	out := make([]NodeID, len(ids))
	for i, id := range ids {
		out[i] = NodeID(id)
	}
	return out
}

// Select resolves a filter: names to nodes, months to dates. An unknown
// subject, concept or person, a malformed month, or bounds the wrong way
// round are Invalid errors naming them.
func (v *View) Select(f *PaperFilter) (*Selection, error) {
	s := selectAll()
	if f == nil {
		return s, nil
	}
	for _, l := range []struct {
		name string
		n    int
	}{{"subjects", len(f.Subjects)}, {"concepts", len(f.Concepts)}, {"authors", len(f.Authors)}} {
		if l.n > MaxFilterValues {
			return nil, Errorf(Invalid, "filter.%s: %d values; at most %d", l.name, l.n, MaxFilterValues)
		}
	}
	for _, code := range f.Subjects {
		n, err := v.SubjectByCode(code)
		if ErrorCode(err) == NotFound {
			return nil, Errorf(Invalid, "filter.subjects: unknown subject %q", ident.Clip(code, 64))
		} else if err != nil {
			return nil, err
		}
		s.q.Any[paperindex.Subject] = appendNew(s.q.Any[paperindex.Subject], n.ID)
	}
	for _, name := range f.Concepts {
		n, err := v.ConceptByName(name)
		if ErrorCode(err) == NotFound {
			return nil, Errorf(Invalid, "filter.concepts: unknown concept %q", ident.Clip(name, 64))
		} else if err != nil {
			return nil, err
		}
		s.q.Any[paperindex.Concept] = appendNew(s.q.Any[paperindex.Concept], n.ID)
	}
	for _, id := range f.Authors {
		if id.Kind() != KindAuthor {
			return nil, Errorf(Invalid, "filter.authors: %s is not a person", id)
		}
		if _, err := v.Node(id); ErrorCode(err) == NotFound {
			return nil, Errorf(Invalid, "filter.authors: unknown person %s", id)
		} else if err != nil {
			return nil, err
		}
		s.q.Any[paperindex.Author] = appendNew(s.q.Any[paperindex.Author], id)
	}
	if f.YearFrom < 0 || f.YearTo < 0 || f.YearFrom > 9999 || f.YearTo > 9999 {
		return nil, Errorf(Invalid, "filter: years must be between 1 and 9999")
	}
	if f.YearFrom != 0 && f.YearTo != 0 && f.YearFrom > f.YearTo {
		return nil, Errorf(Invalid, "filter: yearFrom %d is after yearTo %d", f.YearFrom, f.YearTo)
	}
	if f.YearFrom != 0 {
		s.q.Lo = Date{Year: f.YearFrom}.packed()
	}
	if f.YearTo != 0 {
		s.q.Hi = Date{Year: f.YearTo, Month: 15, Day: 31}.packed()
	}
	var from, to Date
	if f.MonthFrom != "" {
		d, err := ParseMonth(f.MonthFrom)
		if err != nil {
			return nil, Errorf(Invalid, "filter.monthFrom: %v", err)
		}
		from, s.q.NeedMonth = d, true
		s.q.Lo = max(s.q.Lo, d.packed())
	}
	if f.MonthTo != "" {
		d, err := ParseMonth(f.MonthTo)
		if err != nil {
			return nil, Errorf(Invalid, "filter.monthTo: %v", err)
		}
		to, s.q.NeedMonth = d, true
		s.q.Hi = min(s.q.Hi, Date{Year: d.Year, Month: d.Month, Day: 31}.packed())
	}
	if from.Year != 0 && to.Year != 0 && from.monthIndex() > to.monthIndex() {
		return nil, Errorf(Invalid, "filter: monthFrom %s is after monthTo %s", from.MonthString(), to.MonthString())
	}
	return s, nil
}

func appendNew(s []uint64, id NodeID) []uint64 {
	if slices.Contains(s, uint64(id)) {
		return s
	}
	return append(s, uint64(id))
}

// describe renders a selection for errors and logs.
func (s *Selection) String() string {
	var parts []string
	for d, vs := range s.q.Any {
		if vs != nil {
			parts = append(parts, fmt.Sprintf("%s in %v", dimKinds[d], nodeIDs(vs)))
		}
	}
	var with []NodeID
	for _, vs := range s.q.All {
		with = append(with, nodeIDs(vs)...)
	}
	if len(with) > 0 {
		parts = append(parts, fmt.Sprintf("with %v", with))
	}
	if s.q.None {
		parts = append(parts, "nothing")
	}
	if s.q.Lo != 0 || s.q.Hi != math.MaxUint32 {
		parts = append(parts, fmt.Sprintf("dated %s..%s", unpackDate(s.q.Lo), unpackDate(min(s.q.Hi, Date{9999, 12, 31}.packed()))))
	}
	return strings.Join(parts, ", ")
}

// ScanEstimate bounds the papers answering a question over a filter
// reads: the papers of its shortest list (a list's nodes' papers summed),
// or every paper when it names no subject, concept or person. It reads
// stored counters only (no index), for pricing a query before it runs; a
// filter that does not resolve counts as nothing (the query will fail on
// it).
func (v *View) ScanEstimate(f *PaperFilter) (int, error) {
	all, err := v.r.Counter(cntPapers)
	if err != nil {
		return 0, err
	}
	s, err := v.Select(f)
	if ErrorCode(err) == Invalid {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	best := int(all)
	for _, ids := range s.q.Any {
		if ids == nil {
			continue
		}
		n := 0
		for _, id := range ids {
			c, err := v.PaperCount(NodeID(id))
			if err != nil {
				return 0, err
			}
			n += c
		}
		best = min(best, n)
	}
	return best, nil
}
