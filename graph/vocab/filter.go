package vocab

import (
	"hash/maphash"
	"math"
)

// Filter is a scalable Bloom filter over strings: MayHave is false only
// for keys never added. It grows by parts, each twice the size of the one
// before (adds go to the last), so it needs no size ahead. Not safe for
// concurrent use.
type Filter struct {
	seed  maphash.Seed
	parts []*bloom
}

type bloom struct {
	bits     []uint64
	m        uint64
	n, limit int
}

// probes per key: 1% false positives at 9.6 bits per key.
const probes = 7

func newBloom(capacity int) *bloom {
	capacity = max(capacity, 1<<14)
	m := uint64(math.Ceil(float64(capacity)*9.6)+63) &^ 63
	return &bloom{bits: make([]uint64, m/64), m: m, limit: capacity}
}

// NewFilter makes a filter sized for capacity keys before it grows.
func NewFilter(capacity int) *Filter {
	return &Filter{seed: maphash.MakeSeed(), parts: []*bloom{newBloom(capacity)}}
}

func (f *Filter) hashes(k string) (uint64, uint64) {
	h := maphash.String(f.seed, k)
	return h, h>>32 | h<<32 | 1
}

// Add adds a key.
func (f *Filter) Add(k string) {
	b := f.parts[len(f.parts)-1]
	if b.n >= b.limit {
		b = newBloom(2 * b.limit)
		f.parts = append(f.parts, b)
	}
	h1, h2 := f.hashes(k)
	for i := uint64(0); i < probes; i++ {
		bit := (h1 + i*h2) % b.m
		b.bits[bit/64] |= 1 << (bit % 64)
	}
	b.n++
}

// MayHave is false only for keys never added.
func (f *Filter) MayHave(k string) bool {
	h1, h2 := f.hashes(k)
	for _, b := range f.parts {
		in := true
		for i := uint64(0); i < probes; i++ {
			bit := (h1 + i*h2) % b.m
			if b.bits[bit/64]&(1<<(bit%64)) == 0 {
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
