package nlp

import (
	"encoding/binary"
	"hash/fnv"
	"math/bits"
	"slices"

	"github.com/researchkg/kg/graph/ident"
)

// A scan print is a small fingerprint of what ScanMentions can find in a
// text: a Bloom filter of the keys of its words (each word's key and its
// singular's), of each two neighbouring words joined ("data set" can be
// the key "dataset"), of its acronyms as written, and of the long forms
// its acronym definitions stand for. A concept name is looked for only in
// the texts whose print may hold its words, so a settle that made a
// hundred concepts reads the few texts that can say them instead of
// tokenising every stored text again (graph: rescanPlan).
//
// The test errs one way only: a print never says no to a text in which
// ScanMentions would find a name (see spelled; tested on the arXiv
// sample, and by FuzzScanPrint).

// scanPrintVersion changes whenever what a print holds changes; prints
// of another version (or another extractor Version) are not trusted.
const scanPrintVersion = 8

// A print is a blocked Bloom filter: each entry sets printHashes bits of
// one 64-byte block (a cache line), so a lookup reads one line and most
// lookups of absent entries stop at the first bit. A rescan tests every
// stored print against a few hundred names, each at every cut of its key:
// with a classic filter (14 bit positions anywhere) the test took 70 µs a
// print, most of a scan's 103 µs.
const (
	printBitsPerEntry = 20
	printHashes       = 10 // bits an entry sets in its block
	printBlock        = 64 // bytes
	printHeader       = 6  // format version, hash count, extractor version (4 bytes)
)

// printStamp identifies the extractor and print format that made a print.
var printStamp = func() uint32 {
	h := fnv.New32a()
	h.Write([]byte(Version))
	h.Write([]byte{scanPrintVersion})
	return h.Sum32()
}()

// entry kinds of a print
const (
	printWord    = 'w' // a word's key or its singular's, a long form's key
	printJoin    = 'j' // two neighbouring words' keys joined (each as key or singular)
	printAcronym = 'a' // an acronym as written, singular
	printFront   = 'f' // the first three bytes (or fewer) of a key a span may start with
)

// front is the part of a key a print holds as where a span may start.
func front(key string) string { return key[:min(3, len(key))] }

// printHash is FNV-1a (64 bits) of kind and s. Prints are stored: never
// change it without changing scanPrintVersion.
func printHash(kind byte, s string) uint64 { return fnvAdd(fnvStart(kind), s) }

// fnvAdd1 continues FNV-1a over one byte.
func fnvAdd1(h uint64, c byte) uint64 { return (h ^ uint64(c)) * 1099511628211 }

// fnvAdd continues FNV-1a over s.
func fnvAdd(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}

// An entry (its FNV hash h) goes to block hi32(m0)·n/2³² of a print of n
// blocks, m0 = mix64(h), and sets 10 bits in it, 9 bits of a hash each:
// three from m0's low 27 bits, seven from m1 = mix64(h ^ c), which a
// lookup computes only when the first three are set (most lookups of an
// absent entry stop there). FNV's low bits mix poorly, so nothing is
// taken from h itself: with bits taken from h directly, a print answered
// 0.35% of lookups for absent entries; now ~0.002%.
func entryBit(m0, m1 uint64, i int) uint {
	if i < 3 {
		return uint(m0>>(9*i)) & 511
	}
	return uint(m1>>(9*(i-3))) & 511
}

const entrySalt = 0x9E3779B97F4A7C15

func mix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>33
}

// A probe is an entry's two mixes, computed once for every print a filter
// tests (a rescan tests tens of thousands): printHas without the hashing.
type probe struct{ m0, m1 uint64 }

func probeOf(h uint64) probe { return probe{mix64(h), mix64(h ^ entrySalt)} }

// has is printHas(blocks, k, h) for the probe of h.
func (p probe) has(blocks []byte, k int) bool {
	b := blocks[printBlock*int((p.m0>>32)*uint64(len(blocks)/printBlock)>>32):][:printBlock]
	for i := range k {
		if bit := entryBit(p.m0, p.m1, i); b[bit>>3]&(1<<(bit&7)) == 0 {
			return false
		}
	}
	return true
}

// fnvStart is FNV-1a's state after the kind byte.
func fnvStart(kind byte) uint64 {
	h := uint64(14695981039346656037)
	return (h ^ uint64(kind)) * 1099511628211
}

// ScanMentionsPrint is ScanMentions that also returns the text's print
// (see ScanFilter).
func (e *Extractor) ScanMentionsPrint(title, text string, keys, acronyms map[string]bool, fn func(key string, acronym bool, count int)) []byte {
	toks := scanTokens(repairText(ident.LatexToText(title)), nil)
	toks = append(toks, token{".", "."})
	toks = scanTokens(repairText(ident.LatexToText(text)), toks)
	b := getParts()
	defer putParts(b)
	parts, acr := b.cut(toks), findAcronyms(toks)
	if len(keys) > 0 || len(acronyms) > 0 {
		e.scanParts(parts, acr, keys, acronyms, fn)
	}
	return e.printOf(parts, acr)
}

// printOf builds the print of a text cut into parts.
func (e *Extractor) printOf(parts []part, acr acronyms) []byte {
	// the entries' first hashes, deduplicated by sorting (a text's words
	// repeat); the second is derived from the first
	hs := make([]uint64, 0, 4*len(parts))
	for i, p := range parts {
		hs = append(hs, fnvAdd(fnvStart(printWord), p.key))
		if p.skey != p.key {
			hs = append(hs, fnvAdd(fnvStart(printWord), p.skey))
		}
		if (!p.stop || compoundFronts[p.key]) && !p.num { // a span may start here, with its key or its singular
			hs = append(hs, fnvAdd(fnvStart(printFront), front(p.key)), fnvAdd(fnvStart(printFront), front(p.skey)))
		}
		if p.acr != "" {
			hs = append(hs, fnvAdd(fnvStart(printAcronym), p.acr))
		}
		if p.vkey != "" { // "GPT-2" as one word
			hs = append(hs, fnvAdd(fnvStart(printWord), p.vkey), fnvAdd(fnvStart(printFront), front(p.vkey)))
		}
		if i+1 < len(parts) && !parts[i+1].brk {
			q := parts[i+1]
			for _, a := range [2]string{p.key, p.skey} {
				h := fnvAdd(fnvStart(printJoin), a)
				hs = append(hs, fnvAdd(h, q.key))
				if q.skey != q.key {
					hs = append(hs, fnvAdd(h, q.skey))
				}
				if p.skey == p.key {
					break
				}
			}
		}
	}
	for _, long := range acr.long {
		k := ident.ConceptKey(e.canonical(long))
		hs = append(hs, fnvAdd(fnvStart(printWord), k), fnvAdd(fnvStart(printFront), front(k)))
	}
	slices.Sort(hs)
	hs = slices.Compact(hs)
	n := max(1, (len(hs)*printBitsPerEntry+8*printBlock-1)/(8*printBlock))
	out := make([]byte, printHeader+printBlock*n)
	out[0], out[1] = scanPrintVersion, printHashes
	binary.BigEndian.PutUint32(out[2:6], printStamp)
	blocks := out[printHeader:]
	for _, h := range hs {
		m0, m1 := mix64(h), mix64(h^entrySalt)
		blk := blocks[printBlock*int((m0>>32)*uint64(n)>>32):][:printBlock]
		for i := range printHashes {
			bit := entryBit(m0, m1, i)
			blk[bit>>3] |= 1 << (bit & 7)
		}
	}
	return out
}

// ScanPrintCurrent reports whether a print was made by this extractor in
// this format (one that is not is made again when its text is next read).
func (e *Extractor) ScanPrintCurrent(print []byte) bool {
	return len(print) >= printHeader+printBlock && (len(print)-printHeader)%printBlock == 0 &&
		print[0] == scanPrintVersion && print[1] > 0 && print[1] <= printHashes && binary.BigEndian.Uint32(print[2:6]) == printStamp
}

// ScanFilter compiles concept names (not acronyms) and acronyms (as
// written, singular) into a test of prints: false only when ScanMentions
// would find none of them in the text the print was made of. A print that
// is damaged or of another version passes (the text must be read).
func (e *Extractor) ScanFilter(names, acronyms []string) func(print []byte) bool {
	// Keys are grouped by their front (first three bytes): a print rules
	// out a group's keys together when it holds none of the front's first
	// 1, 2 and 3 bytes, so each front is looked up once a print however
	// many keys share it (428 candidate names of 56 arXiv abstracts share
	// 200 fronts: TestScanFilterOfManyIsAnyOfOne).
	type frontGroup struct {
		fronts []probe // the front's first 1, 2 and 3 bytes
		keys   []*cuts
	}
	var groups []frontGroup
	byFront := map[string]int{}
	for _, name := range names {
		k := ident.ConceptKey(name)
		if k == "" {
			continue
		}
		f := front(k)
		g, ok := byFront[f]
		if !ok {
			g = len(groups)
			byFront[f] = g
			var fronts []probe
			for l := 1; l <= len(f); l++ {
				fronts = append(fronts, probeOf(printHash(printFront, f[:l])))
			}
			groups = append(groups, frontGroup{fronts: fronts})
		}
		groups[g].keys = append(groups[g].keys, cutsOf(k))
	}
	acr := make([]probe, len(acronyms))
	for i, a := range acronyms {
		acr[i] = probeOf(printHash(printAcronym, a))
	}
	return func(print []byte) bool {
		if !e.ScanPrintCurrent(print) {
			return true
		}
		words, k := print[printHeader:], int(print[1])
		for _, p := range acr {
			if p.has(words, k) {
				return true
			}
		}
		for _, g := range groups {
			// a span starts with a word's key (or singular), so the key's
			// front of that word's length (up to 3) is in the print: one
			// to three lookups rule out most keys before the cut search
			if !slices.ContainsFunc(g.fronts, func(f probe) bool { return f.has(words, k) }) {
				continue
			}
			for _, c := range g.keys {
				if c.spelled(words, k) {
					return true
				}
			}
		}
		return false
	}
}

// cuts is a key's probes for spelled, computed once for all the prints a
// filter tests: each piece key[i:j] as a word and as a neighbour pair.
type cuts struct {
	n          int
	word, join []probe // piece i..j at at(i, j)
}

// maxCutKey: a longer key passes every print (cuts are kept as bit sets
// of 64 positions).
const maxCutKey = 63

func cutsOf(key string) *cuts {
	c := &cuts{n: len(key)}
	if c.n > maxCutKey {
		return c
	}
	c.word, c.join = make([]probe, c.n*(c.n+1)/2), make([]probe, c.n*(c.n+1)/2)
	for i := range c.n {
		w, jn := fnvStart(printWord), fnvStart(printJoin)
		for j := i + 1; j <= c.n; j++ {
			w, jn = fnvAdd1(w, key[j-1]), fnvAdd1(jn, key[j-1])
			c.word[c.at(i, j)], c.join[c.at(i, j)] = probeOf(w), probeOf(jn)
		}
	}
	return c
}

// at is where piece key[i:j] is kept: the pieces from 0, then from 1 ...
func (c *cuts) at(i, j int) int { return i*c.n - i*(i-1)/2 + j - i - 1 }

// spelled reports whether a print's text may have a span with the key: a
// span is a run of neighbouring words whose keys (the last one's singular,
// or the one before "of") spell the key, so the key must cut into pieces
// that are each a word of the print, each two consecutive pieces joined
// being a neighbour pair of it. The text's own words are such a cut, so
// the test errs one way only, whatever the name's own words: "Causal
// Reasoning Benchmark" spells CausalReasoningBenchmark, "data set"
// spells dataset. And it asks for neighbours: "evaluation strategy"
// passes texts that say it, not every text with "evaluation" somewhere
// and "strategy" elsewhere.
func (c *cuts) spelled(words []byte, k int) bool {
	if c.n > maxCutKey {
		return true
	}
	// starts[j]: bit s set when key[:j] has a cut whose last piece is key[s:j]
	var starts [64]uint64
	for j := 1; j <= c.n; j++ {
		if c.word[c.at(0, j)].has(words, k) {
			if j == c.n {
				return true
			}
			starts[j] |= 1
		}
	}
	for i := 1; i < c.n; i++ {
		if starts[i] == 0 {
			continue
		}
		for j := i + 1; j <= c.n; j++ {
			if !c.word[c.at(i, j)].has(words, k) {
				continue
			}
			for ss := starts[i]; ss != 0; ss &= ss - 1 {
				s := bits.TrailingZeros64(ss)
				if starts[j]&(1<<i) != 0 || !c.join[c.at(s, j)].has(words, k) {
					continue
				}
				if j == c.n {
					return true
				}
				starts[j] |= 1 << i
			}
		}
	}
	return false
}
