package termhood

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"math"
	"strconv"
	"strings"
	"sync"
)

// english.tsv.gz is SUBTLEX-US's word counts (SOURCE.md): one
// "word<TAB>count" line a word, lower case, counts of every capitalisation
// summed, in a corpus of SubtlexWords words of film and television
// subtitles; words counted fewer than 10 times are left out (below 0.2 a
// million they are rare in speech, which is all Weirdness needs to know).
//
//go:embed english.tsv.gz
var englishGz []byte

// SubtlexWords is the size of the SUBTLEX-US corpus the counts are from.
const SubtlexWords = 51_000_000

var english struct {
	once   sync.Once
	counts map[string]int32
}

func englishCounts() map[string]int32 {
	english.once.Do(func() {
		m := make(map[string]int32, 40_000)
		zr, err := gzip.NewReader(bytes.NewReader(englishGz))
		if err != nil {
			panic("termhood: english.tsv.gz: " + err.Error()) // embedded: a broken build
		}
		sc := bufio.NewScanner(zr)
		for sc.Scan() {
			w, n, ok := strings.Cut(sc.Text(), "\t")
			c, err := strconv.Atoi(n)
			if !ok || err != nil {
				panic("termhood: english.tsv.gz: bad line " + strconv.Quote(sc.Text()))
			}
			m[w] = int32(c)
		}
		if err := sc.Err(); err != nil {
			panic("termhood: english.tsv.gz: " + err.Error())
		}
		english.counts = m
	})
	return english.counts
}

// EnglishPerMillion is how often a word is said in spoken American
// English, per million words: the word in lower case and its plural
// ("failure" and "failures"; "strategy" and "strategies"). 0 for a word
// said fewer than 10 times in the 51 million words of SUBTLEX-US.
func EnglishPerMillion(word string) float64 {
	w := strings.ToLower(word)
	m := englishCounts()
	n := int(m[w])
	for _, p := range plurals(w) {
		n += int(m[p])
	}
	return float64(n) / (SubtlexWords / 1e6)
}

// plurals are the plural spellings of a singular English noun.
func plurals(w string) []string {
	switch {
	case w == "" || strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return nil // already plural, or "analysis", "bias": one form
	case strings.HasSuffix(w, "y") && len(w) > 2 && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return []string{w[:len(w)-1] + "ies"}
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "x"), strings.HasSuffix(w, "ch"), strings.HasSuffix(w, "sh"):
		return []string{w + "es"}
	}
	return []string{w + "s"}
}

// Corpus is what the judgement reads of the corpus as a whole: its papers
// and the words of their titles and abstracts (Words 0: not counted, each
// paper taken as defaultPassage words).
type Corpus struct{ Papers, Words int }

// defaultPassage is the length of a title and abstract, what a paper is
// taken to be when the words are not counted.
const defaultPassage = 200

// passage is the mean length of a paper's text: a title and abstract on
// arXiv (186 words), a title alone in a bibliography (8).
func (c Corpus) passage() float64 {
	if c.Words <= 0 || c.Papers <= 0 {
		return defaultPassage
	}
	return max(float64(c.Words)/float64(c.Papers), 1)
}

// Weirdness is how much more often papers use a word than speech does
// (Ahmad, Gillam and Tostevin 1999): the share of the corpus's papers
// that use it, over the chance that a passage of spoken English as long
// as the corpus's mean text says it. A corpus of titles alone is compared
// with passages of a title's length: its papers say each word less often
// because they say less. +Inf for a word speech hardly says.
func Weirdness(word string, docFreq int, corpus Corpus) float64 {
	if corpus.Papers <= 0 || docFreq <= 0 {
		return 0
	}
	f := EnglishPerMillion(word) / 1e6
	if f == 0 {
		return math.Inf(1)
	}
	spoken := -math.Expm1(-corpus.passage() * f)
	return float64(docFreq) / float64(corpus.Papers) / spoken
}
