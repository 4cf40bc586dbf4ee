// Package store implements graph.Store on Badger: the key layout (keys.go),
// value encoding, write transactions (one at a time, writes held in memory
// until commit, a cache of hot committed values), and value-log GC.
package store

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/google/btree"
	"github.com/rs/zerolog"

	"github.com/researchkg/kg/graph"
)

// Options configure Open. Build them with DefaultOptions and the With methods.
type Options struct {
	Dir      string
	InMemory bool
	ReadOnly bool
	Logger   zerolog.Logger
	// CacheMB is Badger's block cache size in MiB.
	CacheMB int64
	// HotCacheMB bounds the cache of committed counters, pair counts and
	// lookups that write transactions read through (0: none); see hot.go.
	HotCacheMB int64
	// KeyFilter makes write transactions answer reads of absent counters
	// and lookups from memory (filter.go). It costs a key scan at the first
	// write and ~1.2 bytes per such key: for bulk ingest, not for a server.
	KeyFilter bool
}

// DefaultOptions returns options for a store in dir, sized for a small
// machine (2 cores, a few GiB): see PITFALLS.md on Badger's defaults.
func DefaultOptions(dir string) Options {
	return Options{Dir: dir, Logger: zerolog.Nop(), CacheMB: 64, HotCacheMB: 128}
}

// WithInMemory keeps everything in memory (tests); Dir is ignored.
func (o Options) WithInMemory(b bool) Options { o.InMemory = b; return o }

// WithReadOnly opens the store without write access.
func (o Options) WithReadOnly(b bool) Options { o.ReadOnly = b; return o }

// WithHotCacheMB sets the size of the write path's value cache (0: none).
func (o Options) WithHotCacheMB(mb int64) Options { o.HotCacheMB = mb; return o }

// WithKeyFilter enables the absent-key filter of write transactions.
func (o Options) WithKeyFilter(b bool) Options { o.KeyFilter = b; return o }

// WithLogger routes Badger's and the store's logs to l.
func (o Options) WithLogger(l zerolog.Logger) Options { o.Logger = l; return o }

// DB is a graph store on Badger. It is safe for concurrent use.
type DB struct {
	// wmu serialises write transactions. Badger's conflict detection
	// tracks the keys a transaction read, not the ranges it scanned, so two
	// transactions that each scan a paper's authors and add one would both
	// commit, each missing the other's co-author pair. One writer at a time
	// makes every Update serialisable (ingest writes from one goroutine
	// anyway; the expensive analysis can run outside the transaction).
	// With one writer, Badger's own conflict detection has nothing left to
	// find and is off (it cost a tracked read per scanned key).
	wmu sync.Mutex
	hot *hotCache // locks itself (commits update it while the next update reads it)
	// readOnly: nothing commits, so snapshots read through hot too
	readOnly bool
	dry      *btree.BTreeG[*pending] // set by DryRun
	// flight is the commit under way (UpdateAsync) and next the snapshot
	// taken just before it started; both guarded by wmu.
	flight *flight
	next   *badger.Txn
	// filter (KeyFilter) is built once writes have met many absent keys;
	// the pointer is guarded by wmu, the filter's bits are atomic.
	filter     *keyFilter
	wantFilter bool
	misses     int // absent keys read by write transactions, until the filter is built
	bdb        *badger.DB
	maxValue   int // the largest value Badger takes
	lastWrites int // how many writes the last commit held (guarded by wmu)
	seq        *badger.Sequence
	log        zerolog.Logger
	stop       chan struct{}
	wg         sync.WaitGroup
	once       sync.Once
}

var (
	_ graph.Store = (*DB)(nil)
	// a drifted signature would fall back silently to synchronous commits
	// or refuse --dry-run
	_ graph.AsyncStore = (*DB)(nil)
	_ graph.DryRunner  = (*DB)(nil)
)

// Open opens (creating if needed) the store.
func Open(opts Options) (*DB, error) {
	bo := badger.DefaultOptions(opts.Dir).
		WithNumCompactors(2).
		WithMemTableSize(32 << 20).
		WithNumMemtables(3).
		WithBlockCacheSize(opts.CacheMB << 20).
		WithIndexCacheSize(32 << 20).
		WithDetectConflicts(false).
		WithReadOnly(opts.ReadOnly).
		WithLogger(badgerLogger{opts.Logger.With().Str("component", "badger").Logger()})
	if opts.InMemory {
		bo = bo.WithInMemory(true).WithDir("").WithValueDir("")
	}
	bdb, err := badger.Open(bo)
	if err != nil {
		if strings.Contains(err.Error(), "Cannot acquire directory lock") {
			return nil, fmt.Errorf("open store %s: another kg process holds it (a running kg serve? ask it over GraphQL, or stop it first): %w", opts.Dir, err)
		}
		return nil, fmt.Errorf("open store %s: %w", opts.Dir, err)
	}
	db := &DB{bdb: bdb, maxValue: int(bo.ValueLogFileSize), log: opts.Logger, stop: make(chan struct{}), hot: newHotCache(opts.HotCacheMB << 20), wantFilter: opts.KeyFilter, readOnly: opts.ReadOnly}
	if err := db.checkVersion(opts.ReadOnly); err != nil {
		bdb.Close()
		return nil, err
	}
	if !opts.ReadOnly {
		if db.seq, err = bdb.GetSequence(seqKey, 256); err != nil {
			bdb.Close()
			return nil, fmt.Errorf("open store %s: id sequence: %w", opts.Dir, err)
		}
	}
	if !opts.InMemory && !opts.ReadOnly {
		db.wg.Add(1)
		go db.gcLoop()
	}
	return db, nil
}

func (db *DB) checkVersion(readOnly bool) error {
	return db.bdb.Update(func(txn *badger.Txn) error {
		item, err := txn.Get(versionKey)
		if errors.Is(err, badger.ErrKeyNotFound) {
			if readOnly {
				return nil
			}
			return txn.Set(versionKey, binary.BigEndian.AppendUint64(nil, layoutVersion))
		}
		if err != nil {
			return err
		}
		v, err := item.ValueCopy(nil)
		if err != nil {
			return err
		}
		if len(v) != 8 || binary.BigEndian.Uint64(v) != layoutVersion {
			return fmt.Errorf("store layout version %x, this kg reads %d: use a matching kg or a new data folder", v, layoutVersion)
		}
		return nil
	})
}

// Close stops background work, releases the id sequence and closes Badger.
// It is safe to call more than once.
func (db *DB) Close() error {
	var err error
	db.once.Do(func() {
		db.wmu.Lock()
		err = db.settle()
		db.wmu.Unlock()
		close(db.stop)
		db.wg.Wait()
		if db.seq != nil {
			if e := db.seq.Release(); e != nil {
				err = e
			}
		}
		if e := db.bdb.Close(); e != nil && err == nil {
			err = e
		}
	})
	return err
}

// Size returns the on-disk size of the LSM tree and value log, in bytes.
func (db *DB) Size() (lsm, vlog int64) { return db.bdb.Size() }

func (db *DB) gcLoop() {
	defer db.wg.Done()
	t := time.NewTicker(5 * time.Minute)
	defer t.Stop()
	for {
		select {
		case <-db.stop:
			return
		case <-t.C:
			for db.bdb.RunValueLogGC(0.5) == nil {
			}
		}
	}
}

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
	if db.seq == nil {
		return graph.Errorf(graph.Invalid, "store is open read-only")
	}
	db.wmu.Lock()
	defer db.wmu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
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
	t := &tx{reader: reader{txn: snap, over: o}, db: db}
	if db.dry == nil {
		t.hot = db.hot
		if db.wantFilter && db.filter == nil && db.misses >= filterAfterMisses {
			if err := db.buildFilter(snap); err != nil {
				return err
			}
		}
		t.filter = db.filter
		if db.wantFilter && db.filter == nil {
			t.misses = &db.misses
		}
	}
	if err := fn(t); err != nil {
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
	res := make(chan error, 1)
	txn.CommitWith(func(err error) { res <- err })
	if filter != nil { // whether or not the commit lands: a superset is safe
		f.o.each(func(p *pending) {
			if !p.del {
				filter.addKey(p.key)
			}
		})
	}
	if db.hot != nil {
		db.hot.apply(f.o)
	}
	err = <-res
	if err != nil && db.hot != nil {
		db.hot.clear() // whatever landed, the cache must not be trusted
	}
	f.done <- err
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

// DropCounters deletes every counter whose name starts with prefix, with
// Badger's DropPrefix (which rewrites tables in bulk; other writes wait).
func (db *DB) DropCounters(prefix string) error { return db.dropPrefix("counters", counterKey(prefix)) }

// DropTerms deletes every entry of a search-index namespace, as
// DropCounters does.
func (db *DB) DropTerms(ns graph.Index) error {
	return db.dropPrefix("index entries", termPrefix(ns, ""))
}

func (db *DB) dropPrefix(what string, prefix []byte) error {
	if db.dry != nil {
		return graph.Errorf(graph.Invalid, "cannot drop %s in a dry run", what)
	}
	if db.seq == nil {
		return graph.Errorf(graph.Invalid, "store is open read-only")
	}
	db.wmu.Lock()
	defer db.wmu.Unlock()
	if err := db.settle(); err != nil {
		return err
	}
	if db.hot != nil {
		db.hot.clear()
	}
	return db.bdb.DropPrefix(prefix)
}

// DryRun makes every later Update of this DB keep its writes in memory
// instead of committing them to Badger: reads inside Updates see them,
// nothing is stored, and the writes are gone when the DB is closed. Memory
// grows with what the run would write. (The hot cache is not used: it
// holds committed values only.)
func (db *DB) DryRun() {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	db.settle() // its outcome went to its callback
	if db.dry == nil {
		db.dry = newTree()
	}
}

// Read opens a read-only snapshot.
func (db *DB) Read(ctx context.Context) (graph.Reader, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r := &reader{txn: db.bdb.NewTransaction(false)}
	if db.readOnly {
		// Nothing commits to a read-only store, so the values the cache
		// holds are those of every snapshot: queries read through it (a
		// co-author list and its twenty names at a map lookup each instead
		// of a walk of the LSM tree's levels). A store that takes writes
		// keeps the cache to its write transactions: a snapshot must not
		// see a value committed after it was taken.
		r.hot = db.hot
	}
	return r, nil
}

// reader reads a Badger snapshot; in a write transaction, under the
// transaction's own writes (over) and through the hot cache.
//
// Values returned by get must not be modified: they may be shared.
type reader struct {
	txn    *badger.Txn
	over   *overlay   // set in write transactions
	hot    *hotCache  // set in write transactions that may use it
	filter *keyFilter // likewise
	misses *int       // counts reads that found nothing (DB.misses)
}

func (r *reader) Close() { r.txn.Discard() }

func (r *reader) get(k []byte) ([]byte, error) {
	if r.over != nil { // a write transaction: its own writes first
		if p, ok := r.over.lookup(k); ok {
			if p.del {
				return nil, graph.ErrNotFound
			}
			return p.val, nil
		}
	}
	if r.over != nil && !r.over.inSnapshot(k) {
		return nil, graph.ErrNotFound
	}
	if r.filter != nil && r.filter.covers(k) && !r.filter.mayContain(k) {
		return nil, graph.ErrNotFound
	}
	hot := r.hot != nil && cacheable(k)
	if hot {
		if v, ok := r.hot.get(k); ok {
			return v, nil
		}
	}
	item, err := r.txn.Get(k)
	if errors.Is(err, badger.ErrKeyNotFound) {
		if r.misses != nil && filtered(k) { // misses the filter would answer
			*r.misses++
		}
		return nil, graph.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	v, err := item.ValueCopy(nil)
	if hot && err == nil {
		r.hot.put(k, v) // committed: the snapshot is the latest commit
	}
	return v, err
}

func (r *reader) Node(id graph.NodeID) (graph.Node, error) {
	v, err := r.get(nodeKey(id))
	if err != nil {
		return graph.Node{}, err
	}
	var n graph.Node
	if err := json.Unmarshal(v, &n); err != nil {
		return graph.Node{}, fmt.Errorf("decode node %s: %w", id, err)
	}
	n.ID = id
	return n, nil
}

func (r *reader) Abstracts(id graph.NodeID) ([]string, error) {
	v, err := r.get(textKey(id))
	if errors.Is(err, graph.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	if err := json.Unmarshal(v, &out); err != nil {
		return nil, fmt.Errorf("decode abstracts of %s: %w", id, err)
	}
	return out, nil
}

func (r *reader) Lookup(ns graph.Index, key string) (graph.NodeID, error) {
	v, err := r.get(lookupKey(ns, key))
	if err != nil {
		return 0, err
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("lookup %d %q: malformed value", ns, key)
	}
	return graph.NodeID(binary.BigEndian.Uint64(v)), nil
}

func decodeWeight(v []byte) float64 {
	if len(v) != 8 {
		return 0
	}
	return math.Float64frombits(binary.BigEndian.Uint64(v))
}

func encodeWeight(w float64) []byte {
	if w == 0 {
		return nil
	}
	return binary.BigEndian.AppendUint64(nil, math.Float64bits(w))
}

// valued is what a scan callback may ask of an entry: *badger.Item, or a
// pending write of this transaction.
type valued interface {
	ValueSize() int64
	Value(fn func([]byte) error) error
}

// scan iterates keys with a prefix, starting at start (or the prefix). In a
// write transaction it merges a read snapshot with the transaction's own
// pending writes (see overlay).
func (r *reader) scan(prefix, start []byte, values bool, fn func(k []byte, item valued) (bool, error)) error {
	if r.over != nil {
		inSnap := r.over.inSnapshot(prefix) &&
			!(r.filter != nil && r.filter.coversScan(prefix) && !r.filter.mayContain(prefix))
		return r.over.scan(prefix, start, values, inSnap, fn)
	}
	opts := badger.DefaultIteratorOptions
	opts.PrefetchValues = values
	opts.Prefix = prefix
	if !values {
		opts.PrefetchSize = 0
	}
	it := r.txn.NewIterator(opts)
	defer it.Close()
	if start == nil {
		start = prefix
	}
	for it.Seek(start); it.ValidForPrefix(prefix); it.Next() {
		item := it.Item()
		more, err := fn(item.Key(), item)
		if err != nil || !more {
			return err
		}
	}
	return nil
}

func (r *reader) Edges(id graph.NodeID, t graph.EdgeType, dir graph.Direction, fn func(graph.NodeID, float64) bool) error {
	return r.scanEdges(edgePrefix(dirPrefix(dir), id, t), func(_ graph.EdgeType, o graph.NodeID, w float64) bool {
		return fn(o, w)
	})
}

func (r *reader) AllEdges(id graph.NodeID, dir graph.Direction, fn func(graph.EdgeType, graph.NodeID, float64) bool) error {
	return r.scanEdges(edgePrefix(dirPrefix(dir), id, 0)[:9], fn)
}

func dirPrefix(dir graph.Direction) byte {
	if dir == graph.In {
		return pIn
	}
	return pOut
}

// scanEdges visits the edge keys under prefix with their weights.
func (r *reader) scanEdges(prefix []byte, fn func(graph.EdgeType, graph.NodeID, float64) bool) error {
	return r.scan(prefix, nil, true, func(k []byte, item valued) (bool, error) {
		other, err := parseEdgeKey(k)
		if err != nil {
			return false, err
		}
		var w float64
		if item.ValueSize() > 0 {
			if err := item.Value(func(v []byte) error { w = decodeWeight(v); return nil }); err != nil {
				return false, err
			}
		}
		return fn(graph.EdgeType(k[9]), other, w), nil
	})
}

func (r *reader) Edge(src graph.NodeID, t graph.EdgeType, dst graph.NodeID) (float64, bool, error) {
	v, err := r.get(edgeKey(pOut, src, t, dst))
	if errors.Is(err, graph.ErrNotFound) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return decodeWeight(v), true, nil
}

func (r *reader) List(owner graph.NodeID, t graph.EdgeType, after []byte, fn func([]byte) bool) error {
	prefix := listKey(owner, t, nil)
	var start []byte
	if after != nil {
		// the first key strictly after prefix+after
		start = append(listKey(owner, t, after), 0)
	}
	return r.scan(prefix, start, false, func(k []byte, _ valued) (bool, error) {
		return fn(k[len(prefix):]), nil
	})
}

func (r *reader) Pairs(t graph.EdgeType, a graph.NodeID, fn func(graph.NodeID, int64) bool) error {
	prefix := pairKey(t, a, 0)[:10]
	return r.scan(prefix, nil, true, func(k []byte, item valued) (bool, error) {
		b, err := parsePairKey(k)
		if err != nil {
			return false, err
		}
		var n int64
		if err := item.Value(func(v []byte) error { n = decodeInt(v); return nil }); err != nil {
			return false, err
		}
		return fn(b, n), nil
	})
}

func (r *reader) AllPairs(t graph.EdgeType, fn func(a, b graph.NodeID, n int64) bool) error {
	prefix := []byte{pPair, byte(t)}
	return r.scan(prefix, nil, true, func(k []byte, item valued) (bool, error) {
		b, err := parsePairKey(k)
		if err != nil {
			return false, err
		}
		a := graph.NodeID(binary.BigEndian.Uint64(k[2:10]))
		if a >= b {
			return true, nil // the mirror of a pair visited as (b, a)
		}
		var n int64
		if err := item.Value(func(v []byte) error { n = decodeInt(v); return nil }); err != nil {
			return false, err
		}
		return fn(a, b, n), nil
	})
}

func (r *reader) KindEdges(kind graph.Kind, t graph.EdgeType, fn func(src, dst graph.NodeID, w float64) bool) error {
	prefix := []byte{pOut, byte(kind)} // the kind is the id's top byte
	return r.scan(prefix, nil, true, func(k []byte, item valued) (bool, error) {
		dst, err := parseEdgeKey(k)
		if err != nil || graph.EdgeType(k[9]) != t {
			return err == nil, err
		}
		var w float64
		if item.ValueSize() > 0 {
			if err := item.Value(func(v []byte) error { w = decodeWeight(v); return nil }); err != nil {
				return false, err
			}
		}
		return fn(graph.NodeID(binary.BigEndian.Uint64(k[1:9])), dst, w), nil
	})
}

func (r *reader) Pair(t graph.EdgeType, a, b graph.NodeID) (int64, error) {
	v, err := r.get(pairKey(t, a, b))
	if errors.Is(err, graph.ErrNotFound) {
		return 0, nil
	}
	return decodeInt(v), err
}

func (r *reader) Counters(prefix string, fn func(string, int64) bool) error {
	return r.scan(counterKey(prefix), nil, true, func(k []byte, item valued) (bool, error) {
		var n int64
		if err := item.Value(func(v []byte) error { n = decodeInt(v); return nil }); err != nil {
			return false, err
		}
		return fn(string(k[1:]), n), nil
	})
}

func (r *reader) Counter(name string) (int64, error) {
	v, err := r.get(counterKey(name))
	if errors.Is(err, graph.ErrNotFound) {
		return 0, nil
	}
	return decodeInt(v), err
}

func (r *reader) NodeIDs(k graph.Kind, after graph.NodeID, fn func(graph.NodeID) bool) error {
	prefix := []byte{pNode, byte(k)}
	var start []byte
	if after != 0 {
		start = append(nodeKey(after), 0)
	}
	return r.scan(prefix, start, false, func(key []byte, _ valued) (bool, error) {
		if len(key) != 9 {
			return false, errBadKey
		}
		return fn(graph.NodeID(binary.BigEndian.Uint64(key[1:]))), nil
	})
}

func (r *reader) Terms(ns graph.Index, prefix string, fn func(string, graph.NodeID) bool) error {
	return r.scan(termPrefix(ns, prefix), nil, false, func(k []byte, _ valued) (bool, error) {
		term, id, err := parseTermKey(k)
		if err != nil {
			return false, err
		}
		return fn(term, id), nil
	})
}

func (r *reader) Value(ns graph.Index, key string) ([]byte, error) {
	return r.get(valueKey(ns, key))
}

func (r *reader) Values(ns graph.Index, prefix string, fn func(key string, v []byte) bool) error {
	return r.scan(valueKey(ns, prefix), nil, true, func(k []byte, item valued) (bool, error) {
		var v []byte
		if err := item.Value(func(b []byte) error { v = slices.Clone(b); return nil }); err != nil {
			return false, err
		}
		return fn(string(k[2:]), v), nil
	})
}

func decodeInt(v []byte) int64 {
	if len(v) != 8 {
		return 0
	}
	return int64(binary.BigEndian.Uint64(v))
}

type tx struct {
	reader
	db *DB
}

func (t *tx) NewID(k graph.Kind) (graph.NodeID, error) {
	n, err := t.db.seq.Next()
	if err != nil {
		return 0, fmt.Errorf("allocate id: %w", err)
	}
	id := graph.MakeID(k, n+1)
	if t.over.fresh == nil {
		t.over.fresh = map[graph.NodeID]struct{}{}
	}
	t.over.fresh[id] = struct{}{}
	return id, nil
}

func (t *tx) PutNode(n graph.Node) error {
	v, err := json.Marshal(&n)
	if err != nil {
		return err
	}
	return t.set(nodeKey(n.ID), v)
}

func (t *tx) DeleteNode(id graph.NodeID) error {
	if err := t.del(nodeKey(id)); err != nil {
		return err
	}
	return t.del(textKey(id))
}

func (t *tx) DeleteLookup(ns graph.Index, key string) error { return t.del(lookupKey(ns, key)) }

func (t *tx) DeleteTerm(ns graph.Index, term string, id graph.NodeID) error {
	return t.del(termKey(ns, term, id))
}

func (t *tx) PutAbstracts(id graph.NodeID, abstracts []string) error {
	if len(abstracts) == 0 {
		return t.del(textKey(id))
	}
	v, err := json.Marshal(abstracts)
	if err != nil {
		return err
	}
	return t.set(textKey(id), v)
}

func (t *tx) PutLookup(ns graph.Index, key string, id graph.NodeID) error {
	return t.set(lookupKey(ns, key), binary.BigEndian.AppendUint64(nil, uint64(id)))
}

func (t *tx) PutEdge(src graph.NodeID, et graph.EdgeType, dst graph.NodeID, w float64) (bool, error) {
	old, existed, err := t.Edge(src, et, dst)
	if err != nil {
		return false, err
	}
	if existed && old == w {
		return false, nil
	}
	v := encodeWeight(w)
	if err := t.set(edgeKey(pOut, src, et, dst), v); err != nil {
		return false, err
	}
	return !existed, t.set(edgeKey(pIn, dst, et, src), v)
}

func (t *tx) DeleteEdge(src graph.NodeID, et graph.EdgeType, dst graph.NodeID) (bool, error) {
	_, existed, err := t.Edge(src, et, dst)
	if err != nil || !existed {
		return false, err
	}
	if err := t.del(edgeKey(pOut, src, et, dst)); err != nil {
		return false, err
	}
	return true, t.del(edgeKey(pIn, dst, et, src))
}

func (t *tx) PutListEntry(owner graph.NodeID, et graph.EdgeType, sortKey []byte) error {
	return t.set(listKey(owner, et, sortKey), nil)
}

func (t *tx) DeleteListEntry(owner graph.NodeID, et graph.EdgeType, sortKey []byte) error {
	return t.del(listKey(owner, et, sortKey))
}

// AddPair reads the pair once and writes both directions: they always hold
// the same count.
func (t *tx) AddPair(et graph.EdgeType, a, b graph.NodeID, delta int64) (int64, error) {
	n, err := t.Pair(et, a, b)
	if err != nil {
		return 0, err
	}
	n += delta
	return max(n, 0), t.SetPair(et, a, b, n)
}

func (t *tx) SetPair(et graph.EdgeType, a, b graph.NodeID, n int64) error {
	for _, k := range [][]byte{pairKey(et, a, b), pairKey(et, b, a)} {
		var err error
		if n <= 0 {
			err = t.del(k)
		} else {
			err = t.set(k, binary.BigEndian.AppendUint64(nil, uint64(n)))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (t *tx) AddCounter(name string, delta int64) (int64, error) {
	n, err := t.Counter(name)
	if err != nil {
		return 0, err
	}
	n += delta
	if n == 0 {
		return 0, t.del(counterKey(name))
	}
	return n, t.set(counterKey(name), binary.BigEndian.AppendUint64(nil, uint64(n)))
}

func (t *tx) PutTerm(ns graph.Index, term string, id graph.NodeID) error {
	return t.set(termKey(ns, term, id), nil)
}

func (t *tx) PutValue(ns graph.Index, key string, v []byte) error {
	return t.set(valueKey(ns, key), slices.Clone(v))
}

func (t *tx) DeleteValue(ns graph.Index, key string) error { return t.del(valueKey(ns, key)) }

// badgerLogger adapts zerolog to Badger's logger; Badger's Info chatter goes
// to Debug.
type badgerLogger struct{ l zerolog.Logger }

func (b badgerLogger) Errorf(f string, a ...any) { b.l.Error().Msg(trimNL(fmt.Sprintf(f, a...))) }
func (b badgerLogger) Warningf(f string, a ...any) {
	b.l.Warn().Msg(trimNL(fmt.Sprintf(f, a...)))
}
func (b badgerLogger) Infof(f string, a ...any)  { b.l.Debug().Msg(trimNL(fmt.Sprintf(f, a...))) }
func (b badgerLogger) Debugf(f string, a ...any) { b.l.Trace().Msg(trimNL(fmt.Sprintf(f, a...))) }

func trimNL(s string) string { return strings.TrimRight(s, "\n") }

// Checksum hashes every key and value of the graph (not the id sequence or
// layout metadata), so two stores holding the same graph with the same ids
// have the same checksum. Used by tests and `kg stats --checksum`.
func (db *DB) Checksum() (uint64, error) {
	h := fnv.New64a()
	err := db.bdb.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.DefaultIteratorOptions)
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			k := item.Key()
			if len(k) > 0 && k[0] == pMeta {
				continue
			}
			h.Write(k)
			h.Write([]byte{0xff})
			if err := item.Value(func(v []byte) error { h.Write(v); return nil }); err != nil {
				return err
			}
			h.Write([]byte{0xfe})
		}
		return nil
	})
	return h.Sum64(), err
}

// Backup writes a full backup of the store to w in Badger's backup stream
// format (every key's latest version) and returns its version.
func (db *DB) Backup(w io.Writer) (uint64, error) {
	return db.bdb.Backup(w, 0)
}

// Restore loads a backup stream (from Backup) into the store folder dir,
// which must be empty or absent. The store is not opened through Open: an
// open store holds a lease on the id sequence, and releasing it would
// overwrite the restored sequence (and later ids would collide).
func Restore(dir string, r io.Reader, log zerolog.Logger) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("restore into %s: the folder is not empty (restore into a new folder)", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("restore into %s: %w", dir, err)
	}
	bdb, err := badger.Open(badger.DefaultOptions(dir).WithNumCompactors(2).
		WithLogger(badgerLogger{log.With().Str("component", "badger").Logger()}))
	if err != nil {
		return fmt.Errorf("restore into %s: %w", dir, err)
	}
	if err := load(bdb, &framedReader{r: r}); err != nil {
		bdb.Close()
		return fmt.Errorf("restore into %s: reading the backup: %w", dir, err)
	}
	var ver []byte
	err = bdb.View(func(txn *badger.Txn) error {
		item, err := txn.Get(versionKey)
		if err != nil {
			return err
		}
		ver, err = item.ValueCopy(nil)
		return err
	})
	if cerr := bdb.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if errors.Is(err, badger.ErrKeyNotFound) {
		return fmt.Errorf("restore into %s: the backup holds no kg store (no layout version)", dir)
	}
	if err != nil {
		return fmt.Errorf("restore into %s: %w", dir, err)
	}
	if len(ver) != 8 || binary.BigEndian.Uint64(ver) != layoutVersion {
		return fmt.Errorf("restore into %s: the backup has store layout %x, this kg reads %d", dir, ver, layoutVersion)
	}
	return nil
}

// load is Badger's Load, which panics on some garbage (a length prefix
// beyond memory): a bad file must be an error, not a crash.
func load(bdb *badger.DB, r io.Reader) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("not a kg backup (the stream is malformed: %v)", p)
		}
	}()
	return bdb.Load(r, 256)
}

// maxBackupChunk bounds one chunk of a backup stream (Badger writes chunks
// of a few MB); a larger length prefix means the file is not a backup.
const maxBackupChunk = 256 << 20

// framedReader passes a backup stream through, checking each chunk's
// length prefix (uint64 little-endian, then that many bytes) before Badger
// allocates for it.
type framedReader struct {
	r      io.Reader
	hdr    [8]byte
	inHdr  int    // header bytes seen of the current chunk
	remain uint64 // body bytes left in the current chunk
}

func (f *framedReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	for i := 0; i < n; {
		if f.remain > 0 { // skip the body
			k := min(uint64(n-i), f.remain)
			f.remain -= k
			i += int(k)
			continue
		}
		f.hdr[f.inHdr] = p[i]
		i++
		if f.inHdr++; f.inHdr == 8 {
			f.inHdr = 0
			f.remain = binary.LittleEndian.Uint64(f.hdr[:])
			if f.remain > maxBackupChunk {
				return 0, fmt.Errorf("not a kg backup (a chunk of %d bytes)", f.remain)
			}
		}
	}
	return n, err
}
