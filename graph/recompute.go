package graph

import (
	"context"
	"fmt"
	"runtime"
	"sync"
)

// RecomputeProgress reports how far a recompute has come.
type RecomputeProgress struct {
	Pass         int // 1: document frequencies, 2: mentions
	Papers, Done int
}

// recomputeChunk bounds one transaction of a recompute: ~50 frequency
// counters, 20 mentions and up to 190 co-occurrence pairs per paper stay
// well under Badger's transaction limit.
const recomputeChunk = 48

// RecomputeConcepts re-extracts the key terms of every stored paper from
// its stored title and abstracts, without re-reading any source: after the
// extractor changed, or to count document frequencies afresh. Pass 1 drops
// and recounts the document frequencies; pass 2 ranks each paper against
// them and replaces its mentions (co-occurrences move with them; concepts
// left without papers are removed). It tags every text twice, so memory
// stays bounded by one chunk whatever the size of the store. Writers must
// not run at the same time.
func (s *Service) RecomputeConcepts(ctx context.Context, workers int, progress func(RecomputeProgress)) (IngestResult, error) {
	if s.terms == nil {
		return IngestResult{}, Errorf(Invalid, "no term extractor configured")
	}
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	if err := s.store.DropCounters("df/"); err != nil {
		return IngestResult{}, fmt.Errorf("drop document frequencies: %w", err)
	}
	var total IngestResult
	for pass := 1; pass <= 2; pass++ {
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
	return total, nil
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
	if pass == 1 {
		if err := w.countTerms(nil, a); err != nil {
			return err
		}
		p.Terms = s.terms.Version()
		return w.tx.PutNode(p)
	}
	return w.setMentions(&p, a.Rank(newTxStats(w), maxConceptsPerPaper), PaperSortKey(&p))
}

type titleText struct{ title, text string }

// paperTexts loads the titles and abstracts of papers from a snapshot.
func (s *Service) paperTexts(ctx context.Context, ids []NodeID) ([]titleText, error) {
	r, err := s.store.Read(ctx)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	out := make([]titleText, 0, len(ids))
	for _, id := range ids {
		n, err := r.Node(id)
		if err != nil {
			return nil, err
		}
		abs, err := r.Abstracts(id)
		if err != nil {
			return nil, err
		}
		out = append(out, titleText{n.Label, paperText(abs)})
	}
	return out, nil
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
		out[t.title+"\x00"+t.text] = results[j]
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

func (s *Service) countPapers(ctx context.Context) (int, error) {
	r, err := s.store.Read(ctx)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	n, err := r.Counter(cntPapers)
	return int(n), err
}
