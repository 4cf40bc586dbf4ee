package nlp_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/nlp"
)

// mayMiss reports the names and acronyms ScanMentions finds in a text that
// its print rules out (a print must never rule out a text that says one).
func mayMiss(e *nlp.Extractor, title, text string, names, acronyms []string) (missed []string, found int) {
	byKey := map[string][]string{}
	keys := map[string]bool{}
	for _, n := range names {
		k := ident.ConceptKey(n)
		byKey[k] = append(byKey[k], n)
		keys[k] = true
	}
	acr := map[string]bool{}
	for _, a := range acronyms {
		acr[a] = true
	}
	var foundKeys, foundAcr []string
	print := e.ScanMentionsPrint(title, text, keys, acr, func(key string, acronym bool, _ int) {
		if acronym {
			foundAcr = append(foundAcr, key)
		} else {
			foundKeys = append(foundKeys, key)
		}
	})
	for _, k := range foundKeys {
		if !e.ScanFilter(byKey[k], nil)(print) {
			missed = append(missed, strings.Join(byKey[k], "|"))
		}
	}
	for _, a := range foundAcr {
		if !e.ScanFilter(nil, []string{a})(print) {
			missed = append(missed, "acronym "+a)
		}
	}
	return missed, len(foundKeys) + len(foundAcr)
}

func TestScanPrintNeverRulesOutAMention(t *testing.T) {
	for _, c := range []struct {
		text  string
		names []string
		acr   []string
	}{
		{"We release a new data set of images.", []string{"dataset"}, nil},
		{"A new dataset collection of images.", []string{"data set collection"}, nil},
		{"Data sets and data-sets.", []string{"dataset"}, nil},
		{"More chains of thought help.", []string{"chain of thought"}, nil},
		{"Generating chain-of-thoughts.", []string{"chain-of-thought"}, nil},
		{"Policy optimisation of agents.", []string{"policy optimization"}, nil},
		{"Sampling strategies for agents.", []string{"sampling strategy"}, nil},
		{"We leverage in-context learning and domain adaptation.", []string{"in-context learning", "domain adaptation"}, nil},
		{"Mixture-of-Experts (MoE) routing with MoEs.", []string{"mixture of experts"}, nil}, // defined: its long form
		{"We train LLMs and an LLM-as-a-Judge.", nil, []string{"LLM"}},
		{"Reinforcement learning (RL) trains agents; RL is costly.", []string{"reinforcement learning"}, nil},
		{"We fine-tune with RL and PPO.", nil, []string{"RL", "PPO"}},
		{"Results on the CIFAR10 dataset and Sentinel2 images.", []string{"CIFAR-10 dataset", "sentinel-2 image"}, nil},
		{"We release the Causal Reasoning Benchmark.", []string{"CausalReasoningBenchmark"}, nil},
		{"Vision-language models and vision language modelling.", []string{"vision-language model", "vision language modeling"}, nil},
	} {
		missed, found := mayMiss(ex, "", c.text, c.names, c.acr)
		if len(missed) > 0 {
			t.Errorf("%q: print rules out %v", c.text, missed)
		}
		if found != len(c.names)+len(c.acr) {
			t.Errorf("%q: %d of %v %v found", c.text, found, c.names, c.acr)
		}
	}
	// and it does rule out texts that say none of them
	p := ex.ScanMentionsPrint("Graph neural networks", "We study message passing on graphs.", nil, nil, nil)
	for _, name := range []string{"reinforcement learning", "reward model", "data set", "large language model"} {
		if ex.ScanFilter([]string{name}, nil)(p) {
			t.Errorf("print of a text about graphs may say %q", name)
		}
	}
	if ex.ScanFilter([]string{"CIFAR-10 dataset"}, nil)(p) {
		t.Error("print of a text about graphs may say CIFAR-10 dataset")
	}
	if ex.ScanFilter(nil, []string{"RL"})(p) {
		t.Error("print of a text without acronyms may say RL")
	}
	if !ex.ScanFilter([]string{"message passing"}, nil)(p) || !ex.ScanFilter([]string{"graph neural network"}, nil)(p) {
		t.Error("print rules out what the text says")
	}
	// damaged or foreign prints are read, not trusted
	for _, bad := range [][]byte{nil, {}, {1}, []byte("garbage print"), append([]byte{9}, p[1:]...)} {
		if !ex.ScanFilter([]string{"reward model"}, nil)(bad) {
			t.Errorf("print %q trusted", bad)
		}
	}
}

// On real abstracts: the names are the candidates of other papers, and the
// acronyms every acronym they write.
func TestScanPrintOnArXiv(t *testing.T) {
	sc, err := nlp.ArXivLines(t)
	if err != nil {
		t.Skipf("arXiv file not available (%v): it is in ../shared, beside the clone", err)
	}
	type doc struct{ Title, Abstract string }
	var docs []doc
	n := 600
	if testing.Short() {
		n = 150
	}
	for len(docs) < n && sc.Scan() {
		var d doc
		if json.Unmarshal(sc.Bytes(), &d) == nil {
			docs = append(docs, d)
		}
	}
	seen := map[string]bool{}
	var names, acronyms []string
	for _, d := range docs[:n/3] {
		for _, tm := range ex.Candidates(d.Title, d.Abstract).Rank(nil, 15) {
			if !seen[tm.Name] {
				seen[tm.Name] = true
				names = append(names, tm.Name)
			}
		}
		for _, w := range strings.Fields(d.Abstract) {
			w = strings.Trim(w, ".,;:()[]")
			if ident.IsAcronym(w) && !seen[w] {
				seen[w] = true
				acronyms = append(acronyms, ident.SingularAcronym(w))
			}
		}
	}
	var multi []string // about what a settle after 1,000 new papers looks for
	for _, n := range names {
		if strings.Contains(n, " ") && len(multi) < 100 {
			multi = append(multi, n)
		}
	}
	few := ex.ScanFilter(multi, nil)
	passed := 0
	for _, d := range docs {
		if missed, _ := mayMiss(ex, d.Title, d.Abstract, names, acronyms); len(missed) > 0 {
			t.Errorf("%q: print rules out %v", d.Title, missed)
		}
		if few(ex.ScanMentionsPrint(d.Title, d.Abstract, nil, nil, nil)) {
			passed++
		}
	}
	t.Logf("%d names and %d acronyms from %d papers; a filter of 100 names of several words passes %d of %d texts", len(names), len(acronyms), n/3, passed, len(docs))
}

func FuzzScanPrint(f *testing.F) {
	f.Add("Title", "reinforcement learning (RL) and data sets", "data set", "RL", []byte{1, 11, 0, 0, 0, 0, 255})
	f.Add("", "((( - -- -x- é’s", "x", "", []byte(nil))
	f.Fuzz(func(t *testing.T, title, text, name, acronym string, garbage []byte) {
		var acr []string
		if acronym != "" {
			acr = []string{acronym}
		}
		if missed, _ := mayMiss(ex, title, text, []string{name}, acr); len(missed) > 0 {
			t.Fatalf("print of %q %q rules out %v", title, text, missed)
		}
		ex.ScanFilter([]string{name}, acr)(garbage) // garbage is read, never a panic
	})
}

// The costs a rescan pays a paper: scanning its text (the way without
// prints), scanning and printing it (a paper's first scan), and testing
// its print against 180 names (what a settle after 1,000 new records
// looks for), on the sample's abstracts.
//
//	go test -run '^$' -bench ScanPrint -benchmem ./nlp
func BenchmarkScanPrint(b *testing.B) {
	docs := slices.DeleteFunc(fixtureAbstracts(b, "../testdata/arxiv/sample.jsonl"), func(d abstract) bool {
		return len(d.Abstract) <= 200 // the sample holds broken records too
	})
	var names []string
	for _, d := range docs {
		for _, tm := range ex.Candidates(d.Title, d.Abstract).Rank(nil, 30) {
			names = append(names, tm.Name+" benchmark") // names the texts mostly do not say
		}
	}
	names = names[:min(180, len(names))]
	keys := map[string]bool{}
	for _, n := range names {
		keys[ident.ConceptKey(n)] = true
	}
	prints := make([][]byte, len(docs))
	for i, d := range docs {
		prints[i] = ex.ScanMentionsPrint(d.Title, d.Abstract, nil, nil, nil)
	}
	nop := func(string, bool, int) {}
	b.Run("scan", func(b *testing.B) {
		for i := range b.N {
			d := docs[i%len(docs)]
			ex.ScanMentions(d.Title, d.Abstract, keys, nil, nop)
		}
	})
	b.Run("scan+print", func(b *testing.B) {
		for i := range b.N {
			d := docs[i%len(docs)]
			ex.ScanMentionsPrint(d.Title, d.Abstract, keys, nil, nop)
		}
	})
	filter := ex.ScanFilter(names, nil)
	b.Run("test-180-names", func(b *testing.B) {
		for i := range b.N {
			filter(prints[i%len(prints)])
		}
	})
}

// A filter of many names passes a print exactly when a filter of one of
// them does: the names sharing a front are tested together, none of them
// skipped. The names are the sample's candidates, said by their texts,
// and the same with a word more, mostly unsaid; many share fronts. The
// texts: the arXiv sample and the people fixture of package graph.
func TestScanFilterOfManyIsAnyOfOne(t *testing.T) {
	docs := fixtureAbstracts(t, "../testdata/arxiv/sample.jsonl", "../graph/testdata/arxiv-people.jsonl")
	var names []string
	for i, d := range docs {
		for _, tm := range ex.Candidates(d.Title, d.Abstract).Rank(nil, 8) {
			if i%2 == 0 {
				names = append(names, tm.Name)
			} else {
				names = append(names, tm.Name+" benchmark")
			}
		}
	}
	fronts := map[string]bool{}
	single := make([]func([]byte) bool, len(names))
	for i, n := range names {
		k := ident.ConceptKey(n)
		fronts[k[:min(3, len(k))]] = true
		single[i] = ex.ScanFilter([]string{n}, nil)
	}
	if len(fronts) >= len(names) {
		t.Fatalf("%d names with %d fronts: none shared", len(names), len(fronts))
	}
	// all the names, then each half, so that a print passes some filters
	// and fails others
	half := len(names) / 2
	for _, span := range [][2]int{{0, len(names)}, {0, half}, {half, len(names)}} {
		many := ex.ScanFilter(names[span[0]:span[1]], nil)
		passed := 0
		for _, d := range docs {
			p := ex.ScanMentionsPrint(d.Title, d.Abstract, nil, nil, nil)
			want := slices.ContainsFunc(single[span[0]:span[1]], func(f func([]byte) bool) bool { return f(p) })
			if got := many(p); got != want {
				t.Errorf("%q: a filter of names %d-%d says %v, its names one by one %v", d.Title, span[0], span[1], got, want)
			}
			if want {
				passed++
			}
		}
		if span[1]-span[0] < len(names) && (passed == 0 || passed == len(docs)) {
			t.Errorf("a filter of names %d-%d passes %d of %d texts: the test tells nothing", span[0], span[1], passed, len(docs))
		}
		t.Logf("names %d-%d of %d (%d fronts): %d of %d texts pass", span[0], span[1], len(names), len(fronts), passed, len(docs))
	}
}

// abstract is a title and an abstract of a JSON line.
type abstract struct{ Title, Abstract string }

// fixtureAbstracts reads the records with an abstract from JSON-lines
// files of the repository.
func fixtureAbstracts(tb testing.TB, files ...string) []abstract {
	tb.Helper()
	var docs []abstract
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
			var d abstract
			if json.Unmarshal([]byte(line), &d) == nil && d.Abstract != "" {
				docs = append(docs, d)
			}
		}
	}
	return docs
}
