package nlp

import (
	"slices"
	"strings"
	"unicode"
)

// acronyms holds the definitions found in one text.
type acronyms struct {
	defs []acronymDef
	long map[string][]string // acronym (singular) → long form words
}

type acronymDef struct {
	short string   // "MLLM"
	long  []string // ["Multimodal", "Large", "Language", "Models"]
	pos   int
	parts []acronymDef // "VL-PRMs" = "vision-language process reward models" also gives PRM = "process reward models"
}

// findAcronyms finds "long form (SF)" definitions: a parenthesised acronym
// whose letters match the initials of the preceding words (Schwartz &
// Hearst 2003).
func findAcronyms(toks []token) acronyms {
	a := acronyms{long: map[string][]string{}}
	for i := 1; i+2 < len(toks); i++ {
		if toks[i].text != "(" || toks[i+2].text != ")" {
			continue
		}
		sf := toks[i+1].text
		if !isAcronym(sf) || len([]rune(sf)) > 12 {
			continue
		}
		short := singularAcronym(sf)
		letters := acronymLetters(short)
		if len(letters) < 2 {
			continue
		}
		maxWords := min(len(letters)+5, 2*len(letters))
		startTok := i - 1
		for startTok > 0 && i-startTok < maxWords && wordLike(toks[startTok-1].text) {
			startTok--
		}
		var words []string
		for _, t := range toks[startTok:i] {
			words = append(words, t.text)
		}
		long := matchInitials(letters, words)
		if long == nil {
			if long = matchLongForm(letters, words); !enoughWords(short, long) {
				long = nil
			}
		}
		if len(long) == 0 {
			continue
		}
		if _, seen := a.long[short]; !seen {
			a.long[short] = long
			d := acronymDef{short: short, long: long, pos: i - len(long), parts: hyphenParts(short, long)}
			for _, p := range d.parts {
				if _, seen := a.long[p.short]; !seen {
					a.long[p.short] = p.long
				}
			}
			a.defs = append(a.defs, d)
		}
	}
	return a
}

// hyphenParts splits a hyphenated acronym along its long form: "VL-PRM" for
// "vision-language process reward models" also defines "PRM" as "process
// reward models" when "VL" matches the leading words exactly.
func hyphenParts(short string, long []string) []acronymDef {
	head, tail, ok := strings.Cut(short, "-")
	if !ok || len(acronymLetters(tail)) < 2 || strings.Contains(tail, "-") {
		return nil
	}
	hl := acronymLetters(head)
	// the head's letters are the initials of the first words (or of the
	// parts of a hyphenated first word)
	var initials []rune
	for k, w := range long {
		for _, part := range strings.Split(w, "-") {
			if part != "" {
				initials = append(initials, unicode.ToLower([]rune(part)[0]))
			}
		}
		if len(initials) == len(hl) {
			if string(initials) != string(hl) || k+1 >= len(long) {
				return nil
			}
			rest := long[k+1:]
			if matchLongForm(acronymLetters(tail), rest) == nil {
				return nil
			}
			return []acronymDef{{short: tail, long: rest}}
		}
		if len(initials) > len(hl) {
			return nil
		}
	}
	return nil
}

func acronymLetters(s string) []rune {
	var out []rune
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			out = append(out, unicode.ToLower(r))
		}
	}
	return out
}

// matchInitials finds the long form whose words' initials (each part of a
// hyphenated word counts) spell the acronym, function words skipped:
// "Proximal Policy Optimization" for PPO, where Schwartz & Hearst's
// shortest match is "Policy Optimization" (its second p is the p of
// "optimization"). nil when the initials do not fit.
func matchInitials(letters []rune, words []string) []string {
	k := len(letters)
	for i := len(words) - 1; i >= 0 && k > 0; i-- {
		w := words[i]
		if functionWords[strings.ToLower(w)] && k < len(letters) {
			continue
		}
		parts := strings.Split(w, "-")
		for j := len(parts) - 1; j >= 0; j-- {
			r, ok := firstRune(parts[j])
			if !ok {
				continue
			}
			if k == 0 || unicode.ToLower(r) != letters[k-1] {
				return nil
			}
			k--
		}
		if k == 0 {
			return slices.Clone(words[i:])
		}
	}
	return nil
}

// matchLongForm is Schwartz & Hearst's algorithm over words: match the
// acronym's characters right to left in the words, the first one at the start
// of a word; return the shortest word suffix that contains the match.
func matchLongForm(letters []rune, words []string) []string {
	text := []rune(strings.ToLower(strings.Join(words, " ")))
	s, l := len(letters)-1, len(text)-1
	for s >= 0 {
		c := letters[s]
		for l >= 0 && (text[l] != c || (s == 0 && l > 0 && isWordRune(text[l-1]))) {
			l--
		}
		if l < 0 {
			return nil
		}
		l--
		s--
	}
	// l+1 is where the match starts; take the words from there
	startRune := l + 1
	pos := 0
	for i, w := range words {
		if pos >= startRune || pos+len([]rune(w)) > startRune {
			out := words[i:]
			content := 0
			for _, w := range out {
				if !functionWords[strings.ToLower(w)] {
					content++
				}
			}
			if len(out) < 1 || content > len(letters)+2 {
				return nil
			}
			return slices.Clone(out)
		}
		pos += len([]rune(w)) + 1
	}
	return nil
}

// enoughWords reports whether a long form that Schwartz & Hearst's match
// found has a word (or hyphenated part) for each capital of the acronym:
// "vision transformer" for ViT, "low-rank adaptation" for LoRA; not
// "reinforcement learning" for RRL, whose second R the match took from
// inside "reinforcement", nor "policy optimization" for PPO.
func enoughWords(short string, long []string) bool {
	caps, words := 0, 0
	for _, r := range short {
		if unicode.IsUpper(r) {
			caps++
		}
	}
	for _, w := range long {
		for _, p := range strings.Split(w, "-") {
			if p != "" {
				words++
			}
		}
	}
	return words >= caps
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// expand replaces the words of a phrase that are acronyms defined in the
// text by their long forms ("RL agents" → "reinforcement learning agents").
// The phrase is returned as is when it has none.
func (a acronyms) expand(words []string) []string {
	if len(a.long) == 0 {
		return words
	}
	var out []string
	for i, w := range words {
		long, ok := a.long[singularAcronym(w)]
		if ok && i < len(words)-1 {
			// inside a name the long form's head is singular: "LLMs
			// reasoning" is "large language model reasoning"
			long = slices.Clone(long)
			h := headIndex(long)
			long[h] = singular(strings.ToLower(long[h]))
		}
		switch {
		case ok && out == nil:
			out = append(append(make([]string, 0, len(words)+len(long)), words[:i]...), long...)
		case ok:
			out = append(out, long...)
		case out != nil:
			out = append(out, w)
		}
	}
	if out == nil {
		return words
	}
	return out
}
