package graph

import (
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"
)

// RecomputeProgress reports how far a recompute has come.
type RecomputeProgress struct {
	// Pass 0: the old concept layer is cleared; 1: document frequencies;
	// 2: key-term votes make the concepts; 3: papers are linked.
	Pass         int
	Papers, Done int
}

// RecomputePasses is the number of the last pass.
const RecomputePasses = 3

// recomputeChunk bounds one transaction of a recompute: ~50 frequency
// counters, 10 votes, ~25 mentions and up to 45 co-occurrence pairs per
// paper stay well under Badger's transaction limit.
const recomputeChunk = 48

// RecomputeConcepts rebuilds the concept layer from every stored paper's
// title and abstracts, without re-reading any source: after the extractor
// changed (a new Version), or to count afresh. The old layer (concepts,
// mentions, co-occurrence, document frequencies, votes) is cleared, then
// three passes run over the papers: document frequencies; key-term votes,
// ranked against the whole corpus, which make the concepts; links from
// every paper to every concept it mentions. The result depends only on the
// stored papers, not on the order they came in. Each pass tags every text
// again, so memory stays bounded by one chunk whatever the size of the
// store. Writers must not run at the same time.
func (s *Service) RecomputeConcepts(ctx context.Context, workers int, progress func(RecomputeProgress)) (IngestResult, error) {
	if s.terms == nil {
		return IngestResult{}, Errorf(Invalid, "no term extractor configured")
	}
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	if err := s.dropPendingMentions(ctx); err != nil {
		return IngestResult{}, fmt.Errorf("drop the pending links: %w", err)
	}
	if err := s.clearConcepts(ctx, progress); err != nil {
		return IngestResult{}, fmt.Errorf("clear the old concepts: %w", err)
	}
	for _, prefix := range []string{"df/", "kt/", "rej/", cntTermWords} {
		if err := s.store.DropCounters(prefix); err != nil {
			return IngestResult{}, fmt.Errorf("drop counters %s: %w", prefix, err)
		}
	}
	for _, ns := range []Index{IdxTermUse, IdxAcronymDef, IdxAcronymOf, IdxBackfill, IdxRescan, IdxCoDirty} {
		if err := s.store.DropTerms(ns); err != nil {
			return IngestResult{}, fmt.Errorf("drop term uses and acronym definitions: %w", err)
		}
	}
	var total IngestResult
	tally := voteTally{}
	for pass := 1; pass <= RecomputePasses; pass++ {
		if pass == 3 {
			res, err := s.makeConcepts(ctx, tally)
			if err != nil {
				return total, err
			}
			total.ConceptsAdded += res
		}
		n, err := s.countPapers(ctx)
		if err != nil {
			return total, err
		}
		done := 0
		var after NodeID
		for {
			ids, err := s.paperIDs(ctx, after, recomputeChunk)
			if err != nil {
				return total, err
			}
			if len(ids) == 0 {
				break
			}
			after = ids[len(ids)-1]
			texts, err := s.paperTexts(ctx, ids)
			if err != nil {
				return total, err
			}
			cache := analyzeAll(s.terms, texts, workers)
			res, err := s.write(ctx, "recompute", cache, func(w *writer) error {
				w.deferLinks, w.tally = true, tally
				for _, id := range ids {
					if err := s.recomputePaper(w, id, pass); err != nil {
						return fmt.Errorf("recompute %s: %w", id, err)
					}
				}
				return nil
			})
			if err != nil {
				return total, err
			}
			total.ConceptsAdded += res.ConceptsAdded
			total.EdgesAdded += res.EdgesAdded
			done += len(ids)
			if progress != nil {
				progress(RecomputeProgress{Pass: pass, Papers: n, Done: done})
			}
		}
		total.Records = done
	}
	if err := s.judgeTerms(ctx); err != nil {
		return total, err
	}
	if err := s.rejectPending(ctx); err != nil {
		return total, err
	}
	return total, s.settleCoOccurrence(ctx)
}

func (s *Service) recomputePaper(w *writer, id NodeID, pass int) error {
	p, err := w.tx.Node(id)
	if err != nil {
		if ErrorCode(err) == NotFound {
			return nil // removed meanwhile
		}
		return err
	}
	abs, err := w.tx.Abstracts(id)
	if err != nil {
		return err
	}
	a := w.analyze(p.Label, paperText(abs))
	switch pass {
	case 1:
		w.paper = id
		if err := w.countTerms(nil, a); err != nil {
			return err
		}
		w.count(cntTermWords, int64(textWords(p.Label, abs)))
		p.Terms = s.terms.Version()
		p.CoOccurs = nil // the pairs went with the old concepts
		return w.tx.PutNode(p)
	case 2:
		if err := w.useVocabulary(); err != nil {
			return err
		}
		return w.vote(id, nil, false, a.Ranked(newTxStats(w)), len(abs) == 0)
	}
	if err := w.useVocabulary(); err != nil {
		return err
	}
	r := a.Ranked(newTxStats(w))
	linked, err := w.link(&p, r, PaperSortKey(&p))
	if err != nil {
		return err
	}
	return w.recordUses(id, nil, r, linked)
}

// makeConcepts makes the concepts the votes of pass 2 support, in key
// order, in transactions of bounded size.
func (s *Service) makeConcepts(ctx context.Context, tally voteTally) (int, error) {
	var keys []string
	for k, x := range tally {
		if x.votes >= 2 || x.introduced {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	made := 0
	for len(keys) > 0 {
		n := 0
		res, err := s.write(ctx, "recompute", nil, func(w *writer) error {
			w.deferLinks = true
			if err := w.useVocabulary(); err != nil {
				return err
			}
			for ; n < len(keys) && n < 256; n++ {
				x := tally[keys[n]]
				if err := w.conceptIfSupported(x.term(), x.introduced); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return made, err
		}
		made += res.ConceptsAdded
		keys = keys[n:]
	}
	return made, nil
}

// clearConcepts removes every concept with its mentions, co-occurrence
// pairs, hierarchy links, lookups and index entries, in transactions of
// at most clearWrites writes.
func (s *Service) clearConcepts(ctx context.Context, progress func(RecomputeProgress)) error {
	const clearChunk = 64
	total, err := s.countConcepts(ctx)
	if err != nil {
		return err
	}
	done := 0
	for {
		var ids []NodeID
		r, err := s.store.Read(ctx)
		if err != nil {
			return err
		}
		err = r.NodeIDs(KindConcept, 0, func(id NodeID) bool {
			ids = append(ids, id)
			return len(ids) < clearChunk
		})
		r.Close()
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			return nil
		}
		cleared := 0
		if _, err := s.write(ctx, "recompute", nil, func(w *writer) error {
			// one transaction clears concepts while its writes stay under
			// the budget; a concept larger than that ("large language
			// model", 16,667 papers: 50,000 keys) is emptied over several
			// and dropped by the last
			budget := clearWrites
			for _, c := range ids {
				n, empty, err := w.emptyConcept(c, budget)
				if err != nil {
					return fmt.Errorf("clear %s: %w", c, err)
				}
				if budget -= n; !empty {
					return nil
				}
				if err := w.dropConcept(c); err != nil {
					return fmt.Errorf("clear %s: %w", c, err)
				}
				cleared++
				if budget--; budget <= 0 {
					return nil
				}
			}
			return nil
		}); err != nil {
			return err
		}
		done += cleared
		if progress != nil {
			progress(RecomputeProgress{Pass: 0, Papers: total, Done: done})
		}
	}
}

// clearWrites bounds the writes of one transaction of clearConcepts, well
// under Badger's limit (a variable for tests).
var clearWrites = batchWrites

// emptyConcept removes up to budget of what points at a concept (its
// mentions both ways, its paper list, its co-occurrence pairs), counting
// each removal as a write, and reports the writes and whether nothing is
// left. dropConcept then removes the node, its index entries and its
// hierarchy links (re-linking narrower concepts, which are cleared in turn).
func (w *writer) emptyConcept(c NodeID, budget int) (writes int, empty bool, err error) {
	tx := w.tx
	var papers []NodeID
	if err := tx.Edges(c, Mentions, In, func(p NodeID, _ float64) bool {
		papers = append(papers, p)
		return 3*len(papers) < budget
	}); err != nil {
		return 0, false, err
	}
	for _, p := range papers {
		if existed, err := tx.DeleteEdge(p, Mentions, c); err != nil {
			return writes, false, err
		} else if existed {
			w.count(cntEdges, -1)
			if _, err := tx.AddCounter(degreeCounter(c, Mentions), -1); err != nil {
				return writes, false, err
			}
		}
		writes += 3 // the edge both ways, the degree
	}
	var entries [][]byte
	if err := tx.List(c, Mentions, nil, func(k []byte) bool {
		entries = append(entries, slices.Clone(k))
		return writes+len(entries) < budget
	}); err != nil {
		return writes, false, err
	}
	for _, k := range entries {
		if err := tx.DeleteListEntry(c, Mentions, k); err != nil {
			return writes, false, err
		}
		writes++
	}
	pairs := map[NodeID]int64{}
	if writes < budget {
		if err := tx.Pairs(CoOccurs, c, func(b NodeID, n int64) bool {
			pairs[b] = n
			return writes+2*len(pairs) < budget
		}); err != nil {
			return writes, false, err
		}
	}
	for _, b := range slices.Sorted(maps.Keys(pairs)) {
		if err := w.pair(CoOccurs, c, b, -pairs[b]); err != nil {
			return writes, false, err
		}
		writes += 2
	}
	if writes >= budget {
		return writes, false, nil // more may be left: the next transaction
	}
	if n, err := tx.Counter(degreeCounter(c, Mentions)); err != nil {
		return writes, false, err
	} else if n != 0 {
		if _, err := tx.AddCounter(degreeCounter(c, Mentions), -n); err != nil {
			return writes, false, err
		}
	}
	return writes, true, nil
}

func (s *Service) countConcepts(ctx context.Context) (int, error) { return s.counter(ctx, cntConcepts) }

func (s *Service) countPapers(ctx context.Context) (int, error) { return s.counter(ctx, cntPapers) }

// counter reads one counter from a snapshot.
func (s *Service) counter(ctx context.Context, name string) (int, error) {
	r, err := s.store.Read(ctx)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	n, err := r.Counter(name)
	return int(n), err
}

type titleText struct{ title, text string }

// paperTexts loads the titles and abstracts of papers from a snapshot.
func (s *Service) paperTexts(ctx context.Context, ids []NodeID) ([]titleText, error) {
	r, err := s.store.Read(ctx)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	out := make([]titleText, len(ids))
	for i, id := range ids {
		if out[i], err = readTitleText(r, id); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readTitleText reads a paper's title and the text of its abstracts.
func readTitleText(r Reader, id NodeID) (titleText, error) {
	n, err := r.Node(id)
	if err != nil {
		return titleText{}, err
	}
	abs, err := r.Abstracts(id)
	if err != nil {
		return titleText{}, err
	}
	return titleText{n.Label, paperText(abs)}, nil
}

// analyzeAll runs the extractor over texts on several goroutines and returns
// the analyses keyed as writer.analyze looks them up.
func analyzeAll(te TermExtractor, texts []titleText, workers int) map[string]TextAnalysis {
	out := make(map[string]TextAnalysis, len(texts))
	results := make([]TextAnalysis, len(texts))
	var wg sync.WaitGroup
	next := make(chan int)
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				results[j] = te.Analyze(texts[j].title, texts[j].text)
			}
		}()
	}
	for j := range texts {
		next <- j
	}
	close(next)
	wg.Wait()
	for j, t := range texts {
		out[analysisKey(t.title, t.text)] = results[j]
	}
	return out
}

func (s *Service) paperIDs(ctx context.Context, after NodeID, n int) ([]NodeID, error) {
	r, err := s.store.Read(ctx)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var ids []NodeID
	err = r.NodeIDs(KindPaper, after, func(id NodeID) bool {
		ids = append(ids, id)
		return len(ids) < n
	})
	return ids, err
}
