package graph

import (
	"maps"
	"testing"
)

func TestPendingCodec(t *testing.T) {
	for _, m := range []map[NodeID]float64{
		{},
		{MakeID(KindConcept, 7): 0.125},
		{MakeID(KindConcept, 9): 1, MakeID(KindConcept, 3): 0.333, MakeID(KindConcept, 1<<40): 0},
	} {
		got, err := decodePending(encodePending(m))
		if err != nil || !maps.Equal(got, m) {
			t.Errorf("round trip of %v: %v, %v", m, got, err)
		}
	}
	v := encodePending(map[NodeID]float64{MakeID(KindConcept, 2): 0.5, MakeID(KindConcept, 5): 0.25})
	for i := range len(v) - 1 {
		if _, err := decodePending(v[:i]); err == nil {
			t.Errorf("a value cut to %d of %d bytes decodes", i, len(v))
		}
	}
	if _, err := decodePending(append(v, 0)); err == nil {
		t.Error("a value with a trailing byte decodes")
	}
}

// A stored value is read back whatever its bytes: an error, never a panic,
// and what decodes encodes to the same bytes.
func FuzzDecodePending(f *testing.F) {
	f.Add(encodePending(map[NodeID]float64{MakeID(KindConcept, 2): 0.5, MakeID(KindConcept, 5): 0.25}))
	f.Add([]byte{0})
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodePending(b)
		if err != nil {
			return
		}
		if again, err := decodePending(encodePending(m)); err != nil || !maps.Equal(again, m) {
			t.Fatalf("%x decodes to %v, which does not round-trip: %v %v", b, m, again, err)
		}
	})
}

// A hyphen inside an acronym name makes it a word sequence to the
// tokeniser; one at an end is a slip, and the key stays the bare acronym's
// ("BERT-" must not take "bert" from BERT).
func TestReadAsWords(t *testing.T) {
	for name, want := range map[string]bool{"GPT-4o": true, "ResNet-50": true, "U-Net": true, "BERT-": false, "-SAM": false, "BERT": false} {
		if got := readAsWords(name); got != want {
			t.Errorf("readAsWords(%q) = %v, want %v", name, got, want)
		}
	}
}
