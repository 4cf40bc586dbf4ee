// The bulk path: the first ingest into an empty store writes nothing to
// Badger until it ends. Its commits go to a memory tier (tier.go), which
// its reads find; at the end, or when the tier outgrows its budget, the
// tier's keys are handed to Badger's StreamWriter in key order, each key's
// latest value once, and Badger writes them as tables at the bottom of its
// tree: no memtable, no write-ahead log, no compaction (after Dgraph's
// bulk loader, dgraph/cmd/bulk, whose reduce phase writes the same way).
//
// The graph is the same key for key: the writer and the settles run
// exactly as on the transactional path (the same transactions, the same
// checks of Badger's transaction limits, the same ids), only their commits
// land elsewhere (TestBulkEqualsTransactional).
//
// A crash. Nothing reaches Badger before a flush, and a flush is not
// atomic (StreamWriter adds its tables one by one). So a bulk load writes a
// marker file into the folder before it starts and removes it once its last
// flush is on disk. Open refuses a store that has the marker, naming it
// (CONFLICT), except for the ingest that starts the load again: it drops
// whatever the killed one left and begins from nothing, so the re-run's
// store is a clean run's (TestBulkKilledThenRunAgain in cmd/kg). An
// interrupt (SIGINT) or a store error is no crash: EndBulk flushes what was
// committed, which is then a transactional run's state at that point.
//
// Memory. The tier holds every key's latest value and the garbage of
// rewrites: on the arXiv file 12 KB of arena a paper and 6.9 million keys,
// about 700 MB in all, so the budget (BeginBulk's, DefaultBulkMB) is
// reached only past some 70,000 papers. There a commit flushes the tier
// as one sorted run (StreamWriter.PrepareIncremental writes it one level
// above the last) and starts an empty one above it; reads that miss the
// tier go on to Badger, and when the levels run out they are merged into
// the bottom one (Flatten).

package store

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/pb"
	"github.com/dgraph-io/ristretto/v2/z"

	"github.com/researchkg/kg/graph"
)

// BulkMarker is the file a bulk load keeps in the store's folder while it
// runs.
const BulkMarker = "KG-BULK-LOAD"

// bitDelete is Badger's entry flag of a deletion (value.go), which a
// stream carries in KV.Meta.
const bitDelete = 1 << 0

// DefaultBulkMB is the tier's budget: past it a commit flushes the tier.
const DefaultBulkMB = 1024

// bulkLoad is the state of a bulk load (DB.bulk, guarded by wmu).
type bulkLoad struct {
	tier    *tier
	flushes int    // flushes done: Badger holds the load's earlier keys when > 0
	flushGC uint64 // collections completed when the last flush ended (pressure.go)
	next    uint64 // the id sequence's next value (Badger's Sequence is not used)
	budget  int64
	failed  error // a flush that failed: the load cannot end (its tier is gone or half written)
	touched bool  // a flush has begun to change Badger
	// filter holds every key the load's flushes wrote (of the kinds a
	// keyFilter covers): a read that misses the tier and the filter needs
	// no walk of Badger's levels (filter.go). After the first flush, most
	// reads of a large load are of keys no one wrote yet (a new term's
	// document frequency, a new name), and each walked every level.
	filter *keyFilter
	// carry holds the values of the counters its flushes wrote, which
	// later tiers read from memory (carried.go)
	carry *carriedCounters
	// back holds the nodes and lookups read from the flushes since the
	// last one (readback.go)
	back    *readBack
	start   time.Time
	flushed time.Duration // time spent flushing
}

// Interrupted reports whether Open found the marker of an unfinished bulk
// load (only an Open with Options.BulkRestart gets that far): the store's
// contents are partial, and BeginBulk starts over.
func (db *DB) Interrupted() bool { return db.interrupted }

// Bulk reports whether a bulk load is under way (BeginBulk, not yet
// ended).
func (db *DB) Bulk() bool { return db.bulkView.Load() != nil }

// HoldsGraph reports whether the store holds any node.
func (db *DB) HoldsGraph() (bool, error) {
	found := false
	err := db.bdb.View(func(txn *badger.Txn) error {
		it := iterator(txn, []byte{pNode}, false)
		defer it.Close()
		it.Rewind()
		found = it.Valid()
		return nil
	})
	return found, err
}

// BeginBulk makes the later writes of this DB a bulk load. The store must
// hold no node (HoldsGraph), or be Interrupted (whatever it holds is
// dropped at the first flush). EndBulk ends the load; until then nothing
// reaches Badger, and no other process may open the folder (it holds the
// marker). budgetMB bounds the tier (0: DefaultBulkMB).
func (db *DB) BeginBulk(budgetMB int64) error {
	if db.readOnly || db.dir == "" || db.dry != nil {
		return graph.Errorf(graph.Invalid, "a bulk load needs a store on disk, open for writing, not in a dry run")
	}
	db.wmu.Lock()
	defer db.wmu.Unlock()
	if db.bulk != nil {
		return graph.Errorf(graph.Invalid, "a bulk load is already under way")
	}
	if err := db.settle(); err != nil {
		return err
	}
	var next uint64
	if !db.interrupted {
		if holds, err := db.HoldsGraph(); err != nil || holds {
			if err == nil {
				err = graph.Errorf(graph.Invalid, "a bulk load needs an empty store")
			}
			return err
		}
		// a store with no node may have leased ids (a run whose every
		// document failed): go on from there, as the Sequence would
		if err := db.bdb.View(func(txn *badger.Txn) error {
			item, err := txn.Get(seqKey)
			if errors.Is(err, badger.ErrKeyNotFound) {
				return nil
			}
			if err != nil {
				return err
			}
			return item.Value(func(v []byte) error {
				if len(v) == 8 {
					next = binary.BigEndian.Uint64(v)
				}
				return nil
			})
		}); err != nil {
			return err
		}
	}
	if db.seq != nil {
		return graph.Errorf(graph.Invalid, "a bulk load must begin before the store's first write")
	}
	if err := writeMarker(db.dir); err != nil {
		return err
	}
	if budgetMB <= 0 {
		budgetMB = DefaultBulkMB
	}
	t := newTier()
	ver := binary.BigEndian.AppendUint64(nil, layoutVersion)
	t.mu.Lock()
	err := t.put(versionKey, ver, false, false)
	t.mu.Unlock()
	if err != nil {
		return err
	}
	db.bulk = &bulkLoad{tier: t, next: next, budget: budgetMB << 20, start: time.Now()}
	db.bulkView.Store(&bulkView{tier: t})
	db.log.Info().Int64("budgetMB", budgetMB).Bool("startOver", db.interrupted).Msg("bulk load: writes go to memory until the end, then to Badger's tables in one pass")
	return nil
}

// EndBulk writes what the bulk load committed to Badger and removes the
// marker. After it the DB writes transactionally again. A failure leaves
// the marker: the next ingest starts over.
func (db *DB) EndBulk() error {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	b := db.bulk
	if b == nil {
		return nil
	}
	if err := db.flushBulk(true); err != nil {
		db.abandonBulk(err)
		return err
	}
	db.bulk = nil
	db.bulkView.Store(nil)
	db.interrupted = false
	if err := removeMarker(db.dir); err != nil {
		return err
	}
	db.log.Info().Int("flushes", b.flushes).Dur("took", time.Since(b.start)).Dur("flushing", b.flushed).Msg("bulk load written")
	return nil
}

// abandonBulk ends a bulk load that will not be written (wmu held): a
// store it has not touched is left as it was, without the marker (the
// load began on an empty store: it is empty again); else the marker stays
// and says why the load stopped.
func (db *DB) abandonBulk(why error) {
	b := db.bulk
	if b == nil {
		return
	}
	db.bulk = nil
	db.bulkView.Store(nil)
	if !b.touched && !db.interrupted {
		if err := removeMarker(db.dir); err == nil {
			db.log.Warn().Err(why).Msg("bulk load stopped before it wrote anything: the store is as it was, empty")
			return
		}
	}
	if why == nil {
		why = errors.New("closed before it ended")
	}
	if f, err := os.OpenFile(filepath.Join(db.dir, BulkMarker), os.O_APPEND|os.O_WRONLY, 0); err == nil {
		fmt.Fprintf(f, "stopped %s: %s\n", time.Now().UTC().Format(time.RFC3339), strings.ReplaceAll(why.Error(), "\n", " "))
		f.Sync()
		f.Close()
	}
	db.log.Warn().Err(why).Str("dir", db.dir).Msg("bulk load stopped: nothing of it is stored; the next kg ingest starts it over")
}

// bulkUpdate is update during a bulk load (wmu held): fn's writes go to
// the tier, after the checks a Badger commit would make.
func (db *DB) bulkUpdate(ctx context.Context, fn func(graph.Tx) error, committed func(error)) error {
	b := db.bulk
	if b.failed != nil {
		return b.failed
	}
	below := b.flushes > 0
	var snap *badger.Txn
	if below {
		snap = db.bdb.NewTransaction(false)
	}
	o := newOverlay(snap, db.lastWrites)
	o.tier = b.tier
	t := &tx{reader: reader{txn: snap, over: o, ts: never, scans: &db.scans, tier: b.tier, below: below, filter: b.filter, carry: b.carry, back: b.back}, db: db}
	err := fn(t)
	if err == nil {
		err = t.flushRows()
	}
	if snap != nil {
		snap.Discard() // before a flush replaces Badger's oracle (see bulkRead)
	}
	if err != nil {
		return err
	}
	if err := db.fits(o); err != nil { // what Badger would refuse is refused here too
		return err
	}
	if db.census != nil {
		db.census.count(o)
	}
	if err := b.tier.apply(o, below); err != nil {
		return fmt.Errorf("bulk load: %w", err)
	}
	db.lastWrites = len(o.index)
	db.notifyCommit(o)
	if committed != nil {
		committed(nil)
	}
	freed := b.tier.bytes() + b.back.size() // what a flush lets go
	if size := freed + b.carry.size(); size > b.budget {
		return db.flushBulk(false)
	} else if pressedFlush(freed, b.budget, b.flushGC) {
		db.log.Info().Int64("tierBytes", size).Int64("memLimit", debug.SetMemoryLimit(-1)).Msg("bulk load: the live heap is near the memory limit; the tier is written early")
		return db.flushBulk(false)
	}
	return nil
}

// bulkView is what readers of a bulk load read: its tier, and whether
// Badger holds its earlier flushes. A flush replaces it; a reader that
// holds the one before reads the state it began with (the old tier, and
// Badger as its snapshot was).
type bulkView struct {
	tier   *tier
	below  bool
	filter *keyFilter
	carry  *carriedCounters
	back   *readBack
}

// bulkRead is Read during a bulk load: the latest commits, not a snapshot
// (the ingest that runs a bulk load reads only between its writes, or
// reads what may be stale anyway: textCheck).
//
// A flush's StreamWriter replaces Badger's oracle, and a Badger read
// transaction begun before it must not be discarded after it (the new
// oracle's watermark would see a read that went back in time, and Badger
// exits the process). So a reader notes the flush it began after and, if
// a flush has happened since, drops its transaction without a Discard
// (nothing leaks: the old oracle goes with it). Such a reader reads its
// old tier, frozen and empty to it, and what Badger held when it began: a
// stale "no" that only an analysis worker's textCheck can meet.
func (db *DB) bulkRead(v *bulkView) *reader {
	var snap *badger.Txn
	if v.below {
		snap = db.bdb.NewTransaction(false)
	}
	o := newOverlay(snap, 0)
	o.tier = v.tier
	epoch := db.flushEpoch.Load()
	return &reader{txn: snap, over: o, ts: never, scans: &db.scans, tier: v.tier, below: v.below, filter: v.filter, carry: v.carry, back: v.back,
		stale: func() bool { return db.flushEpoch.Load() != epoch }}
}

// flushBulk hands the tier's keys to a StreamWriter in key order and
// starts an empty tier above them (wmu held). A flush that is not the
// load's last adds the keys it writes to the load's filter.
func (db *DB) flushBulk(final bool) error {
	b := db.bulk
	if b.failed != nil {
		return b.failed
	}
	start := time.Now()
	t := b.tier
	// Badger writes its tables through mmap, and a disk that fills under
	// it kills the process: the tables must fit, with the reserve. The
	// arena (keys and values uncompressed, garbage included) bounds them.
	if sp, err := db.DiskSpace(); err == nil && sp.Free < sp.Need+uint64(t.size)+uint64(t.size)/5 {
		sp.Need += uint64(t.size) + uint64(t.size)/5
		b.failed = diskFull(sp)
		return b.failed
	}
	// the id sequence as Badger's Sequence leaves it when released
	t.mu.Lock()
	err := t.put(seqKey, binary.BigEndian.AppendUint64(nil, b.next), false, false)
	t.mu.Unlock()
	if err != nil {
		return err
	}
	if b.flushes > 0 && db.levelsFull() {
		// a safety net: each flush merges the levels when it fills the
		// last free one (below)
		if err := db.mergeLevels(b); err != nil {
			return err
		}
	}
	if final {
		// No read follows the last flush: what serves reads of the
		// earlier ones goes now, before the stream and its tables need
		// memory (a 1M load was killed at 2 GiB in its last flush with
		// them held: ~200 MB), and the collector hands back to the system
		// what the settle left.
		b.filter, b.carry, b.back = nil, nil, nil
		db.bulkView.Store(&bulkView{tier: t, below: b.flushes > 0})
		debug.FreeOSMemory()
	}
	before := memNow()
	b.touched = true
	sw := db.bdb.NewStreamWriter()
	defer sw.Cancel()
	if b.flushes == 0 {
		err = sw.Prepare() // drops what an interrupted load left
	} else {
		err = sw.PrepareIncremental()
	}
	if err != nil {
		b.failed = fmt.Errorf("bulk load: prepare the stream: %w", err)
		return b.failed
	}
	version := uint64(b.flushes + 1) // later flushes shadow earlier ones
	filter := b.filter
	if !final && filter == nil {
		filter = newKeyFilter(t.keys())
	}
	carry := b.carry
	if !final && carry == nil {
		carry = newCarriedCounters()
	}
	if final {
		filter, carry = nil, nil // no read follows the last flush
	}
	keys, bytes, werr := streamTier(sw, t, version, b.flushes > 0, filter, carry)
	if werr == nil {
		werr = sw.Flush()
	}
	if werr != nil {
		b.failed = fmt.Errorf("bulk load: write %d keys to Badger: %w", keys, werr)
		return b.failed
	}
	b.flushes++
	b.filter = filter
	b.carry = carry
	db.flushEpoch.Add(1)
	b.tier = newTier()
	b.flushGC = gcCycles()
	readBackBytes := b.back.size()
	b.back = nil
	if !final {
		b.back = newReadBack(b.budget / readBackShare)
	}
	db.bulkView.Store(&bulkView{tier: b.tier, below: true, filter: b.filter, carry: b.carry, back: b.back})
	took := time.Since(start)
	b.flushed += took
	db.log.Info().Int("keys", keys).Int64("bytes", bytes).Int64("arena", t.size).Int("countersCarried", carry.len()).Int64("carriedBytes", carry.size()).Int64("readBackBytes", readBackBytes).
		Dur("took", took).Int("flush", b.flushes).Dict("memMB", before.dict()).Dict("memAfterMB", memNow().dict()).Msg("bulk load: tier written to Badger")
	if !final && db.levelsFull() {
		// The next flush needs a level above this one's: the levels are
		// merged now, while the tier is empty and the one just written is
		// garbage, not when the next tier is full (a merge holds a
		// compaction's tables in memory beside it).
		return db.mergeLevels(b)
	}
	return nil
}

// levelsFull reports whether a flush's StreamWriter.PrepareIncremental
// would find no level free above the load's earlier flushes: each is a
// level above the last, and level 0 is not one it can write (its own
// flatten fails there).
func (db *DB) levelsFull() bool {
	for _, l := range db.bdb.Levels() {
		if l.NumTables > 0 {
			return l.Level <= 1
		}
	}
	return false
}

// mergeLevels merges the load's flushes into Badger's bottom level (wmu
// held), so that the next flush finds levels free.
func (db *DB) mergeLevels(b *bulkLoad) error {
	start, before := time.Now(), memNow()
	b.touched = true
	if err := db.bdb.Flatten(runtime.GOMAXPROCS(0)); err != nil {
		b.failed = fmt.Errorf("bulk load: merge the flushes' levels: %w", err)
		return b.failed
	}
	took := time.Since(start)
	b.flushed += took
	db.log.Info().Dur("took", took).Int("flushes", b.flushes).Dict("memMB", before.dict()).Dict("memAfterMB", memNow().dict()).Msg("bulk load: the flushes' levels merged into the bottom one")
	return nil
}

// streamTier writes the tier's keys to sw, a stream for each family
// (disjoint key ranges, as StreamWriter wants), the families shared out
// to one goroutine per core, largest first: StreamWriter decodes and
// copies every key of a Write again, and builds each stream's tables on a
// goroutine of its own. A deletion is written only where Badger may hold
// the key (below). The counters written go to carry too (nil: none).
func streamTier(sw *badger.StreamWriter, t *tier, version uint64, below bool, filter *keyFilter, carry *carriedCounters) (int, int64, error) {
	type fam struct {
		b byte
		n int
	}
	t.freeze()
	var fams []fam
	for b := range 256 {
		if n := t.keysOf(byte(b)); n > 0 {
			fams = append(fams, fam{byte(b), n})
		}
	}
	slices.SortFunc(fams, func(a, b fam) int { return cmp.Compare(b.n, a.n) })
	var (
		mu      sync.Mutex
		fmu     sync.Mutex // the filter takes one adder at a time
		keys    int
		bytes   int64
		first   error
		carried []carryEntry // only the counters' stream appends
	)
	bufs := make(chan *z.Buffer, runtime.GOMAXPROCS(0))
	for range cap(bufs) {
		bufs <- z.NewBuffer(8<<20, "kg.bulk")
	}
	onEachCore(len(fams), func(i int) {
		buf := <-bufs
		defer func() { bufs <- buf }()
		b := fams[i].b
		id := uint32(b) + 1
		kv := &pb.KV{Version: version, StreamId: id}
		n, size := 0, int64(0)
		var err error
		write := func() {
			if err == nil && buf.LenNoPadding() > 0 {
				err = sw.Write(buf)
			}
			buf.Reset()
		}
		t.flushEach(b, func(e tierEntry) bool {
			if carry != nil && b == pCounter {
				carried = append(carried, carry.entry(e.key, e.val, e.del))
			}
			if e.del && !below {
				return true // nothing below to shadow
			}
			kv.Key, kv.Value, kv.Meta = e.key, e.val, nil
			if e.del {
				kv.Value, kv.Meta = nil, []byte{bitDelete}
			} else if filter != nil && filter.takes(e.key) {
				fmu.Lock()
				filter.addKey(e.key)
				fmu.Unlock()
			}
			badger.KVToBuffer(kv, buf)
			n++
			size += int64(len(e.key) + len(e.val))
			if buf.LenNoPadding() > 4<<20 {
				write()
			}
			return err == nil
		})
		if n > 0 {
			badger.KVToBuffer(&pb.KV{StreamId: id, StreamDone: true}, buf) // its last table is written now
		}
		write()
		mu.Lock()
		keys += n
		bytes += size
		if err != nil && first == nil {
			first = err
		}
		mu.Unlock()
	})
	close(bufs)
	for buf := range bufs {
		buf.Release()
	}
	if first == nil && carry != nil {
		carry.merge(carried)
	}
	return keys, bytes, first
}
