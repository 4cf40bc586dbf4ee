package store

import (
	"fmt"
	"testing"
)

// A readBack gives back what was put until its shard fills, and never
// holds more than its budget: a full shard is emptied whole.
func TestReadBackBounded(t *testing.T) {
	const budget = 1 << 22
	c := newReadBack(budget)
	var most int64
	for i := range 200_000 {
		k := append([]byte{pNode}, fmt.Sprintf("%08d", i)...)
		v := []byte(fmt.Sprintf("value %d", i))
		c.put(k, v)
		if got, ok := c.get(k); !ok || string(got) != string(v) {
			t.Fatalf("key %d: got %q %v just after its put", i, got, ok)
		}
		most = max(most, c.size())
	}
	if most > budget {
		t.Errorf("held %d bytes, budget %d", most, budget)
	}
	var sum int64
	for i := range c.shards {
		sum += c.shards[i].bytes
	}
	if sum != c.size() || sum == 0 {
		t.Errorf("shards hold %d bytes, size says %d", sum, c.size())
	}
	var none *readBack // no load, or its last flush: nothing kept
	none.put([]byte{pNode, 1}, []byte("x"))
	if _, ok := none.get([]byte{pNode, 1}); ok || none.size() != 0 {
		t.Error("a nil readBack kept a value")
	}
	if readBackable([]byte{pCounter, 1}) || !readBackable([]byte{pLookup, 1}) || readBackable(nil) {
		t.Error("readBackable: counters are carried, lookups kept, nothing for an empty key")
	}
}
