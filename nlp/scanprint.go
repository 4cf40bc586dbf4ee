package nlp

import (
	"encoding/binary"
	"hash/fnv"
	"slices"

	"github.com/researchkg/kg/graph"
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
const scanPrintVersion = 2

const (
	// 20 bits an entry, 14 hashes: ~0.007% false positives a lookup. With
	// 16 bits and 11 hashes (~0.05%), each of ~180 new names looked for
	// after 1,000 records passed about 60 of 47,919 texts that do not say
	// it: 9,000 texts read for nothing.
	printBitsPerEntry = 20
	printHashes       = 14
	printHeader       = 6 // format version, hash count, extractor version (4 bytes)
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
)

// printHash is FNV-1a (64 bits) of kind and s, and a second hash derived
// from it for double hashing. Prints are stored: never change it without
// changing scanPrintVersion.
func printHash(kind byte, s string) (uint64, uint64) {
	h1 := fnvAdd(fnvStart(kind), s)
	return h1, secondHash(h1)
}

// fnvAdd continues FNV-1a over s.
func fnvAdd(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}

// secondHash derives the double-hashing step from the first hash (odd).
func secondHash(h1 uint64) uint64 { return (h1*0x9E3779B97F4A7C15 ^ h1>>29) | 1 }

// fnvStart is FNV-1a's state after the kind byte.
func fnvStart(kind byte) uint64 {
	h := uint64(14695981039346656037)
	return (h ^ uint64(kind)) * 1099511628211
}

// ScanMentionsPrint is ScanMentions that also returns the text's print
// (see ScanFilter).
func (e *Extractor) ScanMentionsPrint(title, text string, keys, acronyms map[string]bool, fn func(key string, acronym bool, count int)) []byte {
	toks := scanTokens(repairText(graph.LatexToText(title)), nil)
	toks = append(toks, token{".", "."})
	toks = scanTokens(repairText(graph.LatexToText(text)), toks)
	parts, acr := cutParts(toks), findAcronyms(toks)
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
		if p.acr != "" {
			hs = append(hs, fnvAdd(fnvStart(printAcronym), p.acr))
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
		hs = append(hs, fnvAdd(fnvStart(printWord), graph.ConceptKey(e.canonical(long))))
	}
	slices.Sort(hs)
	hs = slices.Compact(hs)
	m := max(64, len(hs)*printBitsPerEntry)
	m = (m + 7) / 8 * 8
	out := make([]byte, printHeader+m/8)
	out[0], out[1] = scanPrintVersion, printHashes
	binary.BigEndian.PutUint32(out[2:6], printStamp)
	bits := out[printHeader:]
	for _, h1 := range hs {
		h2 := secondHash(h1)
		for i := uint64(0); i < printHashes; i++ {
			pos := (h1 + i*h2) % uint64(m)
			bits[pos/8] |= 1 << (pos % 8)
		}
	}
	return out
}

// ScanPrintCurrent reports whether a print was made by this extractor in
// this format (one that is not is made again when its text is next read).
func (e *Extractor) ScanPrintCurrent(print []byte) bool {
	return len(print) > printHeader && print[0] == scanPrintVersion && print[1] > 0 &&
		binary.BigEndian.Uint32(print[2:6]) == printStamp
}

// printHas reports whether a print's bits may hold an entry (k hashes).
func printHas(bits []byte, k uint64, h [2]uint64) bool {
	m := uint64(len(bits)) * 8
	for i := uint64(0); i < k; i++ {
		pos := (h[0] + i*h[1]) % m
		if bits[pos/8]&(1<<(pos%8)) == 0 {
			return false
		}
	}
	return true
}

// ScanFilter compiles concept names (not acronyms) and acronyms (as
// written, singular) into a test of prints: false only when ScanMentions
// would find none of them in the text the print was made of. A print that
// is damaged or of another version passes (the text must be read).
func (e *Extractor) ScanFilter(names, acronyms []string) func(print []byte) bool {
	var keys []string
	for _, name := range names {
		if k := graph.ConceptKey(name); k != "" {
			keys = append(keys, k)
		}
	}
	acr := make([][2]uint64, len(acronyms))
	for i, a := range acronyms {
		acr[i][0], acr[i][1] = printHash(printAcronym, a)
	}
	return func(print []byte) bool {
		if !e.ScanPrintCurrent(print) {
			return true
		}
		bits, k := print[printHeader:], uint64(print[1])
		for _, h := range acr {
			if printHas(bits, k, h) {
				return true
			}
		}
		for _, key := range keys {
			if spelled(bits, k, key) {
				return true
			}
		}
		return false
	}
}

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
func spelled(bits []byte, k uint64, key string) bool {
	// starts[j]: the starts of the last piece of the cuts of key[:j]
	starts := make([][]int, len(key)+1)
	h := fnvStart(printWord)
	for j := 1; j <= len(key); j++ {
		h = fnvAdd(h, key[j-1:j])
		if printHas(bits, k, [2]uint64{h, secondHash(h)}) {
			if j == len(key) {
				return true
			}
			starts[j] = append(starts[j], 0)
		}
	}
	for i := 1; i < len(key); i++ {
		for _, s := range starts[i] {
			w := fnvStart(printWord)
			pair := fnvAdd(fnvStart(printJoin), key[s:i])
			for j := i + 1; j <= len(key); j++ {
				w = fnvAdd(w, key[j-1:j])
				pair = fnvAdd(pair, key[j-1:j])
				if slices.Contains(starts[j], i) || !printHas(bits, k, [2]uint64{w, secondHash(w)}) ||
					!printHas(bits, k, [2]uint64{pair, secondHash(pair)}) {
					continue
				}
				if j == len(key) {
					return true
				}
				starts[j] = append(starts[j], i)
			}
		}
	}
	return false
}
