// Command export writes a kg store's authorship as tab-separated rows for
// PostgreSQL (the co-author benchmark's peer, run.sh): authors.tsv (id,
// name), authorship.tsv (author id, paper id), and ids.txt, a random
// sample of author ids (seeded, so every run asks the same people).
//
//	go run ./testdata/bench/coauthors --data DIR --out DIR [--sample N]
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/rs/zerolog"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/store"
)

func main() {
	data := flag.String("data", "./kg-data", "kg data folder (opened read-only)")
	out := flag.String("out", ".", "folder for authors.tsv, authorship.tsv, ids.txt")
	sample := flag.Int("sample", 2000, "author ids to sample")
	flag.Parse()
	if err := run(*data, *out, *sample); err != nil {
		fmt.Fprintln(os.Stderr, "export:", err)
		os.Exit(1)
	}
}

func run(data, out string, sample int) error {
	db, err := store.Open(store.DefaultOptions(data).WithReadOnly(true).WithLogger(zerolog.Nop()))
	if err != nil {
		return err
	}
	defer db.Close()
	r, err := db.Read(context.Background())
	if err != nil {
		return err
	}
	defer r.Close()
	create := func(name string) (*os.File, *bufio.Writer, error) {
		f, err := os.Create(filepath.Join(out, name))
		return f, bufio.NewWriter(f), err
	}
	af, aw, err := create("authors.tsv")
	if err != nil {
		return err
	}
	defer af.Close()
	pf, pw, err := create("authorship.tsv")
	if err != nil {
		return err
	}
	defer pf.Close()
	var ids []graph.NodeID
	var ierr error
	if err := r.NodeIDs(graph.KindAuthor, 0, func(id graph.NodeID) bool {
		n, err := r.Node(id)
		if err != nil {
			ierr = err
			return false
		}
		ids = append(ids, id)
		fmt.Fprintf(aw, "%d\t%s\n", id.Seq(), strings.NewReplacer("\t", " ", "\\", "\\\\", "\n", " ").Replace(n.Label))
		ierr = r.Edges(id, graph.Authored, graph.Out, func(p graph.NodeID, _ float64) bool {
			fmt.Fprintf(pw, "%d\t%d\n", id.Seq(), p.Seq())
			return true
		})
		return ierr == nil
	}); err != nil {
		return err
	}
	if ierr != nil {
		return ierr
	}
	if err := aw.Flush(); err != nil {
		return err
	}
	if err := pw.Flush(); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(12, 2026))
	var b strings.Builder
	for range sample {
		fmt.Fprintf(&b, "%d\n", ids[rng.IntN(len(ids))].Seq())
	}
	return os.WriteFile(filepath.Join(out, "ids.txt"), []byte(b.String()), 0o644)
}
