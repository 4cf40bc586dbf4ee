package graph

import (
	"hash/maphash"
	"math"
	"sync"
)

// vocabulary answers "certainly not a concept key" from memory for the
// spans of a text that are checked against the concept index: a Bloom
// filter over the keys of the concept index (IdxConcept) and of the
// acronym index (IdxAcronym, as acronymVocabKey).
//
// Linking looks up every span of a paper's text that may name a concept,
// about 800 for an abstract, and nearly all of them name none: one Badger
// read each would cost more than the rest of ingest. The filter answers
// those in ~40 ns; the ~20 spans it lets through are looked up.
//
// It is built from the store's indexes the first time a writer
// needs it, and every concept a writer creates (or alias it adds) is added.
// Keys are never removed: a dropped concept, or one created in a
// transaction that failed, costs a lookup that finds nothing. One filter
// serves every Service on a store (vocabularyOf), so a concept one of them
// creates is seen by the others. It is used inside write transactions
// only, which the store runs one at a time.
type vocabulary struct {
	built   bool
	current string // the extractor version its concepts were found made by (termsCurrent)
	seed    maphash.Seed
	parts   []*vocabBloom // each twice the size of the one before; adds go to the last
	// names are the concepts linking has read (conceptOf), so each is read
	// from the store once a run; renamed and dropped ones are forgotten. A
	// concept of a transaction that failed may stay: its id is never
	// reused, and no lookup finds it.
	names map[NodeID]Concept
	// rejected are the concepts marked rejected in this run (checkModifier):
	// linking skips them until the settle unlinks them. A mark whose
	// transaction failed is found so by resolve, which reads the counter.
	rejected map[NodeID]bool
	// fronts holds, for a term found the front of a longer term, that
	// term's key (frontOfLonger): the next check reads two counters, not
	// every longer term.
	fronts map[string]string
}

func (v *vocabulary) reject(id NodeID) {
	if v == nil {
		return
	}
	if v.rejected == nil {
		v.rejected = map[NodeID]bool{}
	}
	v.rejected[id] = true
}

// concept, remember and forget work on a nil vocabulary (a writer that
// links nothing has none).
func (v *vocabulary) concept(id NodeID) (Concept, bool) {
	if v == nil {
		return Concept{}, false
	}
	c, ok := v.names[id]
	return c, ok
}

func (v *vocabulary) remember(c Concept) {
	if v == nil {
		return
	}
	if v.names == nil {
		v.names = map[NodeID]Concept{}
	}
	v.names[c.ID] = c
}

func (v *vocabulary) forget(id NodeID) {
	if v != nil {
		delete(v.names, id)
	}
}

type vocabBloom struct {
	bits     []uint64
	m        uint64
	n, limit int
}

// vocabHashes probes per key: 1% false positives at 9.6 bits per key.
const vocabHashes = 7

func newVocabBloom(capacity int) *vocabBloom {
	capacity = max(capacity, 1<<14)
	m := uint64(math.Ceil(float64(capacity)*9.6)+63) &^ 63
	return &vocabBloom{bits: make([]uint64, m/64), m: m, limit: capacity}
}

var vocabularies sync.Map // Store → *vocabulary

// vocabularyOf returns the store's filter (not yet built).
func vocabularyOf(s Store) *vocabulary {
	if v, ok := vocabularies.Load(s); ok {
		return v.(*vocabulary)
	}
	v, _ := vocabularies.LoadOrStore(s, &vocabulary{seed: maphash.MakeSeed()})
	return v.(*vocabulary)
}

// build adds every concept key of the store, once.
func (v *vocabulary) build(r Reader) error {
	if v.built {
		return nil
	}
	n, err := r.Counter(cntConcepts)
	if err != nil {
		return err
	}
	v.parts = []*vocabBloom{newVocabBloom(2 * int(n))}
	// The filter holds exactly the keys of the index (not keys derived
	// from the concepts' names, which the index may hold more of: a
	// concept renamed keeps its old key), so a process that starts on a
	// store links a text as the process that made the store would have.
	if err = r.Lookups(IdxConcept, func(key string, _ NodeID) bool { v.add(key); return true }); err == nil {
		err = r.Lookups(IdxAcronym, func(short string, _ NodeID) bool { v.add(acronymVocabKey(short)); return true })
	}
	if err == nil {
		err = v.loadRejected(r)
	}
	if err != nil {
		v.parts = nil
		return err
	}
	v.built = true
	return nil
}

// loadRejected marks the concepts rejected but not yet unlinked (a run
// stopped before its settle): linking skips them, as it did in the run
// that rejected them.
func (v *vocabulary) loadRejected(r Reader) error {
	keys, err := pendingRejections(r)
	if err != nil {
		return err
	}
	for _, key := range keys {
		id, ok, err := wordConcept(r, key)
		if err != nil {
			return err
		} else if ok {
			v.reject(id)
		}
	}
	return nil
}

func (v *vocabulary) hashes(k string) (uint64, uint64) {
	h := maphash.String(v.seed, k)
	return h, h>>32 | h<<32 | 1
}

// add adds a key; before the filter is built it does nothing (build reads
// every key from the store: a settle in a new process drops and makes
// concepts before any writer has linked a text).
func (v *vocabulary) add(k string) {
	if len(v.parts) == 0 {
		return
	}
	b := v.parts[len(v.parts)-1]
	if b.n >= b.limit {
		b = newVocabBloom(2 * b.limit)
		v.parts = append(v.parts, b)
	}
	h1, h2 := v.hashes(k)
	for i := uint64(0); i < vocabHashes; i++ {
		bit := (h1 + i*h2) % b.m
		b.bits[bit/64] |= 1 << (bit % 64)
	}
	b.n++
}

// mayHave is false only for keys never added.
func (v *vocabulary) mayHave(k string) bool {
	h1, h2 := v.hashes(k)
	for _, b := range v.parts {
		in := true
		for i := uint64(0); i < vocabHashes; i++ {
			bit := (h1 + i*h2) % b.m
			if b.bits[bit/64]&(1<<(bit%64)) == 0 {
				in = false
				break
			}
		}
		if in {
			return true
		}
	}
	return false
}
