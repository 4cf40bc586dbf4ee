package nlp

import (
	"strings"
	"unicode"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/ident"
)

// Candidate is one candidate term of a document with its in-document
// evidence. Corpus evidence is added by Rank.
type Candidate struct {
	Key     string   // ident.ConceptKey of Name: the identity across documents
	Name    string   // canonical form: lower case but acronyms and names, head singular
	Aliases []string // acronyms defined for it in this document
	Freq    float32  // occurrences as a whole noun phrase
	Sub     float32  // occurrences inside a longer noun phrase
	First   int32    // token position of the first occurrence
	Words   int16
	Tail    bool // seen as the head end of a longer phrase ("reward model" in "process reward model")
	InTitle bool
	Defined bool // the long form of an acronym defined here
	// Introduced: the paper's own term, an acronym of its title (or whose
	// long form is in the title) or the named method before its colon
	Introduced bool
	Acronym    bool // the name is itself an acronym ("RL")
	Named      bool // one word written as a name ("Trace2Skill", "DeepSeek")
	// Nested: seen inside one longer phrase only ("space model" of "state
	// space model"); with Freq 0, it is a fragment of that phrase when the
	// corpus does not use it more widely than the phrase (C-value's test).
	Nested bool
	parent string // the key of the longer phrase it was last seen inside
}

// Single reports whether the candidate is one common word: neither an
// acronym nor a name nor defined nor a hyphenated compound
// ("chain-of-thought"). Concepts need more support for these.
func (c *Candidate) Single() bool {
	return c.Words == 1 && !c.Acronym && !c.Named && !c.Defined && !strings.Contains(c.Name, "-")
}

// Analysis is a document's candidates, and the spans that may mention a
// concept. It is what tagging produces; ranking it against corpus
// statistics and linking it to concepts are cheap and can be redone.
type Analysis struct {
	Cands  []Candidate
	Tokens int
	// mentions are the text's spans that may name a concept, by key (nil
	// from Candidates: only Analyze finds them)
	mentions []mention
	// acronymDefs are the acronyms the text defines, as counted in
	// document frequencies (graph.AcronymDefKeys)
	acronymDefs []string
	defs        []graph.Definition
}

// Definitions implements graph.TextAnalysis.
func (a *Analysis) Definitions() []graph.Definition { return a.defs }

var _ graph.TextAnalysis = (*Analysis)(nil)

// Keys returns the identity keys of the candidates the text uses as terms
// or as the head end of longer ones (not the front fragments: "large
// language" of "large language model") and the acronym definitions' keys,
// for document frequencies.
func (a *Analysis) Keys() []string {
	out := make([]string, 0, len(a.Cands)+len(a.acronymDefs))
	for _, c := range a.Cands {
		if c.Freq > 0 || c.Tail || c.Defined || c.Acronym {
			out = append(out, c.Key)
		}
	}
	return append(out, a.acronymDefs...)
}

// Candidates tags a title and text and collects their candidate terms: noun
// phrases (see phrase) and the spans inside them that can be terms,
// acronym long forms, with frequencies and first positions. Uses of an
// acronym defined in the same text count for its long form, alone or
// inside a longer phrase ("agent RL" is "agent reinforcement learning").
func (e *Extractor) Candidates(title, text string) *Analysis {
	a, _ := e.analyze(title, text, false)
	return a
}

// Analyze is Candidates with the text's mentions, for linking to concepts
// (graph.TermExtractor).
func (e *Extractor) Analyze(title, text string) graph.TextAnalysis {
	a, _ := e.analyze(title, text, true)
	return a
}

// TermLike reports whether a name could be a term: not generic words alone
// (each word, or the whole), not opened by an evaluative or dependent word
// (graph.TermExtractor).
func (e *Extractor) TermLike(name string) bool {
	words := strings.Fields(name)
	if len(words) == 0 {
		return false
	}
	first := strings.ToLower(words[0])
	if leading[first] || dependent[first] || isGeneric(ident.FoldKey(name), len(words)) {
		return false
	}
	for _, w := range words {
		if !generic[ident.FoldKey(w)] {
			return true
		}
	}
	return false
}

// Opened reports whether a name opens with an evaluative or dependent word
// (graph.TermExtractor): "state-of-the-art model" is said where papers
// expand "SOTA models", and names nothing.
func (e *Extractor) Opened(name string) bool {
	words := strings.Fields(name)
	if len(words) < 2 {
		return false
	}
	first := strings.ToLower(words[0])
	return leading[first] || dependent[first]
}

// Extract analyses and ranks in one step, without corpus statistics: the
// best 15 terms.
func (e *Extractor) Extract(title, text string) []graph.Term {
	return e.Candidates(title, text).Rank(nil, extractMax)
}

func (e *Extractor) analyze(title, text string, withMentions bool) (*Analysis, []token) {
	title = repairText(ident.LatexToText(title))
	text = repairText(ident.LatexToText(text))
	// Title Case defeats the tagger (every word becomes NNP, verbs included):
	// tag the title with plain words lower-cased, acronyms and names kept.
	titleToks := e.tag(lowerTitle(title, text))
	bodyToks := e.tag(text)
	toks := make([]token, 0, len(titleToks)+1+len(bodyToks))
	toks = append(toks, titleToks...)
	toks = append(toks, token{".", "."})
	toks = append(toks, bodyToks...)
	nTitle := len(titleToks)

	acr := findAcronyms(toks)
	display := map[string]string{} // word → display form
	keys := map[string]string{}    // name → key
	idx := map[string]int{}
	a := &Analysis{Tokens: len(toks)}
	get := func(words []string, pos int) *Candidate {
		words = acr.expand(words)
		name := e.canonicalWith(display, words)
		key, ok := keys[name]
		if !ok {
			key = ident.ConceptKey(name)
			keys[name] = key
		}
		folded := ident.FoldKey(name)
		if key == "" || generic[folded] || !(len(words) == 1 && isAcronym(name)) && isGeneric(folded, len(strings.Fields(name))) {
			return nil // two-letter acronyms ("AI", "RL") are no generic words
		}
		i, ok := idx[key]
		if !ok {
			i = len(a.Cands)
			idx[key] = i
			one := len(words) == 1
			a.Cands = append(a.Cands, Candidate{Key: key, Name: name, First: int32(pos), Words: int16(len(words)),
				Acronym: one && isAcronym(name), Named: one && !isAcronym(name) && keepCase(name)})
		}
		c := &a.Cands[i]
		if int32(pos) < c.First {
			c.First = int32(pos)
		}
		if pos < nTitle {
			c.InTitle = true
		}
		return c
	}
	var defined []*acronymDef
	for k := range acr.defs {
		d := &acr.defs[k]
		if c := get(d.long, d.pos); c != nil {
			c.Defined = true
			defined = append(defined, d)
			c.Aliases = appendUnique(c.Aliases, strings.Clone(d.short)) // do not pin the text
			a.acronymDefs = append(a.acronymDefs, graph.AcronymDefKeys(d.short, c.Key)...)
			a.defs = append(a.defs, graph.Definition{Short: strings.Clone(d.short), Name: c.Name})
			for _, sub := range d.parts {
				if sc := get(sub.long, d.pos); sc != nil {
					sc.Aliases = appendUnique(sc.Aliases, strings.Clone(sub.short))
				}
			}
		}
	}
	for _, ph := range nounPhrases(toks) {
		words := ph.words
		// the front of "deep learning-based" (ph.extra) is a whole use too
		whole := strings.Join(words, " ")
		if c := get(words, ph.pos); c != nil {
			c.Freq++
			whole = c.Key
		}
		// every shorter span that can be a term: "opinion mining" in
		// "opinion mining applications", "reward model" in "process reward
		// models"
		for i := 0; i < len(words); i++ {
			if !ph.lead[i] {
				continue
			}
			for j := i; j < len(words) && j-i < 4; j++ {
				if (i == 0 && j == len(words)-1) || !ph.noun[j] {
					continue
				}
				if c := get(words[i:j+1], ph.pos+i); c != nil {
					c.Sub++
					c.Tail = c.Tail || j == len(words)-1
					if c.parent == "" {
						c.parent, c.Nested = whole, true
					} else if c.parent != whole {
						c.Nested = false
					}
				}
			}
		}
	}
	// A paper defines the acronyms it introduces, those of its title
	// (the acronym or its long form there): "VL-PRMs" for "Vision-Language
	// Process Reward Models"; an acronym spelled out in passing is only
	// an alias.
	titleText := strings.Join(tokenTexts(toks[:nTitle]), " ")
	for _, d := range defined {
		c := &a.Cands[idx[ident.ConceptKey(e.canonical(acr.expand(d.long)))]]
		c.Introduced = c.Introduced || (d.pos < nTitle || c.InTitle || containsWord(titleText, d.short)) && nameLike(d.long)
	}
	// the named method of a title ("Trace2Skill: Distill ...") is defined
	// by its paper too
	if short, _, ok := strings.Cut(title, ":"); ok {
		if f := strings.Fields(short); len(f) >= 1 && len(f) <= 3 && strings.ContainsFunc(short, isUpperRune) {
			key := ident.ConceptKey(e.canonical(acr.expand(f)))
			if i, ok := idx[key]; ok {
				c := &a.Cands[i]
				// one capitalised word the abstract writes capitalised too
				// is a name ("Dynamo: Dynamic Skill-Tool Evolution ...")
				if len(f) == 1 && !c.Acronym && !c.Named && unicode.IsUpper([]rune(f[0])[0]) && containsWord(text, f[0]) {
					c.Named, c.Name = true, f[0]
				}
				if c.Acronym || c.Named || len(f) > 1 {
					c.Introduced = true
				}
			}
		}
	}
	if withMentions {
		a.mentions = e.findMentions(toks, nTitle, acr)
	}
	return a, toks
}

// Strings numbers the distinct strings of a corpus held in memory, so each
// term's key and name are stored once. Not safe for concurrent use.
type Strings struct {
	ids  map[string]uint32
	strs []string
}

// NewStrings returns an empty table.
func NewStrings() *Strings { return &Strings{ids: map[string]uint32{}} }

func (t *Strings) id(s string) uint32 {
	if i, ok := t.ids[s]; ok {
		return i
	}
	s = strings.Clone(s) // do not pin the text the string was cut from
	i := uint32(len(t.strs))
	t.ids[s] = i
	t.strs = append(t.strs, s)
	return i
}

// Compact is an Analysis in 24 bytes a candidate (plus its rare aliases),
// for keeping a whole corpus in memory between analysis and ranking. It
// keeps no mentions.
type Compact struct {
	cands   []compactCand
	aliases map[int][]string
	defs    []uint32
	tokens  int32
}

type compactCand struct {
	key, name uint32
	freq, sub float32
	first     int32
	words     int16
	flags     uint8
}

const (
	fTail = 1 << iota
	fTitle
	fDefined
	fAcronym
	fNamed
	fIntroduced
	fNested
)

// Compact packs the analysis, numbering its strings in t.
func (a *Analysis) Compact(t *Strings) *Compact {
	c := &Compact{cands: make([]compactCand, len(a.Cands)), tokens: int32(a.Tokens)}
	for i, x := range a.Cands {
		var f uint8
		for _, b := range []struct {
			on   bool
			flag uint8
		}{{x.Tail, fTail}, {x.InTitle, fTitle}, {x.Defined, fDefined}, {x.Acronym, fAcronym}, {x.Named, fNamed},
			{x.Introduced, fIntroduced}, {x.Nested, fNested}} {
			if b.on {
				f |= b.flag
			}
		}
		c.cands[i] = compactCand{t.id(x.Key), t.id(x.Name), x.Freq, x.Sub, x.First, x.Words, f}
		if len(x.Aliases) > 0 {
			if c.aliases == nil {
				c.aliases = map[int][]string{}
			}
			c.aliases[i] = x.Aliases
		}
	}
	for _, d := range a.acronymDefs {
		c.defs = append(c.defs, t.id(d))
	}
	return c
}

// Analysis unpacks a Compact.
func (c *Compact) Analysis(t *Strings) *Analysis {
	a := &Analysis{Cands: make([]Candidate, len(c.cands)), Tokens: int(c.tokens)}
	for i, x := range c.cands {
		a.Cands[i] = Candidate{Key: t.strs[x.key], Name: t.strs[x.name], Aliases: c.aliases[i],
			Freq: x.freq, Sub: x.sub, First: x.first, Words: x.words,
			Tail: x.flags&fTail != 0, InTitle: x.flags&fTitle != 0, Defined: x.flags&fDefined != 0,
			Acronym: x.flags&fAcronym != 0, Named: x.flags&fNamed != 0, Introduced: x.flags&fIntroduced != 0,
			Nested: x.flags&fNested != 0}
	}
	for _, d := range c.defs {
		a.acronymDefs = append(a.acronymDefs, t.strs[d])
	}
	return a
}

func tokenTexts(toks []token) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.text
	}
	return out
}

// containsWord reports whether s has w as a whole word (or a plural of it).
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isWordByte(s[j-1])
		end := j + len(w)
		if end < len(s) && s[end] == 's' {
			end++
		}
		if before && (end == len(s) || !isWordByte(s[end])) {
			return true
		}
		i = j + 1
	}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

// nameLike reports whether an acronym's long form reads as a name: at most
// five words, joined by "of", "and" or "from" if at all ("low-rank
// adaptation", "mixture of experts", "reinforcement learning from human
// feedback"), not a title's whole clause ("dynamic patch reduction via
// interpretable pooling").
func nameLike(words []string) bool {
	if len(words) > 5 {
		return false
	}
	for _, w := range words {
		if lw := strings.ToLower(w); functionWords[lw] && lw != "of" && lw != "and" && lw != "from" {
			return false
		}
	}
	return true
}
