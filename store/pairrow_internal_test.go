package store

import (
	"testing"

	"github.com/researchkg/kg/graph"
)

// A split row that gains a new, larger id rewrites its last part only; a
// change in the middle rewrites that part; a part past the limit is cut
// and the starts rewritten.
func TestRowWritesTouchChangedParts(t *testing.T) {
	old := maxPartEntries
	maxPartEntries = 4
	defer func() { maxPartEntries = old }()
	var es []pairEntry
	for i := uint64(1); i <= 12; i++ {
		es = append(es, pairEntry{i * 10, 1})
	}
	first := rowWrites(graph.CoAuthor, 9, &pairRow{delta: deltaOf(es)})
	// 12 entries cut in halves until each fits 4: 4 parts of 3 and the starts
	if len(first) != 5 {
		t.Fatalf("first write of 12 entries: %d keys, want 4 parts and the starts", len(first))
	}
	starts, err := decodeStarts(first[len(first)-1].v)
	if err != nil || len(starts) != 4 || starts[0] != 0 {
		t.Fatalf("starts %v, %v", starts, err)
	}
	stored := &pairRow{base: es, starts: starts}
	grow := *stored
	grow.delta = map[uint64]int64{500: 1}
	if w := rowWrites(graph.CoAuthor, 9, &grow); len(w) != 1 || string(w[0].k) != string(pairPartKey(graph.CoAuthor, 9, starts[3])) {
		t.Fatalf("a new last id wrote %d keys, want the last part", len(w))
	}
	mid := *stored
	mid.delta = map[uint64]int64{50: 3}
	if w := rowWrites(graph.CoAuthor, 9, &mid); len(w) != 1 || string(w[0].k) != string(pairPartKey(graph.CoAuthor, 9, starts[1])) {
		t.Fatalf("a change in the middle wrote %d keys, want its part", len(w))
	}
	cut := *stored
	cut.delta = map[uint64]int64{51: 1, 52: 1}
	w := rowWrites(graph.CoAuthor, 9, &cut)
	if len(w) != 3 { // the part cut in two, and the starts
		t.Fatalf("a part past the limit wrote %d keys, want 2 parts and the starts", len(w))
	}
	if ns, err := decodeStarts(w[2].v); err != nil || len(ns) != 5 {
		t.Fatalf("starts after the cut: %v, %v", ns, err)
	}
}

// A row's value decodes to what was encoded, and garbage is an error,
// never a panic or a row out of order.
func FuzzPairRow(f *testing.F) {
	f.Add(encodeEntries([]pairEntry{{1, 2}, {5, 1}, {1 << 60, 7}}))
	f.Add(encodeStarts([]uint64{0, 40, 41}))
	f.Add([]byte{0, 3, 1})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, v []byte) {
		es, err := decodeEntries(v)
		if err == nil {
			for i := 1; i < len(es); i++ {
				if es[i].id <= es[i-1].id || es[i].n <= 0 {
					t.Fatalf("decoded row out of order or with a count ≤ 0: %v", es)
				}
			}
			again, err := decodeEntries(encodeEntries(es))
			if err != nil || len(again) != len(es) {
				t.Fatalf("round trip: %v, %d of %d", err, len(again), len(es))
			}
		}
		if s, err := decodeStarts(v); err == nil {
			if s[0] != 0 {
				t.Fatalf("starts do not begin at 0: %v", s)
			}
			for i := 1; i < len(s); i++ {
				if s[i] <= s[i-1] {
					t.Fatalf("starts out of order: %v", s)
				}
			}
		}
	})
}
