package people_test

import (
	"bufio"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/people"
)

const arXivFile = "../../../shared/data/arxiv/arxiv-cs-2025-03_2026-02.jsonl.gz"

// arXivBlocks reads the arXiv file of ../shared into the evidence of each
// name (NameKey), as the graph gives it: the paper's other authors, its
// content words and subjects. Skips without the file.
func arXivBlocks(tb testing.TB) map[string][]people.Evidence {
	tb.Helper()
	f, err := os.Open(arXivFile)
	if err != nil {
		tb.Skipf("arXiv file not available (%v): it is in ../shared, beside the clone", err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	sc := bufio.NewScanner(z)
	sc.Buffer(nil, 1<<26)
	blocks := map[string][]people.Evidence{}
	for sc.Scan() {
		var r struct {
			ID, Title, Abstract, Categories string
			Authors                         [][]string `json:"authors_parsed"`
		}
		if json.Unmarshal(sc.Bytes(), &r) != nil || len(r.Authors) > 50 {
			continue
		}
		names := make([]string, 0, len(r.Authors))
		for _, a := range r.Authors {
			if len(a) >= 2 {
				names = append(names, strings.TrimSpace(a[1]+" "+a[0]))
			}
		}
		words := people.EvidenceWords(r.Title, []string{r.Abstract})
		for i, n := range names {
			var co []string
			for j, m := range names {
				if j != i {
					co = append(co, ident.FoldKey(m))
				}
			}
			slices.Sort(co)
			blocks[ident.NameKey(n)] = append(blocks[ident.NameKey(n)], people.Evidence{
				Paper: r.ID, Coauthors: slices.Compact(co), Subjects: strings.Fields(r.Categories), Words: words,
			})
		}
	}
	return blocks
}

// grow makes a block k times larger as testdata/bench/grow makes the
// corpus: each new use takes the words of one real use and the co-authors
// of another, each co-author kept with even odds, the others new people.
func grow(ev []people.Evidence, k int, seed uint64) []people.Evidence {
	r := rand.New(rand.NewPCG(seed, 2))
	out := slices.Clone(ev)
	for i := range len(ev) * (k - 1) {
		a, b := ev[r.IntN(len(ev))], ev[r.IntN(len(ev))]
		var co []string
		for _, c := range b.Coauthors {
			if r.IntN(2) == 0 {
				co = append(co, c)
			} else {
				co = append(co, fmt.Sprintf("new person %d %d", i, len(co)))
			}
		}
		slices.Sort(co)
		out = append(out, people.Evidence{Paper: fmt.Sprintf("grown-%07d", i), Coauthors: co, Subjects: a.Subjects, Words: a.Words})
	}
	slices.SortFunc(out, func(x, y people.Evidence) int { return cmp.Compare(x.Paper, y.Paper) })
	return out
}

// largest is the name with the most uses.
func largest(blocks map[string][]people.Evidence) string {
	best := ""
	for n, ev := range blocks {
		if len(ev) > len(blocks[best]) || len(ev) == len(blocks[best]) && n < best {
			best = n
		}
	}
	return best
}

// Clustering one name's papers as the name's block grows: the arXiv
// file's largest block, and the same grown 4 and 16 times (what a corpus
// of 200,000 and 800,000 papers gives the name).
//
//	go test -run '^$' -bench ClusterGrown -benchtime 3x ./graph/people
func BenchmarkClusterGrown(b *testing.B) {
	blocks := arXivBlocks(b)
	name := largest(blocks)
	pr := people.DefaultPriors()
	for _, k := range []int{1, 4, 16} {
		ev := grow(blocks[name], k, 1)
		b.Run(fmt.Sprintf("%s-%d-uses", strings.ReplaceAll(name, " ", "_"), len(ev)), func(b *testing.B) {
			for range b.N {
				people.ClusterPeople(name, ev, pr, nil, nil)
			}
		})
	}
}
