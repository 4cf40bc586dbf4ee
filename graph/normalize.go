package graph

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Identity keys. Everything that decides whether two spellings are the same
// paper, person or term lives here, so that readers of every format agree.

// TitleKey is the identity key of a paper title: LaTeX rendered to text,
// Unicode compatibility-folded (GD²PO → GD2PO, ligatures split), diacritics
// removed, lower case, and every run of punctuation or space turned into one
// space.
func TitleKey(title string) string { return foldKey(LatexToText(title)) }

// NameKey is the identity key of a person's name: LaTeX accents rendered,
// Unicode NFC, lower case, spacing collapsed. Diacritics are kept ("Schütze"
// and "Schutze" may be different people); FoldKey drops them for lookups.
func NameKey(name string) string {
	s := norm.NFC.String(LatexToText(name))
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// FoldKey is the loosest key used for lookups: like TitleKey, so case,
// diacritics, punctuation and spacing are all ignored ("Hinrich Schutze"
// finds "Hinrich Schütze").
func FoldKey(s string) string { return foldKey(LatexToText(s)) }

// ConceptKey is the identity key of a key term: FoldKey with the spaces
// removed as well, so hyphen and space variants are one concept
// ("pre-training", "pretraining", "Pre Training"). Singular and plural are
// merged before, by the extractor's canonical form.
func ConceptKey(s string) string { return strings.ReplaceAll(FoldKey(s), " ", "") }

// Tokens splits s into the folded words a search index keys on.
func Tokens(s string) []string { return strings.Fields(FoldKey(s)) }

// foldKey folds already-rendered text.
func foldKey(s string) string {
	s = norm.NFKD.String(s)
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.Is(unicode.Mn, r) {
			continue // combining accent left by NFKD
		}
		if rep, ok := foldSpecial[r]; ok {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteString(rep)
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		space = true
	}
	return b.String()
}

// foldSpecial maps letters that NFKD does not decompose to their ASCII
// spelling, as a reader without the diacritic would type them.
var foldSpecial = map[rune]string{
	'ß': "ss", 'ẞ': "ss", 'ø': "o", 'Ø': "o", 'ł': "l", 'Ł': "l", 'æ': "ae", 'Æ': "ae",
	'œ': "oe", 'Œ': "oe", 'đ': "d", 'Đ': "d", 'ð': "d", 'Ð': "d", 'þ': "th", 'Þ': "th", 'ı': "i",
}

// CleanText trims s, collapses every run of white space (including CR, tabs
// and non-breaking spaces) to one space and removes a byte-order mark and
// control characters.
func CleanText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case r == '\uFEFF' || r == utf8.RuneError:
			continue
		case unicode.IsSpace(r):
			space = true
			continue
		case unicode.IsControl(r):
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}
