package nlp

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jdkato/prose/v2"
)

// tagger is prose's averaged-perceptron POS tagger (Honnibal's, as in
// TextBlob), run on prose's own trained model, with a deterministic
// prediction step.
//
// prose v2.0.0 sums feature weights by iterating Go maps and breaks ties by
// map order, so the same sentence can be tagged differently from one run to
// the next (measured: 7 of 47,919 arXiv abstracts changed terms between two
// runs). Term document frequencies are moved by re-analysing a paper's old
// text, which must give exactly what it gave before, so here the weights
// are summed in a fixed order and ties go to the first class in sorted
// order. The features are prose's, in prose's order; tokenisation stays
// prose's.
//
// The model's ~390,000 features are strings ("i-1 tag+i word NN reward"),
// and prose builds 14 of them per token and looks each up in one map: most
// of ingest's tagging time was that (allocating the strings, hashing them,
// and a cache miss per lookup). Here the weights are indexed by what
// varies: one entry per word holds every word-keyed feature of that word
// (as the current, previous, next word..., and with the previous tag), so
// a token costs a lookup for its word and one for its suffix; tag-only
// features are small tables. The sums are the same additions in the same
// order as over prose's feature strings (TestTaggerMatchesFeatureStrings).
type tagger struct {
	classes []string
	tagMap  map[string]string

	bias    []classWeight
	suffix  map[string][]classWeight    // "i suffix " + last 3 bytes of the token
	pref1   [256][]classWeight          // "i pref1 " + string(rune(first byte))
	tag1    map[string][]classWeight    // "i-1 tag " + p1
	tag2    map[string][]classWeight    // "i-2 tag " + p2
	tags12  map[[2]string][]classWeight // "i tag+i-2 tag " + p1 + " " + p2
	words   map[string]*wordWeights     // every feature naming a (normalised) word
	suffix1 map[string][]classWeight    // "i-1 suffix " + ...
	suffix3 map[string][]classWeight    // "i+1 suffix " + ...
}

// wordWeights are the weights of the features that name one normalised
// word.
type wordWeights struct {
	cur, prev, prev2, next, next2 []classWeight // "i word", "i-1 word", "i-2 word", "i+1 word", "i+2 word"
	prevSuffix, nextSuffix        []classWeight // "i-1 suffix", "i+1 suffix" of this word's last 3 bytes
	afterTag                      []tagWeights  // "i-1 tag+i word <tag> <word>"
}

type tagWeights struct {
	tag string
	w   []classWeight
}

type classWeight struct {
	class  int32
	weight float64
}

// loadWeights loads prose's model: its classes (sorted), tag dictionary
// and, per feature string, the non-zero class weights in class order.
func loadWeights() (classes []string, tags map[string]string, weights map[string][]classWeight, err error) {
	load := func(name string, v any) error {
		b, err := prose.Asset("model/AveragedPerceptron/" + name)
		if err != nil {
			return err
		}
		return gob.NewDecoder(bytes.NewReader(b)).Decode(v)
	}
	var wts map[string]map[string]float64
	for _, x := range []struct {
		name string
		v    any
	}{{"classes.gob", &classes}, {"tags.gob", &tags}, {"weights.gob", &wts}} {
		if err := load(x.name, x.v); err != nil {
			return nil, nil, nil, fmt.Errorf("load prose tagger model %s: %w", x.name, err)
		}
	}
	slices.Sort(classes)
	if len(classes) > 128 {
		return nil, nil, nil, fmt.Errorf("prose tagger model has %d classes; this tagger takes at most 128", len(classes))
	}
	index := make(map[string]int32, len(classes))
	for i, c := range classes {
		index[c] = int32(i)
	}
	weights = make(map[string][]classWeight, len(wts))
	for feat, ws := range wts {
		cw := make([]classWeight, 0, len(ws))
		for label, w := range ws {
			if i, ok := index[label]; ok && w != 0 {
				cw = append(cw, classWeight{i, w})
			}
		}
		slices.SortFunc(cw, func(a, b classWeight) int { return int(a.class - b.class) })
		weights[feat] = cw
	}
	return classes, tags, weights, nil
}

func loadTagger() (*tagger, error) {
	classes, tags, weights, err := loadWeights()
	if err != nil {
		return nil, err
	}
	t := &tagger{
		classes: classes, tagMap: tags,
		suffix: map[string][]classWeight{}, tag1: map[string][]classWeight{}, tag2: map[string][]classWeight{},
		tags12: map[[2]string][]classWeight{}, words: map[string]*wordWeights{},
		suffix1: map[string][]classWeight{}, suffix3: map[string][]classWeight{},
	}
	word := func(w string) *wordWeights {
		ww := t.words[w]
		if ww == nil {
			ww = &wordWeights{}
			t.words[w] = ww
		}
		return ww
	}
	pref1 := map[string][]classWeight{}
	for feat, cw := range weights {
		cut := func(prefix string) (string, bool) { return strings.CutPrefix(feat, prefix) }
		if feat == "bias" {
			t.bias = cw
		} else if v, ok := cut("i suffix "); ok {
			t.suffix[v] = cw
		} else if v, ok := cut("i pref1 "); ok {
			pref1[v] = cw
		} else if v, ok := cut("i-1 tag+i word "); ok {
			// the tag has no space; the word may
			if tag, w, ok := strings.Cut(v, " "); ok {
				ww := word(w)
				ww.afterTag = append(ww.afterTag, tagWeights{tag, cw})
			}
		} else if v, ok := cut("i tag+i-2 tag "); ok {
			if p1, p2, ok := strings.Cut(v, " "); ok {
				t.tags12[[2]string{p1, p2}] = cw
			}
		} else if v, ok := cut("i-1 tag "); ok {
			t.tag1[v] = cw
		} else if v, ok := cut("i-2 tag "); ok {
			t.tag2[v] = cw
		} else if v, ok := cut("i word "); ok {
			word(v).cur = cw
		} else if v, ok := cut("i-1 word "); ok {
			word(v).prev = cw
		} else if v, ok := cut("i-2 word "); ok {
			word(v).prev2 = cw
		} else if v, ok := cut("i+1 word "); ok {
			word(v).next = cw
		} else if v, ok := cut("i+2 word "); ok {
			word(v).next2 = cw
		} else if v, ok := cut("i-1 suffix "); ok {
			t.suffix1[v] = cw
		} else if v, ok := cut("i+1 suffix "); ok {
			t.suffix3[v] = cw
		}
	}
	for b := range 256 {
		t.pref1[b] = pref1[string(rune(b))]
	}
	// a word's suffix features, found once here instead of per token
	for w, ww := range t.words {
		ww.prevSuffix = t.suffix1[w[len(w)-min(len(w), 3):]]
		ww.nextSuffix = t.suffix3[w[len(w)-min(len(w), 3):]]
	}
	return t, nil
}

// context is the weights of a normalised word in the tagged text.
func (t *tagger) context(w string) *wordWeights {
	if ww, ok := t.words[w]; ok {
		return ww
	}
	sfx := w[len(w)-min(len(w), 3):]
	return &wordWeights{prevSuffix: t.suffix1[sfx], nextSuffix: t.suffix3[sfx]}
}

// knows reports whether the model has seen a (lower-case) word: a rough
// dictionary of newswire English, 16,800 words.
func (t *tagger) knows(w string) bool { return t.words[w] != nil }

// tag tags tokens in place: the token's text is read, its tag written.
func (t *tagger) tag(toks []token) {
	n := len(toks)
	ctx := make([]*wordWeights, n+4)
	ctx[0], ctx[1] = t.context("-START-"), t.context("-START2-")
	for i, tk := range toks {
		ctx[i+2] = t.context(normalizeWord(tk.text))
	}
	ctx[n+2], ctx[n+3] = t.context("-END-"), t.context("-END2-")
	var feats [14][]classWeight
	t.tagWith(toks, func(i int, w, p1, p2 string) [][]classWeight {
		return t.features(&feats, i, ctx, w, p1, p2)
	})
}

// tagWith tags tokens left to right: a dash, handles and URLs, and words
// of the model's dictionary directly; the others by the weights features
// returns for token i (its text w, the two tags before it p1, p2).
func (t *tagger) tagWith(toks []token, features func(i int, w, p1, p2 string) [][]classWeight) {
	scores := make([]float64, len(t.classes))
	p1, p2 := "-START-", "-START2-"
	for i := range toks {
		w := toks[i].text
		tag, found := "", false
		switch {
		case w == "-":
			tag, found = "-", true
		case strings.HasPrefix(w, "@") || strings.Contains(w, "://"):
			tag, found = "NN", true
		default:
			tag, found = t.tagMap[w]
		}
		if !found {
			tag = t.predict(scores, features(i, w, p1, p2))
		}
		toks[i].tag = tag
		p2, p1 = p1, tag
	}
}

// features are the weights of prose's featurize, in the same order.
func (t *tagger) features(f *[14][]classWeight, i int, ctx []*wordWeights, w, p1, p2 string) [][]classWeight {
	i = min(len(ctx)-2, i+2)
	f[0] = t.bias
	f[1] = t.suffix[w[len(w)-min(len(w), 3):]]
	f[2] = t.pref1[w[0]] // prose converts the first byte, not rune
	f[3] = t.tag1[p1]
	f[4] = t.tag2[p2]
	f[5] = t.tags12[[2]string{p1, p2}]
	f[6] = ctx[i].cur
	f[7] = nil
	for _, tw := range ctx[i].afterTag {
		if tw.tag == p1 {
			f[7] = tw.w
			break
		}
	}
	f[8] = ctx[i-1].prev
	f[9] = ctx[i-1].prevSuffix
	f[10] = ctx[i-2].prev2
	f[11] = ctx[i+1].next
	f[12] = ctx[i+1].nextSuffix
	f[13] = ctx[i+2].next2
	return f[:]
}

// predict returns the best-scoring class among those some active feature
// has a weight for (as prose: a class no feature mentions is not a
// candidate, even if every mentioned class scores below zero).
func (t *tagger) predict(scores []float64, feats [][]classWeight) string {
	clear(scores)
	var seen [2]uint64 // classes some feature mentions (prose's model has 45)
	for _, f := range feats {
		for _, cw := range f {
			seen[cw.class>>6] |= 1 << (cw.class & 63)
			scores[cw.class] += cw.weight // 0 + w is w: the same sums as from -Inf to 0 then +w
		}
	}
	best := -1
	for c := range scores {
		if seen[c>>6]&(1<<(c&63)) != 0 && (best < 0 || scores[c] > scores[best]) {
			best = c
		}
	}
	if best < 0 {
		return "NN" // no feature known at all
	}
	return t.classes[best]
}

func isInt(w string) bool { _, err := strconv.Atoi(w); return err == nil }

// normalizeWord is prose's normalize: hyphenated words, years and numbers
// become placeholders, the rest lower case.
func normalizeWord(w string) string {
	if w == "" {
		return w
	}
	if strings.Contains(w, "-") && w[0] != '-' {
		return "!HYPHEN"
	}
	// Atoi only where it can succeed: its errors were 490 MB of an
	// ingest's allocations
	if c := w[0]; len(w) == 4 && (c >= '0' && c <= '9' || c == '+' || c == '-') && isInt(w) {
		return "!YEAR"
	}
	if w[0] >= '0' && w[0] <= '9' {
		return "!DIGITS"
	}
	return strings.ToLower(w)
}
