package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/researchkg/kg/graph"
)

func cmdAuthors(ctx context.Context, args []string, std stdio) (err error) {
	var c commonFlags
	fs := newFlagSet("authors", `kg authors [--data DIR] NAME
kg authors [--data DIR] --corrections
kg authors [--data DIR] --recluster

People who share a name. The papers of a name are clustered into people by
their co-authors (a co-author in common is one person), then by their
words, subjects and, where sources give them, ORCID iDs and affiliations
(see the package doc of graph). Ingest does it for the names it touches.

With NAME, lists every person who carries it: id, papers, and what tells
them apart. --corrections lists the manual corrections (the splitAuthor
and mergeAuthors mutations), which every later clustering keeps.
--recluster clusters every name again: after upgrading kg, and to bring a
store from before people were told apart (ingest says so). Stop kg serve
first for --recluster (one process per data folder).`, std.err, &c)
	recluster := fs.Bool("recluster", false, "cluster the people of every name again")
	corrections := fs.Bool("corrections", false, "list the manual corrections")
	c.profileFlag(fs, "write a CPU profile of the run to this file")
	log, err := parseFlags(fs, args, &c, std.err)
	if err != nil {
		return err
	}
	defer c.stopProfile()
	name := strings.Join(fs.Args(), " ")
	if (name != "") == (*recluster || *corrections) || *recluster && *corrections {
		return usageExit(fs)
	}
	if *recluster {
		// it reads every name's papers, as an ingest's settle does: under a
		// container's memory limit the heap gets the ingest's share of it
		setMemLimit(0, false, ingestHeapShare, log)
	}
	db, err := openStore(c.data, !*recluster, false, log)
	if err != nil {
		return err
	}
	defer closeStore(db, &err)
	svc := graph.NewService(db, nil)
	switch {
	case *recluster:
		start := time.Now()
		log.Info().Msg("clustering the people of every name")
		if err := svc.Recluster(ctx); err != nil {
			return err
		}
		st, err := svc.Stats(ctx)
		if err != nil {
			return err
		}
		took := time.Since(start).Round(time.Millisecond)
		log.Info().Dur("took", took).Int("authors", st.Authors).Msg("people clustered")
		fmt.Fprintf(std.out, "clustered every name in %s: %d people\n", took, st.Authors)
		return nil
	case *corrections:
		cs, err := svc.Corrections(ctx)
		if err != nil {
			return err
		}
		if len(cs) == 0 {
			fmt.Fprintln(std.out, "no corrections")
		}
		for _, nc := range cs {
			fmt.Fprintf(std.out, "%s\n", nc.Name)
			for _, c := range nc.Corrections {
				fmt.Fprintf(std.out, "  %s %s", c.At, c.Op)
				if c.By != "" {
					fmt.Fprintf(std.out, " (%s)", c.By)
				}
				fmt.Fprintf(std.out, ": %d papers", len(c.Papers))
				if c.Op == "split" {
					fmt.Fprintf(std.out, " parted from %d", len(c.Rest))
				}
				fmt.Fprintf(std.out, "; people before: %s\n", strings.Join(c.Before, ", "))
				for _, p := range c.Papers {
					fmt.Fprintf(std.out, "    %s\n", p)
				}
			}
		}
		return nil
	}
	v, err := svc.View(ctx)
	if err != nil {
		return err
	}
	defer v.Close()
	ps, err := v.AuthorsByName(name, graph.MaxFirst)
	if err != nil {
		return err
	}
	if len(ps) == 0 {
		return fmt.Errorf("no author named %q", name)
	}
	for _, p := range ps {
		n, err := v.PaperCount(p.ID) // a stored counter: no facet index to build
		if err != nil {
			return err
		}
		d, err := v.Disambiguation(p.ID)
		if err != nil {
			return err
		}
		if d == "" {
			d = fmt.Sprintf("%d papers", n)
		}
		fmt.Fprintf(std.out, "%s\t%s\t%s\n", p.ID, p.Label, d)
	}
	return nil
}
