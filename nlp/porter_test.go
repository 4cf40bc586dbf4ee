package nlp_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/researchkg/kg/nlp"
)

// The pairs are every (word, stem) that the KDD, WWW and SemEval-2010 gold
// files give by aligning keys with keys_stem (NLTK PorterStemmer, default
// mode): 3,994 words. NLTK 3.8 reproduces all of them.
func TestStemMatchesBenchmarkStems(t *testing.T) {
	f, err := os.Open("../testdata/keyphrase/porter_pairs.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, bad := 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		word, want, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			t.Fatalf("bad line %q", sc.Text())
		}
		n++
		if got := nlp.Stem(word); got != want {
			bad++
			if bad <= 20 {
				t.Errorf("Stem(%q) = %q, want %q", word, got, want)
			}
		}
	}
	if n < 3900 {
		t.Fatalf("read %d pairs, want ~3994", n)
	}
	if bad > 0 {
		t.Errorf("%d of %d stems differ", bad, n)
	}
}

func TestStemKnownCases(t *testing.T) {
	for w, want := range map[string]string{
		"caresses": "caress", "ponies": "poni", "ties": "tie", "cats": "cat", "feed": "feed",
		"agreed": "agre", "plastered": "plaster", "motoring": "motor", "sing": "sing", "conflated": "conflat",
		"hopping": "hop", "falling": "fall", "filing": "file", "happy": "happi", "enjoy": "enjoy",
		"relational": "relat", "dying": "die", "skies": "sky", "generalization": "gener", "controlling": "control",
		"decay": "decay", "models": "model", "learning": "learn", "reinforcement": "reinforc", "a": "a", "is": "is",
	} {
		if got := nlp.Stem(w); got != want {
			t.Errorf("Stem(%q) = %q, want %q", w, got, want)
		}
	}
	if got := nlp.StemPhrase("Reinforcement  Learning Models"); got != "reinforc learn model" {
		t.Errorf("StemPhrase: %q", got)
	}
}

func FuzzStem(f *testing.F) {
	f.Add("generalizations")
	f.Add("y")
	f.Add("ïed")
	f.Fuzz(func(t *testing.T, w string) {
		s := nlp.Stem(w)
		// lower-casing may lengthen a rune by a byte (İ → i̇), nothing else grows
		if len(s) > len(w)*3/2+2 {
			t.Fatalf("Stem(%q) = %q grew", w, s)
		}
	})
}

func FuzzReadGold(f *testing.F) {
	f.Add([]byte(`{"id": "1", "text": "a b", "keys": ["a b"], "keys_stem": ["a b"]}` + "\n"))
	f.Add([]byte(`{"id": 2, "text": "x", "keys": ["Models"]}`))
	f.Add([]byte("{\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := nlp.ReadGold("fuzz", strings.NewReader(string(data)))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz:") {
				t.Fatalf("error without file name: %v", err)
			}
			return
		}
		s := nlp.Evaluate(docs, nil)
		if s.F5 != 0 || s.F10 != 0 {
			t.Fatalf("no predictions scored %+v", s)
		}
	})
}
