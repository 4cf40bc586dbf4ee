package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
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
	// Sync makes every commit wait until its writes are on disk (fsync of
	// the write-ahead log): a power cut then loses no committed
	// transaction, at a cost in write speed. Without it a commit is in the
	// operating system's cache, which a crash of kg survives and a power
	// cut may not.
	Sync bool
	// VerifyBlocks checks each table block's checksum when Badger reads it
	// from disk (kg serve): a damaged block is never decoded into an
	// answer. Badger then reads it as absent, so damage is found by Verify
	// (kg verify, and kg serve at startup).
	VerifyBlocks bool
	// ReserveMB raises the free disk space writes leave (see space.go); the
	// reserve is never less than what Badger may write on its own.
	ReserveMB int64
	// Census counts the writes that reach Badger by kind of key (DB.Census;
	// kg ingest --write-census).
	Census bool
	// BulkRestart lets Open open a store whose bulk load did not finish
	// (bulk.go): for the ingest that starts it over. Without it such a
	// store is refused.
	BulkRestart bool
}

// DefaultOptions returns options for a store in dir, sized for a small
// machine (2 cores, a few GiB). Badger's defaults (64 MB memtables × 5,
// 256 MB block cache, 4 compactors) are for a server; here:
//   - memtables of 32 MB × 3 (Open): Badger refuses a transaction over ~15%
//     of a memtable, and 32 MB still holds a 100-author paper's writes (16
//     MB did not); 64 MB × 5 was no faster on ingest (30.0 s vs 28.9 s for
//     10,000 arXiv records, medians of 5, testdata/bench/ingest-settings.txt)
//     and may hold 320 MB of memtables instead of 96;
//   - 2 compactors (Badger rejects 1), a 64 MB block cache and a 32 MB
//     index cache (0 would keep every table index in memory);
//   - a 128 MB hot cache of committed values for write transactions
//     (hot.go); 32 MB ran as fast on ingest with 40 MB less RSS, but the
//     server's snapshots read through it too.
func DefaultOptions(dir string) Options {
	return Options{Dir: dir, Logger: zerolog.Nop(), CacheMB: 64, HotCacheMB: 128}
}

// WithInMemory keeps everything in memory (tests); Dir is ignored.
func (o Options) WithInMemory(b bool) Options { o.InMemory = b; return o }

// WithReadOnly opens the store without write access.
func (o Options) WithReadOnly(b bool) Options { o.ReadOnly = b; return o }

// WithHotCacheMB sets the size of the write path's value cache (0: none).
func (o Options) WithHotCacheMB(mb int64) Options { o.HotCacheMB = mb; return o }

// WithReserveMB keeps at least mb MB of the disk free: writes are refused
// (DISK_FULL) below it or below Badger's own needs, whichever is more.
func (o Options) WithReserveMB(mb int64) Options { o.ReserveMB = mb; return o }

// WithSync makes every commit durable before it returns.
func (o Options) WithSync(b bool) Options { o.Sync = b; return o }

// WithVerifyBlocks checks block checksums on every read from disk.
func (o Options) WithVerifyBlocks(b bool) Options { o.VerifyBlocks = b; return o }

// WithKeyFilter enables the absent-key filter of write transactions.
func (o Options) WithKeyFilter(b bool) Options { o.KeyFilter = b; return o }

// WithLogger routes Badger's and the store's logs to l.
func (o Options) WithLogger(l zerolog.Logger) Options { o.Logger = l; return o }

// WithCensus sets Census.
func (o Options) WithCensus(b bool) Options { o.Census = b; return o }

// WithBulkRestart sets BulkRestart.
func (o Options) WithBulkRestart(b bool) Options { o.BulkRestart = b; return o }

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
	// scans counts the Badger iterators readers opened (Scans).
	scans  atomic.Int64
	dry    *btree.BTreeG[*pending] // set by DryRun
	census *census                 // Options.Census (nil: not counted)
	// flight is the commit under way (UpdateAsync) and next the snapshot
	// taken just before it started; both guarded by wmu.
	flight *flight
	next   *badger.Txn
	// filter (KeyFilter) is built once writes have met many absent keys;
	// the pointer is guarded by wmu, the filter's bits are atomic.
	filter     *keyFilter
	wantFilter bool
	misses     int // absent keys read by write transactions, until the filter is built
	keysAtOpen int // the keys in Badger's tables when first asked (-1: not yet; guarded by wmu)
	bdb        *badger.DB
	dir        string // the data folder ("" in memory)
	reserveMin uint64 // Options.ReserveMB in bytes
	maxValue   int    // the largest value Badger takes
	lastWrites int    // how many writes the last commit held (guarded by wmu)
	// seq leases node ids; taken at the first new node, not at open: a
	// lease is a write, and each open and close that wrote left one more
	// small level-0 table, which every read iterator then merges (a
	// read-mostly kg serve restarted a few times read 10-30% slower).
	seq      *badger.Sequence
	readOnly bool
	// bulk is a bulk load under way (bulk.go; guarded by wmu), bulkView
	// what readers of it read; interrupted says Open found the marker of
	// one that did not finish.
	bulk        *bulkLoad
	bulkView    atomic.Pointer[bulkView]
	flushEpoch  atomic.Uint64 // flushes of bulk loads so far (bulkRead)
	interrupted bool
	// notify are the OnCommit functions (guarded by nmu)
	nmu    sync.Mutex
	notify []func([]graph.NodeID)
	log    zerolog.Logger
	stop   chan struct{}
	wg     sync.WaitGroup
	once   sync.Once
}

var (
	_ graph.Store = (*DB)(nil)
	// a drifted signature would fall back silently to synchronous commits
	// or refuse --dry-run
	_ graph.AsyncStore     = (*DB)(nil)
	_ graph.DryRunner      = (*DB)(nil)
	_ graph.CommitNotifier = (*DB)(nil)
)

// Open opens (creating if needed) the store.
func Open(opts Options) (*DB, error) {
	interrupted := false
	if !opts.InMemory {
		if _, err := os.Stat(filepath.Join(opts.Dir, BulkMarker)); err == nil {
			if !opts.BulkRestart || opts.ReadOnly {
				return nil, bulkMarkerError(opts.Dir)
			}
			interrupted = true
		}
	}
	bo := badger.DefaultOptions(opts.Dir).
		WithNumCompactors(2).
		WithMemTableSize(memTableSize).
		WithNumMemtables(numMemtables).
		WithBlockCacheSize(opts.CacheMB << 20).
		WithIndexCacheSize(32 << 20).
		WithDetectConflicts(false).
		WithReadOnly(opts.ReadOnly).
		WithLogger(badgerLogger{opts.Logger.With().Str("component", "badger").Logger()})
	if opts.VerifyBlocks {
		bo = bo.WithChecksumVerificationMode(options.OnBlockRead)
	}
	if opts.Sync {
		bo = bo.WithSyncWrites(true)
	}
	if opts.InMemory {
		bo = bo.WithInMemory(true).WithDir("").WithValueDir("")
		opts.Dir = ""
	}
	bdb, err := badger.Open(bo)
	if err != nil && opts.ReadOnly && !opts.InMemory && strings.Contains(err.Error(), badger.ErrTruncateNeeded.Error()) {
		bdb, err = recoverLog(bo, opts)
	}
	if err != nil {
		if isLocked(err) {
			return nil, fmt.Errorf("open store %s: another kg process holds it (a running kg serve? ask it over GraphQL, or stop it first): %w", opts.Dir, err)
		}
		return nil, fmt.Errorf("open store %s: %w", opts.Dir, err)
	}
	db := &DB{bdb: bdb, dir: opts.Dir, reserveMin: uint64(max(opts.ReserveMB, 0)) << 20, maxValue: int(bo.ValueLogFileSize), log: opts.Logger, stop: make(chan struct{}), hot: newHotCache(opts.HotCacheMB << 20), wantFilter: opts.KeyFilter, keysAtOpen: -1, readOnly: opts.ReadOnly, interrupted: interrupted}
	if opts.Census {
		db.census = &census{}
	}
	if err := db.checkVersion(opts.ReadOnly || interrupted); err != nil {
		bdb.Close()
		return nil, err
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
		if len(v) == 8 && binary.BigEndian.Uint64(v) >= 1 && binary.BigEndian.Uint64(v) < layoutVersion {
			return oldLayoutError(db.dir, binary.BigEndian.Uint64(v))
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
		db.abandonBulk(nil) // a load not ended (EndBulk) is not written
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

// Scans reports how many Badger iterators readers have opened: each is a
// walk over every memtable and level, the unit of a read's cost that
// batching saves (kg_store_scans_total).
func (db *DB) Scans() int64 { return db.scans.Load() }

func (db *DB) gcLoop() {
	defer db.wg.Done()
	t := time.NewTicker(5 * time.Minute)
	defer t.Stop()
	for {
		select {
		case <-db.stop:
			return
		case <-t.C:
			if db.bulkView.Load() != nil {
				continue // a bulk load writes no value log, and its stream wants Badger to itself
			}
			for db.bdb.RunValueLogGC(0.5) == nil {
			}
		}
	}
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
	if db.readOnly {
		return graph.Errorf(graph.Invalid, "store is open read-only")
	}
	db.wmu.Lock()
	defer db.wmu.Unlock()
	if db.bulk != nil {
		return graph.Errorf(graph.Invalid, "cannot drop %s during a bulk load", what)
	}
	if err := db.settle(); err != nil {
		return err
	}
	if db.hot == nil {
		return db.bdb.DropPrefix(prefix)
	}
	db.hot.begin()
	err := db.bdb.DropPrefix(prefix)
	db.hot.land(nil, db.readTs(), false) // empties it
	return err
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

func isLocked(err error) bool { return strings.Contains(err.Error(), "Cannot acquire directory lock") }

// notWritable reports whether err says the files may not be written
// (Badger flattens the errors it wraps into text).
func notWritable(err error) bool {
	return errors.Is(err, fs.ErrPermission) || strings.Contains(err.Error(), "permission denied") ||
		strings.Contains(err.Error(), "read-only file system")
}

// recoverLog opens, read-only, a store that was not closed cleanly: after a
// crash, kill -9 or power cut, or in a copy taken while a kg process wrote
// to it, the write-ahead log is longer than its last entry, and Badger
// replays and truncates it only when it may write. So the store is opened
// read-write once (which replays the log: every committed transaction the
// files hold is kept), closed, and opened read-only again. When that is not
// possible the error says in one line what happened and what to run.
//
// Badger's replay stops at the first entry that does not check and drops
// the rest; so the logs are verified first, and a damaged one is reported
// rather than cut.
func recoverLog(bo badger.Options, opts Options) (*badger.DB, error) {
	if damaged := verifyLogs(opts.Dir); len(damaged) > 0 {
		return nil, DamageError(opts.Dir, damaged)
	}
	rw, err := badger.Open(bo.WithReadOnly(false))
	switch {
	case err != nil && isLocked(err):
		return nil, fmt.Errorf("the store was not closed cleanly and another kg process holds it now: ask that process (kg serve answers GraphQL), or stop it and run this again")
	case err != nil && notWritable(err):
		return nil, fmt.Errorf("the store was not closed cleanly and this process may not write to %s to replay its log: run kg stats --data %s once as a user who may, or copy the folder somewhere writable and open the copy", opts.Dir, opts.Dir)
	case err != nil:
		return nil, fmt.Errorf("the store was not closed cleanly, and replaying its log failed (restore it from a kg backup, or re-ingest its sources): %w", err)
	}
	if err := rw.Close(); err != nil {
		return nil, fmt.Errorf("the store was not closed cleanly, and closing it after replaying its log failed: %w", err)
	}
	opts.Logger.Warn().Str("dir", opts.Dir).Msg("the store was not closed cleanly (a crash, or a copy taken while kg was writing): its log was replayed; committed writes are kept")
	return badger.Open(bo)
}
