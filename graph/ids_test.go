package graph_test

import (
	"testing"

	"github.com/researchkg/kg/graph"
)

func TestParseID(t *testing.T) {
	id := graph.MakeID(graph.KindConcept, 42)
	got, err := graph.ParseID(id.String())
	if err != nil || got != id || id.String() != "concept:42" {
		t.Fatalf("round trip: %s → %v, %v", id, got, err)
	}
	for _, bad := range []string{"", "42", "paper:", "paper:0", "paper:-1", "paper:+1", "paper:01", "nope:3", "paper:1x", "paper:72057594037927936"} {
		if _, err := graph.ParseID(bad); graph.ErrorCode(err) != graph.Invalid {
			t.Errorf("ParseID(%q): got %v, want an Invalid error", bad, err)
		}
	}
}

func FuzzParseID(f *testing.F) {
	f.Add("paper:1")
	f.Add("author:18446744073709551615")
	f.Fuzz(func(t *testing.T, s string) {
		id, err := graph.ParseID(s)
		if err != nil {
			return
		}
		if back, err := graph.ParseID(id.String()); err != nil || back != id {
			t.Fatalf("%q parsed to %v but %s does not round-trip", s, id, id)
		}
	})
}

func FuzzDecodeCursor(f *testing.F) {
	f.Add("bgAPzRIAAAEAAAAAAAAAAWdyb3VuZGluZ3RoZXNjb3Jl")
	f.Add("cgAPzRIB9AEAAAAAAAAAAQ")
	f.Add("-BVhdHAgYmVuY2gAAQAAAAAAAAE")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		for _, o := range []graph.PaperOrder{graph.Newest, graph.Oldest, graph.Relevance} {
			back, err := graph.ReencodeCursor(s, o)
			if err != nil {
				continue
			}
			if again, err := graph.ReencodeCursor(back, o); err != nil || again != back {
				t.Fatalf("cursor %q decoded and encoded as %q, which reads back as %q (%v)", s, back, again, err)
			}
		}
	})
}
