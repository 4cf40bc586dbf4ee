package store

import (
	"fmt"
	"testing"
)

// The filter never forgets a key, and answers "maybe" for about 1% of
// keys it never saw, also after it has grown past its first capacity.
func TestFilterFalsePositives(t *testing.T) {
	f := newKeyFilter(1 << 16)
	key := func(s string, i int) []byte { return counterKey(fmt.Sprintf("df/%s %d", s, i)) }
	const n = 300000 // past the first part (65,536) and two doublings
	for i := range n {
		f.add(key("in", i))
	}
	for i := range n {
		if !f.mayContain(key("in", i)) {
			t.Fatalf("key %d added but reported absent", i)
		}
	}
	fp := 0
	for i := range n {
		if f.mayContain(key("out", i)) {
			fp++
		}
	}
	// each of the 3 parts answers ~1% wrongly; a key is tested against all
	if rate := float64(fp) / n; rate > 0.04 {
		t.Errorf("false positives: %.2f%% of absent keys", 100*rate)
	} else {
		t.Logf("false positives: %.2f%% of absent keys, %d parts, %d bytes", 100*rate, len(*f.parts.Load()), f.bytes())
	}
}
