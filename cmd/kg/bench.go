// kg bench replays the questions a dashboard asks against kg and its
// peers, side by side on one corpus, and prints each one's throughput and
// latency:
//
//   - kg-http: kg serve (this binary, on a store that takes writes, as a
//     user runs it), GraphQL over real TCP;
//   - kg-floor: the same graph calls in process, without HTTP or GraphQL;
//   - postgres: PostgreSQL 15 over pgx, with the same papers, people (as
//     kg told them apart), subjects, concepts and mentions in plain
//     indexed tables (bench_pg.go has the schema and every query);
//   - kuzu: the embedded graph database Kuzu, in process in Node, with
//     the same nodes and edges, answering in Cypher
//     (testdata/bench/kuzu/bench.js): compare it with kg-floor.
//
// Each question runs at 1, 8 and 32 concurrent clients for a few seconds;
// its inputs (people, papers, concepts, subjects, names, pairs of people)
// are drawn from the store with a fixed seed, so every run and every
// system asks the same.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"
)

const benchSynopsis = `kg bench [--data DIR | --corpus FILE] [--secs 4] [--clients 1,8,32] [--only SYSTEMS] [--json FILE]

Replays each dashboard question (co-authors, a person's papers, related
papers, a concept's papers, a neighbourhood at depth 2, search, a facet, a
top-N, a collaboration path, and a no-op that asks nothing of the graph:
each system's ceiling) against kg serve over HTTP (kg-http), the
same graph calls in process (kg-floor), PostgreSQL 15 holding the same
corpus (postgres) and the embedded graph database Kuzu in Node (kuzu, from
--kuzu, where npm ci has been run), at each concurrency, and prints
requests/s and p50, p95 and p99 latency per question, with kg's ratios to
PostgreSQL (over HTTP) and Kuzu (in process).

Inputs are drawn from the store with a fixed seed. Without --data (or
KG_DATA) it ingests --corpus (default: the arXiv file of ../shared) into a
folder under the system's temporary folder, reused by later runs; without
the corpus it says so and exits 0. A peer is skipped, saying why, when it
cannot be had (Debian: apt-get install -y postgresql-15 nodejs npm; then
npm ci in testdata/bench/kuzu).
Stop kg serve on the store first: one process per store.`

func cmdBench(ctx context.Context, args []string, std stdio) error {
	var c commonFlags
	fs := newFlagSet("bench", benchSynopsis, std.err, &c)
	corpus := fs.String("corpus", "../shared/data/arxiv/arxiv-cs-2025-03_2026-02.jsonl.gz", "the corpus to ingest when no --data is given")
	secs := fs.Float64("secs", 4, "seconds per question, system and concurrency")
	clientsFlag := fs.String("clients", "1,8,32", "concurrent clients, comma-separated")
	only := fs.String("only", "", "only these systems (kg-http, kg-floor, postgres, kuzu), comma-separated")
	kuzuDir := fs.String("kuzu", "testdata/bench/kuzu", "the Kuzu peer's folder (bench.js, with npm ci run there)")
	jsonOut := fs.String("json", "", "also write every run as JSON to this file")
	inputs := fs.Int("inputs", 200, "inputs drawn per question")
	serveFlags := fs.String("serve-flags", "", "more flags for the kg serve it starts, space-separated (e.g. \"--mem-limit-mb 1200\")")
	if _, err := parseFlags(fs, args, &c, std.err); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageExit(fs)
	}
	var clients []int
	for _, s := range strings.Split(*clientsFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > 256 {
			return fmt.Errorf("--clients %q: numbers from 1 to 256", *clientsFlag)
		}
		clients = append(clients, n)
	}
	if *secs <= 0 || *secs > 600 || *inputs < 1 {
		return fmt.Errorf("--secs between 0 and 600, --inputs at least 1")
	}
	for _, s := range strings.Split(*only, ",") {
		if s != "" && s != "kg-http" && s != "kg-floor" && s != "postgres" && s != "kuzu" {
			return fmt.Errorf("--only %q: kg-http, kg-floor, postgres, kuzu", s)
		}
	}
	dataSet := os.Getenv("KG_DATA") != "" || flagSet(fs, "data")
	dir := c.data
	if !dataSet {
		var err error
		if dir, err = corpusStore(ctx, *corpus, std); err != nil || dir == "" {
			return err
		}
	}
	want := func(sys string) bool { return *only == "" || slices.Contains(strings.Split(*only, ","), sys) }
	cfg := runConfig{d: time.Duration(*secs * float64(time.Second)), clients: clients}

	// inputs and the in-process floor: the store opened here, then closed
	// for kg serve (one process per store)
	floor, err := openFloor(ctx, dir)
	if err != nil {
		return err
	}
	qs, err := floor.draw(*inputs)
	if err != nil {
		floor.close()
		return err
	}
	fmt.Fprintf(std.err, "store %s: %s\n", dir, floor.describe())
	var runs []benchRun
	if want("kg-floor") {
		runs = append(runs, measure(std, "kg-floor", qs, cfg, floor.ask)...)
	}
	var pgData *pgData
	if want("postgres") || want("kuzu") {
		pgData, err = floor.export()
	}
	floor.close()
	// the in-process index is garbage now: give it back, so that the
	// client does not hold a store's worth of memory beside the server
	// it measures (one machine, one memory limit)
	debug.FreeOSMemory()
	if err != nil {
		return err
	}
	if want("kg-http") {
		srv, err := startKG(dir, strings.Fields(*serveFlags), std)
		if err != nil {
			return err
		}
		if m := srv.memory(); m != "" {
			fmt.Fprintf(std.err, "kg serve ready: %s\n", m)
		}
		runs = append(runs, measure(std, "kg-http", qs, cfg, srv.ask)...)
		if m := srv.memory(); m != "" {
			fmt.Fprintf(std.err, "kg serve after the questions: %s\n", m)
		}
		srv.stop()
	}
	if want("postgres") {
		pg, err := startPostgres(ctx, pgData, std)
		if err != nil {
			fmt.Fprintf(std.err, "postgres: skipped: %v\n", err)
		} else {
			runs = append(runs, measure(std, "postgres", qs, cfg, pg.ask)...)
			pg.stop()
		}
	}
	if want("kuzu") {
		kr, err := runKuzu(ctx, *kuzuDir, pgData, qs, cfg, std)
		if err != nil {
			fmt.Fprintf(std.err, "kuzu: skipped: %v\n", err)
		}
		runs = append(runs, kr...)
	}
	report(std.out, runs, qs, clients)
	var errs int64
	for _, r := range runs {
		errs += r.Errors
	}
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(map[string]any{"date": time.Now().UTC().Format(time.RFC3339), "store": dir, "secs": *secs, "runs": runs}, "", "  ")
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	if errs > 0 {
		return fmt.Errorf("%d questions failed (the first of each run is above)", errs)
	}
	return nil
}

// corpusStore returns a store ingested from corpus, ingesting it on the
// first run ("" when the corpus is absent: the harness has nothing to do).
func corpusStore(ctx context.Context, corpus string, std stdio) (string, error) {
	st, err := os.Stat(corpus)
	if err != nil {
		fmt.Fprintf(std.err, "kg bench: skipped: no corpus at %s (give --corpus FILE or --data DIR)\n", corpus)
		return "", nil
	}
	abs, _ := filepath.Abs(corpus)
	h := sha256.Sum256(fmt.Appendf(nil, "%s %d %d", abs, st.Size(), st.ModTime().UnixNano()))
	dir := filepath.Join(os.TempDir(), "kg-bench-"+hex.EncodeToString(h[:6]))
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err == nil {
		return dir, nil
	}
	os.RemoveAll(dir)
	bin, err := os.Executable()
	if err != nil {
		return "", err
	}
	fmt.Fprintf(std.err, "ingesting %s into %s (once; later runs reuse it)\n", corpus, dir)
	cmd := exec.CommandContext(ctx, bin, "ingest", "--data", dir, "--log-level", "warn", corpus)
	cmd.Stdout, cmd.Stderr = std.err, std.err
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 { // 1: some records skipped, named above
			return "", fmt.Errorf("kg ingest: %w", err)
		}
	}
	return dir, os.WriteFile(filepath.Join(dir, ".complete"), nil, 0o644)
}
