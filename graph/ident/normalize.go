package ident

import (
	"slices"
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
func TitleKey(title string) string { return FoldRendered(LatexToText(title)) }

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
func FoldKey(s string) string { return FoldRendered(LatexToText(s)) }

// ConceptKey is the identity key of a concept: FoldKey with the spaces
// removed as well, so hyphen and space variants are one concept
// ("pre-training", "pretraining", "Pre Training"), and each word in its
// American spelling ("optimisation" → "optimization"). Singular and plural
// are merged before, by the extractor's canonical form. The key of a
// phrase is the keys of its words joined: ConceptKey("a b") ==
// ConceptKey("a") + ConceptKey("b").
func ConceptKey(s string) string {
	f := FoldKey(s)
	if !strings.Contains(f, " ") {
		return spellingKey(f)
	}
	var b strings.Builder
	b.Grow(len(f))
	for _, w := range strings.Fields(f) {
		b.WriteString(spellingKey(w))
	}
	return b.String()
}

// ConceptWordKeys are the keys of a concept name's words, split at spaces
// only: "vision-language process reward model" → [visionlanguage process
// reward model]. A hyphenated word stays one word, so the hierarchy never
// cuts one ("language model" is not the broader concept of
// "vision-language model").
func ConceptWordKeys(name string) []string {
	f := strings.Fields(LatexToText(name))
	out := make([]string, 0, len(f))
	for _, w := range f {
		if k := ConceptKey(w); k != "" {
			out = append(out, k)
		}
	}
	return out
}

// IsAcronym reports whether a word is an acronym: at least two capitals
// and no run of three lower-case letters other than a plural "s" ("LLMs",
// "VL-PRMs", "RL", "LoRA", not "Trace2Skill" or "Transformer").
func IsAcronym(w string) bool {
	upper, lowerRun := 0, 0
	for _, r := range strings.TrimSuffix(w, "s") {
		switch {
		case unicode.IsUpper(r):
			upper++
			lowerRun = 0
		case unicode.IsLower(r):
			lowerRun++
			if lowerRun >= 3 {
				return false
			}
		case unicode.IsSpace(r):
			return false
		default:
			lowerRun = 0
		}
	}
	return upper >= 2
}

// SingularAcronym strips a plural "s" from an acronym ("MLLMs" → "MLLM").
func SingularAcronym(w string) string {
	if len(w) > 2 && strings.HasSuffix(w, "s") && unicode.IsUpper(rune(w[len(w)-2])) {
		return w[:len(w)-1]
	}
	return w
}

// isClean reports whether CleanText would return s as it is: printable
// ASCII with single inner spaces (most rendered titles and abstracts).
func isClean(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return s == ""
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < ' ' || c >= 0x7f || c == ' ' && s[i+1] == ' ' {
			return false
		}
	}
	return true
}

// ArXivKey normalises an arXiv identifier for identity: the "arXiv:" prefix,
// URL and version suffix removed ("arXiv:2503.01234v2" → "2503.01234",
// "http://arxiv.org/abs/hep-th/9901001v1" → "hep-th/9901001"). It returns ""
// for anything that is not shaped like one.
func ArXivKey(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "arxiv.org/abs/"); i >= 0 {
		s = s[i+len("arxiv.org/abs/"):]
	} else if i := strings.Index(s, "arxiv.org/pdf/"); i >= 0 {
		s = strings.TrimSuffix(s[i+len("arxiv.org/pdf/"):], ".pdf")
	}
	if len(s) > 6 && strings.EqualFold(s[:6], "arxiv:") {
		s = s[6:]
	}
	if i := strings.LastIndexByte(s, 'v'); i > 0 && i < len(s)-1 && AllDigits(s[i+1:]) {
		s = s[:i]
	}
	// new style YYMM.NNNN(N); old style archive(.class)/YYMMNNN
	if yymm, num, ok := strings.Cut(s, "."); ok && len(yymm) == 4 && AllDigits(yymm) && (len(num) == 4 || len(num) == 5) && AllDigits(num) {
		return s
	}
	if arch, num, ok := strings.Cut(s, "/"); ok && len(num) == 7 && AllDigits(num) && LooksLikeSubject(strings.ToLower(arch)) {
		return strings.ToLower(arch) + "/" + num
	}
	return ""
}

// DOIKey normalises a DOI: the resolver URL or "doi:" prefix removed, lower
// case (DOIs are case-insensitive). "" when it does not start with "10.".
func DOIKey(s string) string {
	s = strings.TrimSpace(s)
	for _, p := range []string{"https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "doi:"} {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			s = s[len(p):]
		}
	}
	s = strings.ToLower(strings.TrimSpace(s))
	if !strings.HasPrefix(s, "10.") || !strings.Contains(s, "/") || strings.ContainsAny(s, " \t\n") {
		return ""
	}
	return s
}

func AllDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// Tokens splits s into the folded words a search index keys on.
func Tokens(s string) []string { return strings.Fields(FoldKey(s)) }

// FoldRendered folds already-rendered text.
func FoldRendered(s string) string {
	if k, ok := foldASCII(s); ok {
		return k
	}
	return foldUnicode(s)
}

// foldUnicode is FoldRendered for any text.
func foldUnicode(s string) string {
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

// foldASCII is FoldRendered for ASCII text, without Unicode normalisation (most
// words of most texts: concept keys are built for every span of every
// abstract).
func foldASCII(s string) (string, bool) {
	clean := true // already lower-case letters and digits only
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return "", false
		}
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			clean = false
		}
	}
	if clean {
		return s, true
	}
	b := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c, ok := foldByte(s[i])
		if !ok {
			space = true
			continue
		}
		if space && len(b) > 0 {
			b = append(b, ' ')
		}
		space = false
		b = append(b, c)
	}
	return string(b), true
}

// foldByte is an ASCII byte folded: a letter lower-cased or a digit (ok),
// or a separator (not ok).
func foldByte(c byte) (byte, bool) {
	switch {
	case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
		return c, true
	case c >= 'A' && c <= 'Z':
		return c + 'a' - 'A', true
	}
	return 0, false
}

// FoldedEqual reports whether FoldKey(s) == key, without building
// FoldKey(s) when s is plain ASCII (no LaTeX, no control character): a
// search compares the query with the label of every node it matched, and
// folding each label was a quarter of a search's time.
func FoldedEqual(s, key string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x7f || c < 0x20 || c == '\\' || c == '$' {
			return FoldKey(s) == key
		}
	}
	j, space := 0, false
	for i := 0; i < len(s); i++ {
		c, ok := foldByte(s[i])
		if !ok {
			space = true
			continue
		}
		if space && j > 0 {
			if j >= len(key) || key[j] != ' ' {
				return false
			}
			j++
		}
		space = false
		if j >= len(key) || key[j] != c {
			return false
		}
		j++
	}
	return j == len(key)
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
	if isClean(s) {
		return s
	}
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

// Clip cuts s to n bytes with an ellipsis: what an error message quotes of
// a field that may be long.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// ORCIDKey returns an ORCID iD as its 16 characters in groups of four
// ("0000-0002-1825-0097"), with any https://orcid.org/ prefix dropped, or
// "" when it is not one (its ISO 7064 11,2 check digit is checked).
func ORCIDKey(s string) string {
	s = strings.TrimSpace(s)
	for _, p := range []string{"https://orcid.org/", "http://orcid.org/", "orcid.org/"} {
		if len(s) > len(p) && strings.EqualFold(s[:len(p)], p) {
			s = s[len(p):]
		}
	}
	var d []byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			d = append(d, c)
		case c == 'X' || c == 'x':
			d = append(d, 'X')
		case c == '-' || c == ' ':
		default:
			return ""
		}
	}
	if len(d) != 16 || slices.Contains(d[:15], 'X') {
		return ""
	}
	total := 0
	for _, c := range d[:15] {
		total = (total + int(c-'0')) * 2
	}
	check := (12 - total%11) % 11
	want := byte('0' + check)
	if check == 10 {
		want = 'X'
	}
	if d[15] != want {
		return ""
	}
	return string(d[0:4]) + "-" + string(d[4:8]) + "-" + string(d[8:12]) + "-" + string(d[12:16])
}
