package nlp

import (
	"strings"
	"unicode"

	"github.com/researchkg/kg/graph/ident"
)

// canonical renders words as a concept name, the form people write:
// common words lower case and in American spelling, acronyms and names as
// written ("RL", "GPT-4o", "Trace2Skill"), the head singular ("reward
// models" → "reward model"; in "X of Y" the head is X: "mixtures of
// experts" → "mixture of experts").
func (e *Extractor) canonical(words []string) string { return e.canonicalWith(nil, words) }

// canonicalWith is canonical with a cache of display words (one text's
// phrases share most of their words).
func (e *Extractor) canonicalWith(cache map[string]string, words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		d, ok := cache[w]
		if !ok {
			d = e.displayWord(strings.Trim(w, "'’"))
			if cache != nil {
				cache[w] = d
			}
		}
		out[i] = d
	}
	h := headIndex(out)
	if isAcronym(out[h]) {
		out[h] = singularAcronym(out[h])
	} else if !keepCase(out[h]) {
		out[h] = singularWord(out[h])
	}
	return strings.Join(out, " ")
}

// headIndex is the index of a phrase's head: the word before the first
// "of", else the last word.
func headIndex(words []string) int {
	for i := 1; i < len(words)-1; i++ {
		if words[i] == "of" {
			return i - 1
		}
	}
	return len(words) - 1
}

// singularWord makes the last part of a word singular: "models" →
// "model", "mixture-of-experts" stays, "vision-language-models" →
// "vision-language-model".
func singularWord(w string) string {
	i := strings.LastIndexByte(w, '-')
	if i < 0 {
		return singular(w)
	}
	parts := strings.Split(w, "-")
	if h := headIndex(parts); h != len(parts)-1 {
		parts[h] = singular(parts[h])
		return strings.Join(parts, "-")
	}
	return w[:i+1] + singular(w[i+1:])
}

// displayWord is one word as a name shows it: lower case unless it is an
// acronym or a name, American spelling. A word typed in capitals for
// emphasis ("METHOD", "LEARNING") or with a stray capital ("ModEl") is a
// plain word when the tagger's English dictionary knows it.
func (e *Extractor) displayWord(w string) string {
	if keepCase(w) && !e.plainWordInCaps(w) {
		return w
	}
	lw := strings.ToLower(w)
	if !strings.Contains(lw, "-") {
		return ident.AmericanSpelling(lw)
	}
	parts := strings.Split(lw, "-")
	for i, p := range parts {
		parts[i] = ident.AmericanSpelling(p)
	}
	return strings.Join(parts, "-")
}

// plainWordInCaps reports whether a word with capitals is a dictionary
// word written loud: all capitals and five letters or more ("METHOD"), or
// one capital inside ("ModEl"). Acronyms of four letters or less ("BERT",
// "CLIP") and names of two dictionary words ("DeepSeek") stay.
func (e *Extractor) plainWordInCaps(w string) bool {
	if strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) {
		return false
	}
	upper, inner, lowerAfterInner := 0, false, false
	rs := []rune(w)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			upper++
			if i > 0 {
				inner = true
				lowerAfterInner = lowerAfterInner || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))
			}
		}
	}
	known := e.tagger.knows(strings.ToLower(w))
	switch {
	case upper == len(rs):
		return len(rs) >= 5 && known
	case upper == 2 && inner && lowerAfterInner && unicode.IsUpper(rs[0]):
		return known
	}
	return false
}

// keepCase: acronyms and names with capitals after the first letter of a
// hyphen-separated part ("RL", "MLLMs", "Trace2Skill", "GPT-4", "OpenRS",
// not "Vision-Language").
func keepCase(w string) bool {
	for _, part := range strings.Split(w, "-") {
		if part == "" {
			continue
		}
		upper, inner := 0, false
		for i, r := range part {
			if unicode.IsUpper(r) {
				upper++
				inner = inner || i > 0
			}
		}
		// "sAmpling" (a bold-letter acronym source) is a plain word; "mRNA",
		// "OpenRS", "Trace2Skill" are names
		first, _ := firstRune(part)
		if inner && (upper >= 2 || unicode.IsUpper(first)) {
			return true
		}
		if len(part) == 1 && unicode.IsUpper(first) && len(w) > 1 {
			return true // "GPT-4o"-style single capitals
		}
		if upper > 0 && strings.ContainsFunc(part, unicode.IsDigit) {
			return true // "3D", "Trace2skill", "Qwen2"
		}
	}
	return false
}

func firstRune(s string) (rune, bool) {
	for _, r := range s {
		return r, true
	}
	return 0, false
}

func isAcronym(w string) bool { return ident.IsAcronym(w) }

func singularAcronym(w string) string { return ident.SingularAcronym(w) }

// singular makes an English plural noun singular with the rules that cover
// technical vocabulary ("models", "strategies", "processes", "analyses").
func singular(w string) string {
	if len(w) < 4 || invariant[w] {
		return w
	}
	if s, ok := irregular[w]; ok {
		return s
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"),
		strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "zzes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "yses"):
		return w[:len(w)-3] + "is" // analyses → analysis
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// otherSingular: a plural of two nouns, named by irregular's (the commoner
// in papers: "knowledge bases" is 137 of the 208 "… bases" of the arXiv
// file, "Fourier bases" a handful) and looked up as the other too.
var otherSingular = map[string]string{"bases": "basis"}

var irregular = map[string]string{
	"indices": "index", "matrices": "matrix", "vertices": "vertex", "criteria": "criterion",
	"phenomena": "phenomenon", "hypotheses": "hypothesis", "theses": "thesis", "children": "child",
	"people": "person", "data": "data", "analyses": "analysis", "bases": "base", "corpora": "corpus",
	"biases": "bias", "appendices": "appendix", "apices": "apex", "axes": "axis", "diagnoses": "diagnosis",
	"syntheses": "synthesis", "emphases": "emphasis", "prognoses": "prognosis", "men": "man", "women": "woman",
	// -ches of words in -che, not -ch ("key-value caches" is no "cach")
	"caches": "cache", "niches": "niche", "avalanches": "avalanche", "headaches": "headache", "psyches": "psyche",
}

var invariant = map[string]bool{
	"series": true, "species": true, "news": true, "physics": true, "mathematics": true,
	"statistics": true, "economics": true, "robotics": true, "analytics": true, "linguistics": true,
	"semantics": true, "dynamics": true, "kinematics": true, "ethics": true, "graphics": true,
	"logistics": true, "genomics": true, "diagnosis": true, "basis": true, "bias": true,
	"electronics": true, "optics": true, "mechanics": true, "informatics": true, "pragmatics": true,
	"acoustics": true, "aesthetics": true, "proteomics": true, "metabolomics": true, "bioinformatics": true, "photonics": true,
	"thermodynamics": true, "aerodynamics": true, "hydrodynamics": true, "biomechanics": true,
	"ergonomics": true, "haptics": true, "lens": true, "chaos": true, "gas": true,
	"corpus": true, "consensus": true, "status": true, "virus": true, "focus": true, "radius": true,
	"thesis": true, "analysis": true, "synthesis": true, "axis": true,
}
