package nlp

import (
	"strings"
	"unicode"
)

// A phrase is a maximal noun phrase of a text: a run of modifiers and
// nouns ending in a noun, as the published keyphrase systems take them
// (NP: {<ADJ>*<NOUN|PROPN>+}), with the changes that technical writing
// needs:
//
//   - a nominal -ing word heads or continues a phrase ("reinforcement
//     learning", "data mining models"), unless an object follows it
//     ("learning the policy");
//   - a participle opens a phrase ("federated learning", "supervised
//     fine-tuning") but never continues one after a noun ("agents
//     trained ..."), where it is a verb;
//   - an acronym is a noun whatever its tag ("agent RL");
//   - the front of a hyphenated modifier is a phrase of its own ("deep
//     learning" in "deep learning-based methods");
//   - evaluative openers ("novel", "diverse"), dependent words ("aware",
//     "specific") and verb forms are trimmed from the front.
type phrase struct {
	words []string
	noun  []bool // words[i] may end a term
	lead  []bool // words[i] may start a term
	pos   int    // token position of the first word
	extra bool   // the front of a hyphenated modifier, not a whole phrase
}

// word classes of a token inside phrases
const (
	cBreak = iota
	cMod
	cNoun
)

// objectStart are words that open the object of a verb: after an -ing
// word they make it a verb ("learning the policy", "mining these logs").
var objectStart = wordSet(`the a an our their its this these those his her my your such that
whether how what which each every all both some any`)

// auxiliary verbs make the participle after them a verb.
var auxiliary = wordSet(`have has had having be been being is are was were get gets got getting become
becomes became`)

// classify gives each token its class in phrases.
func classify(toks []token) []uint8 {
	cls := make([]uint8, len(toks))
	for i, t := range toks {
		lw := strings.ToLower(t.text)
		switch {
		case !wordLike(t.text) || breakWords[lw] || stopWords[lw]:
			cls[i] = cBreak
		case isAcronym(t.text) && !strings.ContainsFunc(t.text, unicode.IsSpace):
			cls[i] = cNoun
		case isNominalIng(t.text):
			next := ""
			if i+1 < len(toks) {
				next = strings.ToLower(toks[i+1].text)
			}
			if objectStart[next] || (i+1 < len(toks) && (toks[i+1].tag == "PRP" || toks[i+1].tag == "CD")) {
				cls[i] = cMod // a verb with its object: may only sit inside a run
				if i == 0 || cls[i-1] == cBreak {
					cls[i] = cBreak
				}
			} else {
				cls[i] = cNoun
			}
		case strings.HasPrefix(t.tag, "NN") || t.tag == "FW":
			cls[i] = cNoun
		case strings.HasPrefix(t.tag, "JJ") || t.tag == "VBG":
			cls[i] = cMod
		case t.tag == "VBN" || t.tag == "VBD":
			// a participle opens a phrase before a noun or modifier; after
			// a noun, or an auxiliary ("have shown"), it is a verb
			if i == 0 || cls[i-1] != cNoun && !auxiliary[strings.ToLower(toks[i-1].text)] {
				cls[i] = cMod
			}
		case t.tag == "CD" && strings.ContainsFunc(t.text, unicode.IsLetter):
			cls[i] = cMod // "3D", "2D"
		}
	}
	return cls
}

// nounPhrases finds a text's phrases.
func nounPhrases(toks []token) []phrase {
	cls := classify(toks)
	var out []phrase
	emit := func(first, last int, extra bool, lastWord string) {
		// trim openers that do not belong to a term
		for first < last && !canLead(toks[first], cls[first]) {
			first++
		}
		if first > last {
			return
		}
		if first == last && modelVariant(toks, first) {
			return
		}
		if last-first+1 > 5 { // keep the head end of very long runs
			first = last - 4
		}
		n := last - first + 1
		p := phrase{words: make([]string, n), noun: make([]bool, n), lead: make([]bool, n), pos: first, extra: extra}
		for k := range n {
			t := toks[first+k]
			p.words[k] = t.text
			p.noun[k] = cls[first+k] == cNoun
			p.lead[k] = canLead(t, cls[first+k])
		}
		if lastWord != "" {
			p.words[n-1] = lastWord
			p.noun[n-1] = true
		}
		if p.lead[0] || n == 1 {
			out = append(out, p)
		}
	}
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		last := end - 1
		for last >= start && cls[last] != cNoun {
			last--
		}
		if last >= start {
			emit(start, last, false, "")
		}
		start = -1
	}
	for i := range toks {
		if cls[i] == cBreak {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
		}
		// "deep learning-based": "deep learning" is a use of a term
		if front, ok := derivedFront(toks[i].text); ok {
			emit(start, i, true, front)
		}
	}
	flush(len(toks))
	return out
}

// modelVariant reports whether token i is a capitalised word right after a
// version number: the variant that ends a model's name ("Pro" of "Gemini
// 2.5 Pro", "Sonnet" of "Claude 3.5 Sonnet", "Turbo" of "GPT-4 Turbo"),
// no term on its own.
func modelVariant(toks []token, i int) bool {
	if i == 0 || isAcronym(toks[i].text) {
		return false
	}
	prev, w := toks[i-1].text, toks[i].text
	r := []rune(w)
	if len(r) == 0 || !unicode.IsUpper(r[0]) || strings.ContainsFunc(string(r[1:]), unicode.IsUpper) {
		return false
	}
	last := prev[strings.LastIndexByte(prev, '-')+1:]
	return last != "" && unicode.IsDigit(rune(last[0])) && !strings.ContainsFunc(last, unicode.IsSpace)
}

// canLead reports whether a word may open a term.
func canLead(t token, c uint8) bool {
	lw := strings.ToLower(t.text)
	if leading[lw] || dependent[lw] {
		return false
	}
	if c == cMod && t.tag == "VBG" && !isNominalIng(t.text) {
		return false // "constructing comprehensive summaries", "applying RL"
	}
	return true
}

// derivedFront returns the first part of a hyphenated modifier whose last
// part is a derivational suffix ("learning" of "learning-based", "LLM" of
// "LLM-driven"), when that part can end a term.
func derivedFront(w string) (string, bool) {
	i := strings.LastIndexByte(w, '-')
	if i <= 0 || !derivedSuffixes[strings.ToLower(w[i+1:])] {
		return "", false
	}
	front := w[:i]
	if j := strings.LastIndexByte(front, '-'); j >= 0 {
		front = front[j+1:]
	}
	lf := strings.ToLower(front)
	if len(front) < 2 || prefixParts[lf] || stopWords[lf] || !wordLike(front) {
		return "", false
	}
	if w[:i] != front { // "multi-agent-based": the whole front is one word
		front = w[:i]
	}
	return front, true
}

// wordLike rejects numbers, punctuation and one-letter tokens.
func wordLike(s string) bool {
	letters := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			letters++
		} else if !unicode.IsDigit(r) && r != '-' && r != '\'' && r != '²' && r != '³' {
			return false
		}
	}
	return letters >= 2 || (letters == 1 && len(s) > 1)
}
