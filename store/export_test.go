package store

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
