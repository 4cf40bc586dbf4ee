package store

import "sync"

// hotCache holds committed values of the small keys ingest reads and
// rewrites all the time: counters (document frequencies, degrees), pair
// counts (co-authors, co-occurrence) and lookups (names, titles, concept
// keys). A fresh ingest of the arXiv file spent a third of its writer's
// time in Badger point reads (levelsController.get), nearly all of them on
// keys that exist: a term's document frequency, a pair seen before.
//
// It is used only inside write transactions, which DB.Update runs one at a
// time (wmu): nothing else can change a key between the cache and Badger.
// Values enter it when read from Badger and change when a transaction
// commits (apply, on the commit's goroutine while the next transaction
// runs: that one reads the committing writes before the cache, so it never
// asks for a key apply is changing); a failed commit clears it. A mutex
// keeps the map whole between the two goroutines. Read-only snapshots
// never use it: a snapshot must not see later commits.
//
// Eviction is CLOCK over the map: an entry read since the last sweep
// survives one sweep, so hapax keys (most new document-frequency keys are
// read once) leave first and the hot set stays.
type hotCache struct {
	mu     sync.Mutex
	m      map[string]hotEntry
	bytes  int64 // approximate memory held
	budget int64
	hits   int64
	misses int64
}

type hotEntry struct {
	val []byte
	ref bool
}

// entryOverhead approximates a map entry's cost beyond its key and value
// bytes (string and slice headers, bucket share).
const entryOverhead = 64

func newHotCache(budget int64) *hotCache {
	if budget <= 0 {
		return nil
	}
	return &hotCache{m: map[string]hotEntry{}, budget: budget}
}

// cacheable reports whether a key's value is small and read often enough
// to keep.
func cacheable(k []byte) bool {
	return len(k) > 0 && (k[0] == pCounter || k[0] == pPair || k[0] == pLookup || k[0] == pNode || k[0] == pValue)
}

// The cache keys its map on the bytes of the keys passed to get and put,
// without a copy: store builds every key afresh and never changes it.
func (c *hotCache) get(k []byte) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[string(k)]
	if !ok {
		c.misses++
		return nil, false
	}
	c.hits++
	if !e.ref {
		e.ref = true
		c.m[keyString(k)] = e
	}
	return e.val, true
}

// put stores a committed value; v must not change afterwards.
func (c *hotCache) put(k, v []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.set(k, v)
}

func (c *hotCache) set(k, v []byte) {
	if old, ok := c.m[string(k)]; ok {
		c.bytes += int64(len(v) - len(old.val))
		c.m[keyString(k)] = hotEntry{val: v, ref: old.ref}
		return
	}
	c.m[keyString(k)] = hotEntry{val: v}
	c.bytes += int64(len(k)+len(v)) + entryOverhead
	if c.bytes > c.budget {
		c.evict()
	}
}

func (c *hotCache) remove(k []byte) {
	if old, ok := c.m[string(k)]; ok {
		c.bytes -= int64(len(k)+len(old.val)) + entryOverhead
		delete(c.m, string(k))
	}
}

// evict sweeps until the cache is at 80% of its budget: unreferenced
// entries go, referenced ones lose their mark.
func (c *hotCache) evict() {
	target := c.budget * 8 / 10
	for c.bytes > target {
		for k, e := range c.m {
			if e.ref {
				e.ref = false
				c.m[k] = e
				continue
			}
			c.bytes -= int64(len(k)+len(e.val)) + entryOverhead
			delete(c.m, k)
			if c.bytes <= target {
				return
			}
		}
	}
}

func (c *hotCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.m)
	c.bytes = 0
}

// apply records a committed transaction's writes to the keys it holds.
// Keys it does not hold stay out until read: most keys a transaction
// creates (a new term's document frequency, a new pair) are not read again
// soon, and inserting them all cost more than the reads it saved.
func (c *hotCache) apply(o *overlay) {
	c.mu.Lock()
	defer c.mu.Unlock()
	o.each(func(p *pending) {
		if !cacheable(p.key) {
			return
		}
		if _, ok := c.m[string(p.key)]; ok {
			if p.del {
				c.remove(p.key)
			} else {
				c.set(p.key, p.val)
			}
		}
	})
}
