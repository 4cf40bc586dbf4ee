package store

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// The carried counters against a map, over merges that add, replace and
// delete, as a bulk load's flushes do: every key ever written is asked.
func TestCarriedCounters(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	c := newCarriedCounters()
	model := map[string]int64{}
	var asked []string
	for round := range 40 {
		var es []carryEntry
		seen := map[string]bool{}
		for range 1 + rng.IntN(3000) {
			k := fmt.Sprintf("\x08df/term %d", rng.IntN(20000))
			if seen[k] {
				continue // a flush writes a key once
			}
			seen[k] = true
			asked = append(asked, k)
			var v int64
			if rng.IntN(5) > 0 {
				v = rng.Int64N(1<<50) - 1<<49
			}
			del := v == 0
			es = append(es, c.entry([]byte(k), binary.BigEndian.AppendUint64(nil, uint64(v)), del))
			if del {
				delete(model, k)
			} else {
				model[k] = v
			}
		}
		c.merge(es)
		if c.len() != len(model) || c.size() != int64(len(model))*carriedSize {
			t.Fatalf("round %d: %d counters (%d bytes), want %d", round, c.len(), c.size(), len(model))
		}
		for _, k := range asked {
			got, ok := c.get([]byte(k))
			want, has := model[k]
			if ok != has || ok && int64(binary.BigEndian.Uint64(got)) != want {
				t.Fatalf("round %d: get(%q) = %x, %v; want %d, %v", round, k, got, ok, want, has)
			}
		}
	}
	if _, ok := c.get([]byte("\x08df/never written")); ok {
		t.Error("a key never written is found")
	}
}

// The search finds every entry of a sorted array, and no hash between
// them, whatever the spread (dense runs of equal first hashes included).
func TestSearchCarried(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 17, 100, 5000} {
		s := make([]carried, 0, n)
		h := uint64(0)
		for range n {
			if rng.IntN(4) > 0 {
				h += 1 + rng.Uint64N(1<<58)
			}
			s = append(s, carried{h1: h, h2: rng.Uint64(), v: 1})
		}
		s = sortedCarried(s)
		for i, e := range s {
			if j, ok := searchCarried(s, e.h1, e.h2); !ok || j != i {
				t.Fatalf("n %d: entry %d found at %d, %v", n, i, j, ok)
			}
			if _, ok := searchCarried(s, e.h1, e.h2+1); ok && (i+1 >= n || s[i+1] != carried{h1: e.h1, h2: e.h2 + 1, v: 1}) {
				t.Fatalf("n %d: a hash beside entry %d is found", n, i)
			}
		}
	}
}

func sortedCarried(s []carried) []carried {
	out := make([]carried, 0, len(s))
	seen := map[carried]bool{}
	for _, e := range s {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	slicesSortCarried(out)
	return out
}

func slicesSortCarried(s []carried) { slices.SortFunc(s, cmpCarried) }
