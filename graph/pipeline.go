package graph

import (
	"context"
	"runtime"
	"slices"
	"sync"
)

// Pipeline ingests a stream of documents: term analysis (the costly part)
// runs on several goroutines ahead of the writer, and documents are written
// one transaction each, on one goroutine, in the order they were added, so
// ids and results are the same as with Ingest called in a loop.
//
// Analysis done ahead assumes each record is a new paper or brings no new
// text; a record that merges a new abstract into a stored paper is analysed
// again inside its transaction (its text is then the union).
type Pipeline struct {
	svc     *Service
	ctx     context.Context
	jobs    chan *pipeJob
	ready   chan *pipeJob
	done    func(Document, IngestResult, error)
	workers sync.WaitGroup
	writer  sync.WaitGroup
	err     error // first error of the writer that is not a document's own
	seq     int   // next sequence number (Add's goroutine only)
}

type pipeJob struct {
	seq      int
	doc      Document
	analyses map[string]TextAnalysis
}

// NewPipeline starts a pipeline with workers analysis goroutines (<1: one
// per core). done is called, on the writer goroutine, after each document
// with its result or error (an Invalid error is that document's own; the
// rest still go on).
func (s *Service) NewPipeline(ctx context.Context, workers int, done func(Document, IngestResult, error)) *Pipeline {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	p := &Pipeline{
		svc: s, ctx: ctx, done: done,
		jobs:  make(chan *pipeJob, 2*workers),
		ready: make(chan *pipeJob, 4*workers),
	}
	for i := 0; i < workers; i++ {
		p.workers.Add(1)
		go p.analyze()
	}
	go func() { p.workers.Wait(); close(p.ready) }()
	p.writer.Add(1)
	go p.write()
	return p
}

// Add queues a document; it blocks while the pipeline is full. Call it
// from one goroutine.
func (p *Pipeline) Add(doc Document) error {
	select {
	case p.jobs <- &pipeJob{seq: p.seq, doc: doc}:
		p.seq++
		return nil
	case <-p.ctx.Done():
		return p.ctx.Err()
	}
}

// Close waits until every added document is written and returns the first
// error that stopped the writer (a store failure or cancellation).
func (p *Pipeline) Close() error {
	close(p.jobs)
	p.writer.Wait()
	return p.err
}

func (p *Pipeline) analyze() {
	defer p.workers.Done()
	for j := range p.jobs {
		j.analyses = map[string]TextAnalysis{}
		if p.svc.terms != nil && p.ctx.Err() == nil {
			for _, rec := range j.doc.Records {
				pr, _, err := prepare(rec)
				if err != nil {
					continue // Ingest reports it
				}
				if p.svc.storedText(p.ctx, &pr) {
					continue // nothing new to read: re-ingest costs no tagging
				}
				var abs []string
				if pr.abstract != "" {
					abs = []string{pr.abstract}
				}
				j.analyses[pr.title+"\x00"+paperText(abs)] = p.svc.terms.Analyze(pr.title, paperText(abs))
			}
		}
		p.ready <- j
	}
}

// write applies documents in sequence order as they become ready.
func (p *Pipeline) write() {
	defer p.writer.Done()
	pending := map[int]*pipeJob{}
	next := 0
	for j := range p.ready {
		pending[j.seq] = j
		for {
			j, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if p.err != nil {
				continue // drain after a fatal error
			}
			res, err := p.svc.ingest(p.ctx, j.doc, j.analyses)
			if err != nil && ErrorCode(err) != Invalid {
				p.err = err
			}
			if p.done != nil {
				p.done(j.doc, res, err)
			}
		}
	}
}

// storedText reports whether the record's paper is already stored with this
// abstract, so its text will not change and need not be analysed. A wrong
// "no" costs only the analysis; a wrong "yes" (a title match the writer
// refuses) only moves the analysis into the transaction.
func (s *Service) storedText(ctx context.Context, p *prepared) bool {
	r, err := s.store.Read(ctx)
	if err != nil {
		return false
	}
	defer r.Close()
	for _, k := range []struct {
		ns  Index
		key string
	}{{IdxPaperArXiv, p.arxiv}, {IdxPaperDOI, p.doi}, {IdxPaperTitle, p.titleKey}} {
		if k.key == "" {
			continue
		}
		id, err := r.Lookup(k.ns, k.key)
		if err != nil {
			continue
		}
		if p.abstract == "" {
			return true
		}
		abs, err := r.Abstracts(id)
		return err == nil && slices.Contains(abs, p.abstract)
	}
	return false
}
