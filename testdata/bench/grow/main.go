// Command grow writes a larger corpus made from a real arXiv file (JSON
// lines, gzip or not), for kg's growth measurements: the real records
// first, then new ones recombined from them until there are --n:
//
//   - title: the first part of one real title and the last part of
//     another (cut at a word), so titles are new and read like titles;
//   - abstract: the first half of one real abstract's sentences, then the
//     second half of another's, so key terms and their frequencies are
//     real;
//   - authors: as many as a real record has (paper sizes follow the real
//     file); each is, with even odds, a real author of that record (so
//     real co-author groups recur, and the prolific grow in proportion:
//     at 1M papers the busiest people write hundreds) or a new person
//     named by a real first name and another real surname (most of whom
//     write one or two papers);
//   - subjects and date (update_date): the first record's; no arXiv id
//     (a made-up one could name a real paper), so it is known by its title.
//
// Usage:
//
//	go run ./testdata/bench/grow --n 250000 ../shared/data/arxiv/arxiv-cs-2025-03_2026-02.jsonl.gz > grown.jsonl
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
)

type record map[string]any

func main() {
	n := flag.Int("n", 250000, "records to write in all")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: grow [--n N] [--seed S] ARXIV.jsonl[.gz] > OUT.jsonl")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *n, *seed, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "grow:", err)
		os.Exit(1)
	}
}

func run(path string, n int, seed uint64, out io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var in io.Reader = bufio.NewReaderSize(f, 1<<20)
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(in)
		if err != nil {
			return err
		}
		in = gz
	}
	w := bufio.NewWriterSize(out, 1<<20)
	defer w.Flush()
	var real []record
	var firsts, lasts []string
	dec := json.NewDecoder(in)
	for {
		var r record
		if err := dec.Decode(&r); err == io.EOF {
			break
		} else if err != nil {
			return fmt.Errorf("%s record %d: %w", path, len(real)+1, err)
		}
		real = append(real, r)
		for _, a := range authorsOf(r) {
			if i := strings.LastIndexByte(a, ' '); i > 0 {
				firsts, lasts = append(firsts, a[:i]), append(lasts, a[i+1:])
			}
		}
	}
	if len(real) == 0 || len(firsts) == 0 {
		return fmt.Errorf("%s: no records with authors", path)
	}
	enc := json.NewEncoder(w)
	for i := 0; i < min(n, len(real)); i++ {
		if err := enc.Encode(real[i]); err != nil {
			return err
		}
	}
	rng := rand.New(rand.NewPCG(seed, 22))
	for i := len(real); i < n; i++ {
		a, b := real[rng.IntN(len(real))], real[rng.IntN(len(real))]
		g := record{}
		for k, v := range a {
			g[k] = v
		}
		// no arXiv id: a made-up one could name a real paper (ids have at
		// most five digits a month); the paper is known by its title and
		// dated by update_date
		delete(g, "id")
		delete(g, "versions")
		g["title"] = splice(words(a["title"]), words(b["title"]), rng, " ")
		g["abstract"] = splice(sentences(a["abstract"]), sentences(b["abstract"]), rng, " ")
		var authors []string
		for _, x := range authorsOf(a) {
			if rng.IntN(2) == 0 {
				authors = append(authors, x)
			} else {
				authors = append(authors, firsts[rng.IntN(len(firsts))]+" "+lasts[rng.IntN(len(lasts))])
			}
		}
		g["authors"] = strings.Join(authors, ", ")
		delete(g, "authors_parsed")
		delete(g, "doi")
		delete(g, "journal-ref")
		if err := enc.Encode(g); err != nil {
			return err
		}
	}
	return nil
}

func authorsOf(r record) []string {
	s, _ := r["authors"].(string)
	s = strings.ReplaceAll(s, " and ", ", ")
	var out []string
	for _, a := range strings.Split(s, ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

func words(v any) []string {
	s, _ := v.(string)
	return strings.Fields(s)
}

func sentences(v any) []string {
	s, _ := v.(string)
	var out []string
	for _, p := range strings.SplitAfter(s, ". ") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// splice joins the first part of a (about half, at least one item) with
// the last part of b.
func splice(a, b []string, rng *rand.Rand, sep string) string {
	if len(a) == 0 {
		return strings.Join(b, sep)
	}
	if len(b) == 0 {
		return strings.Join(a, sep)
	}
	i := max(1, len(a)/2+rng.IntN(2))
	j := min(len(b)-1, len(b)/2+rng.IntN(2))
	if len(b) == 1 {
		j = 1
	}
	return strings.Join(append(append([]string{}, a[:min(i, len(a))]...), b[j:]...), sep)
}
