package graph

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/people"
)

// People in the store. Every author node is a person: a cluster of the
// papers of one name (its block, keyed by NameKey). Ingest puts a paper
// with the name's most prolific person and marks the name (IdxBlockDirty);
// SettlePeople, at the end of every ingest, clusters each marked name
// again from all its papers (ClusterPeople) and moves the papers whose
// person changed, with their co-author pairs, list entries and counters, in
// the transaction that clears the mark. The partition is a function of
// the name's papers, so it does not depend on the order they came in.

// paperIdentity is a paper's order-independent identity: what makes it
// itself whatever id it was given (corrections and clustering use it).
// The title key alone is not an identity (two papers can share a title):
// the year goes with it.
func paperIdentity(n *Node) string {
	for _, k := range paperKeys(n.ArXivID, n.DOI, ident.TitleKey(n.Label)) {
		switch {
		case k.key == "":
		case k.ns == IdxPaperArXiv:
			return "arxiv:" + k.key
		case k.ns == IdxPaperDOI:
			return "doi:" + k.key
		default:
			return "title:" + k.key + " " + strconv.Itoa(n.Year)
		}
	}
	return "title: " + strconv.Itoa(n.Year)
}

// markBlock marks a name for clustering at the next settle (once per
// transaction).
func (w *writer) markBlock(block string) error {
	if w.marked[block] {
		return nil
	}
	if w.marked == nil || len(w.marked) > 100_000 {
		w.marked = map[string]bool{}
	}
	w.marked[block] = true
	return w.tx.PutTerm(IdxBlockDirty, block, 0)
}

// blockOf returns the name (NameKey) of a person, remembered for the
// transaction.
func (w *writer) blockOf(a NodeID) (string, error) {
	if b, ok := w.blocks[a]; ok {
		return b, nil
	}
	n, err := w.tx.Node(a)
	if err != nil {
		return "", err
	}
	w.knowBlock(a, ident.NameKey(n.Label))
	return w.blocks[a], nil
}

func (w *writer) knowBlock(a NodeID, block string) {
	if w.blocks == nil || len(w.blocks) > 100_000 {
		w.blocks = map[NodeID]string{}
	}
	w.blocks[a] = block
}

// markProfile drops a person's profile, to be rebuilt at the next settle;
// until then queries compute it from the pair counters.
//
// A settle that reclusters names marks a co-author again for every paper
// moved between people of another name, in every transaction: 503,081
// marks (and as many profile deletes) for 141,985 people on the arXiv
// file, a fifth of the settle's writes. It writes each mark once
// (w.profMarked, shared by its transactions): a later transaction commits
// only after the earlier ones did (the store refuses it otherwise), and
// nothing removes a mark before the profiles are rebuilt, after the
// clustering.
func (w *writer) markProfile(a NodeID) error {
	if w.profMarked[a] {
		return nil
	}
	if err := w.tx.DeleteValue(ValProfile, authorTerm(a)); err != nil {
		return err
	}
	if w.profMarked != nil {
		w.profMarked[a] = true
	}
	return w.tx.PutTerm(IdxProfileDirty, authorTerm(a), a)
}

// markPaperPeople marks what a change to a paper (an author, an abstract,
// a subject, a year) changes for its authors: their profiles, rebuilt at
// the next settle (one mark on the paper: a paper of 3,303 authors would
// otherwise make 6,606 writes), and the clustering of their names, whose
// evidence the paper is. Authors created in this transaction have neither
// a profile nor other papers yet.
func (w *writer) markPaperPeople(paper NodeID, authors []NodeID) error {
	for _, a := range authors {
		if w.fresh[a] {
			continue
		}
		if err := w.tx.DeleteValue(ValProfile, authorTerm(a)); err != nil {
			return err
		}
		b, err := w.blockOf(a)
		if err != nil {
			return err
		}
		if err := w.markBlock(b); err != nil {
			return err
		}
	}
	return w.tx.PutTerm(IdxProfileDirty, authorTerm(paper), paper)
}

// peopleOf returns the persons who carry a name, in id order.
func peopleOf(r Reader, block string) ([]NodeID, error) {
	var out []NodeID
	err := r.Terms(IdxPeople, block, func(term string, id NodeID) bool {
		if term == block {
			out = append(out, id)
		}
		return true
	})
	return out, err
}

// SettlePeople clusters again the names whose papers changed, then
// rebuilds the profiles of the persons whose co-authors changed. Ingest
// calls it at the end; it is safe to run at any time, and what an
// interrupted run left is done by the next.
func (s *Service) SettlePeople(ctx context.Context) error {
	s.settling.Lock()
	defer s.settling.Unlock()
	return s.settlePeople(ctx)
}

func (s *Service) settlePeople(ctx context.Context) error {
	var blocks []string
	var dirty []NodeID
	if err := s.read(ctx, func(r Reader) error {
		if err := r.Terms(IdxBlockDirty, "", func(term string, _ NodeID) bool {
			blocks = append(blocks, term)
			return true
		}); err != nil {
			return err
		}
		return nil
	}); err != nil {
		return err
	}
	if err := s.reclusterBlocks(ctx, blocks); err != nil {
		return err
	}
	// marks on persons, and on papers for all their authors
	var papers []NodeID
	if err := s.read(ctx, func(r Reader) error {
		seen := map[NodeID]bool{}
		var ierr error
		err := r.Terms(IdxProfileDirty, "", func(_ string, id NodeID) bool {
			if id.Kind() != KindPaper {
				if !seen[id] {
					seen[id] = true
					dirty = append(dirty, id)
				}
				return true
			}
			papers = append(papers, id)
			ierr = r.Edges(id, Authored, In, func(a NodeID, _ float64) bool {
				if !seen[a] {
					seen[a] = true
					dirty = append(dirty, a)
				}
				return true
			})
			return ierr == nil
		})
		if err == nil {
			err = ierr
		}
		return err
	}); err != nil {
		return err
	}
	slices.Sort(dirty)
	if err := s.storeProfiles(ctx, dirty); err != nil {
		return err
	}
	if len(papers) == 0 {
		return nil
	}
	// the papers' marks go once their authors' profiles are stored (a
	// settle stopped before leaves them, and the next rebuilds again)
	return s.eachBatch(ctx, len(papers), func(w *writer, i int) error {
		return w.tx.DeleteTerm(IdxProfileDirty, authorTerm(papers[i]), papers[i])
	})
}

// read runs fn on a snapshot.
func (s *Service) read(ctx context.Context, fn func(Reader) error) error {
	r, err := s.store.Read(ctx)
	if err != nil {
		return err
	}
	defer r.Close()
	return fn(r)
}

// peopleCache holds, for one round of a settle, the facts of the round's
// papers (readRound), which the cores share.
type peopleCache struct {
	round    *roundPapers
	withInfo bool // the store holds author info (ValAuthorInfo) at all
}

// personUse is one paper of a name, and the person it is with.
type personUse struct {
	paper  Node
	person NodeID
	pos    float64 // author position (the Authored edge's weight)
	ident  string  // paperIdentity
}

// reclusterRound is how many names one round of a settle plans (reading a
// snapshot, on every core) before it applies their changes.
const reclusterRound = 4096

// foldCacheMax is the size of a generation of the settle's fold keys
// (foldCache): two of them hold at most some 50 MB.
const foldCacheMax = 1 << 19

// reclusterBlocks clusters the people of the given names again: each
// round plans the names on snapshots, one goroutine per core (each name's
// partition depends on its papers alone, and names are independent), then
// applies the changed ones and clears the marks in write transactions.
func (s *Service) reclusterBlocks(ctx context.Context, blocks []string) error {
	if len(blocks) == 0 {
		return nil
	}
	withInfo := false
	if err := s.read(ctx, func(r Reader) error {
		n, err := r.Counter(cntAuthorInfo)
		withInfo = n > 0
		return err
	}); err != nil {
		return err
	}
	workers := runtime.GOMAXPROCS(0)
	caches := make([]*peopleCache, workers)
	codes := make([]map[NodeID]string, workers)
	for i := range caches {
		codes[i] = map[NodeID]string{} // subject codes (a few hundred), kept for the settle
		caches[i] = &peopleCache{withInfo: withInfo}
	}
	marked := map[NodeID]bool{} // profile marks written by this settle (markProfile)
	folds := newFoldCache(foldCacheMax)
	for start := 0; start < len(blocks); start += reclusterRound {
		round := blocks[start:min(start+reclusterRound, len(blocks))]
		plans := make([]*blockPlan, len(round))
		rs, closeReaders, err := s.openReaders(ctx)
		if err != nil {
			return err
		}
		outlines, rp, err := readRound(ctx, rs, codes, folds, round)
		if err == nil {
			err = inChunks(ctx, rs, len(round), func(r Reader, k, i int) error {
				caches[k].round = rp
				p, err := planBlock(r, caches[k], round[i], outlines[i])
				if err != nil {
					return fmt.Errorf("cluster %q: %w", round[i], err)
				}
				plans[i] = p
				return nil
			})
		}
		closeReaders()
		for _, c := range caches {
			c.round = nil
		}
		if err != nil {
			return err
		}
		if err := s.eachBatch(ctx, len(round), func(w *writer, i int) error {
			w.profMarked = marked
			if err := w.tx.DeleteTerm(IdxBlockDirty, round[i], 0); err != nil {
				return err
			}
			if p := plans[i]; p != nil {
				return w.reconcile(p.block, p.persons, p.uses, p.part)
			}
			return nil
		}); err != nil {
			return err
		}
		s.report(StagePeople, start+len(round), len(blocks))
	}
	return nil
}

// readParallel runs fn for 0..n-1 on snapshots, one a core, each reading
// a contiguous chunk (k is the core's number), and returns the first error.
func (s *Service) readParallel(ctx context.Context, n int, fn func(r Reader, k, i int) error) error {
	rs, closeReaders, err := s.openReaders(ctx)
	if err != nil {
		return err
	}
	defer closeReaders()
	return inChunks(ctx, rs, n, fn)
}

// blockPlan is a name's new partition, when it differs from the stored
// people.
type blockPlan struct {
	block   string
	persons []NodeID
	uses    []personUse
	part    []int
}

// planBlock clusters the papers of one name again and returns what must
// change (nil: nothing).
func planBlock(r Reader, c *peopleCache, block string, o nameOutline) (*blockPlan, error) {
	persons := o.persons
	if len(persons) == 0 {
		return nil, nil
	}
	var uses []personUse
	for k, a := range persons {
		for i, p := range o.papers[k] {
			f, ok := c.round.get(p)
			if !ok {
				return nil, fmt.Errorf("paper %s of %s: not read with its round", p, a)
			}
			uses = append(uses, personUse{paper: f.node, person: a, pos: o.pos[k][i], ident: paperIdentity(&f.node)})
		}
	}
	if len(uses) < 2 && len(persons) == 1 {
		return nil, nil
	}
	slices.SortFunc(uses, func(a, b personUse) int {
		return cmp.Or(cmp.Compare(a.ident, b.ident), cmp.Compare(a.paper.ID, b.paper.ID))
	})
	ev := make([]people.Evidence, len(uses))
	for i := range uses {
		var err error
		if ev[i], err = c.evidence(r, &uses[i], block); err != nil {
			return nil, err
		}
	}
	cons, err := corrections(r, block)
	if err != nil {
		return nil, err
	}
	part := people.ClusterPeople(block, ev, people.DefaultPriors(), constraintsOf(cons), func(ev []people.Evidence) {
		for i := range ev {
			c.fillEvidence(&ev[i], &uses[i])
		}
	})
	// unchanged: each cluster is exactly one stored person's papers
	holder := map[int]NodeID{}
	held := map[NodeID]int{}
	same := true
	for i, u := range uses {
		if h, ok := holder[part[i]]; ok && h != u.person {
			same = false
			break
		}
		if c, ok := held[u.person]; ok && c != part[i] {
			same = false
			break
		}
		holder[part[i]], held[u.person] = u.person, part[i]
	}
	if same && len(held) == len(persons) {
		return nil, nil
	}
	return &blockPlan{block: block, persons: persons, uses: uses, part: part}, nil
}

// evidence reads what a paper says about its author of a name: the
// co-authors, and the author's ORCID iD and affiliation when a source gave
// them. Words and subjects are read by fillEvidence, when needed.
func (c *peopleCache) evidence(r Reader, u *personUse, block string) (people.Evidence, error) {
	e := people.Evidence{Paper: u.ident, Year: u.paper.Year}
	f, _ := c.round.get(u.paper.ID)
	// the others' names: the person's own (a fold of the block's) and a
	// namesake's on the same paper are no evidence
	self := ident.FoldKey(block)
	for _, k := range f.names {
		if k != self {
			e.Coauthors = append(e.Coauthors, k)
		}
	}
	if c.withInfo {
		info, err := authorInfo(r, u.paper.ID, block)
		if err != nil {
			return e, err
		}
		e.ORCID, e.Affils = info.ORCID, people.AffiliationWords(info.Affiliation, info.Email)
	}
	return e, nil
}

// fillEvidence gives the evidence of a paper its words and subjects.
func (c *peopleCache) fillEvidence(e *people.Evidence, u *personUse) {
	f, _ := c.round.get(u.paper.ID)
	e.Words = strings.Fields(f.words)
	e.Subjects = f.subjects
}
