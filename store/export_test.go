package store

import (
	"encoding/binary"

	"github.com/dgraph-io/badger/v4"

	"github.com/researchkg/kg/graph"
)

// SetHotCacheBytes sets the write path's cache budget below Options'
// MiB granularity, so tests can make it evict.
func SetHotCacheBytes(db *DB, n int64) { db.hot = newHotCache(n) }

// BuildFilterAtOnce makes bulk stores build their absent-key filter at the
// first write (as after many misses), for the rest of the test.
func BuildFilterAtOnce(t interface{ Cleanup(func()) }) { BuildFilterAfter(t, 0) }

// BuildFilterAfter sets how many absent reads trigger the filter's build.
func BuildFilterAfter(t interface{ Cleanup(func()) }, misses int) {
	old, oldPer := filterAfterMisses, filterKeysPerMiss
	filterAfterMisses, filterKeysPerMiss = misses, 0
	t.Cleanup(func() { filterAfterMisses, filterKeysPerMiss = old, oldPer })
}

// HotHits is how many reads the hot cache has answered.
func HotHits(db *DB) int64 {
	db.hot.mu.Lock()
	defer db.hot.mu.Unlock()
	return db.hot.hits
}

// HasFilter reports whether the absent-key filter has been built.
func HasFilter(db *DB) bool {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	return db.filter != nil
}

// FilterAfter sets the misses before the filter is built, keeping its
// scaling with the store's keys, for the rest of the test.
func FilterAfter(t interface{ Cleanup(func()) }, misses int) {
	old := filterAfterMisses
	filterAfterMisses = misses
	t.Cleanup(func() { filterAfterMisses = old })
}

// SplitRowsPast sets how many entries a pair row's part holds before it
// is cut, for the rest of the test.
func SplitRowsPast(t interface{ Cleanup(func()) }, n int) {
	old := maxPartEntries
	maxPartEntries = n
	t.Cleanup(func() { maxPartEntries = old })
}

// WriteLayout1 writes, into a new store in dir, pair counts as layout 1
// kept them (a key per pair and direction) and its version: what an
// earlier kg left, for the migration tests.
func WriteLayout1(dir string, pairs map[[3]uint64]int64) error {
	bdb, err := badger.Open(badger.DefaultOptions(dir).WithLogger(nil))
	if err != nil {
		return err
	}
	defer bdb.Close()
	wb := bdb.NewWriteBatch()
	for p, n := range pairs {
		t := graph.EdgeType(p[0])
		a, b := graph.NodeID(p[1]), graph.NodeID(p[2])
		v := binary.BigEndian.AppendUint64(nil, uint64(n))
		if err := wb.Set(pairKey(t, a, b), v); err != nil {
			return err
		}
		if err := wb.Set(pairKey(t, b, a), v); err != nil {
			return err
		}
	}
	if err := wb.Set(versionKey, binary.BigEndian.AppendUint64(nil, 1)); err != nil {
		return err
	}
	return wb.Flush()
}

// SetBulkBudgetBytes sets a bulk load's tier budget below BeginBulk's MiB
// granularity, so tests can make it flush at every commit; BulkFlushes
// reports how many flushes it has made.
func SetBulkBudgetBytes(db *DB, n int64) {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	db.bulk.budget = n
}

func BulkFlushes(db *DB) int {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	return db.bulk.flushes
}

// PressEveryCommit makes every commit of a bulk load find the heap near
// the memory limit, until the function it returns is called.
func PressEveryCommit() (restore func()) {
	old := pressedFlush
	pressedFlush = func(size, _ int64, _ uint64) bool { return size > 0 }
	return func() { pressedFlush = old }
}

// HeapPressed is heapPressed.
func HeapPressed() bool { return heapPressed() }

// FlushForPressure is flushForPressure.
var FlushForPressure = flushForPressure
