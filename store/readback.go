package store

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// readBack holds, during a bulk load, the nodes and lookups that reads of
// the current tier found in Badger, the load's earlier flushes. Past the
// first flush the writer and the settles read the same few keys again and
// again: on the arXiv file in seven tiers (--bulk-mb 150), 1.91 million
// node reads reached Badger for 222,451 nodes, and 1.61 million lookups
// for 59,838 keys (a concept's name, a person's), each a walk of Badger's
// levels, a table seek and a block decoded. Here such a read costs a map
// lookup.
//
// A flush writes newer values of some keys to Badger and empties the tier
// that shadowed them, so each flush starts an empty readBack (the bulkView
// it goes with is replaced too): a readBack's values are those of the
// Badger it was filled from, which no write changes while it is current.
// Readers still holding an earlier view read the earlier readBack, which
// matches their Badger snapshot. A value given out is shared: callers do
// not change what get returns (the tier's values are shared the same way).
//
// Bounded: each of its shards holds at most its share of the budget and
// is emptied whole when full (the hot keys come back at once, the others
// were read once); the budget counts toward the tier's (bulkUpdate).
type readBack struct {
	seed   maphash.Seed
	shards [readBackShards]readBackShard
	limit  int64 // bytes a shard may hold
	bytes  atomic.Int64
}

const readBackShards = 64

type readBackShard struct {
	mu    sync.RWMutex
	vals  map[string][]byte
	bytes int64
}

// readBackEntry is what a map entry costs besides its key and value.
const readBackEntry = 64

func newReadBack(budget int64) *readBack {
	c := &readBack{seed: maphash.MakeSeed(), limit: max(budget/readBackShards, 1<<16)}
	for i := range c.shards {
		c.shards[i].vals = map[string][]byte{}
	}
	return c
}

// readBackable reports whether reads of k are kept: nodes and lookups, the
// keys read many times each.
func readBackable(k []byte) bool { return len(k) > 0 && (k[0] == pNode || k[0] == pLookup) }

func (c *readBack) shard(k []byte) *readBackShard {
	return &c.shards[maphash.Bytes(c.seed, k)%readBackShards]
}

func (c *readBack) get(k []byte) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	s := c.shard(k)
	s.mu.RLock()
	v, ok := s.vals[string(k)]
	s.mu.RUnlock()
	return v, ok
}

func (c *readBack) put(k, v []byte) {
	if c == nil {
		return
	}
	n := int64(len(k) + len(v) + readBackEntry)
	s := c.shard(k)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.vals[string(k)]; ok {
		return
	}
	if s.bytes+n > c.limit {
		c.bytes.Add(-s.bytes)
		clear(s.vals)
		s.bytes = 0
	}
	s.vals[string(k)] = v
	s.bytes += n
	c.bytes.Add(n)
}

// size is the memory it holds, in bytes (0 for nil).
func (c *readBack) size() int64 {
	if c == nil {
		return 0
	}
	return c.bytes.Load()
}

// readBackShare: a readBack holds at most this fraction of the tier's
// budget (64 MB of the default 1,024).
const readBackShare = 16
