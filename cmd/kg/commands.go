package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/source"
	"github.com/researchkg/kg/nlp"
	"github.com/researchkg/kg/schema"
	"github.com/researchkg/kg/store"
)

// openStore opens the data folder. bulk is for commands that write much
// (ingest, recompute): their write transactions get the absent-key filter.
func openStore(dir string, readOnly, bulk bool, log zerolog.Logger) (*store.DB, error) {
	if !readOnly {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("create data folder: %w", err)
		}
	} else if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("data folder %s: %w (run kg ingest or kg serve first)", dir, err)
	}
	return store.Open(store.DefaultOptions(dir).WithReadOnly(readOnly).WithKeyFilter(bulk && !readOnly).WithLogger(log))
}

// summary adds up the results of an ingest run.
type summary struct {
	graph.IngestResult // totals (Source and Format unused)
	Documents, Failed  int
	Failures           []string
	mu                 sync.Mutex // the pipeline's writer and the file reader both report
}

func (s *summary) progress() (records, added, failed int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Records, s.PapersAdded, s.Failed
}

func (s *summary) add(r graph.IngestResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Documents++
	s.Add(r)
	s.Warnings = append(s.Warnings, r.Warnings...)
}

func (s *summary) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Documents++
	s.Failed++
	s.Failures = append(s.Failures, err.Error())
}

func (s *summary) print(w io.Writer) {
	fmt.Fprintf(w, "documents: %d read, %d failed\n", s.Documents, s.Failed)
	fmt.Fprintf(w, "papers:    %d records: %d added, %d merged, %d unchanged\n", s.Records, s.PapersAdded, s.PapersMerged, s.PapersSame)
	fmt.Fprintf(w, "added:     %d authors, %d subjects, %d concepts, %d repositories, %d edges\n",
		s.AuthorsAdded, s.SubjectsAdded, s.ConceptsAdded, s.ReposAdded, s.EdgesAdded)
	fmt.Fprintf(w, "warnings:  %d\n", len(s.Warnings))
	for _, x := range s.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", x)
	}
	for _, x := range s.Failures {
		fmt.Fprintf(w, "  failed:  %s\n", x)
	}
}

// ingestPaths reads every file under paths (folders recursively, hidden
// files skipped, in name order) into the graph. A document that fails is
// reported and skipped; the others are ingested.
func ingestPaths(ctx context.Context, svc *graph.Service, paths []string, workers int, log zerolog.Logger) (*summary, error) {
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if !info.IsDir() {
			files = append(files, filepath.Clean(p))
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if strings.HasPrefix(d.Name(), ".") && path != p {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
	}
	sort.Strings(files)
	sum := &summary{}
	start, lastLog := time.Now(), time.Now()
	var total int64
	for _, f := range files {
		if info, err := os.Stat(f); err == nil {
			total += info.Size()
		}
	}
	read := &atomic.Int64{}
	bar := startProgressBar(os.Stderr, total, read, sum.progress)
	// Analysis runs ahead on worker goroutines; documents are written in
	// order on one goroutine, several to a transaction, each atomically.
	pipe := svc.NewPipeline(ctx, workers, func(doc graph.Document, res graph.IngestResult, err error) {
		if err != nil {
			if graph.ErrorCode(err) == graph.Invalid {
				sum.fail(err)
				log.Warn().Err(err).Msg("document skipped")
			}
			return
		}
		sum.add(res)
		log.Debug().Str("file", doc.Source).Str("format", doc.Format).Int("records", res.Records).
			Int("added", res.PapersAdded).Int("merged", res.PapersMerged).Int("unchanged", res.PapersSame).
			Int("concepts", res.ConceptsAdded).Msg("ingested")
		if bar == nil && time.Since(lastLog) > 5*time.Second {
			lastLog = time.Now()
			records, added, failed := sum.progress()
			log.Info().Str("file", doc.Source).Int("records", records).
				Float64("recordsPerSecond", float64(records)/time.Since(start).Seconds()).
				Int("papersAdded", added).Int("failed", failed).Msg("progress")
		}
	})
	var readErr error
	for _, name := range files {
		if readErr = ctx.Err(); readErr != nil {
			break
		}
		if err := ingestFile(ctx, pipe, name, read, sum, log); err != nil {
			if ctx.Err() != nil {
				readErr = ctx.Err()
				break
			}
			sum.fail(err)
			log.Error().Err(err).Str("file", name).Msg("file failed; skipped")
		}
	}
	err := pipe.Wait()
	bar.Stop()
	if err == nil && ctx.Err() == nil {
		// A term becomes a concept at its second paper: the papers read
		// before are linked now (tens of seconds after a large file).
		log.Info().Msg("linking new concepts to the papers read before them")
		t := time.Now()
		if err = pipe.Close(); err == nil {
			log.Info().Dur("took", time.Since(t)).Msg("concepts linked")
		}
	}
	if err != nil && readErr == nil {
		readErr = err
	}
	records, _, _ := sum.progress()
	log.Info().Int("files", len(files)).Int("records", records).Dur("took", time.Since(start)).
		Float64("recordsPerSecond", float64(records)/time.Since(start).Seconds()).Msg("ingest finished")
	return sum, readErr
}

// ingestFile streams one file's documents into the pipeline; documents that
// fail to parse are counted and logged, and reading goes on.
func ingestFile(ctx context.Context, pipe *graph.Pipeline, name string, read *atomic.Int64, sum *summary, log zerolog.Logger) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return source.Read(name, countingReader{f, read}, pipe.Add, func(err error) {
		sum.fail(err)
		log.Warn().Err(err).Str("file", name).Msg("document skipped")
	})
}

func cmdIngest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("ingest", `kg ingest [--data DIR] PATH...

Reads files or folders (recursively) into the graph. The format of each file
is detected from its content: arXiv metadata JSON lines (plain or gzip),
arXiv API Atom feeds, BibTeX, author profile pages and arXiv-subjects
listings. Each document (a JSON line, an Atom entry, a BibTeX entry, a page)
is committed atomically; a document that fails is reported with its file and
line and skipped, the others are ingested, and the exit status is 1.
Ingesting the same files again changes nothing; after an interrupt, running
the same command again completes the work.`, stderr, &c)
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "goroutines extracting key terms ahead of the writer")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file")
	memprofile := fs.String("memprofile", "", "write a heap profile to this file when the last document is written (before the store closes)")
	memLimit := fs.Int("mem-limit-mb", 1100, "soft limit of the Go heap in MiB (GC works harder near it; 0: none; GOMEMLIMIT wins)")
	dryRun := fs.Bool("dry-run", false, "report exactly what would change and write nothing (the changes are held in memory)")
	log, err := parseFlags(fs, args, &c, stderr)
	if err != nil {
		return err
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set && *memLimit > 0 {
		// Measured on the 47,919-record arXiv file: peak RSS 1.51 GiB
		// without, 1.33 GiB with 1100 MiB, for 3% of the speed.
		debug.SetMemoryLimit(int64(*memLimit) << 20)
	}
	stopProfile, err := startCPUProfile(*cpuprofile)
	if err != nil {
		return err
	}
	defer stopProfile()
	if fs.NArg() == 0 {
		fs.Usage()
		return exitError{2}
	}
	db, err := openStore(c.data, false, true, log)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := graph.NewService(db, nlp.New())
	if err := svc.TermsCurrent(context.WithoutCancel(ctx)); err != nil {
		return err // concepts of an older extractor: recompute first
	}
	if err := svc.PeopleCurrent(context.WithoutCancel(ctx)); err != nil {
		return err // authors are names: recluster first
	}
	if *dryRun {
		if err := svc.DryRun(); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "dry run: nothing is written")
	}
	sum, err := ingestPaths(ctx, svc, fs.Args(), *workers, log)
	if *memprofile != "" {
		if perr := writeHeapProfile(*memprofile); perr != nil {
			log.Error().Err(perr).Str("file", *memprofile).Msg("heap profile not written")
		}
	}
	if sum != nil {
		if *asJSON {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			_ = enc.Encode(sum)
		} else {
			sum.print(stdout)
		}
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "kg ingest: interrupted; every document listed above is stored whole. Run the same command again to finish: nothing is duplicated.")
		return exitError{130}
	}
	if err != nil {
		return err
	}
	if sum.Failed > 0 {
		return exitError{1}
	}
	return nil
}

func cmdStats(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("stats", `kg stats [--data DIR] [--digest]

Prints the graph's counts as JSON. --digest adds a SHA-256 over the whole
graph that does not depend on ids (graph.Digest): two stores hold the same
graph exactly when their digests match (e.g. a replica and its source, or a
resumed ingest and a clean one). It reads everything.`, stderr, &c)
	withDigest := fs.Bool("digest", false, "add an id-independent digest of the whole graph")
	log, err := parseFlags(fs, args, &c, stderr)
	if err != nil {
		return err
	}
	db, err := openStore(c.data, true, false, log)
	if err != nil {
		return err
	}
	defer db.Close()
	v, err := graph.NewService(db, nil).View(ctx)
	if err != nil {
		return err
	}
	defer v.Close()
	st, err := v.Stats()
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
		d, err := graph.NewService(db, nil).Digest(ctx)
		if err != nil {
			return err
		}
		out["digest"] = d.Hash
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("serve", `kg serve [--data DIR] [--addr HOST:PORT] [--write-token T] [--read-only]

Serves GraphQL at http://ADDR/graphql: POST JSON {query, variables,
operationName} (Content-Type application/json); GET with ?query= runs a
query (not a mutation) and its answer carries an ETag (--cache-control);
GET without a query opens a console in the browser. A client that accepts
application/graphql-response+json gets that media type and 400 for a
query that fails before it runs; application/json gets 200. /healthz answers 200
while the store is open; /metrics gives Prometheus metrics. With an empty
data folder the seed pages (--seeds) are ingested first.

Reads are open to anyone who can reach ADDR. The ingest mutation needs
"Authorization: Bearer T" where T is --write-token (or KG_WRITE_TOKEN);
without a token, writes over HTTP are off. --read-only opens the store
read-only and refuses every write (e.g. a replica restored from kg backup).

Queries are checked before they run: size, nesting, fields, aliases,
fragments, fragment cycles, and an estimated cost (fields × the first of
their enclosing lists) against --cost-budget; each answer reports its cost.
SIGINT/SIGTERM stop accepting, finish in-flight requests (up to 15 s) and
close the store.`, stderr, &c)
	addr := fs.String("addr", envOr("KG_ADDR", "127.0.0.1:8080"), "listen address (env KG_ADDR)")
	seeds := fs.String("seeds", envOr("KG_SEEDS", "testdata/seeds"), "pages loaded into an empty store (env KG_SEEDS; empty: none)")
	timeout := fs.Duration("timeout", 10*time.Second, "per-request timeout")
	token := fs.String("write-token", envOr("KG_WRITE_TOKEN", ""), "bearer token that allows the ingest mutation (env KG_WRITE_TOKEN; empty: no writes over HTTP)")
	readOnly := fs.Bool("read-only", false, "open the store read-only and refuse every write")
	cors := fs.String("cors-origins", envOr("KG_CORS_ORIGINS", ""), "comma-separated origins allowed to call from a browser, or * (env KG_CORS_ORIGINS)")
	budget := fs.Int("cost-budget", 50000, "largest estimated query cost answered")
	cacheControl := fs.String("cache-control", envOr("KG_CACHE_CONTROL", "no-cache"), "Cache-Control of query answers over GET, which carry an ETag and answer If-None-Match with 304 (env KG_CACHE_CONTROL; e.g. max-age=30)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file (written at shutdown)")
	log, err := parseFlags(fs, args, &c, stderr)
	if err != nil {
		return err
	}
	stopProfile, err := startCPUProfile(*cpuprofile)
	if err != nil {
		return err
	}
	defer stopProfile()
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q (did you mean kg ingest?)", fs.Args())
	}
	if *token != "" && len(*token) < 16 {
		return fmt.Errorf("--write-token is %d characters; use at least 16 (e.g. openssl rand -hex 16)", len(*token))
	}
	db, err := openStore(c.data, *readOnly, false, log)
	if err != nil {
		return err
	}
	var open atomic.Bool
	open.Store(true)
	defer func() {
		open.Store(false)
		if err := db.Close(); err != nil {
			log.Error().Err(err).Msg("close store")
		} else {
			log.Info().Msg("store closed")
		}
	}()
	svc := graph.NewService(db, nlp.New())
	if err := svc.TermsCurrent(ctx); err != nil {
		log.Warn().Err(err).Msg("concepts are stale: queries answer from them, the ingest mutation is refused until kg recompute")
	}
	if err := svc.PeopleCurrent(ctx); err != nil {
		log.Warn().Err(err).Msg("authors are names: queries answer from them, the ingest mutation is refused until kg authors --recluster")
	}
	if !*readOnly {
		if err := seedIfEmpty(ctx, svc, *seeds, log); err != nil {
			return err
		}
	}
	var origins []string
	for _, o := range strings.Split(*cors, ",") {
		if o = strings.TrimSpace(o); o != "" {
			origins = append(origins, o)
		}
	}
	h, err := schema.NewHandler(svc, schema.Options{
		Log: log, Timeout: *timeout, Healthy: open.Load,
		WriteToken: *token, ReadOnly: *readOnly, CORSOrigins: origins, CostBudget: *budget,
		CacheControl: *cacheControl,
		StoreBytes:   func() int64 { lsm, vlog := db.Size(); return lsm + vlog },
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      *timeout + 5*time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	log.Info().Str("addr", "http://"+ln.Addr().String()+"/graphql").Str("data", c.data).
		Bool("writes", *token != "" && !*readOnly).Bool("readOnly", *readOnly).Strs("cors", origins).Msg("serving")
	fmt.Fprintf(stdout, "kg serving GraphQL at http://%s/graphql\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info().Msg("shutting down: finishing in-flight requests")
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Error().Err(err).Msg("shutdown")
	}
	return nil
}

// seedIfEmpty ingests the seed pages when the store holds no paper yet.
func seedIfEmpty(ctx context.Context, svc *graph.Service, dir string, log zerolog.Logger) error {
	if dir == "" {
		return nil
	}
	v, err := svc.View(ctx)
	if err != nil {
		return err
	}
	st, err := v.Stats()
	v.Close()
	if err != nil {
		return err
	}
	if st.Papers > 0 {
		return nil
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		log.Warn().Str("seeds", dir).Msg("store is empty and the seed folder does not exist; serving an empty graph (run from the repository root, or set --seeds)")
		return nil
	}
	sum, err := ingestPaths(ctx, svc, []string{dir}, 0, log)
	if err != nil {
		return err
	}
	log.Info().Int("documents", sum.Documents).Int("failed", sum.Failed).Int("papers", sum.PapersAdded).Msg("empty store: loaded seed pages")
	return nil
}

func cmdRecompute(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("recompute", `kg recompute [--data DIR]

Rebuilds the concept layer from every stored paper's title and abstracts,
without re-reading any source. Run it after upgrading kg when ingest says
the store's concepts were made by an older extractor, or to count afresh.
The old concepts, mentions, co-occurrences and statistics are cleared, then
three passes read every paper: document frequencies; key-term votes, ranked
against the whole corpus, which make the concepts; links from every paper
to every concept it mentions. The result depends only on the stored papers,
not on the order they were ingested in (about 2 minutes for 48,000 papers
on 2 cores). Stop kg serve first (one process per data folder).`, stderr, &c)
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "analysis goroutines")
	log, err := parseFlags(fs, args, &c, stderr)
	if err != nil {
		return err
	}
	db, err := openStore(c.data, false, true, log)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := graph.NewService(db, nlp.New())
	start := time.Now()
	last := time.Now()
	res, err := svc.RecomputeConcepts(ctx, *workers, func(p graph.RecomputeProgress) {
		if time.Since(last) > 5*time.Second || p.Done == p.Papers {
			last = time.Now()
			what := []string{"clear old concepts", "count terms", "vote concepts", "link papers"}[p.Pass]
			log.Info().Int("pass", p.Pass).Str("step", what).Int("done", p.Done).Int("of", p.Papers).Msg("recompute")
		}
	})
	if err != nil {
		return err
	}
	v, err := svc.View(ctx)
	if err != nil {
		return err
	}
	defer v.Close()
	st, err := v.Stats()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "recomputed %d papers in %s: %d concepts now (%d new), %d edges\n",
		res.Records, time.Since(start).Round(time.Millisecond), st.Concepts, res.ConceptsAdded, st.Edges)
	return nil
}

func cmdBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("backup", `kg backup [--data DIR] FILE

Writes a full backup of the store to FILE ("-": standard output) in Badger's
backup stream format. The store is opened read-only: stop kg serve first
(Badger allows one process per data folder), or back up a copy served with
--read-only. Restore with kg restore.`, stderr, &c)
	log, err := parseFlags(fs, args, &c, stderr)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitError{2}
	}
	db, err := openStore(c.data, true, false, log)
	if err != nil {
		return err
	}
	defer db.Close()
	name := fs.Arg(0)
	var w io.Writer = stdout
	var f *os.File
	if name != "-" {
		// write beside the target and rename at the end: never a
		// half-written backup under the final name
		if f, err = os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*"); err != nil {
			return fmt.Errorf("create backup: %w", err)
		}
		defer os.Remove(f.Name())
		defer f.Close()
		w = f
	}
	cw := &countingWriter{w: w}
	start := time.Now()
	version, err := db.Backup(cw)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if f != nil {
		if err := f.Sync(); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
		if err := os.Rename(f.Name(), name); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
	}
	log.Info().Str("file", name).Int64("bytes", cw.n).Uint64("version", version).Dur("took", time.Since(start)).Msg("backup written")
	return nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func cmdRestore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("restore", `kg restore [--data DIR] FILE

Loads a backup written by kg backup (FILE, or "-" for standard input) into
DIR, which must be empty or absent. Serve the result as usual, or with
kg serve --read-only for a read replica.`, stderr, &c)
	log, err := parseFlags(fs, args, &c, stderr)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitError{2}
	}
	var r io.Reader = os.Stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	start := time.Now()
	if err := store.Restore(c.data, r, log); err != nil {
		return err
	}
	log.Info().Str("data", c.data).Dur("took", time.Since(start)).Msg("backup restored")
	return nil
}

// startCPUProfile writes a CPU profile to path (none when path is "")
// until the returned function is called.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
