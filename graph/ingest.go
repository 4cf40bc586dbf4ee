// The Service and its ingest: records validated and normalised before any
// store access (the pipeline's workers run it ahead of the writer), written
// by the writer, settled; and the digest that compares two stores' graphs.

package graph

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/people"
)

// Service is the graph's API: ingest and queries over a Store.
type Service struct {
	store Store
	terms TermExtractor // nil: no concepts are extracted
	// settling is held by SettleConcepts, and by Ingest around a document
	// and the settle after it: a settle reads the graph before it writes.
	settling sync.Mutex
	peopleOK atomic.Bool // the store's authors are people (peopleCurrent)
	facets   facetHolder // the in-memory facet index (index.go)
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
	words    []string     // people.EvidenceWords of title and abstract (made by the pipeline's workers, not the writer)
	authors  []string     // readable names
	info     []AuthorInfo // parallel to authors (nil: none)
	subjects []string     // canonical codes
	repos    []repoRef
	arxiv    string // ArXivKey
	doi      string // DOIKey
	date     string // Date.String(): the record's, else its arXiv id's month; "" when unknown
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
	if !mentionsGitHub(text) {
		return nil // most abstracts: the case-folding regexp costs ~30 µs a text
	}
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

// mentionsGitHub reports whether text holds "github.com/" in any case, the
// start of every match of githubRe: a slash preceded by it.
func mentionsGitHub(text string) bool {
	const host = "github.com"
	for i := len(host); i < len(text); i++ {
		j := strings.IndexByte(text[i:], '/')
		if j < 0 {
			return false
		}
		i += j
		if i >= len(host) && strings.EqualFold(text[i-len(host):i], host) {
			return true
		}
	}
	return false
}

func prepare(rec Record) (prepared, []string, error) {
	var warns []string
	p := prepared{rec: rec}
	p.title = ident.LatexToText(rec.Title)
	p.titleKey = ident.TitleKey(rec.Title)
	if p.titleKey == "" {
		return p, nil, fmt.Errorf("record has no title")
	}
	if short, _, ok := strings.Cut(p.title, ":"); ok && len(short) <= 60 {
		if k := ident.FoldRendered(short); k != "" && k != p.titleKey {
			p.shortKey = k
		}
	}
	p.abstract = ident.LatexToText(rec.Abstract)
	p.words = people.EvidenceWords(p.title, []string{p.abstract})
	seen := map[string]bool{}
	for i, a := range rec.Authors {
		name := ident.LatexToText(a)
		k := ident.NameKey(name)
		if k == "" || seen[k] {
			continue
		}
		if !people.HasLetter(name) {
			warns = append(warns, fmt.Sprintf("author %q has no letters; left out", ident.Clip(a, 40)))
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
		code := ident.CanonicalSubject(c)
		if code == "" || seenSub[code] {
			continue
		}
		if !ident.LooksLikeSubject(code) {
			return p, nil, fmt.Errorf("subject %q is not an arXiv category code", ident.Clip(c, 40))
		}
		if _, ok := ident.SubjectName(code); !ok {
			warns = append(warns, fmt.Sprintf("unknown arXiv category %q kept with its code as name", code))
		}
		seenSub[code] = true
		p.subjects = append(p.subjects, code)
	}
	p.repos = extractRepositories(rec.Abstract)
	p.arxiv, p.doi = ident.ArXivKey(rec.ArXivID), ident.DOIKey(rec.DOI)
	if rec.ArXivID != "" && p.arxiv == "" {
		warns = append(warns, fmt.Sprintf("arXiv id %q not understood; ignored", ident.Clip(rec.ArXivID, 40)))
	}
	if rec.DOI != "" && p.doi == "" {
		warns = append(warns, fmt.Sprintf("DOI %q not understood; ignored", ident.Clip(rec.DOI, 60)))
	}
	var warn string
	p.date, p.rec.Year, warn = recordDate(rec, p.arxiv)
	if warn != "" {
		warns = append(warns, warn)
	}
	return p, warns, nil
}

// recordDate is a record's date and year: the date its source gave (which
// sets the year when the source gave none), else the month of its arXiv
// id when that agrees with the year. A date that contradicts the year is
// dropped with a warning.
func recordDate(rec Record, arxiv string) (date string, year int, warn string) {
	year = rec.Year
	if rec.Date != "" {
		d, err := ParseDate(strings.TrimSpace(rec.Date))
		switch {
		case err != nil:
			warn = fmt.Sprintf("date %q not understood; ignored", ident.Clip(rec.Date, 40))
		case year != 0 && d.Year != year:
			warn = fmt.Sprintf("date %s is not in the year %d given; ignored", d, year)
		default:
			return d.String(), d.Year, ""
		}
	}
	if d := ArXivMonth(arxiv); d.Year != 0 && (year == 0 || d.Year == year) {
		return d.String(), d.Year, warn
	}
	return "", year, warn
}

// Digest summarises a graph independently of its ids: counts, and a hash
// over every node (by its natural identity and content), every stored edge
// and every pair counter (by the identities at both ends, with weights).
//
// Two stores hold the same graph exactly when their digests are equal,
// whatever ids ingest gave the nodes: a run interrupted and resumed
// allocates ids in another order (and skips ids it had leased) than one
// clean run, so a checksum over raw keys cannot compare them.
type Digest struct {
	Stats Stats  `json:"stats"`
	Hash  string `json:"sha256"`
}

// Digest computes the graph's digest from one snapshot. It reads the
// whole graph: for tests and operations, not for requests.
func (s *Service) Digest(ctx context.Context) (Digest, error) {
	v, err := s.View(ctx)
	if err != nil {
		return Digest{}, err
	}
	defer v.Close()
	st, err := v.Stats()
	if err != nil {
		return Digest{}, err
	}
	ident := map[NodeID]string{}
	var lines []string
	for k := KindPaper; k <= KindOrganization; k++ {
		var ids []NodeID
		if err := v.r.NodeIDs(k, 0, func(id NodeID) bool { ids = append(ids, id); return true }); err != nil {
			return Digest{}, err
		}
		for _, id := range ids {
			if err := ctx.Err(); err != nil {
				return Digest{}, err
			}
			n, err := v.r.Node(id)
			if err != nil {
				return Digest{}, fmt.Errorf("node %s: %w", id, err)
			}
			ident[id] = nodeIdentity(&n)
			if k == KindAuthor { // people who share a name: by their first paper
				first := ""
				if err := v.r.Edges(id, Authored, Out, func(p NodeID, _ float64) bool {
					if s := ident[p]; first == "" || s < first {
						first = s
					}
					return true
				}); err != nil {
					return Digest{}, err
				}
				ident[id] += "\x00" + first
			}
			abs, err := v.r.Abstracts(id)
			if err != nil {
				return Digest{}, err
			}
			lines = append(lines, "N "+ident[id]+"\x00"+n.Name+"\x00"+strings.Join(n.Aliases, "\x01")+"\x00"+
				strings.Join(n.Sources, "\x01")+"\x00"+n.Venue+"\x00"+n.Terms+"\x00"+strings.Join(abs, "\x01"))
		}
	}
	name := func(id NodeID) string {
		if s, ok := ident[id]; ok {
			return s
		}
		return "missing:" + id.String() // a dangling reference shows up in the hash
	}
	for id := range ident {
		err := v.r.AllEdges(id, Out, func(t EdgeType, o NodeID, w float64) bool {
			lines = append(lines, "E "+ident[id]+"\x00"+t.String()+"\x00"+name(o)+"\x00"+strconv.FormatFloat(w, 'g', -1, 64))
			return true
		})
		if err != nil {
			return Digest{}, err
		}
		for _, t := range []EdgeType{CoAuthor, CoOccurs} {
			err := v.r.Pairs(t, id, func(o NodeID, n int64) bool {
				lines = append(lines, "P "+ident[id]+"\x00"+t.String()+"\x00"+name(o)+"\x00"+strconv.FormatInt(n, 10))
				return true
			})
			if err != nil {
				return Digest{}, err
			}
		}
	}
	slices.Sort(lines)
	h := sha256.New()
	for _, l := range lines {
		h.Write([]byte(l))
		h.Write([]byte{'\n'})
	}
	return Digest{Stats: st, Hash: hex.EncodeToString(h.Sum(nil))}, nil
}

// nodeIdentity is what makes a node itself, without its id.
func nodeIdentity(n *Node) string {
	return n.ID.Kind().String() + "\x00" + n.Label + "\x00" + strconv.Itoa(n.Year) + "\x00" + n.ArXivID + "\x00" + n.DOI
}
