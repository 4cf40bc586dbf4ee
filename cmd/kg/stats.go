package main

import (
	"context"
	"encoding/json"

	"github.com/researchkg/kg/graph"
)

func cmdStats(ctx context.Context, args []string, std stdio) (err error) {
	var c commonFlags
	fs := newFlagSet("stats", `kg stats [--data DIR] [--digest]

Prints the graph's counts as JSON. --digest adds a SHA-256 over the whole
graph that does not depend on ids (graph.Digest): two stores hold the same
graph exactly when their digests match (e.g. a replica and its source, or a
resumed ingest and a clean one). It reads everything.`, std.err, &c)
	withDigest := fs.Bool("digest", false, "add an id-independent digest of the whole graph")
	log, err := parseFlags(fs, args, &c, std.err)
	if err != nil {
		return err
	}
	db, err := openStore(c.data, true, false, log)
	if err != nil {
		return err
	}
	defer closeStore(db, &err)
	svc := graph.NewService(db, nil)
	st, err := svc.Stats(ctx)
	if err != nil {
		return err
	}
	lsm, vlog := db.Size()
	out := map[string]any{
		"papers": st.Papers, "authors": st.Authors, "subjects": st.Subjects, "concepts": st.Concepts,
		"repositories": st.Repositories, "organizations": st.Organizations, "edges": st.Edges,
		"storeBytes": lsm + vlog,
	}
	if *withDigest {
		d, err := svc.Digest(ctx)
		if err != nil {
			return err
		}
		out["digest"] = d.Hash
	}
	enc := json.NewEncoder(std.out)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
