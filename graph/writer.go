// The writer: how one prepared record becomes nodes, edges, list entries and
// counters inside a transaction.

package graph

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/people"
)

// writer applies prepared records inside one transaction.
type writer struct {
	tx       Tx
	svc      *Service
	source   string
	res      IngestResult
	counts   map[string]int64
	analyses map[string]TextAnalysis // extractor cache (see analyze)
	df       map[string]int64        // document frequencies written in this transaction

	paper      NodeID          // the paper whose concepts are being written
	vocab      *vocabulary     // the store's concept-key filter (useVocabulary)
	err        error           // a store error met where none could be returned (resolve, txStats)
	deferLinks bool            // recompute: concepts are created now, papers linked in a later pass
	tally      voteTally       // recompute: votes are collected, concepts made after the pass
	fresh      map[NodeID]bool // authors created in this transaction
	marked     map[string]bool // names marked for clustering in this transaction
	profMarked map[NodeID]bool // a settle's persons whose profile mark it has written (markProfile)
	live       map[NodeID]bool // a settle's concepts known to exist, shared by its transactions (existing)
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
	tk := ident.TitleKey(p.Label)
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
			if err := tx.DeleteValue(ValScanPrint, authorTerm(paper.ID)); err != nil {
				return err // the print of the old text
			}
			textChanged, changed = true, true
		}
		if oldAbs == nil {
			oldAbs = []string{} // counted before, with no abstract
		}
		before := paper.Year
		if y := p.rec.Year; y != 0 && before != 0 && y != before {
			w.res.Warnings = append(w.res.Warnings, fmt.Sprintf("%s:%d: year %d differs from %d already recorded for %q; kept %d",
				w.source, p.rec.Line, y, before, ident.Clip(paper.Label, 60), before))
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
	if textChanged {
		if err := w.paperWords(&paper, p, abs); err != nil {
			return err
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
		name, ok := ident.SubjectName(code)
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
			key := authorInfoKey(paper.ID, ident.NameKey(p.authors[i]))
			if _, err := tx.Value(ValAuthorInfo, key); ErrorCode(err) == NotFound {
				w.count(cntAuthorInfo, 1)
				if err := w.markBlock(ident.NameKey(p.authors[i])); err != nil { // new evidence
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

// paperWords stores the content words of a paper's text (ValWords), which
// clustering compares a name's papers by: a paper's words were read and
// tokenised again for each of its names at every settle (a third of the
// people settle's time on the arXiv file). The pipeline's workers made them
// for the record's own text; a paper that merges another abstract has them
// made here.
func (w *writer) paperWords(n *Node, p *prepared, abs []string) error {
	words := p.words
	if n.Label != p.title || !slices.Equal(abs, []string{p.abstract}) { // another title or abstract
		words = people.EvidenceWords(n.Label, abs)
	}
	return w.tx.PutValue(ValWords, authorTerm(n.ID), []byte(strings.Join(words, " ")))
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
	n := Node{ID: id, Label: p.title, Year: p.rec.Year, Date: p.date, Sources: []string{w.source},
		ArXivID: p.arxiv, DOI: p.doi, Venue: ident.CleanText(p.rec.Venue)}
	if raw := ident.CleanText(p.rec.Title); raw != p.title {
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
		n.Venue, nodeChanged = ident.CleanText(p.rec.Venue), true
	}
	if !slices.Contains(n.Sources, source) {
		n.Sources = append(n.Sources, source)
		nodeChanged = true
	}
	if n.Year == 0 && p.rec.Year != 0 {
		n.Year = p.rec.Year
		nodeChanged = true
	}
	if d := mergeDate(n.Date, p.date); d != n.Date && strings.HasPrefix(d, fmt.Sprintf("%04d", n.Year)) {
		n.Date, nodeChanged = d, true
	}
	if raw := ident.CleanText(p.rec.Title); raw != n.Label && !slices.Contains(n.Aliases, raw) {
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
	for _, t := range ident.Tokens(text) {
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
