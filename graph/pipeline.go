// The ingest pipeline: records prepared and analysed on every core,
// written in batches by one writer, and the settle's progress reported.

package graph

import (
	"context"
	"hash/fnv"
	"runtime"
	"slices"
	"sync"
)

// Pipeline ingests a stream of documents: term analysis (the costly part)
// runs on several goroutines ahead of the writer, and documents are written
// on one goroutine, in the order they were added, several to a transaction
// (see the batch limits below), each under Atomic so a bad one drops alone.
// Ids and results are the same as with Ingest called in a loop (tested on
// the seeds and samples; checked by digest on the first 20,000 lines of the
// arXiv file).
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
	mu      sync.Mutex // guards err and calls of done
	err     error      // first error of the writer that is not a document's own
	seq     int        // next sequence number (Add's goroutine only)

	seen     seenKeys // paper identity keys met by the workers (textCheck)
	empty    bool     // the store held no paper when the pipeline started (textCheck)
	inFlight bool     // a batch is committing in the background (writer only)
	waitOnce sync.Once
}

type pipeJob struct {
	seq      int
	doc      Document
	prep     *preparedDoc
	analyses map[string]TextAnalysis
}

// NewPipeline starts a pipeline with workers analysis goroutines (<1: one
// per core). done is called after each document, once its transaction has
// landed, with its result or error (an Invalid error is that document's
// own; the rest still go on). Calls come one at a time, in order, usually
// on the writer goroutine.
func (s *Service) NewPipeline(ctx context.Context, workers int, done func(Document, IngestResult, error)) *Pipeline {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	p := &Pipeline{
		svc: s, ctx: ctx, done: done,
		jobs:  make(chan *pipeJob, 2*workers),
		ready: make(chan *pipeJob, batchDocs),
	}
	if n, err := s.counter(ctx, cntPapers); err == nil && n == 0 {
		p.empty = true
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
//
// Once the writer has stopped on a store error (a failed commit, a full
// disk), Add returns that error, so the caller stops reading.
func (p *Pipeline) Add(doc Document) error {
	if err := p.ctx.Err(); err != nil {
		return err
	}
	if err := p.failed(); err != nil {
		return err
	}
	select {
	case p.jobs <- &pipeJob{seq: p.seq, doc: doc}:
		p.seq++
		return nil
	case <-p.ctx.Done():
		return p.ctx.Err()
	}
}

// Close waits until every added document is written, then links the
// concepts made during the run to the papers read before them
// (SettleConcepts), and returns the first error that stopped the writer (a
// store failure or cancellation) or the settle.
func (p *Pipeline) Close() error {
	if err := p.Wait(); err != nil || p.ctx.Err() != nil {
		return err // interrupted: the next run settles what this one left
	}
	return p.svc.SettleConcepts(p.ctx)
}

// Wait waits until every added document is written, without settling the
// concepts (Close does both; a caller may call Wait first to report the
// documents before the settle, which takes a while after a large run).
// Add must not be called after it.
func (p *Pipeline) Wait() error {
	p.waitOnce.Do(func() {
		close(p.jobs)
		p.writer.Wait()
		p.sync() // the last batch's outcome goes to its callback
	})
	return p.failed()
}

func (p *Pipeline) analyze() {
	defer p.workers.Done()
	check := &textCheck{svc: p.svc, ctx: p.ctx, seen: &p.seen, empty: p.empty}
	defer check.close()
	for j := range p.jobs {
		j.analyses = map[string]TextAnalysis{}
		pd := prepareDoc(j.doc)
		j.prep = &pd
		if p.svc.terms != nil && p.ctx.Err() == nil && pd.err == nil {
			for i := range pd.preps {
				pr := &pd.preps[i]
				if check.stored(pr) {
					continue // nothing new to read: re-ingest costs no tagging
				}
				var abs []string
				if pr.abstract != "" {
					abs = []string{pr.abstract}
				}
				j.analyses[analysisKey(pr.title, paperText(abs))] = p.svc.terms.Analyze(pr.title, paperText(abs))
			}
		}
		p.ready <- j
	}
}

// Batch limits: the writer commits the documents it has in hand, in order,
// in one transaction of at most batchDocs documents, closing it early once
// it holds batchWrites keys or batchBytes bytes (Badger refuses a
// transaction over 15% of a memtable: 4.8 MB with the store's 32 MB).
//
// One transaction per document made the writer wait on every commit, and
// wrote a hot key (a common term's document frequency, a global counter)
// once per document; a batch writes it once. Measured (ingest of 10,000
// arXiv records, medians of 5 interleaved runs,
// testdata/bench/ingest-settings.txt): 128 documents a batch 28.9 s, 32
// documents 31.6 s, one document 31.4 s; on the whole file 256 was 5%
// slower and 64 no different.
const (
	batchDocs   = 128
	batchWrites = 16 << 10
	batchBytes  = 2 << 20
)

// write applies documents in sequence order as they become ready, in
// batches of what is ready.
func (p *Pipeline) write() {
	defer p.writer.Done()
	pending := map[int]*pipeJob{}
	next := 0
	var batch []*pipeJob
	in := p.ready
	single := 0 // documents to write one per transaction (after a too-large batch)
	for {
		for len(batch) < batchDocs {
			j, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			batch = append(batch, j)
		}
		if len(batch) < batchDocs && in != nil {
			if len(batch) == 0 { // nothing in hand: wait
				p.sync() // first let the last batch land and be reported
				j, ok := <-in
				if !ok {
					in = nil
				} else {
					pending[j.seq] = j
				}
				continue
			}
			select { // something in hand: take only what is ready now
			case j, ok := <-in:
				if !ok {
					in = nil
				} else {
					pending[j.seq] = j
				}
				continue
			default:
			}
		}
		if len(batch) == 0 {
			return // input closed and everything written
		}
		limit := len(batch)
		if single > 0 {
			limit = 1
			single--
		}
		n, tooBig := p.flush(batch[:limit])
		if tooBig {
			single = limit
			continue
		}
		batch = append(batch[:0], batch[n:]...)
	}
}

// flush writes the leading documents of batch in one transaction and
// reports how many it took. A document's own error (Invalid) drops only
// that document; a store error or cancellation stops the pipeline. tooBig
// says the transaction was refused for size and nothing was written.
//
// With an AsyncStore the commit runs while the next batch is built, and
// the batch's documents are reported when it has landed.
func (p *Pipeline) flush(batch []*pipeJob) (n int, tooBig bool) {
	if err := p.failed(); err != nil { // drain after a fatal error
		p.reportAll(batch, err)
		return len(batch), false
	}
	type outcome struct {
		job *pipeJob
		res IngestResult
		err error
	}
	var out []outcome
	fn := func(tx Tx) error {
		for _, j := range batch {
			if writes, bytes := tx.Pending(); len(out) > 0 && (writes > batchWrites || bytes > batchBytes) {
				break
			}
			var res IngestResult
			err := tx.Atomic(func() error {
				var err error
				res, err = p.svc.ingestTx(p.ctx, tx, j.doc, j.analyses, j.prep)
				return err
			})
			if err != nil && ErrorCode(err) != Invalid {
				if p.ctx.Err() != nil && len(out) > 0 {
					break // interrupted: keep the documents already done
				}
				return err
			}
			out = append(out, outcome{j, res, err})
		}
		return nil
	}
	committed := func(err error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, o := range out {
			if err != nil {
				p.fail(err)
				p.report(o.job.doc, emptyResult(o.job.doc), err)
			} else {
				p.report(o.job.doc, o.res, o.err)
			}
		}
	}
	var err error
	if as, ok := p.svc.store.(AsyncStore); ok {
		if err = as.UpdateAsync(p.ctx, fn, committed); err == nil {
			p.inFlight = true
		}
	} else if err = p.svc.store.Update(p.ctx, fn); err == nil {
		committed(nil)
	}
	if err != nil && ErrorCode(err) == Invalid { // refused for size
		if len(batch) > 1 {
			return 0, true
		}
		p.reportAll(batch, err)
		return 1, false
	}
	if err != nil {
		p.mu.Lock()
		p.fail(err)
		p.mu.Unlock()
		p.reportAll(batch, err)
		return len(batch), false
	}
	return len(out), false
}

// sync waits for a batch committed in the background (its callback
// reports it).
func (p *Pipeline) sync() {
	if as, ok := p.svc.store.(AsyncStore); ok && p.inFlight {
		as.Sync()
		p.inFlight = false
	}
}

func emptyResult(doc Document) IngestResult {
	return IngestResult{Source: doc.Source, Format: doc.Format, Records: len(doc.Records)}
}

// fail records the first error that stops the pipeline (p.mu held).
func (p *Pipeline) fail(err error) {
	if p.err == nil {
		p.err = err
	}
}

// Err returns the store error that stopped the writer, if any.
func (p *Pipeline) Err() error { return p.failed() }

func (p *Pipeline) failed() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

func (p *Pipeline) reportAll(batch []*pipeJob, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, j := range batch {
		p.report(j.doc, emptyResult(j.doc), err)
	}
}

// report passes one document's outcome on (p.mu held: outcomes of a batch
// committed in the background can be delivered from another goroutine's
// update, never two at a time).
func (p *Pipeline) report(doc Document, res IngestResult, err error) {
	if p.done != nil {
		p.done(doc, res, err)
	}
}

// textCheck answers, for one analysis worker, whether a record's paper is
// already stored with its abstract, so its text will not change and need
// not be analysed. A wrong "no" costs only the analysis; a wrong "yes" (a
// title match the writer refuses) only moves the analysis into the
// transaction.
//
// The worker must not wait on the writer: a Badger snapshot opened while a
// batch commits waits until that commit has landed, and one per record
// made the workers wait on every commit. So a worker reads one snapshot for
// checkEvery records. A snapshot older than the run holds every text
// stored before it; a text stored during the run belongs to a record of
// this run, and the identity keys the workers have seen (seenKeys) say
// which records those may be: only they open a fresh snapshot. On a store
// that was empty when the run began, the others read nothing at all.
type textCheck struct {
	svc   *Service
	ctx   context.Context
	seen  *seenKeys
	empty bool // the store held no paper before the run: only keys seen again may be stored
	snap  Reader
	uses  int
}

const checkEvery = 1000

func (c *textCheck) close() {
	if c.snap != nil {
		c.snap.Close()
		c.snap = nil
	}
}

func (c *textCheck) stored(p *prepared) bool {
	keys := p.identity()
	again := false
	for _, k := range keys {
		if k.key != "" && c.seen.add(k) {
			again = true
		}
	}
	if !again && c.empty {
		// an empty store at the start (a first ingest): what no earlier
		// record of the run carried is not stored, and the worker reads
		// nothing (a first ingest's workers read the store only for the
		// records that repeat an earlier one)
		return false
	}
	if c.uses >= checkEvery {
		c.close()
	}
	r := c.snap
	if r == nil || again {
		fresh, err := c.svc.store.Read(c.ctx)
		if err != nil {
			return false
		}
		if again {
			defer fresh.Close()
		} else {
			c.snap, c.uses = fresh, 0
		}
		r = fresh
	}
	c.uses++
	return storedText(r, keys, p.abstract)
}

// storedText reports whether r holds a paper of one of these identity
// keys with this abstract ("": with any).
func storedText(r Reader, keys []indexKey, abstract string) bool {
	for _, k := range keys {
		if k.key == "" {
			continue
		}
		id, err := r.Lookup(k.ns, k.key)
		if err != nil {
			continue
		}
		if abstract == "" {
			return true
		}
		abs, err := r.Abstracts(id)
		return err == nil && slices.Contains(abs, abstract)
	}
	return false
}

// seenKeys is the set of paper identity keys the workers have met in this
// run, as 64-bit hashes (a collision only opens a snapshot more).
type seenKeys struct {
	mu sync.Mutex
	m  map[uint64]struct{}
}

// add records k and reports whether it was met before.
func (s *seenKeys) add(k indexKey) bool {
	h := fnv.New64a()
	h.Write([]byte{byte(k.ns)})
	h.Write([]byte(k.key))
	x := h.Sum64()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[uint64]struct{}{}
	}
	if _, ok := s.m[x]; ok {
		return true
	}
	s.m[x] = struct{}{}
	return false
}

// Progress hears how the settle after an ingest advances: the stage, and
// how much of it is done of total (total 0: not known ahead). Settling a
// large file takes minutes after its last record (tens of minutes at
// 250,000 papers), and without it a log says nothing all that time.
type Progress func(stage string, done, total int)

// Stages of the settle, as Progress names them.
const (
	StageRescan     = "scanning texts for new concepts"
	StageRescanRead = "texts read for new concepts" // once, after the scan: done texts of total scanned (prints ruled out the rest)
	StageLink       = "linking concepts to earlier papers"
	StageCoOccur    = "counting concept co-occurrence"
	StagePeople     = "clustering people who share a name"
	StageProfiles   = "building co-author profiles"
	StageSettleDone = "settled"
)

// OnProgress sets fn to hear the settle's progress (called on the settle's
// goroutine, at each chunk of its work); nil stops it. Set it before
// ingest starts.
func (s *Service) OnProgress(fn Progress) { s.progress = fn }

func (s *Service) report(stage string, done, total int) {
	if s.progress != nil {
		s.progress(stage, done, total)
	}
}

// settleWrites bounds the writes of a settle's transactions (a variable
// for tests, which stop settles between transactions).
var settleWrites = batchWrites

// eachBatch runs fn for 0..n-1 in write transactions of bounded size,
// each committed while the next is built when the store can.
func (s *Service) eachBatch(ctx context.Context, n int, fn func(w *writer, i int) error) error {
	var commitErr error
	update := s.store.Update
	as, async := s.store.(AsyncStore)
	if async {
		update = func(ctx context.Context, fn func(Tx) error) error {
			return as.UpdateAsync(ctx, fn, func(err error) {
				if err != nil && commitErr == nil {
					commitErr = err
				}
			})
		}
	}
	for i := 0; i < n && commitErr == nil; {
		err := update(ctx, func(tx Tx) error {
			w := &writer{tx: tx, svc: s, source: "settle", df: map[string]int64{}}
			for start := i; i < n; i++ {
				if writes, bytes := tx.Pending(); i > start && (writes > settleWrites || bytes > batchBytes) {
					break
				}
				if err := fn(w, i); err != nil {
					return err
				}
			}
			return w.flushCounts()
		})
		if err != nil {
			return err
		}
	}
	if async {
		if err := as.Sync(); err != nil {
			return err
		}
	}
	return commitErr
}
