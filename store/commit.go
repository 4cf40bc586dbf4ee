package store

import (
	"context"
	"fmt"
	"time"

	"github.com/dgraph-io/badger/v4"

	"github.com/researchkg/kg/graph"
)

// Update runs fn in a read-write transaction and commits it atomically.
//
// fn reads a snapshot under its own writes; those writes stay in memory
// (the overlay) until fn returns and then go to Badger in one transaction,
// so a failed fn or commit leaves nothing behind, and tx.Atomic can undo
// part of fn's work (a batch of documents whose one bad document is
// dropped). Updates run one at a time.
func (db *DB) Update(ctx context.Context, fn func(graph.Tx) error) error {
	var commitErr error
	if err := db.update(ctx, fn, func(err error) { commitErr = err }, true); err != nil {
		return err
	}
	return commitErr
}

// UpdateAsync is Update that returns once fn has run and its commit has
// started: the next Update builds on it (reading its writes from memory)
// while Badger applies it. committed is called with the commit's outcome
// at the start of the next update, or in Sync or Close; a new snapshot
// (Read) waits for the commit. The ingest pipeline writes this way: one
// batch is committed while the next is built.
func (db *DB) UpdateAsync(ctx context.Context, fn func(graph.Tx) error, committed func(error)) error {
	return db.update(ctx, fn, committed, false)
}

// Sync waits for a commit started by UpdateAsync and reports its outcome
// (also given to its callback).
func (db *DB) Sync() error {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	return db.settle()
}

// flight is a commit under way.
type flight struct {
	o         *overlay
	done      chan error
	committed func(error)
}

func (db *DB) update(ctx context.Context, fn func(graph.Tx) error, committed func(error), wait bool) error {
	if db.readOnly {
		return graph.Errorf(graph.Invalid, "store is open read-only")
	}
	db.wmu.Lock()
	defer db.wmu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	if db.bulk != nil {
		return db.bulkUpdate(ctx, fn, committed)
	}
	if db.dry == nil {
		if err := db.checkSpace(); err != nil {
			return err
		}
	}
	// Read the snapshot taken before the commit under way started, under
	// that commit's writes (or a dry run's).
	snap := db.next
	if snap == nil {
		snap = db.bdb.NewTransaction(false)
		db.next = snap
	}
	o := newOverlay(snap, db.lastWrites)
	o.base = db.dry
	if db.flight != nil {
		o.base, o.baseIndex = db.flight.o.tree, db.flight.o.index
	}
	t := &tx{reader: reader{txn: snap, over: o, ts: never, scans: &db.scans}, db: db}
	if db.dry == nil {
		t.hot = db.hot
		if db.wantFilter && db.filter == nil && db.misses >= filterAfterMisses && db.misses >= db.filterBreakEven() {
			if err := db.buildFilter(snap); err != nil {
				return err
			}
		}
		t.filter = db.filter
		if db.wantFilter && db.filter == nil {
			t.misses = &db.misses
		}
	}
	err := fn(t)
	if err == nil {
		err = t.flushRows()
	}
	if err != nil {
		if db.flight == nil { // nothing under way: do not hold a snapshot
			db.next.Discard()
			db.next = nil
		}
		return err
	}
	if db.dry != nil { // a dry run keeps its writes for the next Update
		o.each(func(p *pending) { db.dry.ReplaceOrInsert(p) })
		if committed != nil {
			committed(nil)
		}
		return nil
	}
	if err := db.settle(); err != nil {
		return fmt.Errorf("not committed: the transaction before it failed: %w", err)
	}
	if err := db.fits(o); err != nil {
		return err
	}
	db.lastWrites = len(o.index)
	// The next update reads a snapshot of everything before this commit,
	// under this commit's writes, so it need not wait for Badger.
	db.next = db.bdb.NewTransaction(false)
	f := &flight{o: o, done: make(chan error, 1), committed: committed}
	go db.commit(f, db.filter)
	db.flight = f
	if wait {
		return db.settle()
	}
	return nil
}

// commit applies a flight's writes to Badger and brings the absent-key
// filter (filter, when there is one) and the hot cache up to date, then
// reports on f.done. It runs on its own goroutine while the writer builds
// the next update on top of f's writes: that update finds f's keys among
// them before it asks the filter or the cache, so both may change under it
// (the cache takes its lock; the filter sets bits atomically). Building
// the Badger transaction and updating the cache and filter took a quarter
// of the writer's time on the arXiv file when they ran on the writer.
func (db *DB) commit(f *flight, filter *keyFilter) {
	txn, err := db.prepare(f.o)
	if err != nil {
		f.done <- err
		return
	}
	defer txn.Discard()
	// The cache's entries of the keys this commit writes change (unseen by
	// snapshots) before Badger can make the commit visible: a snapshot
	// taken after it must not find an older value there.
	var changed [][]byte
	if db.hot != nil {
		changed = db.hot.apply(f.o)
	}
	res := make(chan error, 1)
	txn.CommitWith(func(err error) { res <- err })
	if filter != nil { // whether or not the commit lands: a superset is safe
		f.o.each(func(p *pending) {
			if !p.del {
				filter.addKey(p.key)
			}
		})
	}
	err = <-res
	if db.hot != nil {
		db.hot.land(changed, db.readTs(), err == nil)
	}
	if err == nil {
		db.notifyCommit(f.o)
	}
	f.done <- err
}

// readTs is a read timestamp that sees every commit landed so far.
func (db *DB) readTs() uint64 {
	txn := db.bdb.NewTransaction(false)
	defer txn.Discard()
	return txn.ReadTs()
}

// OnCommit registers fn to be told, after each commit, the nodes whose
// value or edges it wrote (graph.CommitNotifier).
func (db *DB) OnCommit(fn func(changed []graph.NodeID)) {
	db.nmu.Lock()
	defer db.nmu.Unlock()
	db.notify = append(db.notify, fn)
}

// notifyCommit tells the OnCommit functions what a landed commit changed:
// the ids in its node and edge keys (an edge by both ends).
func (db *DB) notifyCommit(o *overlay) {
	db.nmu.Lock()
	fns := db.notify
	db.nmu.Unlock()
	if len(fns) == 0 {
		return
	}
	seen := map[graph.NodeID]struct{}{}
	o.each(func(p *pending) {
		if k := p.key; len(k) > 0 && (k[0] == pNode || k[0] == pOut || k[0] == pIn) {
			a, b := keyIDs(k)
			for _, id := range []graph.NodeID{a, b} {
				if id != 0 {
					seen[id] = struct{}{}
				}
			}
		}
	})
	if len(seen) == 0 {
		return
	}
	ids := make([]graph.NodeID, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	for _, fn := range fns {
		fn(ids)
	}
}

// settle waits for the commit under way (wmu held) and calls its
// callback. The snapshot the next update would have read under it is
// discarded.
func (db *DB) settle() error {
	if db.next != nil {
		db.next.Discard()
		db.next = nil
	}
	f := db.flight
	if f == nil {
		return nil
	}
	db.flight = nil
	err := <-f.done
	if f.committed != nil {
		f.committed(err)
	}
	return err
}

// filterAfterMisses is how many absent keys write transactions read
// before the filter is built: a fresh ingest gets there within a few
// hundred records; re-reading a file already stored (nearly every key
// exists) never does, and skips the scan (2.3 s on the arXiv store).
var filterAfterMisses = 50000

// filterKeysPerMiss scales the misses that pay for the filter with the
// keys its build must scan: on the 47,919-paper store the build scanned
// 7.46 million keys in 3.7 s (0.5 µs a key), while a read that finds
// nothing walks the tables' blooms and levels (a few µs). A run that has
// met m misses is taken to meet about m more, so the build pays once m
// reaches about a sixth of the keys; a run adding 1,000 records to that
// store met far fewer, and its 3.7 s build was an eighth of its time.
// 0: no scaling (tests).
var filterKeysPerMiss = 8

// filterBreakEven is how many misses pay for building the filter on this
// store: its key count (Badger's tables, versions included, counted once
// per DB) over filterKeysPerMiss.
func (db *DB) filterBreakEven() int {
	if filterKeysPerMiss == 0 {
		return 0
	}
	if db.keysAtOpen < 0 {
		var n uint64
		for _, t := range db.bdb.Tables() {
			n += uint64(t.KeyCount)
		}
		db.keysAtOpen = int(n)
	}
	return db.keysAtOpen / filterKeysPerMiss
}

// buildFilter fills the key filter from a key-only scan of the snapshot
// and the writes of the commit under way, which the snapshot was taken
// before (missing them made later reads of those keys answer "absent":
// duplicate authors and subjects, found by TestIngestSurvivesSIGKILL).
func (db *DB) buildFilter(snap *badger.Txn) error {
	start := time.Now()
	f := newKeyFilter(1 << 20)
	if db.flight != nil {
		db.flight.o.each(func(p *pending) {
			if !p.del {
				f.addKey(p.key)
			}
		})
	}
	for prefix := range 256 {
		if !filteredPrefix[prefix] && prefix != int(pTerm) {
			continue
		}
		opts := badger.DefaultIteratorOptions
		opts.PrefetchValues = false
		opts.Prefix = []byte{byte(prefix)}
		it := snap.NewIterator(opts)
		for it.Rewind(); it.Valid(); it.Next() {
			f.addKey(it.Item().Key())
		}
		it.Close()
	}
	n := 0
	for _, b := range *f.parts.Load() {
		n += b.n
	}
	db.log.Info().Int("keys", n).Int("bytes", f.bytes()).Dur("took", time.Since(start)).Msg("absent-key filter built")
	db.filter = f
	return nil
}

// prepare puts the overlay's writes in one Badger transaction, ready to
// commit (fits has checked Badger's limits).
func (db *DB) prepare(o *overlay) (*badger.Txn, error) {
	txn := db.bdb.NewTransaction(true)
	if db.census != nil {
		db.census.count(o)
	}
	for _, p := range o.index {
		var err error
		if p.del {
			err = txn.Delete(p.key)
		} else {
			err = txn.Set(p.key, p.val)
		}
		if err != nil {
			txn.Discard()
			return nil, fmt.Errorf("build the Badger transaction (%d writes, %d bytes): %w", len(o.index), o.bytes, err)
		}
	}
	return txn, nil
}

// fits checks a transaction against Badger's limits before its commit
// starts (prepare then runs on the commit goroutine, where a refusal could
// no longer go back to the caller): a value over the value log's file
// size, or more writes or bytes than Badger takes in one transaction. The
// size is Badger's own estimate (Txn.checkSize: key, value, two meta bytes
// and ten for the version, each write) taking every value as stored
// inline, which is never less.
func (db *DB) fits(o *overlay) error {
	if o.maxVal > db.maxValue {
		return graph.Errorf(graph.Invalid, "the store refused a value of %d bytes", o.maxVal)
	}
	n := int64(len(o.index))
	if size := int64(o.bytes) + 12*n; n >= db.bdb.MaxBatchCount() || size >= db.bdb.MaxBatchSize() {
		return graph.Errorf(graph.Invalid, "too large for one transaction (%d writes, %d bytes): %w", n, o.bytes, badger.ErrTxnTooBig)
	}
	return nil
}
