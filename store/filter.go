package store

import (
	"hash/maphash"
	"math"
	"sync/atomic"
)

// keyFilter answers "certainly absent" for keys of the prefixes it covers
// (counters, lookups and pair counts), and "certainly empty" for scans of
// search-index terms up to a word boundary ("model reward " finds every
// concept ending in "reward model"): a Bloom filter over every such key,
// and every term key's prefixes that end with a space, in the store; built
// by one key-only scan and kept up to date by commits. Deleted keys stay
// in it (a false "maybe").
//
// A fresh ingest of the arXiv file reads a document frequency for every
// candidate term and a lookup for every new name and concept; most of
// those keys do not exist yet, and each such miss walked Badger's
// memtables and every level's table index (1.5 million misses in 20,000
// records); each new concept scans for longer ones ending with it (a
// Badger iterator and a seek in every table, for 520,000 new concepts,
// nearly all finding nothing); four in five pair counts read (two authors,
// two concepts of a paper) are new pairs of known nodes (245,000 misses in
// 20,000 records). The filter answers them from memory. It is enabled for
// bulk ingest (Options.KeyFilter) and built once write transactions have
// met many absent keys (filterAfterMisses); the scan took 2.3 s for the
// 3.7 million counter, lookup and term keys of the arXiv store.
//
// One goroutine adds at a time (the commit under way, or the build) while
// the writer asks: the bits are set and read atomically, and a new part is
// published whole.
type keyFilter struct {
	seed  maphash.Seed
	parts atomic.Pointer[[]*bloom] // each twice the capacity of the one before; add goes to the last
}

type bloom struct {
	bits     []uint64
	m        uint64 // bits
	n, limit int    // keys added, capacity at the target error rate
}

// filterHashes is the number of bit probes per key (1% false positives at
// 9.6 bits per key).
const filterHashes = 7

func newBloom(capacity int) *bloom {
	capacity = max(capacity, 1<<16)
	m := uint64(math.Ceil(float64(capacity) * 9.6))
	m = (m + 63) &^ 63
	return &bloom{bits: make([]uint64, m/64), m: m, limit: capacity}
}

func newKeyFilter(capacity int) *keyFilter {
	f := &keyFilter{seed: maphash.MakeSeed()}
	f.parts.Store(&[]*bloom{newBloom(capacity)})
	return f
}

func (f *keyFilter) covers(k []byte) bool { return filtered(k) }

// filtered reports whether a key's prefix is one the filter answers for.
func filtered(k []byte) bool {
	return len(k) > 0 && filteredPrefix[k[0]]
}

// filteredPrefix marks the key prefixes the filter answers point reads
// for; its build scans them and pTerm (for the scans it answers). One
// table for both: a prefix the build skipped would read as absent.
var filteredPrefix = [256]bool{pCounter: true, pLookup: true, pPairRow: true}

// coversScan reports whether the filter knows if a scan prefix is empty.
func (f *keyFilter) coversScan(prefix []byte) bool {
	return len(prefix) > 2 && prefix[0] == pTerm && prefix[len(prefix)-1] == ' '
}

// takes reports whether addKey adds anything for k.
func (f *keyFilter) takes(k []byte) bool {
	return f.covers(k) || len(k) > 2 && k[0] == pTerm
}

// addKey adds a stored key: covered keys themselves, and for a term key
// its prefixes ending with a space.
func (f *keyFilter) addKey(k []byte) {
	switch {
	case !f.takes(k):
	case f.covers(k):
		f.add(k)
	default: // a term key
		for i := 2; i < len(k) && k[i] != 0; i++ {
			if k[i] == ' ' {
				f.add(k[:i+1])
			}
		}
	}
}

func (f *keyFilter) hashes(k []byte) (h1, h2 uint64) {
	h := maphash.Bytes(f.seed, k)
	return h, h>>32 | h<<32 | 1
}

func (f *keyFilter) add(k []byte) {
	parts := *f.parts.Load()
	b := parts[len(parts)-1]
	if b.n >= b.limit {
		b = newBloom(2 * b.limit)
		grown := append(parts[:len(parts):len(parts)], b)
		f.parts.Store(&grown)
	}
	h1, h2 := f.hashes(k)
	for i := uint64(0); i < filterHashes; i++ {
		bit := (h1 + i*h2) % b.m
		atomic.OrUint64(&b.bits[bit/64], 1<<(bit%64))
	}
	b.n++
}

// mayContain is false only for keys never added.
func (f *keyFilter) mayContain(k []byte) bool {
	h1, h2 := f.hashes(k)
	for _, b := range *f.parts.Load() {
		in := true
		for i := uint64(0); i < filterHashes; i++ {
			bit := (h1 + i*h2) % b.m
			if atomic.LoadUint64(&b.bits[bit/64])&(1<<(bit%64)) == 0 {
				in = false
				break
			}
		}
		if in {
			return true
		}
	}
	return false
}

// bytes is the filter's memory.
func (f *keyFilter) bytes() int {
	n := 0
	for _, b := range *f.parts.Load() {
		n += 8 * len(b.bits)
	}
	return n
}
