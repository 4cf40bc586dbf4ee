package store

import (
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"slices"
	"sync/atomic"
)

// carriedCounters holds, during a bulk load, the value of every counter
// its flushes wrote, so that no counter read of a later tier goes to
// Badger. Past the first flush of a large load, the reads that missed the
// tier and found their key in Badger's tables were nearly all the document
// frequencies each paper reads for its ~50 candidate terms: a table seek
// and a block decoded each (Txn.Get 22 CPU-s of 200 on the arXiv file in
// six tiers), each tier slower than the one before. Keeping the counters
// in the tier instead filled the budget (8 flushes instead of 6, 163 s
// against 124 s): a tier entry costs ~60 bytes, an entry here 24.
//
// A bulk load begins on an empty store (or drops what an interrupted one
// left at its first flush), so Badger holds only the load's flushes: a
// counter absent here and from the tier is absent, with no read of Badger.
//
// An entry is the key's 128-bit hash (two 64-bit seeds: for the ~10
// million counters of a million papers, the chance that two share one is
// below 1e-24) and its value; 256 shards by the hash's top byte, each a
// sorted array found by interpolation search (the hashes are uniform: two
// or three probes). A flush merges its counters shard by shard into new
// arrays and publishes each whole, so a reader needs no lock and the
// memory a merge adds at once is one shard's. A deleted counter (its
// value 0) leaves the table.
type carriedCounters struct {
	seed1, seed2 maphash.Seed
	shards       [256]atomic.Pointer[[]carried]
	n, bytes     atomic.Int64
}

type carried struct {
	h1, h2 uint64
	v      int64
}

func newCarriedCounters() *carriedCounters {
	return &carriedCounters{seed1: maphash.MakeSeed(), seed2: maphash.MakeSeed()}
}

func (c *carriedCounters) hash(k []byte) (uint64, uint64) {
	return maphash.Bytes(c.seed1, k), maphash.Bytes(c.seed2, k)
}

func cmpCarried(a, b carried) int {
	if a.h1 != b.h1 {
		return cmp.Compare(a.h1, b.h1)
	}
	return cmp.Compare(a.h2, b.h2)
}

// get returns the value of the counter whose key is k (8 bytes, Badger's
// encoding), or false when no flush of the load wrote it.
func (c *carriedCounters) get(k []byte) ([]byte, bool) {
	h1, h2 := c.hash(k)
	p := c.shards[h1>>56].Load()
	if p == nil {
		return nil, false
	}
	s := *p
	i, ok := searchCarried(s, h1, h2)
	if !ok {
		return nil, false
	}
	return binary.BigEndian.AppendUint64(make([]byte, 0, 8), uint64(s[i].v)), true
}

// searchCarried finds (h1, h2) in s, sorted: interpolation on h1 while the
// range is wide, then a binary search.
func searchCarried(s []carried, h1, h2 uint64) (int, bool) {
	lo, hi := 0, len(s) // the entry, if any, is in s[lo:hi]
	for hi-lo > 16 {
		a, b := s[lo].h1, s[hi-1].h1
		if h1 < a || h1 > b {
			return 0, false
		}
		if a == b {
			break
		}
		// the guess, within [lo, hi-1]; frac < 1 in 64-bit float
		frac := float64(h1-a) / float64(b-a)
		g := lo + int(frac*float64(hi-1-lo))
		switch c := cmpCarried(s[g], carried{h1: h1, h2: h2}); {
		case c == 0:
			return g, true
		case c < 0:
			lo = g + 1
		default:
			hi = g
		}
	}
	i, ok := slices.BinarySearchFunc(s[lo:hi], carried{h1: h1, h2: h2}, cmpCarried)
	return lo + i, ok
}

// carryEntry is a counter a flush wrote: its value, or a deletion.
type carryEntry struct {
	carried
	del bool
}

// entry hashes a counter of a flush (val: Badger's 8 bytes).
func (c *carriedCounters) entry(k, val []byte, del bool) carryEntry {
	h1, h2 := c.hash(k)
	e := carryEntry{carried: carried{h1: h1, h2: h2}, del: del}
	if !del {
		e.v = decodeInt(val)
	}
	return e
}

// merge takes a flush's counters (each key once): a new value replaces
// the one held, a deletion removes it.
func (c *carriedCounters) merge(es []carryEntry) {
	slices.SortFunc(es, func(a, b carryEntry) int { return cmpCarried(a.carried, b.carried) })
	for start := 0; start < len(es); {
		shard := es[start].h1 >> 56
		end := start
		for end < len(es) && es[end].h1>>56 == shard {
			end++
		}
		c.mergeShard(int(shard), es[start:end])
		start = end
	}
}

func (c *carriedCounters) mergeShard(shard int, es []carryEntry) {
	var old []carried
	if p := c.shards[shard].Load(); p != nil {
		old = *p
	}
	out := make([]carried, 0, len(old)+len(es))
	i := 0
	for _, e := range es {
		for i < len(old) && cmpCarried(old[i], e.carried) < 0 {
			out = append(out, old[i])
			i++
		}
		if i < len(old) && cmpCarried(old[i], e.carried) == 0 {
			i++ // replaced or deleted
		}
		if !e.del && e.v != 0 {
			out = append(out, e.carried)
		}
	}
	out = append(out, old[i:]...)
	out = slices.Clip(out)
	c.n.Add(int64(len(out) - len(old)))
	c.bytes.Add(int64(len(out)-len(old)) * int64(carriedSize))
	c.shards[shard].Store(&out)
}

// carriedSize is an entry's bytes.
const carriedSize = 24

// size is the table's memory in bytes.
func (c *carriedCounters) size() int64 {
	if c == nil {
		return 0
	}
	return c.bytes.Load()
}

// len is the number of counters held.
func (c *carriedCounters) len() int {
	if c == nil {
		return 0
	}
	return int(c.n.Load())
}
