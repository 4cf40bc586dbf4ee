package graph

import (
	"context"
	"slices"
	"strconv"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/vocab"
)

// settleMaxUses bounds the uses one round of SettleConcepts holds in
// memory (a few tens of bytes each).
const settleMaxUses = 500_000

// SettleConcepts settles what ingest left to its end. It judges the
// concepts (judgeTerms, rejectModifiers) and drops those that are no
// terms; then it links the concepts made since the last settle to the
// papers read since, whose links waited for the judgement (pending.go),
// and to the papers that used them before they existed: a term becomes a
// concept when its second paper votes for it, and the papers read before
// that mention it too. Their uses were recorded when they were ingested
// (recordUses): the first paper of a term in its document frequency, the
// next ones as term uses. Ingest calls it at the end (Service.Ingest
// after each document, a Pipeline when it closes); it is safe to run
// again at any time, and what an interrupted run left is settled by the
// next one.
//
// A round reads what is pending from a snapshot, then rewrites each paper's
// mentions once with every concept it gains: an early paper gains many,
// and linking them one concept at a time rewrote its mentions and
// co-occurrence pairs again and again.
//
// Then it clusters the people of the names whose papers changed
// (SettlePeople).
func (s *Service) SettleConcepts(ctx context.Context) error {
	s.settling.Lock()
	defer s.settling.Unlock()
	return s.settle(ctx)
}

func (s *Service) settle(ctx context.Context) error {
	for pass := 1; ; pass++ {
		more, err := s.settleConceptPass(ctx)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		if pass == settleMaxPasses { // what is still marked, the next settle scans
			break
		}
	}
	if err := s.settleCoOccurrence(ctx); err != nil {
		return err
	}
	if err := s.settlePeople(ctx); err != nil {
		return err
	}
	s.report(StageSettleDone, 0, 0)
	return nil
}

// settleMaxPasses bounds the passes of a settle's concept stage. A pass
// makes only concepts broader than those it drops (a word's concepts
// re-parented, linkBroader), so passes end; the arXiv file's first
// settle takes two.
const settleMaxPasses = 8

// settleConceptPass judges the concepts and links those marked to their
// earlier papers, and reports whether it made concepts that are marked for
// a scan in their turn (the broader term of a concept it dropped): the
// settle passes again for them, so that it ends where a settle run again
// would, and one interrupted and run again ends as a clean one.
func (s *Service) settleConceptPass(ctx context.Context) (more bool, err error) {
	rescan, marked, surface, err := s.rescanPlan(ctx)
	if err != nil {
		return false, err
	}
	if err := s.rejectModifiers(ctx, surface, rescan); err != nil {
		return false, err
	}
	// concepts that are no terms of the field go before any paper is
	// linked to them: judged on counts that linking does not change
	// (document frequencies, votes, broader terms), so the verdicts are
	// those of every paper linked, without the links made and unmade
	if err := s.judgeTerms(ctx); err != nil {
		return false, err
	}
	if err := s.rejectPending(ctx); err != nil {
		return false, err
	}
	linked := 0
	for {
		plan, err := s.settlePlan(ctx)
		if err != nil {
			return false, err
		}
		if rescan != nil { // one rewrite of a paper for both
			plan.add.merge(rescan)
			rescan = nil
		}
		if plan.empty() {
			break
		}
		if err := s.settleApply(ctx, plan); err != nil {
			return false, err
		}
		linked += plan.add.count()
		s.report(StageLink, linked, 0)
		// words found modifiers as papers were linked to them go; a
		// broader term made for their narrower ones is linked next round
		if err := s.rejectPending(ctx); err != nil {
			return false, err
		}
	}
	// the marks go in transactions of bounded size: a 250,000-paper ingest
	// marked 81,464 concepts, more than one transaction holds. A settle
	// stopped between them scans the rest again, which links nothing new.
	for len(marked) > 0 {
		n := min(len(marked), settleWrites)
		if err := s.store.Update(ctx, func(tx Tx) error {
			for _, c := range marked[:n] {
				if err := tx.DeleteTerm(IdxRescan, authorTerm(c), c); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return false, err
		}
		marked = marked[n:]
	}
	if s.terms == nil { // nothing scans (rescanPlan)
		return false, nil
	}
	r, err := s.store.Read(ctx)
	if err != nil {
		return false, err
	}
	defer r.Close()
	err = r.Terms(IdxRescan, "", func(string, NodeID) bool { more = true; return false })
	return more, err
}

// settlement is one round of SettleConcepts.
type settlement struct {
	add      gains     // papers and the concepts they gain, with weights
	postings []posting // term uses consumed
	firsts   []string  // document-frequency keys whose first paper is consumed
	done     []NodeID  // concepts whose users are all in this round
}

type posting struct {
	term  string
	paper NodeID
}

func (p *settlement) empty() bool { return len(p.done) == 0 && len(p.postings) == 0 && p.add.empty() }

func (p *settlement) gain(paper, c NodeID, w float64) { p.add.add(paper, c, w) }

// settlePlan reads the pending concepts and their earlier users.
func (s *Service) settlePlan(ctx context.Context) (*settlement, error) {
	r, err := s.store.Read(ctx)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	plan := &settlement{}
	// every paper's pending links (addMentions writes them)
	waiting, err := pendingPapers(r)
	if err != nil {
		return nil, err
	}
	for _, p := range waiting {
		plan.add.touch(p)
	}
	var pending []NodeID
	if err := r.Terms(IdxBackfill, "", func(_ string, c NodeID) bool {
		pending = append(pending, c)
		return true
	}); err != nil {
		return nil, err
	}
	uses := 0
	for _, c := range pending {
		if uses >= settleMaxUses {
			break
		}
		keys, err := settleKeys(r, c)
		if err != nil {
			return nil, err
		}
		for _, k := range keys {
			v, err := r.Counter(dfCounter(k))
			if err != nil {
				return nil, err
			}
			if _, level, seq := decodeDF(v); seq != 0 {
				plan.gain(MakeID(KindPaper, seq), c, dfLevelWeight(level))
				plan.firsts = append(plan.firsts, k)
				uses++
			}
			if err := r.Terms(IdxTermUse, k+" ", func(term string, p NodeID) bool {
				wt, err := strconv.ParseFloat(term[len(k)+1:], 64)
				if err != nil || wt <= 0 {
					wt = 0.001
				}
				plan.gain(p, c, wt)
				plan.postings = append(plan.postings, posting{term, p})
				uses++
				return true
			}); err != nil {
				return nil, err
			}
		}
		plan.done = append(plan.done, c)
	}
	return plan, nil
}

// settleApply links the papers of a round, each once, and counts their
// co-occurrence pairs in the same transaction, in transactions of bounded
// size (each committed while the next is built, when the store can); then
// removes the uses and pending marks it consumed.
func (s *Service) settleApply(ctx context.Context, plan *settlement) error {
	plan.add.pack()
	papers := plan.add.papers
	live := map[NodeID]bool{}
	if err := s.eachBatch(ctx, len(papers), func(w *writer, i int) error {
		w.live = live
		return w.addMentions(papers[i], w.existing(plan.add.of(i)))
	}); err != nil {
		return err
	}
	// the uses are links now
	for len(plan.postings)+len(plan.firsts)+len(plan.done) > 0 {
		err := s.store.Update(ctx, func(tx Tx) error {
			for budget := settleWrites; budget > 0; budget-- {
				switch {
				case len(plan.postings) > 0:
					u := plan.postings[0]
					plan.postings = plan.postings[1:]
					if err := tx.DeleteTerm(IdxTermUse, u.term, u.paper); err != nil {
						return err
					}
				case len(plan.firsts) > 0:
					k := plan.firsts[0]
					plan.firsts = plan.firsts[1:]
					v, err := tx.Counter(dfCounter(k))
					if err != nil {
						return err
					}
					if n, _, seq := decodeDF(v); seq != 0 {
						if _, err := tx.AddCounter(dfCounter(k), encodeDF(n, 0, 0)-v); err != nil {
							return err
						}
					}
				case len(plan.done) > 0:
					c := plan.done[0]
					plan.done = plan.done[1:]
					if err := tx.DeleteTerm(IdxBackfill, authorTerm(c), c); err != nil {
						return err
					}
					vocabularyOf(s.store).settled(c)
				default:
					return nil
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// existing keeps the concepts that still exist (one dropped since the plan
// was read is not linked). A settle's linking adds mentions and drops no
// concept, so what one of its transactions found exists stays so for the
// next (w.live): each concept is read once, not once a paper (480,000
// reads of 30,000 concepts on the arXiv file, a quarter of the linking's
// time).
func (w *writer) existing(add map[NodeID]float64) map[NodeID]float64 {
	for c := range add {
		if w.live[c] {
			continue
		}
		if _, err := w.tx.Node(c); err != nil {
			delete(add, c)
		} else if w.live != nil {
			w.live[c] = true
		}
	}
	return add
}

// settleKeys are the keys under which papers may have used a concept
// before it existed: its name and aliases, and the acronyms of it that
// stand for it (none if the concept is gone).
func settleKeys(r Reader, c NodeID) ([]string, error) {
	n, err := r.Node(c)
	if ErrorCode(err) == NotFound {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var keys []string
	for _, name := range append([]string{n.Label}, n.Aliases...) {
		k := ident.ConceptKey(name)
		if k == "" || slices.Contains(keys, k) {
			continue
		}
		if vocab.IsOneAcronym(name) {
			// an acronym's recorded uses share their key with the word
			// ("FACE", "face"): its papers are found by the scan, which
			// reads acronyms as written (markBackfill)
			continue
		}
		keys = append(keys, k)
	}
	return keys, nil
}

func keySet(m map[string]NodeID) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}
