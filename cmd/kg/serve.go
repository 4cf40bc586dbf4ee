package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/nlp"
	"github.com/researchkg/kg/schema"
	"github.com/researchkg/kg/store"
)

func cmdServe(ctx context.Context, args []string, std stdio) error {
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
At startup every table of the store is read and its checksums checked
(--verify): a damaged store is refused, naming the files (kg verify lists
them too). While serving, each block read from disk is checked again.
Then the facet index is built: every paper's date, subjects, people and
concepts in memory, from which facets, rankings, paths and paper lists are
answered (about 2 s and 41 MB for the 47,919-paper arXiv store); writes keep it
current.
SIGINT/SIGTERM stop accepting, finish in-flight requests (up to 15 s) and
close the store.`, std.err, &c)
	addr := fs.String("addr", envOr("KG_ADDR", "127.0.0.1:8080"), "listen address (env KG_ADDR)")
	seeds := fs.String("seeds", envOr("KG_SEEDS", "testdata/seeds"), "pages loaded into an empty store (env KG_SEEDS; empty: none)")
	timeout := fs.Duration("timeout", 10*time.Second, "per-request timeout")
	token := fs.String("write-token", envOr("KG_WRITE_TOKEN", ""), "bearer token that allows the ingest mutation (env KG_WRITE_TOKEN; empty: no writes over HTTP)")
	readOnly := fs.Bool("read-only", false, "open the store read-only and refuse every write")
	cors := fs.String("cors-origins", envOr("KG_CORS_ORIGINS", ""), "comma-separated origins allowed to call from a browser, or * (env KG_CORS_ORIGINS)")
	budget := fs.Int("cost-budget", 50000, "largest estimated query cost answered")
	syncWrites := fs.Bool("sync", false, "wait until every write of the ingest mutation is on disk (fsync) before answering")
	verify := fs.Bool("verify", true, "read every table of the store at startup and refuse to serve a damaged one (1.4 s for the 382 MB arXiv store on 2 cores)")
	verifyEvery := fs.Duration("verify-every", time.Hour, "read every table again this often while serving; when one is damaged, answer every request with INTERNAL naming it (0: never)")
	cacheControl := fs.String("cache-control", envOr("KG_CACHE_CONTROL", "no-cache"), "Cache-Control of query answers over GET, which carry an ETag and answer If-None-Match with 304 (env KG_CACHE_CONTROL; e.g. max-age=30)")
	c.profileFlag(fs, "write a CPU profile of the whole run to this file (written at shutdown)")
	memprofile := fs.String("memprofile", "", "write a heap profile to this file once the facet index is built (what serving holds before the first request)")
	memLimit := fs.Int("mem-limit-mb", 0, "soft limit of the Go heap in MiB: the collector works harder near it instead of letting the heap grow to twice what is live (0: none, or under a container's memory limit 3/4 of it; GOMEMLIMIT wins); the facet index holds ~0.75 KB a paper")
	log, err := parseFlags(fs, args, &c, std.err)
	if err != nil {
		return err
	}
	defer c.stopProfile()
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q (did you mean kg ingest?)", fs.Args())
	}
	if *token != "" && len(*token) < 16 {
		return fmt.Errorf("--write-token is %d characters; use at least 16 (e.g. openssl rand -hex 16)", len(*token))
	}
	setMemLimit(int64(*memLimit), flagSet(fs, "mem-limit-mb"), serveHeapShare, log)
	db, err := openStoreWith(storeOptions(c.data, *readOnly, false, log).WithVerifyBlocks(true).WithSync(*syncWrites))
	if err != nil {
		return err
	}
	if *verify {
		start := time.Now()
		rep, err := store.Verify(c.data, nil)
		if err == nil && len(rep.Damaged) > 0 {
			err = store.DamageError(c.data, rep.Damaged)
		}
		if err != nil {
			db.Close()
			return err
		}
		log.Info().Int("tables", rep.Tables).Int64("entries", rep.Entries).Int64("bytes", rep.Bytes).
			Dur("took", time.Since(start)).Msg("store verified: no damage")
	}
	var damaged atomic.Pointer[error]
	if *verifyEvery > 0 {
		go func() {
			t := time.NewTicker(*verifyEvery)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
				rep, err := store.Verify(c.data, nil)
				if err == nil && len(rep.Damaged) > 0 {
					err = store.DamageError(c.data, rep.Damaged)
					damaged.Store(&err)
					log.Error().Err(err).Msg("the store is damaged: every request is refused")
					return
				}
				if err != nil {
					log.Warn().Err(err).Msg("verify: could not read the store's files")
				}
			}
		}()
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
	svc.OnIndex(func(r graph.IndexReport) {
		ev := log.Debug()
		if r.Rebuilt || r.Took > time.Second {
			ev = log.Info()
		}
		ev.Int("papers", r.Papers).Int("read", r.Read).Bool("rebuilt", r.Rebuilt).Dur("took", r.Took).Msg("facet index up to date")
	})
	// facets, rankings, paths and paper lists answer from the in-memory
	// index: built now rather than by the first request
	if err := svc.PrepareIndex(ctx); err != nil {
		return fmt.Errorf("build the facet index: %w", err)
	}
	if *memprofile != "" {
		if err := writeHeapProfile(*memprofile); err != nil {
			log.Error().Err(err).Str("file", *memprofile).Msg("heap profile not written")
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
		Damaged: func() error {
			if e := damaged.Load(); e != nil {
				return *e
			}
			return nil
		},
		DiskSpace: func() (uint64, uint64, error) {
			sp, err := db.DiskSpace()
			return sp.Free, sp.Need, err
		},
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
	fmt.Fprintf(std.out, "kg serving GraphQL at http://%s/graphql\n", ln.Addr())
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
	sum, err := ingestPaths(ctx, svc, []string{dir}, 0, nil, log, nil)
	if err != nil {
		return err
	}
	log.Info().Int("documents", sum.Documents).Int("failed", sum.Failed).Int("papers", sum.PapersAdded).Msg("empty store: loaded seed pages")
	return nil
}
