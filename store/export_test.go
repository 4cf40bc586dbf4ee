package store

// SetHotCacheBytes sets the write path's cache budget below Options'
// MiB granularity, so tests can make it evict.
func SetHotCacheBytes(db *DB, n int64) { db.hot = newHotCache(n) }
