package nlp

import (
	"strings"

	"github.com/researchkg/kg/graph"
)

// Candidate is one candidate term of a document with its in-document
// evidence. Corpus evidence is added by Rank.
type Candidate struct {
	Key     string   // graph.ConceptKey of Name: the identity across documents
	Name    string   // canonical form: lower case but acronyms and names, head singular
	Aliases []string // acronyms defined for it in this document
	Freq    float32  // occurrences as a whole noun phrase
	Sub     float32  // occurrences inside a longer noun phrase
	First   int32    // token position of the first occurrence
	Words   int16
	Tail    bool // seen as the head end of a longer phrase ("reward model" in "process reward model")
	InTitle bool
	Defined bool // the long form of an acronym defined here
	Acronym bool // the name is itself an acronym ("RL")
}

// Analysis is a document's candidates. It is what tagging produces; ranking
// it against corpus statistics is cheap and can be redone.
type Analysis struct {
	Cands  []Candidate
	Tokens int
}

var _ graph.TextAnalysis = (*Analysis)(nil)

// Keys returns the candidates' identity keys, for document frequencies.
func (a *Analysis) Keys() []string {
	out := make([]string, len(a.Cands))
	for i, c := range a.Cands {
		out[i] = c.Key
	}
	return out
}

// Candidates tags a title and text and collects their candidate terms: noun
// phrases (adjective/noun runs ending in a noun) and the noun-ending spans
// inside them, acronym long forms, with frequencies and first positions.
// Bare uses of an acronym defined in the same text count for its long form.
func (e *Extractor) Candidates(title, text string) *Analysis {
	title = graph.LatexToText(title)
	text = graph.LatexToText(text)
	// Title Case defeats the tagger (every word becomes NNP, verbs included):
	// tag the title with plain words lower-cased, acronyms and names kept.
	titleToks := e.tag(lowerTitle(title))
	bodyToks := e.tag(text)
	toks := make([]token, 0, len(titleToks)+1+len(bodyToks))
	toks = append(toks, titleToks...)
	toks = append(toks, token{".", "."})
	toks = append(toks, bodyToks...)
	nTitle := len(titleToks)

	acr := findAcronyms(toks)
	idx := map[string]int{}
	a := &Analysis{Tokens: len(toks)}
	get := func(words []string, pos int) *Candidate {
		if len(words) == 1 {
			// a bare acronym defined in this text is its long form, also
			// inside longer phrases ("RL" in "RL agents")
			if long, ok := acr.long[singularAcronym(words[0])]; ok {
				words = long
			}
		}
		name := canonical(words)
		key := graph.ConceptKey(name)
		if key == "" || (isGeneric(graph.FoldKey(name), len(words)) && !(len(words) == 1 && isAcronym(name))) {
			return nil
		}
		i, ok := idx[key]
		if !ok {
			i = len(a.Cands)
			idx[key] = i
			a.Cands = append(a.Cands, Candidate{Key: key, Name: name, First: int32(pos), Words: int16(len(words)),
				Acronym: len(words) == 1 && isAcronym(name)})
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
	for _, d := range acr.defs {
		if c := get(d.long, d.pos); c != nil {
			c.Defined = true
			c.Aliases = appendUnique(c.Aliases, strings.Clone(d.short)) // do not pin the text
			for _, sub := range d.parts {
				if sc := get(sub.long, d.pos); sc != nil {
					sc.Aliases = appendUnique(sc.Aliases, strings.Clone(sub.short))
				}
			}
		}
	}
	for _, ph := range nounPhrases(toks) {
		words := ph.words
		if c := get(words, ph.pos); c != nil {
			c.Freq++
		}
		// every shorter span ending in a noun ("opinion mining" in "opinion
		// mining applications", "reward model" in "process reward models")
		for i := 0; i < len(words); i++ {
			for j := i; j < len(words) && j-i < 4; j++ {
				if (i == 0 && j == len(words)-1) || !ph.noun[j] {
					continue
				}
				if c := get(words[i:j+1], ph.pos+i); c != nil {
					c.Sub++
					c.Tail = c.Tail || j == len(words)-1
				}
			}
		}
	}
	return a
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
// for keeping a whole corpus in memory between analysis and ranking.
type Compact struct {
	cands   []compactCand
	aliases map[int][]string
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
)

// Compact packs the analysis, numbering its strings in t.
func (a *Analysis) Compact(t *Strings) *Compact {
	c := &Compact{cands: make([]compactCand, len(a.Cands)), tokens: int32(a.Tokens)}
	for i, x := range a.Cands {
		var f uint8
		if x.Tail {
			f |= fTail
		}
		if x.InTitle {
			f |= fTitle
		}
		if x.Defined {
			f |= fDefined
		}
		if x.Acronym {
			f |= fAcronym
		}
		c.cands[i] = compactCand{t.id(x.Key), t.id(x.Name), x.Freq, x.Sub, x.First, x.Words, f}
		if len(x.Aliases) > 0 {
			if c.aliases == nil {
				c.aliases = map[int][]string{}
			}
			c.aliases[i] = x.Aliases
		}
	}
	return c
}

// Analysis unpacks a Compact.
func (c *Compact) Analysis(t *Strings) *Analysis {
	a := &Analysis{Cands: make([]Candidate, len(c.cands)), Tokens: int(c.tokens)}
	for i, x := range c.cands {
		a.Cands[i] = Candidate{Key: t.strs[x.key], Name: t.strs[x.name], Aliases: c.aliases[i],
			Freq: x.freq, Sub: x.sub, First: x.first, Words: x.words,
			Tail: x.flags&fTail != 0, InTitle: x.flags&fTitle != 0, Defined: x.flags&fDefined != 0, Acronym: x.flags&fAcronym != 0}
	}
	return a
}

// Analyze is Candidates behind graph's interface.
func (e *Extractor) Analyze(title, text string) graph.TextAnalysis { return e.Candidates(title, text) }

// Extract analyses and ranks in one step, without corpus statistics.
func (e *Extractor) Extract(title, text string) []graph.Term {
	return e.Candidates(title, text).Rank(nil, e.max)
}
