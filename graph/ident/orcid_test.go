package ident_test

import (
	"testing"

	"github.com/researchkg/kg/graph/ident"
)

func TestORCIDKey(t *testing.T) {
	for in, want := range map[string]string{
		"0000-0002-1825-0097":                   "0000-0002-1825-0097",
		"https://orcid.org/0000-0002-1694-233X": "0000-0002-1694-233X",
		"0000000218250097":                      "0000-0002-1825-0097",
		"0000-0002-1825-0098":                   "", // check digit
		"0000-0002-1825":                        "",
		"not an id":                             "",
	} {
		if got := ident.ORCIDKey(in); got != want {
			t.Errorf("ORCIDKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// ORCIDKey survives any text and returns a well-formed iD or nothing.
func FuzzORCIDKey(f *testing.F) {
	for _, s := range []string{"0000-0002-1825-0097", "https://orcid.org/0000-0002-1694-233X", "x", "0000 0002 1825 0097", "orcid.org/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k := ident.ORCIDKey(s)
		if k != "" && (len(k) != 19 || ident.ORCIDKey(k) != k) {
			t.Fatalf("ORCIDKey(%q) = %q: not a stable iD", s, k)
		}
	})
}
