package graph

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
)

// Service is the graph's API: ingest and queries over a Store.
type Service struct {
	store Store
	terms TermExtractor // nil: no concepts are extracted
	// settling is held by SettleConcepts, and by Ingest around a document
	// and the settle after it: a settle reads the graph before it writes.
	settling sync.Mutex
	peopleOK atomic.Bool // the store's authors are people (peopleCurrent)
	facets   facetHolder // the in-memory facet index (facetload.go)
	progress Progress    // the settle's progress (OnProgress)
}

// DryRun makes every later write of the service stay in memory: ingest
// reports exactly what it would change (later documents see earlier ones)
// and the store is left as it was. The store must support it.
func (s *Service) DryRun() error {
	d, ok := s.store.(DryRunner)
	if !ok {
		return Errorf(Invalid, "this store cannot do a dry run")
	}
	d.DryRun()
	return nil
}

// NewService builds the graph service on a store. terms may be nil.
func NewService(s Store, terms TermExtractor) *Service {
	svc := &Service{store: s, terms: terms}
	svc.facets.watch(s)
	return svc
}

// IngestResult says what ingesting one document changed.
type IngestResult struct {
	Source        string   `json:"source"`
	Format        string   `json:"format"`
	Records       int      `json:"records"`
	PapersAdded   int      `json:"papersAdded"`
	PapersMerged  int      `json:"papersMerged"`    // existing papers that gained something
	PapersSame    int      `json:"papersUnchanged"` // records that changed nothing
	AuthorsAdded  int      `json:"authorsAdded"`
	SubjectsAdded int      `json:"subjectsAdded"`
	ConceptsAdded int      `json:"conceptsAdded"`
	ReposAdded    int      `json:"repositoriesAdded"`
	EdgesAdded    int      `json:"edgesAdded"`
	Warnings      []string `json:"warnings,omitempty"`
}

// Add adds o's counts to r's: the one place results are totalled (kg
// ingest, the ingest mutation). Source, Format and Warnings are left to the
// caller, which bounds warnings its own way.
func (r *IngestResult) Add(o IngestResult) {
	r.Records += o.Records
	r.PapersAdded += o.PapersAdded
	r.PapersMerged += o.PapersMerged
	r.PapersSame += o.PapersSame
	r.AuthorsAdded += o.AuthorsAdded
	r.SubjectsAdded += o.SubjectsAdded
	r.ConceptsAdded += o.ConceptsAdded
	r.ReposAdded += o.ReposAdded
	r.EdgesAdded += o.EdgesAdded
}

// Counter names kept by ingest (see Stats).
const (
	cntPapers        = "papers"
	cntAuthors       = "authors"
	cntSubjects      = "subjects"
	cntConcepts      = "concepts"
	cntRepositories  = "repositories"
	cntOrganizations = "organizations"
	cntEdges         = "edges"
	cntAuthorInfo    = "authorinfo" // authors of papers with an ORCID iD, affiliation or e-mail
	// cntTermWords: the words of the texts the term counts are of (a
	// paper's title and abstracts; termhood compares a corpus of titles
	// alone with shorter passages of English)
	cntTermWords = "termwords"
)

func pairCounter(t EdgeType) string { return "pairs/" + t.String() }

// bigCounter names the count of an author's large collaborations (the
// IdxBigPaperOf entries), so that most profiles need not scan for none.
func bigCounter(a NodeID) string { return "bigp/" + authorTerm(a) }

// peopleCounter names the count of the people who carry a name, kept
// while there are several (reconcile); absent, there is one.
func peopleCounter(block string) string { return "people/" + block }

// degreeCounter names the size of owner's ordered paper list for t.
func degreeCounter(owner NodeID, t EdgeType) string {
	return "deg/" + strconv.FormatUint(uint64(owner), 16) + "/" + strconv.Itoa(int(t))
}

// Ingest writes one parsed document into the graph atomically: either all its
// records land or none do. Ingesting the same document again changes nothing.
//
// Derived weights stay exact under replay because every counter moves only
// when the fact it counts changes inside the same transaction: a co-author
// pair gains one when an authorship edge is created, a co-occurrence pair
// moves by the difference between a paper's old and new concept sets.
func (s *Service) Ingest(ctx context.Context, doc Document) (IngestResult, error) {
	s.settling.Lock()
	defer s.settling.Unlock()
	var res IngestResult
	err := s.store.Update(ctx, func(tx Tx) error {
		var err error
		res, err = s.ingestTx(ctx, tx, doc, map[string]TextAnalysis{}, nil)
		return err
	})
	if err != nil {
		return IngestResult{Source: doc.Source, Format: doc.Format, Records: len(doc.Records)}, err
	}
	return res, s.settle(ctx)
}

// ingestTx writes a document in tx; analyses holds term analyses already
// made (keyed as writer.analyze looks them up). On error the document's
// writes may be partly in tx: run it under tx.Atomic to undo them.
// pd is the document already prepared (nil: prepare it here).
func (s *Service) ingestTx(ctx context.Context, tx Tx, doc Document, analyses map[string]TextAnalysis, pd *preparedDoc) (IngestResult, error) {
	if pd == nil {
		p := prepareDoc(doc)
		pd = &p
	}
	res, preps := pd.res, pd.preps
	if pd.err != nil {
		return res, pd.err
	}
	if !s.peopleOK.Load() { // once current, a store stays so
		if err := peopleCurrent(tx); err != nil {
			return res, err
		}
		s.peopleOK.Store(true)
	}
	done, err := s.writeIn(tx, doc.Source, analyses, func(w *writer) error {
		for i := range preps {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := w.record(&preps[i]); err != nil {
				return fmt.Errorf("%s:%d: %w", doc.Source, preps[i].rec.Line, err)
			}
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	done.Source, done.Format, done.Records = res.Source, res.Format, res.Records
	done.Warnings = append(res.Warnings, done.Warnings...)
	return done, nil
}

// write runs fn with a writer in a transaction of its own.
func (s *Service) write(ctx context.Context, source string, analyses map[string]TextAnalysis, fn func(w *writer) error) (IngestResult, error) {
	var done IngestResult
	err := s.store.Update(ctx, func(tx Tx) error {
		var err error
		done, err = s.writeIn(tx, source, analyses, fn)
		return err
	})
	return done, err
}

// writeIn runs fn with a writer in tx and then moves the global counters
// it kept (once per call, not per record).
func (s *Service) writeIn(tx Tx, source string, analyses map[string]TextAnalysis, fn func(w *writer) error) (IngestResult, error) {
	w := &writer{tx: tx, svc: s, source: source, analyses: analyses, df: map[string]int64{}}
	if err := fn(w); err != nil {
		return w.res, err
	}
	if w.err != nil { // a store error met where no error could be returned (txStats, resolve)
		return w.res, w.err
	}
	return w.res, w.flushCounts()
}

// flushCounts moves the global counters the writer kept.
func (w *writer) flushCounts() error {
	for _, name := range slices.Sorted(maps.Keys(w.counts)) {
		if d := w.counts[name]; d != 0 {
			if _, err := w.tx.AddCounter(name, d); err != nil {
				return err
			}
		}
	}
	w.counts = nil
	return nil
}
