package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/source"
	"github.com/researchkg/kg/nlp"
	"github.com/researchkg/kg/store"
)

// summary adds up the results of an ingest run.
type summary struct {
	graph.IngestResult // totals (Source and Format unused)
	Documents, Failed  int
	Failures           []string
	mu                 sync.Mutex // the pipeline's writer and the file reader both report
}

// MarshalJSON keeps the field names kg ingest --json has always printed.
func (s *summary) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Documents, Failed                                int
		Records, Added, Merged, Unchanged                int
		Authors, Subjects, Concepts, Repositories, Edges int
		Warnings                                         []string
		Failures                                         []string
	}{s.Documents, s.Failed, s.Records, s.PapersAdded, s.PapersMerged, s.PapersSame,
		s.AuthorsAdded, s.SubjectsAdded, s.ConceptsAdded, s.ReposAdded, s.EdgesAdded, s.Warnings, s.Failures})
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
//
// afterRecords, when set, is called once every record is written, before
// the settle.
func ingestPaths(ctx context.Context, svc *graph.Service, paths []string, workers int, bar io.Writer, log zerolog.Logger, afterRecords func()) (*summary, error) {
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
	progress := startProgressBar(bar, total, read, sum.progress)
	svc.OnProgress(settleLogger(log, 10*time.Second))
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
			if perr := pipe.Err(); perr != nil { // the store failed: reading on is useless
				readErr = perr
				break
			}
			sum.fail(err)
			log.Error().Err(err).Str("file", name).Msg("file failed; skipped")
		}
	}
	err := pipe.Wait()
	progress.Stop()
	if afterRecords != nil {
		afterRecords()
	}
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

// settleLogger logs the settle's progress after the last record: each
// stage as it starts and ends, and its count every interval between.
func settleLogger(log zerolog.Logger, every time.Duration) graph.Progress {
	var stage string
	var last time.Time
	return func(st string, done, total int) {
		if st == graph.StageSettleDone {
			return // "concepts linked" follows
		}
		finished := total > 0 && done >= total
		if st == stage && !finished && time.Since(last) < every {
			return
		}
		stage, last = st, time.Now()
		e := log.Info().Str("stage", st).Int("done", done)
		if total > 0 {
			e = e.Int("of", total)
		}
		e.Msg("settling")
	}
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

func cmdIngest(ctx context.Context, args []string, std stdio) (err error) {
	var c commonFlags
	fs := newFlagSet("ingest", `kg ingest [--data DIR] PATH...

Reads files or folders (recursively) into the graph. The format of each file
is detected from its content: arXiv metadata JSON lines (plain or gzip),
arXiv API Atom feeds, BibTeX, author profile pages and arXiv-subjects
listings. Each document (a JSON line, an Atom entry, a BibTeX entry, a page)
is committed atomically; a document that fails is reported with its file and
line and skipped, the others are ingested, and the exit status is 1.
Ingesting the same files again changes nothing; after an interrupt, a crash
or a full disk, running the same command again completes the work.

The first ingest into an empty store is a bulk load: its writes are held
in memory (--bulk-mb) and written to Badger's tables in one sorted pass at
the end, without Badger's log and compactions. Killed before it ends, it leaves a marker
file (KG-BULK-LOAD) and a store that other commands refuse: running the
same ingest again starts it over. Later ingests commit as they go.

Writes stop before the disk fills (about 200 MB are kept free for Badger):
the command then says how much is free and how many papers are stored,
and exits 1. A crash of kg loses nothing committed; a power cut may lose
the commits of the last ~30 s that the system had not yet written back
(--sync waits for the disk at each commit instead, at a cost in speed).`, std.err, &c)
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "goroutines extracting key terms ahead of the writer")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	c.profileFlag(fs, "write a CPU profile of the run to this file")
	memprofile := fs.String("memprofile", "", "write a heap profile to this file when the last document is written (before the store closes)")
	memLimit := fs.Int("mem-limit-mb", 1100, "soft limit of the Go heap in MiB (GC works harder near it; 0: none; GOMEMLIMIT wins); a first ingest, which holds its writes in memory, takes --bulk-mb + 400 unless set; under a container's memory limit, at most 0.7 of it unless set")
	syncWrites := fs.Bool("sync", false, "wait until every committed batch is on disk (fsync): a power cut loses nothing committed; slower (see the README)")
	censusFile := fs.String("write-census", "", "write to this file, as tab-separated rows, the keys the run wrote to the store by kind (records, then the settle): what a record costs in writes")
	dryRun := fs.Bool("dry-run", false, "report exactly what would change and write nothing (the changes are held in memory)")
	bulkMB := fs.Int64("bulk-mb", store.DefaultBulkMB, "a first ingest (into an empty store) holds its writes in memory, up to this many MiB at a time, and writes them to Badger's tables in sorted passes: no log, no compactions (-1: write transactionally)")
	log, err := parseFlags(fs, args, &c, std.err)
	if err != nil {
		return err
	}
	defer c.stopProfile()
	if fs.NArg() == 0 {
		return usageExit(fs)
	}
	db, err := openStoreWith(storeOptions(c.data, false, true, log).WithSync(*syncWrites).WithCensus(*censusFile != "").WithBulkRestart(!*dryRun))
	if err != nil {
		return err
	}
	defer closeStore(db, &err)
	if !*dryRun && *bulkMB >= 0 {
		if err := beginBulk(db, *bulkMB, log); err != nil {
			return err
		}
		defer endBulk(db, &err)
	}
	if limit := *memLimit; limit > 0 {
		if db.Bulk() && !flagSet(fs, "mem-limit-mb") {
			// the tier is ~700 MB of long-lived memory on the arXiv file:
			// near a limit of 1100 MiB the collector ran all the time
			// (115 s, 193 CPU-s), at 1400 MiB 88 s and 144 CPU-s, RSS 1.25 GB
			budget := *bulkMB
			if budget == 0 {
				budget = store.DefaultBulkMB
			}
			limit = max(limit, int(budget)+400)
		}
		// Measured on the 47,919-record arXiv file, writing transactionally:
		// peak RSS 1.51 GiB without, 1.33 GiB with 1100 MiB, for 3% of the speed.
		setMemLimit(int64(limit), flagSet(fs, "mem-limit-mb"), ingestHeapShare, log)
	}
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
		fmt.Fprintln(std.out, "dry run: nothing is written")
	}
	var records []store.CensusRow
	sum, err := ingestPaths(ctx, svc, fs.Args(), *workers, std.err, log, func() {
		if *censusFile != "" {
			db.Sync() // the last batch's commit is counted when it starts; wait for it to land
			records = db.Census()
		}
	})
	if *censusFile != "" {
		db.Sync()
		if cerr := writeCensus(*censusFile, records, db.Census()); cerr != nil {
			log.Error().Err(cerr).Str("file", *censusFile).Msg("write census not written")
		}
	}
	if *memprofile != "" {
		if perr := writeHeapProfile(*memprofile); perr != nil {
			log.Error().Err(perr).Str("file", *memprofile).Msg("heap profile not written")
		}
	}
	if sum != nil {
		if *asJSON {
			enc := json.NewEncoder(std.out)
			enc.SetIndent("", "  ")
			_ = enc.Encode(sum)
		} else {
			sum.print(std.out)
		}
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(std.err, "kg ingest: interrupted; every document listed above is stored whole. Run the same command again to finish: nothing is duplicated.")
		return exitError{130}
	}
	if errors.Is(err, store.ErrDiskFull) && db.Bulk() {
		return fmt.Errorf("%w; a first ingest is written to the disk when it ends, so nothing of it is stored: free space, or use --data on a larger disk, and run the same command again", err)
	}
	if errors.Is(err, store.ErrDiskFull) {
		// every document written is whole; the settle left is done by the next run
		st, serr := svc.Stats(context.WithoutCancel(ctx))
		if serr != nil {
			return err
		}
		return fmt.Errorf("%w; %d papers stored, run the same command again to continue (after freeing space, or with --data on a larger disk): nothing is duplicated", err, st.Papers)
	}
	if err != nil {
		return err
	}
	if sum.Failed > 0 {
		return exitError{1}
	}
	return nil
}

// beginBulk makes the first ingest into an empty store a bulk load
// (store/bulk.go), and starts over one that a crash left unfinished. On
// a store that holds a graph the ingest writes transactionally.
func beginBulk(db *store.DB, budgetMB int64, log zerolog.Logger) error {
	if db.Interrupted() {
		log.Warn().Msg("the store holds an unfinished first ingest (killed before it ended): starting it over")
	} else if holds, err := db.HoldsGraph(); err != nil || holds {
		return err
	}
	return db.BeginBulk(budgetMB)
}

// endBulk writes a bulk load's commits to Badger, also after an interrupt
// or a store error (what was committed is then stored, as a transactional
// run would have stored it); when that fails, the next ingest starts over.
func endBulk(db *store.DB, err *error) {
	eerr := db.EndBulk()
	switch {
	case eerr == nil, *err != nil && errors.Is(*err, eerr): // said already
	case errors.Is(eerr, store.ErrDiskFull):
		eerr = fmt.Errorf("%w; a first ingest is written to the disk when it ends, so nothing of it is stored: free space, or use --data on a larger disk, and run the same command again", eerr)
		*err = errors.Join(*err, eerr)
	default:
		*err = errors.Join(*err, fmt.Errorf("%w; nothing of this first ingest is stored: run the same command again", eerr))
	}
}

// writeCensus writes the writes of the records and of the settle (the
// whole run's less the records'), one row per phase and kind of key.
func writeCensus(path string, records, all []store.CensusRow) error {
	var b strings.Builder
	b.WriteString("phase\tkind\twrites\tdeletes\tbytes\n")
	before := map[string]store.CensusRow{}
	for _, r := range records {
		before[r.Kind] = r
		fmt.Fprintf(&b, "records\t%s\t%d\t%d\t%d\n", r.Kind, r.Writes, r.Deletes, r.Bytes)
	}
	for _, r := range all {
		p := before[r.Kind]
		if w, d, n := r.Writes-p.Writes, r.Deletes-p.Deletes, r.Bytes-p.Bytes; w != 0 || d != 0 {
			fmt.Fprintf(&b, "settle\t%s\t%d\t%d\t%d\n", r.Kind, w, d, n)
		}
	}
	return writeFileAtomic(path, []byte(b.String()))
}
