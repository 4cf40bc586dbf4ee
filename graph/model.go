// The domain's types: nodes, edges, records and documents, the storage
// interface graph needs (Store, Reader, Tx), and the error codes callers map
// to a protocol.

package graph

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// Node is a stored node. One struct serves every kind; which fields are set
// depends on the kind (see the field comments). Label is what a person reads:
// a paper's title, an author's name, a subject's code, a concept's canonical
// name, a repository's URL, an organisation's name.
type Node struct {
	ID      NodeID   `json:"-"`
	Label   string   `json:"l"`
	Name    string   `json:"n,omitempty"`   // subject: official name
	Aliases []string `json:"a,omitempty"`   // other spellings: paper titles, author names, concept aliases
	Year    int      `json:"y,omitempty"`   // paper
	Date    string   `json:"d,omitempty"`   // paper: first version's date as precise as its sources gave it ("2025-07-14", "2025-07"); PaperDate
	Sources []string `json:"s,omitempty"`   // paper: every source document it was read from
	ArXivID string   `json:"ax,omitempty"`  // paper: arXiv id without version
	DOI     string   `json:"doi,omitempty"` // paper: DOI, lower case
	Venue   string   `json:"v,omitempty"`   // paper: journal reference or venue
	// Terms is the version of the term extractor whose candidates this
	// paper's text is counted with in the document frequencies ("" = none).
	Terms string `json:"t,omitempty"`
	// CoOccurs are the concepts of this paper counted in co-occurrence
	// pairs (its best-weighted ones when last counted: settleCoOccurrence).
	CoOccurs []NodeID `json:"co,omitempty"`
}

// A paper's abstracts are kept apart from its node (Reader.Abstracts): they
// are most of its bytes and most reads (lists, co-authors, related work)
// need only the title and year.

// Kind returns the node's kind.
func (n *Node) Kind() Kind { return n.ID.Kind() }

// Record is one paper as a reader parsed it, before identity is resolved.
// Text fields are as written in the source (LaTeX and all); ingest renders
// and normalises them.
type Record struct {
	Title    string
	Abstract string
	Year     int      // 0 when unknown
	Date     string   // first version's date as the source gives it: "YYYY-MM-DD", "YYYY-MM" or ""; prepare adds an arXiv id's month
	Authors  []string // as written
	// AuthorInfo is parallel to Authors when the source says more about
	// an author than the name (ORCID iD, affiliation, e-mail); nil when not.
	AuthorInfo []AuthorInfo
	Subjects   []string // arXiv category codes, primary first
	Line       int      // line in the source document where the record starts
	ArXivID    string   // e.g. "2503.01234" or "hep-th/9901001", any version suffix
	DOI        string
	Venue      string // journal reference or venue as written
}

// Document is one parsed input document: everything in it is committed
// atomically or not at all.
type Document struct {
	Source   string // file path or other name shown in provenance and errors
	Format   string // reader that parsed it, e.g. "profile", "subjects"
	Records  []Record
	Warnings []string // non-fatal oddities the reader noticed
}

// Term is a key term a TermExtractor found in a paper's text.
type Term struct {
	Name    string   // canonical form, e.g. "reinforcement learning"
	Aliases []string // other forms seen, e.g. "RL"
	Score   float64  // relevance to the paper, in (0, 1]
	// Introduced: the text introduces the term: an acronym of its title
	// (or whose long form is in the title), or the named method before the
	// title's colon.
	Introduced bool
	// Single: one common word, neither an acronym nor a name ("skill",
	// not "RL" or "Trace2Skill"); concepts need more support for these.
	Single bool
	// Count is how many times the text uses it (whole or inside longer
	// phrases, title included).
	Count int
	// Fragment: only a piece of a longer term in this text ("large
	// language" of "large language model"); listed last, never a concept.
	Fragment bool
}

// Concept is what linking needs to know of a concept node.
type Concept struct {
	ID   NodeID
	Key  string // ConceptKey of its name
	Name string
}

// Link is a paper's mention of a concept.
type Link struct {
	Concept NodeID
	// Weight is the concept's score as a key term of the paper, relative
	// to the paper's best key term: in (0, 1].
	Weight float64
}

// TermExtractor finds the key terms of a paper in two steps: Analyze does the
// costly part (tagging, candidates) once per text; the TextAnalysis ranks
// them against corpus statistics. Implementations must be safe for
// concurrent use and deterministic.
type TermExtractor interface {
	Analyze(title, text string) TextAnalysis
	// ScanMentions finds, in a text, the spans whose key is one of keys
	// (ConceptKey) or, for acronyms as written, one of acronyms, as
	// TextAnalysis finds mentions but without tagging (fast enough to scan
	// every stored paper), and calls fn with each and how many times the
	// text has it.
	ScanMentions(title, text string, keys, acronyms map[string]bool, fn func(key string, acronym bool, count int))
	// TermLike reports whether a name could be a term of a paper (no
	// generic words alone, no evaluative opener): checked before a concept
	// is made from a name no paper voted for (a broader concept).
	TermLike(name string) bool
	// Opened reports whether a name opens with an evaluative or dependent
	// word ("state-of-the-art model", from papers that write "SOTA
	// models"): no term, whoever voted for it.
	Opened(name string) bool
	// Version names the extractor's behaviour; document frequencies counted
	// by another version are recomputed, not mixed (kg recompute).
	Version() string
}

// ScanPrinter is a TermExtractor whose scans leave a print of each text
// (nlp.Extractor): a small Bloom filter of what ScanMentions can find in
// it. A settle reads and scans only the texts whose print may say the
// concepts it looks for, so adding papers to a large store does not scan
// every earlier text again (rescanPlan).
type ScanPrinter interface {
	// ScanMentionsPrint is ScanMentions that also returns the text's print.
	ScanMentionsPrint(title, text string, keys, acronyms map[string]bool, fn func(key string, acronym bool, count int)) []byte
	// ScanFilter compiles concept names and acronyms into a test that is
	// false only when the print's text says none of them.
	ScanFilter(names, acronyms []string) func(print []byte) bool
	// ScanPrintCurrent reports whether a print was made by this extractor.
	ScanPrintCurrent(print []byte) bool
}

// TextAnalysis is one text's candidate terms and the spans of it that may
// name a concept.
type TextAnalysis interface {
	// Keys are the candidates' identity keys (ConceptKey), counted in
	// document frequencies.
	Keys() []string
	// Ranked scores the candidates against corpus statistics (nil: none).
	Ranked(stats CorpusStats) Ranking
	// Definitions are the acronyms the text defines.
	Definitions() []Definition
}

// Definition is an acronym a text defines: "RL" for "reinforcement
// learning".
type Definition struct {
	Short string // the acronym, singular
	Name  string // the long form as a concept name
}

// Ranking is a text's terms scored against corpus statistics.
type Ranking interface {
	// Top returns the best n key terms, best first.
	Top(n int) []Term
	// Link returns the concepts the text mentions, in any surface form,
	// best first: resolve says which concept a span of the text names
	// (key is the span's ConceptKey, or an acronym as written when
	// acronym is true).
	Link(resolve func(key string, acronym bool) (Concept, bool)) []Link
	// Uses returns every candidate term's key with the weight a link to it
	// would have.
	Uses() []Use
}

// Use is a text's use of a candidate term.
type Use struct {
	Key    string
	Weight float64 // as Link.Weight
}

// CorpusStats is what ranking needs to know about the rest of the corpus.
type CorpusStats interface {
	// Docs is the number of documents counted.
	Docs() int
	// DocFreq is the number of documents with a candidate of this key.
	DocFreq(key string) int
	// Acronym returns the long form an acronym stands for elsewhere in the
	// corpus ("RL" → "reinforcement learning").
	Acronym(short string) (name string, ok bool)
}

// Store is the storage the graph needs. The Badger implementation is in
// package store.
type Store interface {
	// Update runs fn in one atomic read-write transaction: when fn fails,
	// nothing it wrote is kept. Updates run one at a time.
	Update(ctx context.Context, fn func(tx Tx) error) error
	// Read opens a consistent read-only snapshot. The caller must Close it.
	Read(ctx context.Context) (Reader, error)
	// DropCounters deletes every counter whose name starts with prefix, in
	// bulk and outside any transaction (used to rebuild statistics).
	DropCounters(prefix string) error
	// DropTerms deletes every entry of a search-index namespace, likewise.
	DropTerms(ns Index) error
}

// DryRunner is a Store that can keep every later write in memory instead
// of storing it (kg ingest --dry-run).
type DryRunner interface {
	DryRun()
}

// Reader reads one consistent snapshot of the graph. Iteration callbacks
// return false to stop early. A Reader is not safe for concurrent use.
type Reader interface {
	// Node loads a node; ErrNotFound when absent.
	Node(id NodeID) (Node, error)
	// Abstracts returns a paper's distinct abstracts, first seen first (nil
	// when it has none).
	Abstracts(id NodeID) ([]string, error)
	// Lookup finds a node by an index key in a namespace (e.g. the
	// title key of a paper); ErrNotFound when absent.
	Lookup(ns Index, key string) (NodeID, error)
	// Lookups visits every key of a lookup namespace and its node, in key
	// order (keys as stored: clipped to the store's key limit).
	Lookups(ns Index, fn func(key string, id NodeID) bool) error
	// Edges visits the edges of one type at id, outgoing or incoming, in id
	// order.
	Edges(id NodeID, t EdgeType, dir Direction, fn func(other NodeID, weight float64) bool) error
	// EdgesOf visits the edges of one type at each of ids, as Edges does,
	// in one read of the store (a page of papers' authors); fn gets the
	// index in ids of the node at hand, and false ends that node's edges.
	EdgesOf(ids []NodeID, t EdgeType, dir Direction, fn func(i int, other NodeID, weight float64) bool) error
	// AllEdges visits every stored edge at id in one direction, grouped by
	// type in type order, then by id.
	AllEdges(id NodeID, dir Direction, fn func(t EdgeType, other NodeID, weight float64) bool) error
	// Edge reports whether the edge src -t-> dst exists, and its weight.
	Edge(src NodeID, t EdgeType, dst NodeID) (weight float64, ok bool, err error)
	// List visits the ordered paper list of owner for edge type t, starting
	// after the given sort key (nil: from the start).
	List(owner NodeID, t EdgeType, after []byte, fn func(sortKey []byte) bool) error
	// Pairs visits the derived pair counters of a (co-authors, co-occurring
	// concepts) in id order.
	Pairs(t EdgeType, a NodeID, fn func(b NodeID, n int64) bool) error
	// Pair returns one pair counter (0 when absent).
	Pair(t EdgeType, a, b NodeID) (int64, error)
	// AllPairs visits every pair counter of a type once (a < b), in id
	// order: one pass over the store, for whole-graph recounts.
	AllPairs(t EdgeType, fn func(a, b NodeID, n int64) bool) error
	// KindEdges visits every edge of type t from a node of kind k, by
	// source then target id: one pass over the store, for whole-graph
	// recounts.
	KindEdges(k Kind, t EdgeType, fn func(src, dst NodeID, weight float64) bool) error
	// KindAllEdges visits every stored edge, of any type, at the nodes of
	// kind k in one direction, by node id, then type, then the other id:
	// one pass over the store (the facet index's build).
	KindAllEdges(k Kind, dir Direction, fn func(id NodeID, t EdgeType, other NodeID, weight float64) bool) error
	// KindNodes visits every node of a kind, in id order: one pass.
	KindNodes(k Kind, fn func(Node) bool) error
	// Counter returns a named counter (0 when absent).
	Counter(name string) (int64, error)
	// CounterValues sets out[i] to the counter names[i] (0 when absent):
	// Counter for many names at once, cheaper than one by one.
	CounterValues(names []string, out []int64) error
	// Counters visits the counters whose name starts with prefix, in name
	// order.
	Counters(prefix string, fn func(name string, n int64) bool) error
	// NodeIDs visits the ids of every node of a kind, in id order, starting
	// after the given id (0: from the first).
	NodeIDs(k Kind, after NodeID, fn func(NodeID) bool) error
	// Terms visits the search-index entries of a namespace whose term starts
	// with prefix, in term order.
	Terms(ns Index, prefix string, fn func(term string, id NodeID) bool) error
	// Value returns a stored value (ErrNotFound when absent).
	Value(ns Index, key string) ([]byte, error)
	// Values visits the values of a namespace whose key starts with
	// prefix, in key order.
	Values(ns Index, prefix string, fn func(key string, v []byte) bool) error
	// Close releases the snapshot.
	Close()
}

// CommitNotifier is a Store that reports, after each commit, the nodes
// whose value or edges the commit wrote (edges by the node at either end).
// The facet index follows the store with it (index.go): fn runs on
// the committing goroutine before the commit is reported, so a write is
// seen by the next read; it must be quick.
type CommitNotifier interface {
	OnCommit(fn func(changed []NodeID))
}

// AsyncStore is a Store that can commit one update while the caller builds
// the next: UpdateAsync returns once fn has run and its commit has started;
// committed gets the commit's outcome (at the next update, or in Sync).
type AsyncStore interface {
	Store
	UpdateAsync(ctx context.Context, fn func(tx Tx) error, committed func(error)) error
	Sync() error
}

// PairCount is one count of a node's pairs: with Other, N.
type PairCount struct {
	Other NodeID
	N     int64
}

// Tx is a read-write transaction: reads see its own writes.
type Tx interface {
	Reader
	// Atomic runs fn inside the transaction; when fn fails, the writes it
	// made are undone and the transaction goes on without them.
	Atomic(fn func() error) error
	// Pending reports the writes held so far (distinct keys, bytes), so a
	// caller batching work can commit before the store's limits.
	Pending() (writes, bytes int)
	// NewID allocates a fresh id of a kind.
	NewID(k Kind) (NodeID, error)
	PutNode(n Node) error
	DeleteNode(id NodeID) error
	PutAbstracts(id NodeID, abstracts []string) error
	PutLookup(ns Index, key string, id NodeID) error
	DeleteLookup(ns Index, key string) error
	// PutEdge writes src -t-> dst (and its reverse) with a weight and
	// reports whether the edge is new.
	PutEdge(src NodeID, t EdgeType, dst NodeID, weight float64) (created bool, err error)
	// SetEdge writes src -t-> dst (and its reverse) with a weight without
	// reading it: for a caller that has read the edges of src in this
	// transaction and so knows whether it is new.
	SetEdge(src NodeID, t EdgeType, dst NodeID, weight float64) error
	// DeleteEdge removes the edge and its reverse, reporting whether it existed.
	DeleteEdge(src NodeID, t EdgeType, dst NodeID) (existed bool, err error)
	PutListEntry(owner NodeID, t EdgeType, sortKey []byte) error
	DeleteListEntry(owner NodeID, t EdgeType, sortKey []byte) error
	// AddPair adds delta to the symmetric pair counter of a and b (stored
	// as a→b and b→a) and returns the new value; a counter reaching 0 is
	// deleted.
	AddPair(t EdgeType, a, b NodeID, delta int64) (int64, error)
	// SetPair sets the pair counter of a and b without reading it (n ≤ 0
	// deletes it): for recounts, which know the value.
	SetPair(t EdgeType, a, b NodeID, n int64) error
	// SetPairsOf sets a's side of its pair counters with each of counts
	// (N ≤ 0 deletes one) without reading them: a's row only, read and
	// written once. The other sides are the caller's to set: a recount
	// that changes many pairs sets each row it changes once, where
	// SetPair, pair by pair, read a large row again in every batch.
	SetPairsOf(t EdgeType, a NodeID, counts []PairCount) error
	// AddCounter adds delta to a named counter and returns the new value; a
	// counter reaching 0 is deleted.
	AddCounter(name string, delta int64) (int64, error)
	// SetCounter sets a named counter without reading it (0 deletes it).
	SetCounter(name string, n int64) error
	PutTerm(ns Index, term string, id NodeID) error
	DeleteTerm(ns Index, term string, id NodeID) error
	// PutValue stores a value under a key of a namespace (a person's
	// summary, a name's corrections).
	PutValue(ns Index, key string, v []byte) error
	DeleteValue(ns Index, key string) error
}

// Direction selects outgoing or incoming edges.
type Direction uint8

// Edge directions.
const (
	Out Direction = 1
	In  Direction = 2
)

// Index names a lookup or search-index namespace. Its value is stored in
// keys: never renumber.
type Index uint8

// Lookup namespaces (exact keys → one node) and search namespaces.
const (
	IdxPaperTitle      Index = 1  // ident.TitleKey(title) → paper
	IdxPaperShort      Index = 2  // ident.TitleKey(short name before ":") → paper
	IdxAuthorName      Index = 3  // ident.NameKey(name) → author
	IdxAuthorFold      Index = 4  // ident.FoldKey(name) → author
	IdxSubject         Index = 5  // code → subject
	IdxConcept         Index = 6  // ident.ConceptKey(name or alias, not acronyms) → concept
	IdxRepository      Index = 7  // lower-case "github.com/owner/repo" → repository
	IdxOrganization    Index = 8  // lower-case owner → organization
	IdxSearch          Index = 9  // search tokens: term → node (any kind)
	IdxConceptTail     Index = 10 // word keys of a concept name reversed ("model reward process") → concept, for broader/narrower
	IdxPaperArXiv      Index = 11 // arXiv id without version → paper
	IdxPaperDOI        Index = 12 // lower-case DOI → paper
	IdxBigPaperOf      Index = 13 // author id (hex) → papers of more than BigPaperAuthors authors
	IdxAcronym         Index = 14 // acronym as written, singular ("LLM") → concept
	IdxTermUse         Index = 15 // candidate key + " " + weight ("agentskill 0.42") → paper using it, while no concept has the key
	IdxAcronymDef      Index = 16 // acronym + " " + a long form defined for it ("RL reinforcement learning") → 0
	IdxBackfill        Index = 17 // concept id (hex) → concept, whose earlier users SettleConcepts has yet to link
	IdxRescan          Index = 18 // concept id (hex) → concept, whose earlier users SettleConcepts finds by scanning the texts
	IdxCoDirty         Index = 19 // paper id (hex) → paper whose mentions changed since its co-occurrence pairs were counted
	IdxAcronymOf       Index = 20 // long form key + " " + an acronym defined for it ("reinforcementlearning RL") → 0
	IdxPeople          Index = 21 // NameKey of a name → each person (author node) carrying it
	IdxBlockDirty      Index = 22 // NameKey of a name → 0: names whose papers changed since their people were clustered
	IdxProfileDirty    Index = 23 // author id (hex) → author whose profile (co-author list) is to be rebuilt
	ValProfile         Index = 24 // values: author id (hex) → its profile (profile.go)
	ValCorrections     Index = 25 // values: NameKey of a name → its manual corrections, JSON
	ValAuthorInfo      Index = 26 // values: paper id (hex) + " " + NameKey of an author's name → AuthorInfo JSON (ORCID, affiliation, e-mail)
	ValScanPrint       Index = 27 // values: paper id (hex) → the print of its text (ScanPrinter), made by the first settle that scans it, dropped when its text changes
	ValWords           Index = 28 // values: paper id (hex) → the content words of its title and abstracts (people.EvidenceWords), space-separated, written with its text
	ValPendingMentions Index = 29 // values: paper id (hex) → its links to concepts made since the last settle, with weights (pending.go)
)

// Round3 rounds a weight or score to 3 decimals (half away from zero), as
// every stored weight and every score kg answers is: the one rounding rule.
func Round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// Code classifies an error for callers that must map it to a protocol
// (GraphQL extensions, HTTP status, exit codes).
type Code string

// The error codes.
const (
	NotFound Code = "NOT_FOUND"
	Invalid  Code = "INVALID"
	Conflict Code = "CONFLICT"
	Internal Code = "INTERNAL"
	// DiskFull: the store's disk is nearly full and writes are refused
	// before anything is written; reads go on.
	DiskFull Code = "DISK_FULL"
)

// Error is an error with a Code.
type Error struct {
	Code Code
	Msg  string // the whole message, cause included
	Err  error  // wrapped cause, may be nil
}

func (e *Error) Error() string { return e.Msg }

func (e *Error) Unwrap() error { return e.Err }

// ErrNotFound is returned by lookups that find nothing.
var ErrNotFound = &Error{Code: NotFound, Msg: "not found"}

// Is lets errors.Is(err, ErrNotFound) match any NotFound error, whatever
// its message.
func (e *Error) Is(target error) bool {
	return target == ErrNotFound && e.Code == NotFound
}

// Errorf builds an *Error with a code and a formatted message.
func Errorf(code Code, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &Error{Code: code, Msg: err.Error(), Err: errors.Unwrap(err)}
}

// ErrorCode returns the code of the first *Error in err's chain, or Internal.
func ErrorCode(err error) Code {
	switch e := err.(type) {
	case nil:
		return Internal // without the allocation of errors.As's target
	case *Error:
		return e.Code
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}
