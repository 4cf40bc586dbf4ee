// Package nlp extracts key terms from paper titles and abstracts: prose's
// part-of-speech tagger (model loaded once per process), noun-phrase
// candidates, acronym definitions, canonical forms and a per-paper score.
package nlp

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/jdkato/prose/v2"

	"github.com/researchkg/kg/graph"
)

// Extractor finds key terms. It is safe for concurrent use: the tagger model
// is read-only after loading.
type Extractor struct {
	tagger *tagger
	max    int
}

var _ graph.TermExtractor = (*Extractor)(nil)

var (
	taggerOnce sync.Once
	sharedTag  *tagger
	taggerErr  error
)

// New returns an Extractor. The tagger model (prose's, ~5 MB of weights) is
// loaded once per process and shared: it is read-only.
func New(opts ...Option) *Extractor {
	taggerOnce.Do(func() { sharedTag, taggerErr = loadTagger() })
	if taggerErr != nil {
		panic("nlp: " + taggerErr.Error()) // the model is compiled into prose: cannot happen but by a broken build
	}
	e := &Extractor{tagger: sharedTag, max: 15}
	for _, o := range opts {
		o(e)
	}
	return e
}

// Version names the extractor's behaviour: candidates, canonical forms and
// scoring. Change it with any change that alters which keys a text yields, so
// stores counted with the old behaviour are recomputed (kg recompute), not
// mixed.
const Version = "kg-terms-5"

// Version implements graph.TermExtractor.
func (e *Extractor) Version() string { return Version }

// Option configures an Extractor.
type Option func(*Extractor)

// WithMaxTerms sets how many terms Extract returns per paper (default 15).
func WithMaxTerms(n int) Option { return func(e *Extractor) { e.max = max(1, n) } }

type token struct {
	text string
	tag  string
}

var urlRe = regexp.MustCompile(`(?i)\b(?:https?://|www\.)\S+|\b[a-z0-9.-]+\.(?:com|org|io|net)/\S*`)

// mayHaveURL is false when urlRe cannot match: every match holds "://",
// "www." or a "." + com/org/io/net + "/" (any case). Most abstracts have
// none, and the regexp's scan of them was 2% of ingest's CPU.
func mayHaveURL(text string) bool {
	if strings.Contains(text, "://") {
		return true
	}
	for i := range len(text) {
		switch c := text[i]; {
		case c == '.' && i >= 3 && strings.EqualFold(text[i-3:i], "www"):
			return true
		case c == '/' && i >= 3 && text[i-3] == '.' && strings.EqualFold(text[i-2:i], "io"),
			c == '/' && i >= 4 && text[i-4] == '.' && tld3(text[i-3:i]):
			return true
		}
	}
	return false
}

func tld3(s string) bool {
	return strings.EqualFold(s, "com") || strings.EqualFold(s, "org") || strings.EqualFold(s, "net")
}

// tag tokenises with prose (no model needed: tagging, segmentation and NER
// off) and tags with the deterministic tagger.
func (e *Extractor) tag(text string) []token {
	if mayHaveURL(text) {
		text = urlRe.ReplaceAllString(text, " ")
	}
	doc, err := prose.NewDocument(text, prose.WithTagging(false),
		prose.WithSegmentation(false), prose.WithExtraction(false))
	if err != nil {
		return nil
	}
	toks := doc.Tokens()
	out := make([]token, 0, len(toks))
	for _, t := range toks {
		if t.Text != "" {
			out = append(out, token{text: t.Text})
		}
	}
	e.tagger.tag(out)
	return out
}

func round3(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }

func appendUnique(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

type phrase struct {
	words []string
	noun  []bool // words[i] is tagged a noun
	pos   int
}

func isNoun(tag string) bool { return strings.HasPrefix(tag, "NN") }

func isModifier(tag string) bool {
	return isNoun(tag) || tag == "JJ" || tag == "JJR" || tag == "JJS" || tag == "VBG" || tag == "FW"
}

// nounPhrases finds maximal runs of adjectives/nouns ending in a noun, at
// most 5 words (longer runs keep their last 5).
func nounPhrases(toks []token) []phrase {
	var out []phrase
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		// trim to the last noun
		last := end - 1
		for last >= start && !isNoun(toks[last].tag) {
			last--
		}
		first := start
		// evaluative modifiers and gerunds that start a phrase are not part
		// of a term ("novel framework", "constructing comprehensive summaries")
		for first <= last && (dropLeading(toks[first].text) || (toks[first].tag == "VBG" && first < last)) {
			first++
		}
		if last >= first {
			if last-first+1 > 5 {
				first = last - 4
			}
			words := make([]string, 0, last-first+1)
			noun := make([]bool, 0, last-first+1)
			for _, t := range toks[first : last+1] {
				words = append(words, t.text)
				noun = append(noun, isNoun(t.tag))
			}
			out = append(out, phrase{words, noun, first})
		}
		start = -1
	}
	for i, t := range toks {
		if isModifier(t.tag) && wordLike(t.text) && !breakWords[strings.ToLower(t.text)] {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(toks))
	return out
}

// breakWords end a phrase whatever their tag (the tagger calls a
// capitalised "No" a proper noun).
var breakWords = map[string]bool{
	"no": true, "not": true, "yet": true, "also": true, "however": true, "thus": true, "hence": true,
	"etc": true, "et": true, "al": true, "i.e.": true, "e.g.": true, "vs": true, "via": true, "using": true,
	"based": true, "which": true, "whose": true, "where": true, "while": true, "paper": true, "abstract": true,
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

// canonical renders words as a term name: lower case except acronyms and
// names with inner capitals; the head singular.
func canonical(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		w = strings.Trim(w, "'’")
		if keepCase(w) {
			out[i] = w
		} else {
			out[i] = strings.ToLower(w)
		}
	}
	last := len(out) - 1
	if isAcronym(out[last]) {
		out[last] = singularAcronym(out[last])
	} else if !keepCase(out[last]) {
		out[last] = singular(out[last])
	}
	return strings.Join(out, " ")
}

// keepCase: acronyms and names with capitals after the first letter of a
// hyphen-separated part ("RL", "MLLMs", "Trace2Skill", "GPT-4", "OpenRS",
// not "Vision-Language").
func keepCase(w string) bool {
	for _, part := range strings.Split(w, "-") {
		upper, inner := 0, false
		for i, r := range part {
			if unicode.IsUpper(r) {
				upper++
				inner = inner || i > 0
			}
		}
		// "sAmpling" (a bold-letter acronym source) is a plain word; "mRNA",
		// "OpenRS", "Trace2Skill" are names
		if inner && (upper >= 2 || unicode.IsUpper([]rune(part)[0])) {
			return true
		}
		if len(part) == 1 && unicode.IsUpper(rune(part[0])) && len(w) > 1 {
			return true // "GPT-4o"-style single capitals, "X-ray" stays via next check
		}
	}
	return false
}

// lowerTitle lower-cases the plain words of a Title Case string.
func lowerTitle(s string) string {
	f := strings.Fields(s)
	for i, w := range f {
		if !keepCase(strings.Trim(w, ":;,.()")) {
			f[i] = strings.ToLower(w)
		}
	}
	return strings.Join(f, " ")
}

// isAcronym: at least two capitals, no run of three lower-case letters
// other than a plural "s" ("LLMs", "VL-PRMs", "RL", not "Trace2Skill").
func isAcronym(w string) bool {
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
		default:
			lowerRun = 0
		}
	}
	return upper >= 2
}

// singularAcronym strips a plural "s" from an acronym ("MLLMs" → "MLLM").
func singularAcronym(w string) string {
	if len(w) > 2 && strings.HasSuffix(w, "s") && unicode.IsUpper(rune(w[len(w)-2])) {
		return w[:len(w)-1]
	}
	return w
}

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
	case strings.HasSuffix(w, "ses") && strings.HasSuffix(w, "yses"):
		return w[:len(w)-3] + "is" // analyses → analysis
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

var irregular = map[string]string{
	"indices": "index", "matrices": "matrix", "vertices": "vertex", "criteria": "criterion",
	"phenomena": "phenomenon", "hypotheses": "hypothesis", "theses": "thesis", "children": "child",
	"people": "person", "data": "data", "analyses": "analysis", "bases": "basis", "corpora": "corpus",
}

var invariant = map[string]bool{
	"series": true, "species": true, "news": true, "physics": true, "mathematics": true,
	"statistics": true, "economics": true, "robotics": true, "analytics": true, "linguistics": true,
	"semantics": true, "dynamics": true, "kinematics": true, "ethics": true, "graphics": true,
	"logistics": true, "genomics": true, "diagnosis": true, "basis": true, "bias": true, "gaussians": false,
}

// dropLeading: evaluative and generic modifiers that start a phrase but are
// not part of a term ("novel framework", "extensive experiments").
func dropLeading(w string) bool { return leading[strings.ToLower(w)] }

var leading = map[string]bool{
	"novel": true, "new": true, "proposed": true, "extensive": true, "strong": true, "existing": true,
	"various": true, "different": true, "significant": true, "substantial": true, "first": true,
	"such": true, "other": true, "several": true, "many": true, "most": true, "more": true,
	"previous": true, "prior": true, "current": true, "recent": true, "comprehensive": true,
	"state-of-the-art": true, "simple": true, "effective": true, "key": true, "main": true,
	"additional": true, "further": true, "specific": true, "particular": true, "overall": true,
	"remarkable": true, "superior": true, "promising": true, "competitive": true, "diverse": true,
	"multiple": true, "numerous": true, "broad": true, "wide": true, "same": true, "whole": true,
	"crucial": true, "critical": true, "towards": true, "toward": true, "important": true, "unified": false, "single": true,
}

// isGeneric: scholarly boilerplate that is never a key term on its own.
func isGeneric(key string, words int) bool {
	if generic[key] {
		return true
	}
	if words == 1 && len(key) < 3 {
		return true
	}
	return false
}

var generic = map[string]bool{
	"method": true, "approach": true, "paper": true, "result": true, "experiment": true, "state": true,
	"art": true, "performance": true, "work": true, "baseline": true, "way": true, "problem": true,
	"task": true, "study": true, "analysis": true, "model": true, "system": true, "framework": true,
	"improvement": true, "issue": true, "challenge": true, "setting": true, "evaluation": true,
	"effectiveness": true, "efficiency": true, "use": true, "number": true, "set": true, "case": true,
	"art performance": true, "state of the art": true, "code": true, "dataset": true, "data": true,
	"benchmark": true, "technique": true, "strategy": true, "limitation": true, "advantage": true,
	"contribution": true, "insight": true, "finding": true, "point": true, "percentage point": true,
	"level": true, "range": true, "variety": true, "lack": true, "need": true, "end": true,
	"time": true, "part": true, "term": true, "impact": true, "role": true, "ability": true,
	"capability": true, "quality": true, "accuracy": true, "fact": true, "order": true, "step": true,
	"experimental result": true, "empirical result": true, "ablation study": false,
}

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
		long := matchLongForm(letters, words)
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

// functionWords may sit inside a long form without a letter in the acronym
// ("Debiasing via Information optimization for RM (DIR)").
var functionWords = map[string]bool{
	"of": true, "for": true, "via": true, "the": true, "and": true, "in": true, "on": true,
	"with": true, "to": true, "a": true, "an": true, "by": true, "from": true,
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
