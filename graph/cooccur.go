package graph

// Co-occurrence of concepts: the pairs of each paper's best concepts,
// counted paper by paper as papers change, or recounted whole after a
// large ingest.

import (
	"cmp"
	"context"
	"maps"
	"slices"
)

// coPair is a co-occurrence pair, a < b.
type coPair struct{ a, b NodeID }

// compare orders pairs by a, then b: the order of the pair keys.
func (x coPair) compare(y coPair) int {
	if c := cmp.Compare(x.a, y.a); c != 0 {
		return c
	}
	return cmp.Compare(x.b, y.b)
}

// countCoOccurrence counts a paper's co-occurrence pairs for its mentions
// cur: the pairs of its best concepts (topConcepts) that were not counted
// for it before gain one, the pairs counted before (the set kept on the
// paper) that are no longer lose one. The changes land in the
// transaction's pair rows at once (each row is read once a transaction
// and written once, at commit), in the same transaction as the paper's
// new counted set and the removal of its IdxCoDirty mark, so every pair is
// counted once for the paper, whatever interrupts a run.
//
// They were summed apart and written at the end of the transaction, where
// the transaction's size (Pending) did not see them: at 1M papers a
// settle's batch of 126k dirty papers grew to 12 MB of row parts, past
// Badger's limit ("Txn is too big").
func (w *writer) countCoOccurrence(n *Node, cur map[NodeID]float64) error {
	if err := w.tx.DeleteTerm(IdxCoDirty, authorTerm(n.ID), n.ID); err != nil {
		return err
	}
	top := slices.Sorted(maps.Keys(topConcepts(cur)))
	if slices.Equal(top, n.CoOccurs) {
		return nil
	}
	for _, pass := range []struct {
		from, other []NodeID
		d           int64
	}{{top, n.CoOccurs, 1}, {n.CoOccurs, top, -1}} {
		for x, a := range pass.from {
			for _, b := range pass.from[x+1:] {
				if slices.Contains(pass.other, a) && slices.Contains(pass.other, b) {
					continue
				}
				if err := w.pair(CoOccurs, min(a, b), max(a, b), pass.d); err != nil {
					return err
				}
			}
		}
	}
	n.CoOccurs = top
	return w.tx.PutNode(*n)
}

// topConcepts picks a paper's coOccurTop best mentions, by weight then id,
// so the same stored weights always give the same set.
func topConcepts(m map[NodeID]float64) map[NodeID]bool {
	ids := make([]NodeID, 0, len(m))
	for c := range m {
		ids = append(ids, c)
	}
	slices.SortFunc(ids, func(a, b NodeID) int {
		if m[a] != m[b] {
			return cmp.Compare(m[b], m[a])
		}
		return cmp.Compare(a, b)
	})
	top := make(map[NodeID]bool, coOccurTop)
	for _, c := range ids[:min(len(ids), coOccurTop)] {
		top[c] = true
	}
	return top
}

const (
	// coRecountFlag is set while a recount runs: a recount interrupted
	// half-way has set some pairs and not others, and the next settle
	// recounts again, whatever it has to count.
	coRecountFlag = "co/recount"
)

// coRecountMin: a settle with at least this many papers to count, and at
// least a quarter of all papers, recounts every pair from the papers'
// mentions in one pass (recountCoOccurrence) instead of changing pairs
// paper by paper. A variable for tests.
var coRecountMin = 2000

// coReportEvery: co-occurrence counted paper by paper reports its progress
// every this many papers.
const coReportEvery = 4096

// settleCoOccurrence counts the co-occurrence pairs of the papers whose
// mentions changed since their pairs were counted (IdxCoDirty): once a
// paper, whatever the concepts it gained since. A few papers are counted
// in transactions of many papers, each paper's changes landing with its
// new counted set (countCoOccurrence); many (a large ingest, a recompute)
// make every pair be recounted.
func (s *Service) settleCoOccurrence(ctx context.Context) error {
	for {
		r, err := s.store.Read(ctx)
		if err != nil {
			return err
		}
		var dirty []NodeID
		err = r.Terms(IdxCoDirty, "", func(_ string, p NodeID) bool {
			dirty = append(dirty, p)
			return true
		})
		var flag, papers int64
		if err == nil {
			flag, err = r.Counter(coRecountFlag)
		}
		if err == nil {
			papers, err = r.Counter(cntPapers)
		}
		r.Close()
		if err != nil {
			return err
		}
		s.report(StageCoOccur, 0, len(dirty))
		if flag != 0 || len(dirty) >= coRecountMin && 4*int64(len(dirty)) >= papers {
			if err := s.recountCoOccurrence(ctx, dirty); err != nil {
				return err
			}
			s.report(StageCoOccur, len(dirty), len(dirty))
			return nil
		}
		if len(dirty) == 0 {
			return nil
		}
		// in chunks, each reported: at 1M papers a settle counted 126,000
		// this way, for minutes
		for start := 0; start < len(dirty); start += coReportEvery {
			chunk := dirty[start:min(start+coReportEvery, len(dirty))]
			if err := s.eachBatch(ctx, len(chunk), func(w *writer, i int) error {
				p := chunk[i]
				n, err := w.tx.Node(p)
				if ErrorCode(err) == NotFound {
					return w.tx.DeleteTerm(IdxCoDirty, authorTerm(p), p)
				} else if err != nil {
					return err
				}
				cur, err := w.mentions(p)
				if err != nil {
					return err
				}
				return w.countCoOccurrence(&n, cur)
			}); err != nil {
				return err
			}
			s.report(StageCoOccur, start+len(chunk), len(dirty))
		}
	}
}

// recountCoOccurrence sets every co-occurrence pair to the number of papers
// with both among their best concepts (topConcepts), read in one pass over
// the papers' mentions, and gives the papers to count (dirty) their new
// counted sets. Pairs are set, not moved, so a recount interrupted at any
// point is repaired by running it again (coRecountFlag says to). A large
// ingest counts its papers this way: summed in memory (a few tens of bytes
// a pair), each pair is written once, without being read.
func (s *Service) recountCoOccurrence(ctx context.Context, dirty []NodeID) error {
	if err := s.store.Update(ctx, func(tx Tx) error {
		if n, err := tx.Counter(coRecountFlag); err != nil || n != 0 {
			return err
		}
		_, err := tx.AddCounter(coRecountFlag, 1)
		return err
	}); err != nil {
		return err
	}
	r, err := s.store.Read(ctx)
	if err != nil {
		return err
	}
	tally, sets := newPairTally(), newCountedSets(dirty)
	var paper NodeID
	mentions := map[NodeID]float64{}
	endPaper := func() {
		if len(mentions) == 0 {
			return
		}
		top := slices.Sorted(maps.Keys(topConcepts(mentions)))
		tally.add(top)
		sets.put(tally, paper, top)
		clear(mentions)
	}
	err = r.KindEdges(KindPaper, Mentions, func(src, c NodeID, w float64) bool {
		if src != paper {
			endPaper()
			paper = src
		}
		mentions[c] = w
		return ctx.Err() == nil
	})
	endPaper()
	// the stored pairs that change
	var kept int64
	if err == nil {
		err = r.AllPairs(CoOccurs, func(a, b NodeID, n int64) bool {
			if tally.settle(a, b, n) {
				kept++
			}
			return ctx.Err() == nil
		})
	}
	r.Close()
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return err
	}
	changes, counted, ids := tally.changes()
	total := kept + counted
	// Each row is set once a side: the rows of the pairs' second ends (b),
	// then those of their first (a). Set pair by pair, a concept's row was
	// read and rewritten in every batch that held one of its pairs: at
	// 150,000 papers the recount took 30 CPU-seconds, 2.4 at 47,919.
	// The order keeps a stopped recount repairable: AllPairs reads a pair
	// from a's row, which is set only once every b's row is, so a pair
	// that reads as set is set on both sides, and one that does not is
	// found again.
	for side := range 2 {
		owner, other := func(c pairChange) NodeID { return ids[c.b] }, func(c pairChange) NodeID { return ids[c.a] }
		if side == 1 {
			owner, other = other, owner
		}
		sortPairChanges(changes, side)
		var rows []int // where each owner's changes start
		for i := range changes {
			if i == 0 || owner(changes[i]) != owner(changes[i-1]) {
				rows = append(rows, i)
			}
		}
		rows = append(rows, len(changes))
		var counts []PairCount
		if err := s.eachBatch(ctx, len(rows)-1, func(w *writer, i int) error {
			counts = counts[:0]
			for _, c := range changes[rows[i]:rows[i+1]] {
				counts = append(counts, PairCount{other(c), int64(c.n)})
			}
			return w.tx.SetPairsOf(CoOccurs, owner(changes[rows[i]]), counts)
		}); err != nil {
			return err
		}
	}
	changes = nil
	if err := s.eachBatch(ctx, len(dirty), func(w *writer, i int) error {
		p := dirty[i]
		if err := w.tx.DeleteTerm(IdxCoDirty, authorTerm(p), p); err != nil {
			return err
		}
		n, err := w.tx.Node(p)
		top := sets.get(tally.ids, p)
		if ErrorCode(err) == NotFound || err == nil && slices.Equal(n.CoOccurs, top) {
			return nil
		} else if err != nil {
			return err
		}
		n.CoOccurs = top
		return w.tx.PutNode(n)
	}); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		n, err := tx.Counter(pairCounter(CoOccurs))
		if err == nil && n != total {
			_, err = tx.AddCounter(pairCounter(CoOccurs), total-n)
		}
		if err == nil {
			_, err = tx.AddCounter(coRecountFlag, -1)
		}
		return err
	})
}
