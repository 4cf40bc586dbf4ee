package graph

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The settle's fold-key cache answers what was put in it, or nothing,
// never another key's fold; it holds at most two generations; and a key
// asked for again survives the turn of a generation.
func TestFoldCacheIsBoundedAndTrue(t *testing.T) {
	const max = 64
	c := newFoldCache(max)
	fold := func(a NodeID) string { return fmt.Sprintf("fold-%d", a) }
	rng := rand.New(rand.NewPCG(5, 6))
	hits := 0
	for range 20_000 {
		a := MakeID(KindAuthor, uint64(1+rng.IntN(500)))
		if f, ok := c.get(a); ok {
			if f != fold(a) {
				t.Fatalf("get(%s) = %q, want %q", a, f, fold(a))
			}
			hits++
		} else {
			c.put(a, fold(a))
		}
		if n := len(c.cur) + len(c.old); n > 2*max {
			t.Fatalf("the cache holds %d entries, more than two generations of %d", n, max)
		}
	}
	if hits == 0 {
		t.Fatal("no key was ever found again")
	}
	// a key kept in use stays through many turns of the generations
	hot := MakeID(KindAuthor, 9999)
	c.put(hot, fold(hot))
	for i := range 10 * max {
		c.put(MakeID(KindAuthor, uint64(10_000+i)), "x")
		if _, ok := c.get(hot); !ok {
			t.Fatalf("the key asked for at every step was dropped after %d puts", i+1)
		}
	}
	// a key no longer asked for is dropped within two generations
	if _, ok := c.get(MakeID(KindAuthor, 10_000)); ok {
		t.Fatal("a key put 10 generations ago is still held")
	}
}
