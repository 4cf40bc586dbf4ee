package nlp

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"math"
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
type tagger struct {
	classes []string
	tagMap  map[string]string
	weights map[string][]classWeight
}

type classWeight struct {
	class  int32
	weight float64
}

func loadTagger() (*tagger, error) {
	load := func(name string, v any) error {
		b, err := prose.Asset("model/AveragedPerceptron/" + name)
		if err != nil {
			return err
		}
		return gob.NewDecoder(bytes.NewReader(b)).Decode(v)
	}
	var classes []string
	var tags map[string]string
	var wts map[string]map[string]float64
	for _, x := range []struct {
		name string
		v    any
	}{{"classes.gob", &classes}, {"tags.gob", &tags}, {"weights.gob", &wts}} {
		if err := load(x.name, x.v); err != nil {
			return nil, fmt.Errorf("load prose tagger model %s: %w", x.name, err)
		}
	}
	slices.Sort(classes)
	index := make(map[string]int32, len(classes))
	for i, c := range classes {
		index[c] = int32(i)
	}
	t := &tagger{classes: classes, tagMap: tags, weights: make(map[string][]classWeight, len(wts))}
	for feat, ws := range wts {
		cw := make([]classWeight, 0, len(ws))
		for label, w := range ws {
			if i, ok := index[label]; ok && w != 0 {
				cw = append(cw, classWeight{i, w})
			}
		}
		slices.SortFunc(cw, func(a, b classWeight) int { return int(a.class - b.class) })
		t.weights[feat] = cw
	}
	return t, nil
}

// tag tags tokens in place: the token's text is read, its tag written.
func (t *tagger) tag(toks []token) {
	n := len(toks)
	ctx := make([]string, n+4)
	ctx[0], ctx[1] = "-START-", "-START2-"
	for i, tk := range toks {
		ctx[i+2] = normalizeWord(tk.text)
	}
	ctx[n+2], ctx[n+3] = "-END-", "-END2-"
	scores := make([]float64, len(t.classes))
	var feats [14]string
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
			tag = t.predict(scores, t.features(&feats, i, ctx, w, p1, p2))
		}
		toks[i].tag = tag
		p2, p1 = p1, tag
	}
}

// features are prose's featurize, in the same order and spelling.
func (t *tagger) features(f *[14]string, i int, ctx []string, w, p1, p2 string) []string {
	suf := min(len(w), 3)
	i = min(len(ctx)-2, i+2)
	iminus := min(len(ctx[i-1]), 3)
	iplus := min(len(ctx[i+1]), 3)
	f[0] = "bias"
	f[1] = "i suffix " + w[len(w)-suf:]
	f[2] = "i pref1 " + string(rune(w[0])) // prose converts the first byte, not rune
	f[3] = "i-1 tag " + p1
	f[4] = "i-2 tag " + p2
	f[5] = "i tag+i-2 tag " + p1 + " " + p2
	f[6] = "i word " + ctx[i]
	f[7] = "i-1 tag+i word " + p1 + " " + ctx[i]
	f[8] = "i-1 word " + ctx[i-1]
	f[9] = "i-1 suffix " + ctx[i-1][len(ctx[i-1])-iminus:]
	f[10] = "i-2 word " + ctx[i-2]
	f[11] = "i+1 word " + ctx[i+1]
	f[12] = "i+1 suffix " + ctx[i+1][len(ctx[i+1])-iplus:]
	f[13] = "i+2 word " + ctx[i+2]
	return f[:]
}

// predict returns the best-scoring class among those some active feature
// has a weight for (as prose: a class no feature mentions is not a
// candidate, even if every mentioned class scores below zero).
func (t *tagger) predict(scores []float64, feats []string) string {
	for i := range scores {
		scores[i] = math.Inf(-1)
	}
	for _, f := range feats {
		for _, cw := range t.weights[f] {
			if math.IsInf(scores[cw.class], -1) {
				scores[cw.class] = 0
			}
			scores[cw.class] += cw.weight
		}
	}
	best := -1
	for c := range scores {
		if !math.IsInf(scores[c], -1) && (best < 0 || scores[c] > scores[best]) {
			best = c
		}
	}
	if best < 0 {
		return "NN" // no feature known at all
	}
	return t.classes[best]
}

// normalizeWord is prose's normalize: hyphenated words, years and numbers
// become placeholders, the rest lower case.
func normalizeWord(w string) string {
	if w == "" {
		return w
	}
	if strings.Contains(w, "-") && w[0] != '-' {
		return "!HYPHEN"
	}
	if _, err := strconv.Atoi(w); err == nil && len(w) == 4 {
		return "!YEAR"
	}
	if w[0] >= '0' && w[0] <= '9' {
		return "!DIGITS"
	}
	return strings.ToLower(w)
}
