package graph

import (
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
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
	return &Service{store: s, terms: terms}
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

// preparedDoc is a document's records validated and normalised for
// writing (no store access: the pipeline's workers do it ahead).
type preparedDoc struct {
	preps []prepared
	res   IngestResult // source, format, records, warnings
	err   error        // the first invalid record
}

func prepareDoc(doc Document) preparedDoc {
	pd := preparedDoc{res: IngestResult{Source: doc.Source, Format: doc.Format, Records: len(doc.Records)}}
	pd.preps = make([]prepared, 0, len(doc.Records))
	for i, rec := range doc.Records {
		p, warns, err := prepare(rec)
		if err != nil {
			line := rec.Line
			if line == 0 {
				line = i + 1
			}
			pd.err = Errorf(Invalid, "%s:%d: %v", doc.Source, line, err)
			return pd
		}
		pd.res.Warnings = append(pd.res.Warnings, prefixAll(fmt.Sprintf("%s:%d: ", doc.Source, rec.Line), warns)...)
		pd.preps = append(pd.preps, p)
	}
	pd.res.Warnings = append(pd.res.Warnings, doc.Warnings...)
	return pd
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

func prefixAll(p string, s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = p + x
	}
	return out
}

// prepared is a record rendered and normalised, ready to write.
type prepared struct {
	rec      Record
	title    string // readable title
	titleKey string
	shortKey string // key of the short name before ":", or ""
	abstract string
	authors  []string     // readable names
	info     []AuthorInfo // parallel to authors (nil: none)
	subjects []string     // canonical codes
	repos    []repoRef
	arxiv    string // ArXivKey
	doi      string // DOIKey
}

// indexKey is a key of a search-index namespace.
type indexKey struct {
	ns  Index
	key string
}

// paperKeys lists the keys a paper is found by, in the order they decide:
// the arXiv id (without version), else the DOI, else the title key. The
// one statement of that order (paperNode, storedText, mergePaper's
// re-indexing, paperIdentity); empty keys are left for the caller to skip.
func paperKeys(arxiv, doi, titleKey string) []indexKey {
	return []indexKey{{IdxPaperArXiv, arxiv}, {IdxPaperDOI, doi}, {IdxPaperTitle, titleKey}}
}

func (p *prepared) identity() []indexKey { return paperKeys(p.arxiv, p.doi, p.titleKey) }

type repoRef struct {
	url, key      string // "https://github.com/Owner/Repo", "github.com/owner/repo"
	owner, orgKey string
}

var githubRe = regexp.MustCompile(`(?i)github\.com/([a-z0-9](?:[a-z0-9-]{0,38}))/([a-z0-9._-]{1,100})`)

// extractRepositories finds GitHub repository links in text, trailing
// punctuation and ".git" removed, each once.
func extractRepositories(text string) []repoRef {
	var out []repoRef
	seen := map[string]bool{}
	for _, m := range githubRe.FindAllStringSubmatch(text, -1) {
		owner, repo := m[1], strings.TrimRight(m[2], ".-_")
		repo = strings.TrimSuffix(repo, ".git")
		if repo == "" || strings.EqualFold(owner, "orgs") || strings.EqualFold(owner, "features") {
			continue
		}
		key := strings.ToLower("github.com/" + owner + "/" + repo)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, repoRef{
			url: "https://github.com/" + owner + "/" + repo, key: key,
			owner: owner, orgKey: strings.ToLower(owner),
		})
	}
	return out
}

func prepare(rec Record) (prepared, []string, error) {
	var warns []string
	p := prepared{rec: rec}
	p.title = LatexToText(rec.Title)
	p.titleKey = TitleKey(rec.Title)
	if p.titleKey == "" {
		return p, nil, fmt.Errorf("record has no title")
	}
	if short, _, ok := strings.Cut(p.title, ":"); ok && len(short) <= 60 {
		if k := foldKey(short); k != "" && k != p.titleKey {
			p.shortKey = k
		}
	}
	p.abstract = LatexToText(rec.Abstract)
	seen := map[string]bool{}
	for i, a := range rec.Authors {
		name := LatexToText(a)
		k := NameKey(name)
		if k == "" || seen[k] {
			continue
		}
		if !hasLetter(name) {
			warns = append(warns, fmt.Sprintf("author %q has no letters; left out", truncate(a, 40)))
			continue
		}
		seen[k] = true
		p.authors = append(p.authors, name)
		if i < len(rec.AuthorInfo) && !rec.AuthorInfo[i].empty() {
			for len(p.info) < len(p.authors)-1 {
				p.info = append(p.info, AuthorInfo{})
			}
			p.info = append(p.info, rec.AuthorInfo[i].clean())
		}
	}
	seenSub := map[string]bool{}
	for _, c := range rec.Subjects {
		code := CanonicalSubject(c)
		if code == "" || seenSub[code] {
			continue
		}
		if !LooksLikeSubject(code) {
			return p, nil, fmt.Errorf("subject %q is not an arXiv category code", truncate(c, 40))
		}
		if _, ok := SubjectName(code); !ok {
			warns = append(warns, fmt.Sprintf("unknown arXiv category %q kept with its code as name", code))
		}
		seenSub[code] = true
		p.subjects = append(p.subjects, code)
	}
	p.repos = extractRepositories(rec.Abstract)
	p.arxiv, p.doi = ArXivKey(rec.ArXivID), DOIKey(rec.DOI)
	if rec.ArXivID != "" && p.arxiv == "" {
		warns = append(warns, fmt.Sprintf("arXiv id %q not understood; ignored", truncate(rec.ArXivID, 40)))
	}
	if rec.DOI != "" && p.doi == "" {
		warns = append(warns, fmt.Sprintf("DOI %q not understood; ignored", truncate(rec.DOI, 60)))
	}
	return p, warns, nil
}

// writer applies prepared records inside one transaction.
type writer struct {
	tx       Tx
	svc      *Service
	source   string
	res      IngestResult
	counts   map[string]int64
	analyses map[string]TextAnalysis // extractor cache (see analyze)
	df       map[string]int64        // document frequencies written in this transaction

	paper      NodeID           // the paper whose concepts are being written
	vocab      *vocabulary      // the store's concept-key filter (useVocabulary)
	err        error            // a store error met where none could be returned (resolve, txStats)
	deferLinks bool             // recompute: concepts are created now, papers linked in a later pass
	tally      voteTally        // recompute: votes are collected, concepts made after the pass
	co         map[coPair]int64 // co-occurrence changes of the transaction (countCoOccurrence)
	fresh      map[NodeID]bool  // authors created in this transaction
	marked     map[string]bool  // names marked for clustering in this transaction
	blocks     map[NodeID]string
}

func (w *writer) count(name string, d int64) {
	if w.counts == nil {
		w.counts = map[string]int64{}
	}
	w.counts[name] += d
}

// PaperSortKey orders a paper in every paper list: newest year first (unknown
// years last), then by title key, then by id so the key is unique:
//
//	0xFFFF-year (2) | TitleKey clipped to 48 bytes | 0x00 | id (8)
func PaperSortKey(p *Node) []byte {
	tk := TitleKey(p.Label)
	if len(tk) > 48 {
		tk = tk[:48]
	}
	y := p.Year
	if y < 0 || y > 0xFFFF {
		y = 0
	}
	k := make([]byte, 0, 2+len(tk)+9)
	k = binary.BigEndian.AppendUint16(k, uint16(0xFFFF-y))
	if y == 0 {
		k[0], k[1] = 0xFF, 0xFF
	}
	k = append(k, tk...)
	k = append(k, 0)
	return binary.BigEndian.AppendUint64(k, uint64(p.ID))
}

// paperFromSortKey returns the paper id at the end of a sort key.
func paperFromSortKey(k []byte) (NodeID, bool) {
	if len(k) < 11 || k[len(k)-9] != 0 {
		return 0, false
	}
	id := NodeID(binary.BigEndian.Uint64(k[len(k)-8:]))
	return id, id.Kind() == KindPaper
}

func (w *writer) record(p *prepared) error {
	tx := w.tx
	paper, created, err := w.paperNode(p)
	if err != nil {
		return err
	}
	changed := created
	textChanged := created
	var oldAbs, abs []string // the paper's abstracts before and after this record
	if created && p.abstract != "" {
		abs = []string{p.abstract}
	}
	if !created {
		var err error
		if oldAbs, err = tx.Abstracts(paper.ID); err != nil {
			return err
		}
		abs = oldAbs
		if p.abstract != "" && !slices.Contains(oldAbs, p.abstract) {
			abs = append(slices.Clone(oldAbs), p.abstract)
			if err := tx.PutAbstracts(paper.ID, abs); err != nil {
				return err
			}
			textChanged, changed = true, true
		}
		if oldAbs == nil {
			oldAbs = []string{} // counted before, with no abstract
		}
		before := paper.Year
		if y := p.rec.Year; y != 0 && before != 0 && y != before {
			w.res.Warnings = append(w.res.Warnings, fmt.Sprintf("%s:%d: year %d differs from %d already recorded for %q; kept %d",
				w.source, p.rec.Line, y, before, truncate(paper.Label, 60), before))
		}
		if mergePaper(&paper, p, w.source) {
			for _, k := range paperKeys(paper.ArXivID, paper.DOI, "") { // a merge may bring an arXiv id or a DOI
				if err := w.index(paper.ID, k.ns, k.key); err != nil {
					return err
				}
			}
			old := paper
			old.Year = before
			if err := tx.PutNode(paper); err != nil {
				return err
			}
			if before != paper.Year {
				if err := w.rekeyPaper(&old, &paper); err != nil {
					return err
				}
			}
			changed = true
		}
	}
	sortKey := PaperSortKey(&paper)

	ids, err := w.resolveAuthors(paper.ID, p.authors)
	if err != nil {
		return err
	}
	for pos, a := range ids {
		added, err := w.authorship(a, paper.ID, pos+1, sortKey)
		if err != nil {
			return err
		}
		changed = changed || added
	}
	for pos, code := range p.subjects {
		name, ok := SubjectName(code)
		if !ok {
			name = code
		}
		s, isNew, err := w.named(KindSubject, IdxSubject, code, code, cntSubjects)
		if err != nil {
			return err
		}
		if isNew {
			w.res.SubjectsAdded++
			n, err := tx.Node(s)
			if err != nil {
				return err
			}
			n.Name = name
			if err := tx.PutNode(n); err != nil {
				return err
			}
			if err := w.searchTerms(s, name); err != nil {
				return err
			}
		}
		added, err := w.listEdge(paper.ID, InSubject, s, float64(pos+1), s, sortKey)
		if err != nil {
			return err
		}
		changed = changed || added
	}
	for _, r := range p.repos {
		org, _, err := w.named(KindOrganization, IdxOrganization, r.orgKey, r.owner, cntOrganizations)
		if err != nil {
			return err
		}
		repo, isNew, err := w.named(KindRepository, IdxRepository, r.key, r.url, cntRepositories)
		if err != nil {
			return err
		}
		if isNew {
			w.res.ReposAdded++
		}
		if _, err := w.edge(repo, OwnedBy, org, 0); err != nil {
			return err
		}
		added, err := w.edge(paper.ID, HasCode, repo, 0)
		if err != nil {
			return err
		}
		changed = changed || added
	}
	if textChanged && w.svc.terms != nil {
		if created {
			oldAbs = nil
		}
		if err := w.paperConcepts(&paper, oldAbs, abs, sortKey); err != nil {
			return err
		}
	}
	if changed { // its authors' co-authors, words, subjects or years may have changed
		all, err := paperAuthors(tx, paper.ID)
		if err != nil {
			return err
		}
		if err := w.markPaperPeople(paper.ID, all); err != nil {
			return err
		}
	}
	for i, info := range p.info {
		if !info.empty() {
			key := authorInfoKey(paper.ID, NameKey(p.authors[i]))
			if _, err := tx.Value(ValAuthorInfo, key); ErrorCode(err) == NotFound {
				w.count(cntAuthorInfo, 1)
				if err := w.markBlock(NameKey(p.authors[i])); err != nil { // new evidence
					return err
				}
			} else if err != nil {
				return err
			}
			if err := w.tx.PutValue(ValAuthorInfo, key, info.encode()); err != nil {
				return err
			}
		}
	}
	switch {
	case created:
		w.res.PapersAdded++
	case changed:
		w.res.PapersMerged++
	default:
		w.res.PapersSame++
	}
	return nil
}

// paperNode finds the paper a record describes, or creates it.
//
// Identity: the arXiv id (without version), else the DOI, else the title
// key — a title match is refused when both papers carry different arXiv
// ids, different DOIs or different years (two papers can share a title).
func (w *writer) paperNode(p *prepared) (Node, bool, error) {
	for _, k := range p.identity() {
		if k.key == "" {
			continue
		}
		id, err := w.tx.Lookup(k.ns, k.key)
		if ErrorCode(err) == NotFound {
			continue
		}
		if err != nil {
			return Node{}, false, err
		}
		n, err := w.tx.Node(id)
		if err != nil {
			return Node{}, false, err
		}
		if k.ns == IdxPaperTitle && !sameWork(&n, p) {
			break
		}
		return n, false, nil
	}
	id, err := w.tx.NewID(KindPaper)
	if err != nil {
		return Node{}, false, err
	}
	n := Node{ID: id, Label: p.title, Year: p.rec.Year, Sources: []string{w.source},
		ArXivID: p.arxiv, DOI: p.doi, Venue: CleanText(p.rec.Venue)}
	if raw := CleanText(p.rec.Title); raw != p.title {
		n.Aliases = []string{raw}
	}
	if err := w.tx.PutNode(n); err != nil {
		return n, false, err
	}
	if p.abstract != "" {
		if err := w.tx.PutAbstracts(id, []string{p.abstract}); err != nil {
			return n, false, err
		}
	}
	for _, k := range p.identity() {
		if err := w.index(id, k.ns, k.key); err != nil {
			return n, false, err
		}
	}
	if p.shortKey != "" {
		if err := w.index(id, IdxPaperShort, p.shortKey); err != nil {
			return n, false, err
		}
	}
	if err := w.searchTerms(id, p.title); err != nil {
		return n, false, err
	}
	w.count(cntPapers, 1)
	return n, true, nil
}

// sameWork reports whether a paper found by title may be the record's: no
// conflicting arXiv id, DOI or year.
func sameWork(n *Node, p *prepared) bool {
	return !(p.arxiv != "" && n.ArXivID != "" && p.arxiv != n.ArXivID) &&
		!(p.doi != "" && n.DOI != "" && p.doi != n.DOI) &&
		!(p.rec.Year != 0 && n.Year != 0 && p.rec.Year != n.Year)
}

// mergePaper folds a record into an existing paper node and reports whether
// the node must be rewritten. (Abstracts are merged by the caller; new ids
// are indexed by the caller.)
func mergePaper(n *Node, p *prepared, source string) (nodeChanged bool) {
	if n.ArXivID == "" && p.arxiv != "" {
		n.ArXivID, nodeChanged = p.arxiv, true
	}
	if n.DOI == "" && p.doi != "" {
		n.DOI, nodeChanged = p.doi, true
	}
	if n.Venue == "" && p.rec.Venue != "" {
		n.Venue, nodeChanged = CleanText(p.rec.Venue), true
	}
	if !slices.Contains(n.Sources, source) {
		n.Sources = append(n.Sources, source)
		nodeChanged = true
	}
	if n.Year == 0 && p.rec.Year != 0 {
		n.Year = p.rec.Year
		nodeChanged = true
	}
	if raw := CleanText(p.rec.Title); raw != n.Label && !slices.Contains(n.Aliases, raw) {
		n.Aliases = append(n.Aliases, raw)
		nodeChanged = true
	}
	return nodeChanged
}

// rekeyPaper moves a paper's entries in every paper list after its sort key
// changed (a year learned from a later source).
func (w *writer) rekeyPaper(old, cur *Node) error {
	oldKey, newKey := PaperSortKey(old), PaperSortKey(cur)
	move := func(owner NodeID, t EdgeType) error {
		if err := w.tx.DeleteListEntry(owner, t, oldKey); err != nil {
			return err
		}
		return w.tx.PutListEntry(owner, t, newKey)
	}
	for _, e := range []struct {
		t   EdgeType
		dir Direction
	}{{Authored, In}, {InSubject, Out}, {Mentions, Out}} {
		var owners []NodeID
		if err := w.tx.Edges(cur.ID, e.t, e.dir, func(o NodeID, _ float64) bool { owners = append(owners, o); return true }); err != nil {
			return err
		}
		for _, o := range owners {
			if err := move(o, e.t); err != nil {
				return err
			}
		}
	}
	return nil
}

// named finds a node by its exact key or creates it with a label.
func (w *writer) named(k Kind, ns Index, key, label, counter string) (NodeID, bool, error) {
	id, err := w.tx.Lookup(ns, key)
	if err == nil {
		return id, false, nil
	}
	if ErrorCode(err) != NotFound {
		return 0, false, err
	}
	if id, err = w.tx.NewID(k); err != nil {
		return 0, false, err
	}
	if err := w.tx.PutNode(Node{ID: id, Label: label}); err != nil {
		return 0, false, err
	}
	if err := w.tx.PutLookup(ns, key, id); err != nil {
		return 0, false, err
	}
	w.count(counter, 1)
	return id, true, w.searchTerms(id, label)
}

// index adds a lookup key unless another node already holds it (first wins).
func (w *writer) index(id NodeID, ns Index, key string) error {
	if key == "" {
		return nil
	}
	if _, err := w.tx.Lookup(ns, key); err == nil {
		return nil
	} else if ErrorCode(err) != NotFound {
		return err
	}
	return w.tx.PutLookup(ns, key, id)
}

func (w *writer) searchTerms(id NodeID, text string) error {
	seen := map[string]bool{}
	for _, t := range Tokens(text) {
		if seen[t] {
			continue
		}
		seen[t] = true
		if err := w.tx.PutTerm(IdxSearch, t, id); err != nil {
			return err
		}
	}
	return nil
}

// edge writes a stored edge and counts it when new.
func (w *writer) edge(src NodeID, t EdgeType, dst NodeID, weight float64) (bool, error) {
	created, err := w.tx.PutEdge(src, t, dst, weight)
	if created {
		w.count(cntEdges, 1)
		w.res.EdgesAdded++
	}
	return created, err
}

// listEdge writes an edge whose owner keeps an ordered paper list, keeping
// the first weight it was written with (positions: first source wins).
func (w *writer) listEdge(src NodeID, t EdgeType, dst NodeID, weight float64, owner NodeID, sortKey []byte) (bool, error) {
	if _, ok, err := w.tx.Edge(src, t, dst); err != nil || ok {
		return false, err
	}
	if _, err := w.edge(src, t, dst, weight); err != nil {
		return false, err
	}
	w.count(degreeCounter(owner, t), 1)
	return true, w.tx.PutListEntry(owner, t, sortKey)
}

// authorship adds author → paper and, for each author already on the paper,
// one shared paper to the co-author pair in both directions.
func (w *writer) authorship(a, paper NodeID, pos int, sortKey []byte) (bool, error) {
	if _, ok, err := w.tx.Edge(a, Authored, paper); err != nil || ok {
		return false, err
	}
	var others []NodeID
	if err := w.tx.Edges(paper, Authored, In, func(b NodeID, _ float64) bool {
		others = append(others, b)
		return true
	}); err != nil {
		return false, err
	}
	if _, err := w.listEdge(a, Authored, paper, float64(pos), a, sortKey); err != nil {
		return false, err
	}
	switch n := len(others) + 1; {
	case n <= BigPaperAuthors:
		for _, b := range others {
			if err := w.pair(CoAuthor, a, b, 1); err != nil {
				return false, err
			}
		}
	case n == BigPaperAuthors+1:
		// The paper just became a large collaboration: its pairs leave the
		// counters and it is listed under each author instead.
		for i, b := range others {
			for _, c := range others[i+1:] {
				if err := w.pair(CoAuthor, b, c, -1); err != nil {
					return false, err
				}
			}
			if err := w.tx.PutTerm(IdxBigPaperOf, authorTerm(b), paper); err != nil {
				return false, err
			}
			w.count(bigCounter(b), 1)
		}
		fallthrough
	default:
		if err := w.tx.PutTerm(IdxBigPaperOf, authorTerm(a), paper); err != nil {
			return false, err
		}
		w.count(bigCounter(a), 1)
	}
	return true, nil
}

// BigPaperAuthors is the author count above which a paper's co-author pairs
// are not kept as counters (k authors make k·(k-1)/2 pairs: 37,000 for a
// 274-author paper, more than one transaction holds). Such papers are
// listed under each author, and CoAuthors adds them in at query time, so
// weights stay exact.
const BigPaperAuthors = 100

// authorTerm is the fixed-width index term of an author id (fixed width, so
// a prefix scan for one author never matches another).
func authorTerm(a NodeID) string { return fmt.Sprintf("%016x", uint64(a)) }

// pair moves a symmetric pair counter by delta in both directions and keeps
// the count of distinct pairs.
func (w *writer) pair(t EdgeType, a, b NodeID, delta int64) error {
	n, err := w.tx.AddPair(t, a, b, delta)
	if err != nil {
		return err
	}
	switch {
	case delta > 0 && n == delta:
		w.count(pairCounter(t), 1)
	case delta < 0 && n == 0:
		w.count(pairCounter(t), -1)
	}
	return nil
}
