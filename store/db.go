// Package store implements graph.Store on Badger: the key layout (keys.go),
// value encoding, transactions with conflict retry, and value-log GC.
package store

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
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
}

// DefaultOptions returns options for a store in dir, sized for a small
// machine (2 cores, a few GiB): see PITFALLS.md on Badger's defaults.
func DefaultOptions(dir string) Options {
	return Options{Dir: dir, Logger: zerolog.Nop(), CacheMB: 64}
}

// WithInMemory keeps everything in memory (tests); Dir is ignored.
func (o Options) WithInMemory(b bool) Options { o.InMemory = b; return o }

// WithReadOnly opens the store without write access.
func (o Options) WithReadOnly(b bool) Options { o.ReadOnly = b; return o }

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
	wmu  sync.Mutex
	dry  *btree.BTreeG[*pending] // set by DryRun
	bdb  *badger.DB
	seq  *badger.Sequence
	log  zerolog.Logger
	stop chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

var _ graph.Store = (*DB)(nil)

// Open opens (creating if needed) the store.
func Open(opts Options) (*DB, error) {
	bo := badger.DefaultOptions(opts.Dir).
		WithNumCompactors(2).
		WithMemTableSize(32 << 20).
		WithNumMemtables(3).
		WithBlockCacheSize(opts.CacheMB << 20).
		WithIndexCacheSize(32 << 20).
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
	db := &DB{bdb: bdb, log: opts.Logger, stop: make(chan struct{})}
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

// maxAttempts bounds retries of a conflicting transaction.
const maxAttempts = 20

// Update runs fn in a read-write transaction and commits it, retrying on
// Badger's ErrConflict with a short backoff.
func (db *DB) Update(ctx context.Context, fn func(graph.Tx) error) error {
	if db.seq == nil {
		return graph.Errorf(graph.Invalid, "store is open read-only")
	}
	db.wmu.Lock()
	defer db.wmu.Unlock()
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if db.dry != nil {
			return db.dryUpdate(fn)
		}
		txn := db.bdb.NewTransaction(true)
		snap := db.bdb.NewTransaction(false)
		t := &tx{reader: reader{txn: txn}, db: db}
		t.over = newOverlay(txn, snap)
		err := fn(t)
		if err == nil {
			err = txn.Commit()
		}
		snap.Discard()
		txn.Discard()
		if errors.Is(err, badger.ErrConflict) && attempt < maxAttempts {
			time.Sleep(time.Duration(attempt) * time.Millisecond)
			continue
		}
		if errors.Is(err, badger.ErrTxnTooBig) {
			return graph.Errorf(graph.Invalid, "document too large for one transaction: %w", err)
		}
		return err
	}
}

// DropCounters deletes every counter whose name starts with prefix, with
// Badger's DropPrefix (which rewrites tables in bulk; other writes wait).
func (db *DB) DropCounters(prefix string) error {
	if db.dry != nil {
		return graph.Errorf(graph.Invalid, "cannot drop counters in a dry run")
	}
	if db.seq == nil {
		return graph.Errorf(graph.Invalid, "store is open read-only")
	}
	return db.bdb.DropPrefix(counterKey(prefix))
}

// DryRun makes every later Update of this DB keep its writes in memory
// instead of committing them to Badger: reads inside Updates see them,
// nothing is stored, and the writes are gone when the DB is closed. Memory
// grows with what the run would write.
func (db *DB) DryRun() {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	if db.dry == nil {
		db.dry = newTree()
	}
}

// dryUpdate runs fn over a snapshot plus the dry run's earlier writes; on
// success its writes join them.
func (db *DB) dryUpdate(fn func(graph.Tx) error) error {
	snap := db.bdb.NewTransaction(false)
	defer snap.Discard()
	o := newOverlay(snap, snap)
	o.base = db.dry
	t := &tx{reader: reader{txn: snap, over: o}, db: db}
	if err := fn(t); err != nil {
		return err
	}
	o.tree.Ascend(func(p *pending) bool {
		db.dry.ReplaceOrInsert(p)
		return true
	})
	return nil
}

// Read opens a read-only snapshot.
func (db *DB) Read(ctx context.Context) (graph.Reader, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &reader{txn: db.bdb.NewTransaction(false)}, nil
}

type reader struct {
	txn  *badger.Txn
	over *overlay // set in write transactions
}

func (r *reader) Close() { r.txn.Discard() }

func (r *reader) get(k []byte) ([]byte, error) {
	if r.over != nil && r.over.base != nil { // dry run: writes never reach Badger
		if p, ok := r.over.lookup(k); ok {
			if p.del {
				return nil, graph.ErrNotFound
			}
			return append([]byte(nil), p.val...), nil
		}
	}
	item, err := r.txn.Get(k)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, graph.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return item.ValueCopy(nil)
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
		return r.over.scan(prefix, start, values, fn)
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

func (r *reader) Pair(t graph.EdgeType, a, b graph.NodeID) (int64, error) {
	v, err := r.get(pairKey(t, a, b))
	if errors.Is(err, graph.ErrNotFound) {
		return 0, nil
	}
	return decodeInt(v), err
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
	return graph.MakeID(k, n+1), nil
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

func (t *tx) AddPair(et graph.EdgeType, a, b graph.NodeID, delta int64) (int64, error) {
	k := pairKey(et, a, b)
	n, err := t.Pair(et, a, b)
	if err != nil {
		return 0, err
	}
	n += delta
	if n <= 0 {
		return 0, t.del(k)
	}
	return n, t.set(k, binary.BigEndian.AppendUint64(nil, uint64(n)))
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
