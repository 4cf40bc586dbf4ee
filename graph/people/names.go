package people

import (
	"strings"
	"unicode"

	"github.com/researchkg/kg/graph/ident"
)

// SplitName returns the given names and the last name ("Hinrich Schütze"
// → ["Hinrich"], "Schütze"). Particles stay with the given names.
func SplitName(name string) ([]string, string) {
	f := strings.Fields(name)
	if len(f) == 0 {
		return nil, ""
	}
	return f[:len(f)-1], f[len(f)-1]
}

// IsAbbreviated reports whether every given name is an initial ("H.", "H", "J.-P.", "JM").
func IsAbbreviated(name string) bool {
	given, last := SplitName(name)
	if len(given) == 0 || last == "" {
		return false
	}
	for _, g := range given {
		letters := 0
		for _, r := range g {
			if unicode.IsLetter(r) {
				letters++
				if unicode.IsLower(r) {
					return false
				}
			}
		}
		if letters == 0 || letters > 3 {
			return false
		}
	}
	return true
}

// InitialsFit reports whether a full name fits an abbreviated one: same last name (diacritics and case folded) and the
// abbreviated name's initials are the initials of the full name's given
// names, in order ("H. Schütze" fits "Hinrich Schütze"; "H. J. Smith" fits
// "Hans-Jürgen Smith" and "Hans Jürgen Smith", not "Hans Smith").
func InitialsFit(abbrev, full string) bool {
	ag, al := SplitName(abbrev)
	fg, fl := SplitName(full)
	if ident.FoldKey(al) != ident.FoldKey(fl) || len(fg) == 0 {
		return false
	}
	var want, have []rune
	for _, g := range ag {
		for _, r := range g {
			if unicode.IsLetter(r) {
				want = append(want, unicode.ToLower(r))
			}
		}
	}
	for _, g := range fg {
		for _, part := range strings.Split(g, "-") {
			for _, r := range ident.FoldKey(part) {
				have = append(have, r)
				break
			}
		}
	}
	return string(want) == string(have)
}

// HasLetter reports whether a name has a letter at all (":" is no name).
func HasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}
