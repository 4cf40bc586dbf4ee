// Scoring of keyphrase benchmarks (gold keys, F1@k as the published
// scores count it): used only by the benchmark tests.

package nlp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// GoldDoc is one document of a keyphrase benchmark: its text and its gold
// keys, stemmed.
type GoldDoc struct {
	ID    string
	Title string // "" when the set gives title and text as one
	Text  string
	Keys  []string // stemmed gold keys, distinct
}

// ReadGold reads a benchmark in JSON lines: {"id", "text", "keys",
// "keys_stem"}, or {"id", "title", "abstract", "keys"} (Inspec). Gold keys
// are keys_stem when present, else keys stemmed with Stem; every key
// counts, present in the text or not.
func ReadGold(name string, r io.Reader) ([]GoldDoc, error) {
	var docs []GoldDoc
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var rec struct {
			ID       json.RawMessage `json:"id"`
			Title    string          `json:"title"`
			Abstract string          `json:"abstract"`
			Text     string          `json:"text"`
			Keys     []string        `json:"keys"`
			KeysStem []string        `json:"keys_stem"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		keys := rec.KeysStem
		if len(keys) == 0 {
			for _, k := range rec.Keys {
				keys = append(keys, StemPhrase(k))
			}
		}
		var gold []string
		for _, k := range keys {
			k = strings.Join(strings.Fields(strings.ToLower(k)), " ")
			if k != "" && !slices.Contains(gold, k) {
				gold = append(gold, k)
			}
		}
		d := GoldDoc{ID: strings.Trim(string(rec.ID), `"`), Text: rec.Text, Keys: gold}
		if rec.Title != "" && rec.Abstract != "" {
			d.Title, d.Text = rec.Title, rec.Abstract
		}
		docs = append(docs, d)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return docs, nil
}

// Scores are macro-averaged precision, recall and F1 at 5 and 10, in
// percent.
type Scores struct {
	Docs                      int
	P5, R5, F5, P10, R10, F10 float64
}

// Evaluate scores ranked predictions against gold keys, as the JCDL 2020
// protocol does: predictions are stemmed (StemPhrase) and de-duplicated in
// rank order; a prediction is correct when its stem equals a gold key's;
// precision at k divides by the number of predictions kept (at most k),
// recall by the number of gold keys; P, R and F are computed per document
// and averaged. A document without gold keys is skipped.
func Evaluate(docs []GoldDoc, predictions [][]string) Scores {
	var s Scores
	for i, d := range docs {
		if len(d.Keys) == 0 {
			continue
		}
		var pred []string
		if i < len(predictions) {
			for _, p := range predictions[i] {
				st := StemPhrase(p)
				if st != "" && !slices.Contains(pred, st) {
					pred = append(pred, st)
				}
			}
		}
		s.Docs++
		for _, k := range []int{5, 10} {
			top := pred[:min(k, len(pred))]
			hit := 0
			for _, p := range top {
				if slices.Contains(d.Keys, p) {
					hit++
				}
			}
			var p, r, f float64
			if len(top) > 0 {
				p = float64(hit) / float64(len(top))
			}
			r = float64(hit) / float64(len(d.Keys))
			if p+r > 0 {
				f = 2 * p * r / (p + r)
			}
			if k == 5 {
				s.P5, s.R5, s.F5 = s.P5+p, s.R5+r, s.F5+f
			} else {
				s.P10, s.R10, s.F10 = s.P10+p, s.R10+r, s.F10+f
			}
		}
	}
	if s.Docs > 0 {
		n := float64(s.Docs) / 100
		s.P5, s.R5, s.F5 = s.P5/n, s.R5/n, s.F5/n
		s.P10, s.R10, s.F10 = s.P10/n, s.R10/n, s.F10/n
	}
	return s
}
