package nlp

import (
	"bytes"
	"strings"
	"sync"
	"unicode"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/ident"
)

// Mentions are found by surface form, not by the tagger: a paper mentions
// a concept when any span of its title or abstract, read word by word
// (hyphenated words split into their parts), has the concept's key. The
// span may sit inside a longer term ("reinforcement learning" in "deep
// reinforcement learning agents", "large language model" in "large
// language model-based"), in any case, hyphenation, plural or spelling the
// key folds. Tags decide which phrases may become concepts (Candidates);
// they do not decide which papers mention one, because the tagger reads
// the same words differently from one sentence to the next ("learning" as
// a noun, then as a verb).

// maxMentionParts bounds a span: concept names have at most five words
// (hyphenated parts count one each, so "mixture-of-experts" is three).
const maxMentionParts = 6

// mention is one distinct span key of a text with its evidence.
type mention struct {
	key     string // ident.ConceptKey of the span, or the acronym as written (singular) when acronym
	count   int32
	first   int32 // token position
	title   bool
	acronym bool
	// word: of an acronym in mixed case, the key of its letters as a
	// word, the concept it names when it names none as an acronym
	word string
}

// part is one word of a text cut for mentions.
type part struct {
	key, skey string // ConceptKey of the word, and of its singular
	akey      string // ConceptKey of its other singular (otherSingular), "" if none
	acr       string // the word as an acronym, singular ("LLM" for "LLMs"); "" if it is none
	tok       int32
	stop      bool // a stop word: never starts or ends a span (but the front of a hyphenated word)
	endOK     bool // may end a span (not a verb or adverb by its tag)
	brk       bool // a span cannot reach back across the start of this part
	inner     bool // not the first part of a hyphenated word
	// versioned: a version number follows after a hyphen ("GPT-4",
	// "LLaMA-2"): the acronym names a product, a model of that family
	versioned bool
	// vkey: of a versioned acronym whose version has no letter ("GPT-2",
	// "ResNet-50"), the key of the whole word: a concept may have that
	// name (the word's other parts make no span)
	vkey string
	// num: a version number written apart ("3" of "Stable Diffusion 3"):
	// it ends spans and starts none
	num bool
}

// versionNumber: "3", "2", "12" (not "2025", "3.5": a year, a decimal are
// no version a name is said with apart from it; "3.5" is cut at its dot).
func versionNumber(s string) bool {
	if len(s) == 0 || len(s) > 2 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// compoundFronts are the prepositions that open hyphenated names
// ("in-context", "on-device", "off-policy", "out-of-distribution",
// "over-refusal", "under-resourced").
var compoundFronts = map[string]bool{"in": true, "on": true, "off": true, "out": true, "over": true, "under": true}

// versionMark ends the key of an acronym written with a version ("GPT-4"):
// Link takes it for a concept named by the acronym itself (a model family:
// "LLaMA"), never for the idea an acronym spells out ("generative
// pre-trained transformer" is not what a paper that uses GPT-4 is about).
const versionMark = "\x00v"

// wordMark joins an acronym in mixed case to the key of its letters as a
// word ("UNet" and "unet"): mention.word.
const wordMark = "\x00w"

// verbalTags cannot end a concept's name. (Verbs can: the tagger reads
// nouns as verbs after a verb, "reveals transformer architectures".)
var verbalTags = wordSet(`MD RB RBR RBS WRB`)

func (e *Extractor) findMentions(toks []token, nTitle int, acr acronyms) []mention {
	idx := map[string]int{}
	var out []mention
	e.eachSpan(toks, acr, func(key []byte, tok int32, acronym bool) {
		i, ok := idx[string(key)]
		if !ok {
			i = len(out)
			k := string(key)
			idx[k] = i
			a, w, _ := strings.Cut(k, wordMark)
			out = append(out, mention{key: a, word: w, first: tok, acronym: acronym})
		}
		m := &out[i]
		m.count++
		m.title = m.title || int(tok) < nTitle
	})
	return out
}

// eachSpan visits the spans of a text that may name a concept: the key of
// every run of up to maxMentionParts words that neither starts nor ends
// with a stop word (its head singular), and every acronym (its long form
// when the text defines it). key is only valid during the call.
func (e *Extractor) eachSpan(toks []token, acr acronyms, visit func(key []byte, tok int32, acronym bool)) {
	b := getParts()
	defer putParts(b)
	e.spans(b.cut(toks), acr, visit)
}

// partKeys are the keys of a word, computed once a text (words repeat).
type partKeys struct{ key, skey, akey, acr string }

// partBuf holds a text's parts and its words' keys while they are used:
// reused from text to text (partsPool), they were a sixth of what an
// ingest allocated (6 GB on the arXiv file) and so of its GC's work.
type partBuf struct {
	parts []part
	seen  map[string]partKeys
}

var partsPool = sync.Pool{New: func() any { return &partBuf{seen: map[string]partKeys{}} }}

func getParts() *partBuf { return partsPool.Get().(*partBuf) }

// putParts returns a buffer whose parts are no longer used. One grown by
// a very long text is dropped rather than kept.
func putParts(b *partBuf) {
	if cap(b.parts) > 1<<14 || len(b.seen) > 1<<12 {
		return
	}
	clear(b.parts) // no strings of old texts kept alive (past len: cleared before)
	clear(b.seen)
	b.parts = b.parts[:0]
	partsPool.Put(b)
}

// cut cuts a text's tokens into the words spans are made of; the parts
// are valid until the buffer is put back.
func (b *partBuf) cut(toks []token) []part {
	parts := b.parts[:0]
	seen := b.seen
	brk := true
	for i, t := range toks {
		if !wordLike(t.text) {
			// a version number after a word ends a name ("Stable
			// Diffusion 3", "Llama 3"); other numbers and punctuation
			// stop spans
			if !brk && versionNumber(t.text) {
				parts = append(parts, part{key: t.text, skey: t.text, tok: int32(i), endOK: true, num: true})
			}
			brk = true
			continue
		}
		endOK := !verbalTags[t.tag] || isNominalIng(t.text)
		hyphenated := strings.Contains(t.text, "-")
		split := strings.Split(t.text, "-")
		for j, p := range split {
			if p == "" || !strings.ContainsFunc(p, unicode.IsLetter) {
				if p != "" {
					brk = true
				}
				continue
			}
			pk, ok := seen[p]
			lp := strings.ToLower(p)
			if !ok {
				pk.key = ident.ConceptKey(p)
				pk.skey = pk.key
				switch {
				case isAcronym(p):
					pk.acr = singularAcronym(p)
					if pk.acr != p {
						pk.skey = ident.ConceptKey(pk.acr)
					}
					if s := singular(lp); pk.acr == p && s != lp && strings.ContainsFunc(p, unicode.IsLower) {
						pk.akey = ident.ConceptKey(s) // "UNets": UNet
					}
				case strings.HasSuffix(lp, "s") || irregular[lp] != "":
					if s := singular(lp); s != lp {
						pk.skey = ident.ConceptKey(s)
					}
					if o, ok := otherSingular[lp]; ok {
						pk.akey = ident.ConceptKey(o)
					}
				}
				seen[p] = pk
			}
			// the front of a hyphenated word is no stop word: "in-context
			// learning", "on-device", "off-policy", "out-of-distribution"
			// start with one, and are named like any other concept; nor
			// is its last part, which ends names ("virtual try-on",
			// "plug-in") but starts none (spans)
			stop := stopWords[lp] && !(j == 0 && hyphenated) && !(j > 0 && j == len(split)-1)
			pt := part{tok: int32(i), stop: stop, endOK: endOK || j > 0, brk: brk, inner: j > 0,
				key: pk.key, skey: pk.skey, akey: pk.akey, acr: pk.acr,
				versioned: j+1 < len(split) && split[j+1] != "" && unicode.IsDigit(rune(split[j+1][0]))}
			if pt.versioned && pt.acr != "" && j == 0 && !strings.ContainsFunc(split[1], unicode.IsLetter) {
				pt.vkey = ident.ConceptKey(t.text)
			}
			if pt.key == "" {
				brk = true
				continue
			}
			parts = append(parts, pt)
			brk = false
		}
	}
	b.parts = parts
	return parts
}

// spans visits the spans of a text's parts (eachSpan).
func (e *Extractor) spans(parts []part, acr acronyms, visit func(key []byte, tok int32, acronym bool)) {
	var buf, head, k []byte
	for i := range parts {
		// a preposition that fronts compounds starts a name of three
		// words or more written with spaces ("in context learning", "out
		// of distribution"); two ("on policy", "in distribution") are too
		// often a preposition and its noun
		minParts := 1
		if parts[i].num || parts[i].inner && stopWords[parts[i].key] {
			continue
		}
		if parts[i].stop {
			if !compoundFronts[parts[i].key] {
				continue
			}
			minParts = 3
		}
		// one acronym: its long form when this text defines it, else the
		// acronym itself, looked up as one
		if a := parts[i].acr; a != "" {
			if parts[i].versioned {
				visit([]byte(a+versionMark), parts[i].tok, true)
				if k := parts[i].vkey; k != "" {
					visit([]byte(k), parts[i].tok, false)
				}
			} else if long, ok := acr.long[a]; ok {
				visit([]byte(ident.ConceptKey(e.canonical(long))), parts[i].tok, false)
			} else {
				if strings.ContainsFunc(a, unicode.IsLower) {
					// a name in mixed case ("UNet") names the concept
					// its letters spell ("U-Net") where it names none
					// as an acronym (Link; "LiDAR" is the acronym of
					// light detection and ranging)
					w := parts[i].skey
					if parts[i].akey != "" {
						w = parts[i].akey
					}
					visit([]byte(a+wordMark+w), parts[i].tok, true)
				} else {
					visit([]byte(a), parts[i].tok, true)
				}
			}
		}
		buf, head = buf[:0], head[:0]
		of := -1 // index of the first "of" in the span
		for j := i; j < len(parts) && j-i < maxMentionParts; j++ {
			if j > i && parts[j].brk {
				break
			}
			if parts[i].inner && parts[j].tok != parts[i].tok {
				// the tail of a hyphenated word starts no name that goes
				// on past it: "augmented generation" is not said in
				// "retrieval-augmented generation", nor "supervised
				// learning" in "self-supervised learning"
				break
			}
			p := &parts[j]
			if of < 0 && j > i+0 && p.key == "of" {
				of = j
				head = append(head[:0], buf[:len(buf)-len(parts[j-1].key)]...)
				head = append(head, parts[j-1].skey...)
			}
			if !p.stop && p.endOK && !(j == i && p.acr != "") && j-i+1 >= minParts {
				if of < 0 {
					k = append(append(k[:0], buf...), p.skey...)
				} else {
					if p.skey != p.key {
						// "chain of thoughts" is "chain of thought"
						visit(append(append(k[:0], head...), p.skey...), p.tok, false)
					}
					k = append(append(k[:0], head...), p.key...)
				}
				if j > i || !generic[string(k)] {
					visit(k, p.tok, false)
				}
				if p.akey != "" && of < 0 {
					// "Fourier bases" may name "Fourier basis"
					visit(append(append(k[:0], buf...), p.akey...), p.tok, false)
				}
			}
			buf = append(buf, p.key...)
			if of >= 0 {
				head = append(head, p.key...)
			}
		}
	}
}

// Link finds the concepts the text mentions and weighs each by its score
// as a key term of the text, relative to the text's best key term: in (0,
// 1]. resolve says which concept a span's key names (acronym: the span is
// one acronym as written, to be looked up as one). Every form of a concept
// in the text counts for it: the long form, the acronym, a plural.
// Concepts are returned best first.
func (r *Ranking) Link(resolve func(key string, acronym bool) (graph.Concept, bool)) []graph.Link {
	type acc struct {
		c     graph.Concept
		count int32
		first int32
		title bool
		cand  float64 // its score as a candidate of this text, 0 if it is none
	}
	byID := map[graph.NodeID]*acc{}
	byKey := map[string]*acc{}
	var order []graph.NodeID
	for _, m := range r.a.mentions {
		key, versioned := strings.CutSuffix(m.key, versionMark)
		c, ok := resolve(key, m.acronym)
		if !ok && m.word != "" {
			c, ok = resolve(m.word, false)
			ok = ok && !(isAcronym(c.Name) && !strings.ContainsAny(c.Name, " -"))
		}
		if !ok || versioned && !(isAcronym(c.Name) && singularAcronym(c.Name) == key) {
			continue
		}
		if !m.acronym && m.key == c.Key && isAcronym(c.Name) && !strings.ContainsAny(c.Name, " -") {
			continue // the word "face" is not the method FACE: an acronym is said as written
		}
		x := byID[c.ID]
		if x == nil {
			x = &acc{c: c, first: m.first}
			byID[c.ID] = x
			byKey[c.Key] = x
			order = append(order, c.ID)
		}
		x.count += m.count
		x.first = min(x.first, m.first)
		x.title = x.title || m.title
	}
	if len(order) == 0 {
		return nil
	}
	for _, s := range r.out {
		if x := byKey[s.c.Key]; x != nil {
			x.cand = max(x.cand, s.score)
		}
	}
	out := make([]graph.Link, 0, len(order))
	for _, id := range order {
		x := byID[id]
		s := x.cand
		if s == 0 {
			words := len(strings.Fields(x.c.Name))
			s = DefaultParams.score(features{freq: float64(x.count), first: x.first, words: words, title: x.title,
				acronym: words == 1 && isAcronym(x.c.Name)}, idfOf(r.stats, x.c.Key))
		}
		out = append(out, graph.Link{Concept: id, Weight: r.relative(s)})
	}
	sortLinks(out)
	return out
}

// ScanMentions counts the spans of a title and text whose key is in keys
// (or, for acronyms, in acronyms), as Analyze finds mentions but without
// tagging, on a simple tokenisation (words of letters, digits and hyphens;
// every other character ends a span), and calls fn for each found: what a
// scan of every stored paper can afford (graph.TermExtractor).
func (e *Extractor) ScanMentions(title, text string, keys, acronyms map[string]bool, fn func(key string, acronym bool, count int)) {
	toks := scanTokens(repairText(ident.LatexToText(title)), nil)
	toks = append(toks, token{".", "."})
	toks = scanTokens(repairText(ident.LatexToText(text)), toks)
	b := getParts()
	defer putParts(b)
	e.scanParts(b.cut(toks), findAcronyms(toks), keys, acronyms, fn)
}

// scanParts is ScanMentions on a text cut into parts.
func (e *Extractor) scanParts(parts []part, acr acronyms, keys, acronyms map[string]bool, fn func(key string, acronym bool, count int)) {
	var found map[string]int
	e.spans(parts, acr, func(key []byte, _ int32, acronym bool) {
		set := keys
		if acronym {
			set = acronyms
			if a, w, ok := bytes.Cut(key, []byte(wordMark)); ok {
				// as Link: the acronym, else its word
				key = a
				if !acronyms[string(a)] {
					key, acronym, set = w, false, keys
				}
			}
		}
		if !set[string(key)] {
			return
		}
		if found == nil {
			found = map[string]int{}
		}
		if acronym {
			found["\x00"+string(key)]++
		} else {
			found[string(key)]++
		}
	})
	for k, n := range found {
		if a, ok := strings.CutPrefix(k, "\x00"); ok {
			fn(a, true, n)
		} else {
			fn(k, false, n)
		}
	}
}

// scanTokens cuts text into words (letters, digits, inner hyphens) and
// single punctuation tokens, appended to toks.
func scanTokens(s string, toks []token) []token {
	start := -1
	flush := func(end int) {
		if start >= 0 {
			w := strings.Trim(s[start:end], "-")
			if w != "" {
				toks = append(toks, token{text: w})
			}
			start = -1
		}
	}
	for i, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' && start >= 0:
			if start < 0 {
				start = i
			}
		case r == '\'' || r == '’':
			flush(i)
		case unicode.IsSpace(r):
			flush(i)
		default:
			flush(i)
			toks = append(toks, token{text: string(r)})
		}
	}
	flush(len(s))
	return toks
}
