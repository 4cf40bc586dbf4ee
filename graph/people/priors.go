package people

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/researchkg/kg/graph/ident"
)

// PriorTable holds the corpus facts author clustering weighs evidence
// with: how many distinct full names carry each given name and each last
// name (so how common a name is), and in how many papers each content word
// appears. It is counted once from a corpus (kg ships one counted from the
// 47,919-paper arXiv file, priors.tsv.gz) and is then fixed, as S2AND ships
// its name counts: a block's people must not change because unrelated
// papers were ingested, nor with the order they came in.
type PriorTable struct {
	Names int              // distinct full names counted
	Docs  int              // papers counted
	First map[string]int32 // folded given names → distinct full names carrying them
	Last  map[string]int32 // folded last name → distinct full names carrying it
	DF    map[string]int32 // content word → papers using it
}

// People is the expected number of people who carry a full name: one, plus
// those expected by chance when given and last names combine freely (a
// name's given name carried by F names, its last name by L, out of N names:
// F·L/N). "Yang Liu" is several people; "Nassir Navab" one.
func (t *PriorTable) People(nameKey string) float64 {
	first, last := nameParts(nameKey)
	if t == nil || t.Names == 0 || last == "" {
		return 1
	}
	f, l := max(t.First[first], 1), max(t.Last[last], 1)
	return 1 + float64(f)*float64(l)/float64(t.Names)
}

// Distinctive reports whether a name's last name is carried by at most 3
// full names and its given name by at most 5: almost always one person.
func (t *PriorTable) Distinctive(nameKey string) bool {
	first, last := nameParts(nameKey)
	return t.Last[last] <= 3 && t.First[first] <= 5
}

// IDF is the inverse document frequency of a content word (a word never
// counted is as rare as can be).
func (t *PriorTable) IDF(word string) float64 {
	if t == nil || t.Docs == 0 {
		return 1
	}
	return math.Log(1 + float64(t.Docs)/float64(t.DF[word]+1))
}

// nameParts folds a name and splits it into given names and last name.
func nameParts(name string) (first, last string) {
	f := strings.Fields(ident.FoldKey(name))
	if len(f) == 0 {
		return "", ""
	}
	return strings.Join(f[:len(f)-1], " "), f[len(f)-1]
}

// WriteTo writes the table as gzipped lines: a header "kg-priors-1 NAMES
// DOCS", then "f\tNAME\tN", "l\tNAME\tN" and "w\tWORD\tN", sorted.
func (t *PriorTable) WriteTo(w io.Writer) (int64, error) {
	zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
	bw := bufio.NewWriter(zw)
	fmt.Fprintf(bw, "kg-priors-1 %d %d\n", t.Names, t.Docs)
	for _, part := range []struct {
		tag string
		m   map[string]int32
	}{{"f", t.First}, {"l", t.Last}, {"w", t.DF}} {
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range part.m {
				if !yield(k) {
					return
				}
			}
		}) {
			fmt.Fprintf(bw, "%s\t%s\t%d\n", part.tag, k, part.m[k])
		}
	}
	if err := bw.Flush(); err != nil {
		return 0, err
	}
	return 0, zw.Close()
}

// ReadPriors reads a table written by WriteTo; errors name the line.
func ReadPriors(r io.Reader) (*PriorTable, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("priors: %w", err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	t := &PriorTable{First: map[string]int32{}, Last: map[string]int32{}, DF: map[string]int32{}}
	line := 0
	for sc.Scan() {
		line++
		s := sc.Text()
		if line == 1 {
			if _, err := fmt.Sscanf(s, "kg-priors-1 %d %d", &t.Names, &t.Docs); err != nil {
				return nil, fmt.Errorf("priors:1: header %q: want \"kg-priors-1 NAMES DOCS\"", ident.Clip(s, 40))
			}
			continue
		}
		tag, rest, ok1 := strings.Cut(s, "\t")
		key, num, ok2 := strings.Cut(rest, "\t")
		n, err := strconv.ParseInt(num, 10, 32)
		if !ok1 || !ok2 || err != nil || n < 0 {
			return nil, fmt.Errorf("priors:%d: want TAG<tab>KEY<tab>COUNT, got %q", line, ident.Clip(s, 60))
		}
		switch tag {
		case "f":
			t.First[key] = int32(n)
		case "l":
			t.Last[key] = int32(n)
		case "w":
			t.DF[key] = int32(n)
		default:
			return nil, fmt.Errorf("priors:%d: unknown tag %q", line, ident.Clip(tag, 10))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("priors:%d: %w", line, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("priors: empty")
	}
	return t, nil
}

//go:embed priors.tsv.gz
var priorsFile []byte

var defaultPriors = sync.OnceValue(func() *PriorTable {
	t, err := ReadPriors(bytes.NewReader(priorsFile))
	if err != nil {
		panic("graph: the shipped priors.tsv.gz is damaged: " + err.Error())
	}
	return t
})

// DefaultPriors is the table kg ships, counted from the 47,919-paper arXiv
// file (go test ./graph -run PriorTable -update rebuilds it).
func DefaultPriors() *PriorTable { return defaultPriors() }
