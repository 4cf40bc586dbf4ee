package nlp

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Repairs to the text before tokenising, each for a fault seen in real
// abstracts of the arXiv file.

// repairText mends what tokenising would get wrong, each a fault seen in
// real abstracts of the arXiv file; text without any comes back unchanged
// and unallocated:
//
//   - a URL is removed (its words are no terms);
//   - a LaTeX tie ("models~(LLMs)") is a space, “ and ” are quotes;
//   - a slash between words ("regularization/machine learning",
//     "zero-shot/few-shot") is spaced: the tokeniser keeps both as one
//     token;
//   - a sentence end without its space ("inference.Transformers") gets one;
//   - a word broken at a line end ("perfor- mance", "augmenta- tion") is
//     joined, but not a suspended hyphen ("pre- and post-training", "low- to
//     high-level"), followed by a conjunction or a preposition, or a prefix
//     ("multi- ");
//   - a parenthesis glued to a word ("models(MLLMs)", "(RAG)technologies")
//     is spaced: "models(MLLMs" would be one token, losing both.
func repairText(s string) string {
	if mayHaveURL(s) {
		s = urlRe.ReplaceAllString(s, " ")
	}
	if !strings.ContainsAny(s, "~`'/.-()") {
		return s
	}
	var b []byte // nil until the first change
	changed := func(i int) {
		if b == nil {
			b = make([]byte, 0, len(s)+16)
			b = append(b, s[:i]...)
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		rep := ""
		skip := 0
		switch c {
		case '~':
			rep = " "
		case '`':
			rep = "'"
			if i+1 < len(s) && s[i+1] == '`' {
				rep, skip = `"`, 1
			}
		case '\'':
			if i+1 < len(s) && s[i+1] == '\'' {
				rep, skip = `"`, 1
			}
		case '/':
			if wordRuneBefore(s, i) && letterAfter(s, i+1) {
				rep = " / "
			}
		case '.':
			if i >= 2 && isLowerByte(s[i-1]) && isLowerByte(s[i-2]) && i+2 < len(s) &&
				s[i+1] >= 'A' && s[i+1] <= 'Z' && isLowerByte(s[i+2]) {
				rep = ". "
			}
		case '-':
			if i+1 < len(s) && s[i+1] == ' ' {
				a, b := lowerWordBefore(s, i), lowerWordAt(s, i+2)
				if len(a) >= 2 && len(b) >= 2 && !stopWords[b] && !prefixParts[a] {
					rep, skip = "", 1
					changed(i)
				}
			}
		case '(':
			if wordRuneBefore(s, i) && letterAfter(s, i+1) {
				if j := strings.IndexAny(s[i+1:], "() \t\n"); j >= 0 && s[i+1+j] == ')' {
					rep = " ("
				}
			}
		case ')':
			if letterAfter(s, i+1) {
				rep = ") "
			}
		}
		if rep == "" && skip == 0 {
			if b != nil {
				b = append(b, c)
			}
			continue
		}
		changed(i)
		b = append(b, rep...)
		i += skip
	}
	if b == nil {
		return s
	}
	return string(b)
}

func isLowerByte(c byte) bool { return c >= 'a' && c <= 'z' }

// wordRuneBefore reports whether the rune before s[i] is a letter or digit.
func wordRuneBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// letterAfter reports whether s[i:] starts with a letter.
func letterAfter(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return i < len(s) && unicode.IsLetter(r)
}

// lowerWordBefore is the run of lower-case ASCII letters ending at s[i]
// ("" unless a word boundary precedes it).
func lowerWordBefore(s string, i int) string {
	j := i
	for j > 0 && isLowerByte(s[j-1]) {
		j--
	}
	if j > 0 && wordRuneBefore(s, j) {
		return ""
	}
	return s[j:i]
}

// lowerWordAt is the run of lower-case ASCII letters starting at s[i] (""
// unless a word boundary follows it).
func lowerWordAt(s string, i int) string {
	j := i
	for j < len(s) && isLowerByte(s[j]) {
		j++
	}
	if j < len(s) && letterAfter(s, j) || j < len(s) && s[j] >= '0' && s[j] <= '9' {
		return ""
	}
	return s[i:j]
}

// lowerTitle lower-cases the plain words of a title, so the tagger reads
// it as a sentence: Title Case makes every word a proper noun, verbs
// included. Acronyms and names keep their case ("RL", "MLLMs",
// "Trace2Skill"). A title in capitals ("DEEP LEARNING FOR X") has every
// word lower-cased but those the abstract writes in capitals too.
func lowerTitle(title, body string) string {
	f := strings.Fields(title)
	shouted := isShouted(title)
	for i, w := range f {
		core := strings.Trim(w, ":;,.()[]\"'?!")
		switch {
		case shouted:
			if !(isAcronym(core) && strings.Contains(body, core)) {
				f[i] = strings.ToLower(w)
			}
		case !keepCase(core):
			f[i] = strings.ToLower(w)
		}
	}
	return strings.Join(f, " ")
}

// isShouted reports whether most letters of s are capitals (a title typed
// in capitals), counting words of four letters or more only, so a title
// full of acronyms is not taken for one.
func isShouted(s string) bool {
	upper, letters := 0, 0
	for _, w := range strings.Fields(s) {
		if utf8.RuneCountInString(w) < 4 {
			continue
		}
		for _, r := range w {
			if unicode.IsLetter(r) {
				letters++
				if unicode.IsUpper(r) {
					upper++
				}
			}
		}
	}
	return letters >= 12 && upper*10 >= letters*8
}
