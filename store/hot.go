package store

import (
	"sync"
	"unsafe"

	"github.com/researchkg/kg/graph"
)

// hotCache holds committed values of the small keys ingest reads and
// rewrites all the time: counters (document frequencies, degrees), pair
// counts (co-authors, co-occurrence) and lookups (names, titles, concept
// keys). A fresh ingest of the arXiv file spent a third of its writer's
// time in Badger point reads (levelsController.get), nearly all of them on
// keys that exist: a term's document frequency, a pair seen before.
//
// Write transactions, which DB.Update runs one at a time (wmu), read
// through it: nothing else can change a key between the cache and Badger.
// Values enter it when read from Badger and change when a transaction
// commits (apply, on the commit's goroutine while the next transaction
// runs: that one reads the committing writes before the cache, so it never
// asks for a key apply is changing); a failed commit clears it. A mutex
// keeps the map whole between the goroutines.
//
// Snapshots (queries) read through it too, versioned by Badger's commit
// timestamps: each entry holds the latest committed value and from, the
// first read timestamp known to see it. A snapshot at read timestamp R
// takes an entry only when from ≤ R (the value was already the latest when
// the snapshot was taken, and any later commit of the key would have
// replaced the entry). A commit marks the entries it changes unseen
// (from = never) before Badger applies it and stamps them with a read
// timestamp taken after it landed; until then snapshots read Badger. A
// snapshot adds a value it read only when no commit is under way and none
// landed after its timestamp: then its value is still the latest. So a
// store that takes writes serves its hot reads from memory as a read-only
// one does, and a write is seen by the next snapshot
// (TestSnapshotsReadThroughHotCacheAcrossCommits).
//
// Eviction is CLOCK over the map: an entry read since the last sweep
// survives one sweep, so hapax keys (most new document-frequency keys are
// read once) leave first and the hot set stays.
type hotCache struct {
	mu sync.Mutex
	m  map[string]hotEntry
	// landed is a read timestamp that sees every landed commit; inflight
	// counts commits begun and not landed (guarded by mu).
	landed   uint64
	inflight int
	bytes    int64 // approximate memory held
	budget   int64
	hits     int64
	misses   int64
}

type hotEntry struct {
	val []byte
	// node is val decoded, once a snapshot has read it as a node (nil
	// until then, and again when val changes): search and neighbourhoods
	// read thousands of nodes, and decoding their JSON was 70% of a
	// search's time.
	node *graph.Node
	from uint64 // snapshots with read timestamp ≥ from may take val
	ref  bool
}

// never marks an entry changed by a commit that has not landed yet.
const never = ^uint64(0)

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
	return len(k) > 0 && (k[0] == pCounter || k[0] == pPairRow || k[0] == pLookup || k[0] == pNode || k[0] == pValue)
}

// The cache keys its map on the bytes of the keys passed to get and put,
// without a copy: store builds every key afresh and never changes it.
//
// get serves write transactions (ts never: any entry) and snapshots at
// read timestamp ts.
func (c *hotCache) get(k []byte, ts uint64) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[string(k)]
	if !ok || e.from > ts && ts != never {
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

// put stores a committed value v of k, read at timestamp ts; v must not
// change afterwards. A write transaction (writer) reads the latest
// committed value of every key it does not find in the commit under way,
// so its value is kept; a snapshot's only when no commit is under way and
// none landed after ts.
func (c *hotCache) put(k, v []byte, ts uint64, writer bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !writer && (c.inflight > 0 || ts < c.landed) {
		return
	}
	c.set(k, v, ts)
}

func (c *hotCache) set(k, v []byte, from uint64) {
	if old, ok := c.m[string(k)]; ok {
		c.bytes += int64(len(v) - old.size())
		c.m[keyString(k)] = hotEntry{val: v, from: from, ref: old.ref}
		return
	}
	c.m[keyString(k)] = hotEntry{val: v, from: from}
	c.bytes += int64(len(k)+len(v)) + entryOverhead
	if c.bytes > c.budget {
		c.evict()
	}
}

// size is the memory an entry's value takes: its bytes, and the decoded
// node (about twice them) when there is one.
func (e hotEntry) size() int {
	if e.node != nil {
		return 3 * len(e.val)
	}
	return len(e.val)
}

// node returns k's decoded node for a snapshot at read timestamp ts,
// when a snapshot decoded the entry's value before: one lookup for what
// get and a decode would give. The node is shared: callers copy it, and
// must not change what its slices hold.
func (c *hotCache) node(k []byte, ts uint64) *graph.Node {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[string(k)]
	if !ok || e.node == nil || e.from > ts {
		return nil
	}
	c.hits++
	if !e.ref {
		e.ref = true
		c.m[keyString(k)] = e
	}
	return e.node
}

// keepDecoded keeps n, decoded from v, beside k's entry if that still
// holds v.
func (c *hotCache) keepDecoded(k, v []byte, n *graph.Node) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[string(k)]; ok && e.node == nil && sameSlice(e.val, v) {
		c.bytes += int64(2 * len(v))
		e.node = n
		c.m[keyString(k)] = e
	}
}

func sameSlice(a, b []byte) bool {
	return len(a) == len(b) && len(a) > 0 && unsafe.SliceData(a) == unsafe.SliceData(b)
}

func (c *hotCache) remove(k []byte) {
	if old, ok := c.m[string(k)]; ok {
		c.bytes -= int64(len(k)+old.size()) + entryOverhead
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
			c.bytes -= int64(len(k)+e.size()) + entryOverhead
			delete(c.m, k)
			if c.bytes <= target {
				return
			}
		}
	}
}

// begin is called before a drop of keys reaches Badger (apply, before a
// commit's): until land, snapshots add nothing.
func (c *hotCache) begin() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.inflight++
}

// land is called once the commit begun has landed (or failed: ok false,
// and the cache is emptied, since whatever landed cannot be trusted); ts
// is a read timestamp taken after it, and changed the entries its apply
// set.
func (c *hotCache) land(changed [][]byte, ts uint64, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.inflight--
	c.landed = max(c.landed, ts)
	if !ok {
		clear(c.m)
		c.bytes = 0
		return
	}
	for _, k := range changed {
		if e, held := c.m[string(k)]; held && e.from == never {
			e.from = ts
			c.m[string(k)] = e
		}
	}
}

// apply records a transaction's writes, before its commit starts, to the keys
// the cache holds, marked unseen by snapshots until land, and returns the
// keys it set. Keys it does not hold stay out until read: most keys a
// transaction creates (a new term's document frequency, a new pair) are
// not read again soon, and inserting them all cost more than the reads it
// saved.
func (c *hotCache) apply(o *overlay) [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.inflight++
	var changed [][]byte
	o.each(func(p *pending) {
		if !cacheable(p.key) {
			return
		}
		if _, ok := c.m[string(p.key)]; ok {
			if p.del {
				c.remove(p.key)
			} else {
				c.set(p.key, p.val, never)
				changed = append(changed, p.key)
			}
		}
	})
	return changed
}
