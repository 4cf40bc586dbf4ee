// The Porter stemmer, used only to score keyphrase benchmarks the way their
// papers do (eval_test.go): test code.

package nlp

import "strings"

// Stem is the Porter stemmer in NLTK's default mode (NLTK_EXTENSIONS), the
// variant keyphrase benchmarks stem their gold keys with: Porter (1980) plus
// Martin Porter's later fixes plus NLTK's own (irregular forms, "ies"/"ied"
// on four-letter words, "y" → "i" only after a consonant, "alli", "fulli",
// "logi"). Input is lower-cased; non-ASCII letters pass through unchanged.
//
// Written from the algorithm's description and checked against the stems in
// the benchmark files (nlp/porter_test.go).
func Stem(word string) string {
	// invalid UTF-8 would come back from ToLower as U+FFFD, three bytes
	// per bad byte (found by FuzzStem)
	w := strings.ToLower(strings.ToValidUTF8(word, ""))
	if s, ok := porterIrregular[w]; ok {
		return s
	}
	if len(w) <= 2 {
		return w
	}
	b := []byte(w)
	b = step1a(b)
	b = step1b(b)
	b = step1c(b)
	b = step2(b)
	b = step3(b)
	b = step4(b)
	b = step5a(b)
	b = step5b(b)
	return string(b)
}

// StemPhrase stems each whitespace-separated word of a phrase.
func StemPhrase(p string) string {
	f := strings.Fields(strings.ToLower(p))
	for i, w := range f {
		f[i] = Stem(w)
	}
	return strings.Join(f, " ")
}

var porterIrregular = map[string]string{
	"sky": "sky", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie", "news": "news",
	"innings": "inning", "inning": "inning", "outings": "outing", "outing": "outing",
	"cannings": "canning", "canning": "canning", "howe": "howe", "proceed": "proceed",
	"exceed": "exceed", "succeed": "succeed",
}

func isCons(w []byte, i int) bool {
	switch w[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		if i == 0 {
			return true
		}
		return !isCons(w, i-1)
	}
	return true
}

// measure is m in [C](VC){m}[V].
func measure(w []byte) int {
	m := 0
	prevVowel := false
	for i := range w {
		c := isCons(w, i)
		if c && prevVowel {
			m++
		}
		prevVowel = !c
	}
	return m
}

func hasVowel(w []byte) bool {
	for i := range w {
		if !isCons(w, i) {
			return true
		}
	}
	return false
}

func endsDoubleCons(w []byte) bool {
	n := len(w)
	return n >= 2 && w[n-1] == w[n-2] && isCons(w, n-1)
}

// endsCVC is *o: consonant-vowel-consonant, the last not w, x or y; NLTK
// also accepts a two-letter vowel-consonant word.
func endsCVC(w []byte) bool {
	n := len(w)
	if n >= 3 && isCons(w, n-3) && !isCons(w, n-2) && isCons(w, n-1) {
		c := w[n-1]
		return c != 'w' && c != 'x' && c != 'y'
	}
	return n == 2 && !isCons(w, 0) && isCons(w, 1)
}

func hasSuffix(w []byte, s string) bool {
	return len(w) >= len(s) && string(w[len(w)-len(s):]) == s
}

func replace(w []byte, suffix, rep string) []byte {
	out := make([]byte, 0, len(w)-len(suffix)+len(rep))
	out = append(out, w[:len(w)-len(suffix)]...)
	return append(out, rep...)
}

type rule struct {
	suffix, rep string
	cond        func(stem []byte) bool
}

// applyRules applies the first rule whose suffix matches; if its condition
// fails the word is left as it is (later rules are not tried).
func applyRules(w []byte, rules []rule) []byte {
	for _, r := range rules {
		if hasSuffix(w, r.suffix) {
			stem := w[:len(w)-len(r.suffix)]
			if r.cond == nil || r.cond(stem) {
				return replace(w, r.suffix, r.rep)
			}
			return w
		}
	}
	return w
}

func mGT0(s []byte) bool { return measure(s) > 0 }
func mGT1(s []byte) bool { return measure(s) > 1 }

func step1a(w []byte) []byte {
	if hasSuffix(w, "ies") && len(w) == 4 {
		return replace(w, "ies", "ie")
	}
	return applyRules(w, []rule{{"sses", "ss", nil}, {"ies", "i", nil}, {"ss", "ss", nil}, {"s", "", nil}})
}

func step1b(w []byte) []byte {
	if hasSuffix(w, "ied") {
		if len(w) == 4 {
			return replace(w, "ied", "ie")
		}
		return replace(w, "ied", "i")
	}
	if hasSuffix(w, "eed") {
		if measure(w[:len(w)-3]) > 0 {
			return replace(w, "eed", "ee")
		}
		return w
	}
	var stem []byte
	ok := false
	for _, suf := range []string{"ed", "ing"} {
		if hasSuffix(w, suf) {
			s := w[:len(w)-len(suf)]
			if hasVowel(s) {
				stem, ok = s, true
				break
			}
		}
	}
	if !ok {
		return w
	}
	stem = append([]byte(nil), stem...)
	switch {
	case hasSuffix(stem, "at"):
		return append(stem, 'e')
	case hasSuffix(stem, "bl"):
		return append(stem, 'e')
	case hasSuffix(stem, "iz"):
		return append(stem, 'e')
	case endsDoubleCons(stem):
		last := stem[len(stem)-1]
		if last != 'l' && last != 's' && last != 'z' {
			return stem[:len(stem)-1]
		}
		return stem
	case measure(stem) == 1 && endsCVC(stem):
		return append(stem, 'e')
	}
	return stem
}

func step1c(w []byte) []byte {
	if hasSuffix(w, "y") {
		stem := w[:len(w)-1]
		if len(stem) > 1 && isCons(stem, len(stem)-1) {
			return replace(w, "y", "i")
		}
	}
	return w
}

var step2Rules = []rule{
	{"ational", "ate", mGT0}, {"tional", "tion", mGT0}, {"enci", "ence", mGT0}, {"anci", "ance", mGT0},
	{"izer", "ize", mGT0}, {"bli", "ble", mGT0}, {"alli", "al", mGT0}, {"entli", "ent", mGT0},
	{"eli", "e", mGT0}, {"ousli", "ous", mGT0}, {"ization", "ize", mGT0}, {"ation", "ate", mGT0},
	{"ator", "ate", mGT0}, {"alism", "al", mGT0}, {"iveness", "ive", mGT0}, {"fulness", "ful", mGT0},
	{"ousness", "ous", mGT0}, {"aliti", "al", mGT0}, {"iviti", "ive", mGT0}, {"biliti", "ble", mGT0},
	{"fulli", "ful", mGT0},
}

func step2(w []byte) []byte {
	if hasSuffix(w, "alli") && mGT0(w[:len(w)-4]) {
		return step2(replace(w, "alli", "al"))
	}
	for _, r := range step2Rules {
		if hasSuffix(w, r.suffix) {
			if r.cond(w[:len(w)-len(r.suffix)]) {
				return replace(w, r.suffix, r.rep)
			}
			return w
		}
	}
	// NLTK: "logi" → "log" when the word less its last three letters has
	// a positive measure
	if hasSuffix(w, "logi") {
		if mGT0(w[:len(w)-3]) {
			return replace(w, "logi", "log")
		}
	}
	return w
}

var step3Rules = []rule{
	{"icate", "ic", mGT0}, {"ative", "", mGT0}, {"alize", "al", mGT0}, {"iciti", "ic", mGT0},
	{"ical", "ic", mGT0}, {"ful", "", mGT0}, {"ness", "", mGT0},
}

func step3(w []byte) []byte { return applyRules(w, step3Rules) }

var step4Rules = []rule{
	{"al", "", mGT1}, {"ance", "", mGT1}, {"ence", "", mGT1}, {"er", "", mGT1}, {"ic", "", mGT1},
	{"able", "", mGT1}, {"ible", "", mGT1}, {"ant", "", mGT1}, {"ement", "", mGT1}, {"ment", "", mGT1},
	{"ent", "", mGT1},
	{"ion", "", func(s []byte) bool { return mGT1(s) && len(s) > 0 && (s[len(s)-1] == 's' || s[len(s)-1] == 't') }},
	{"ou", "", mGT1}, {"ism", "", mGT1}, {"ate", "", mGT1}, {"iti", "", mGT1}, {"ous", "", mGT1},
	{"ive", "", mGT1}, {"ize", "", mGT1},
}

func step4(w []byte) []byte { return applyRules(w, step4Rules) }

func step5a(w []byte) []byte {
	if hasSuffix(w, "e") {
		stem := w[:len(w)-1]
		m := measure(stem)
		if m > 1 || (m == 1 && !endsCVC(stem)) {
			return stem
		}
	}
	return w
}

func step5b(w []byte) []byte {
	if hasSuffix(w, "ll") && measure(w[:len(w)-1]) > 1 {
		return w[:len(w)-1]
	}
	return w
}
