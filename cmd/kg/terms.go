package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sync"
	"time"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/nlp"
	"github.com/researchkg/kg/store"
)

// termsInput is one input line of kg terms: {"id", "text"}, optionally with
// a "title"; arXiv metadata lines ({"id", "title", "abstract"}) work too.
type termsInput struct {
	ID       json.RawMessage `json:"id"`
	Text     string          `json:"text"`
	Title    string          `json:"title"`
	Abstract string          `json:"abstract"`
}

type termsOutput struct {
	ID    json.RawMessage `json:"id"`
	Terms []string        `json:"terms"`
}

// openInput opens a file (or stdin for "" and "-"), un-gzipping it when it
// starts with the gzip magic bytes.
func openInput(name string, stdin io.Reader) (io.Reader, func() error, error) {
	f := io.NopCloser(stdin)
	if name != "" && name != "-" {
		fh, err := os.Open(name)
		if err != nil {
			return nil, nil, err
		}
		f = fh
	}
	br := bufio.NewReaderSize(f, 1<<20)
	if head, _ := br.Peek(2); bytes.Equal(head, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		return zr, f.Close, nil
	}
	return br, f.Close, nil
}

// combinedStats adds the store's document frequencies (when --data is
// given) to the input's own.
type combinedStats struct {
	mem   *nlp.MemStats
	store *graph.StoreStats // may be nil
}

func (c combinedStats) Docs() int {
	n := c.mem.Docs()
	if c.store != nil {
		n += c.store.Docs()
	}
	return n
}

func (c combinedStats) DocFreq(key string) int {
	n := c.mem.DocFreq(key)
	if c.store != nil {
		n += c.store.DocFreq(key)
	}
	return n
}

func (c combinedStats) Acronym(s string) (string, bool) {
	if l, ok := c.mem.Acronym(s); ok {
		return l, true
	}
	if c.store != nil {
		return c.store.Acronym(s)
	}
	return "", false
}

func cmdTerms(ctx context.Context, args []string, std stdio) (err error) {
	var c commonFlags
	fs := newFlagSet("terms", `kg terms [--top N] [--data DIR] [FILE]

Reads JSON lines {"id": ..., "text": ...} (optionally "title"; arXiv metadata
lines with "title" and "abstract" work too; gzip is detected) from FILE or
standard input, and writes {"id": ..., "terms": ["best", ...]} per line, in
input order. All input is read and analysed first (on every core), so the
document frequencies of the input itself weigh the ranking; with --data (or
KG_DATA) the store's are added. Works without a data folder. A malformed line
is reported on stderr with its line number and skipped; the exit status is
then 1.`, std.err, &c)
	top := fs.Int("top", 10, "terms per document")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "analysis goroutines")
	memprofile := fs.String("memprofile", "", "write a heap profile after analysis to this file")
	log, err := parseFlags(fs, args, &c, std.err)
	if err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return fmt.Errorf("at most one input file, got %d", fs.NArg())
	}
	if *top < 1 || *workers < 1 {
		return fmt.Errorf("--top and --workers must be at least 1")
	}
	useStore := os.Getenv("KG_DATA") != "" || flagSet(fs, "data")
	name := fs.Arg(0)
	in, closeIn, err := openInput(name, std.in)
	if err != nil {
		return err
	}
	defer closeIn()
	if name == "" {
		name = "stdin"
	}

	// The whole input's analyses stay in memory until ranking: collect
	// garbage sooner than Go's default (heap = 2 × live) to keep RSS down.
	defer debug.SetGCPercent(debug.SetGCPercent(50))
	start := time.Now()
	ex := nlp.New()
	stats := combinedStats{mem: nlp.NewMemStats()}
	strs := nlp.NewStrings()
	docs, bad, err := analyzeLines(ctx, ex, name, in, *workers, std.err, func(a *nlp.Analysis) *nlp.Compact {
		stats.mem.Add(a)
		return a.Compact(strs)
	})
	if err != nil {
		return err
	}
	if useStore {
		var db *store.DB
		if db, err = openStore(c.data, true, false, log); err != nil {
			return err
		}
		defer closeStore(db, &err)
		var v *graph.View
		if v, err = graph.NewService(db, nil).View(ctx); err != nil {
			return err
		}
		defer v.Close()
		stats.store = v.CorpusStats()
	}
	analysed := time.Since(start)
	if *memprofile != "" {
		if err := writeHeapProfile(*memprofile); err != nil {
			return err
		}
	}
	out := bufio.NewWriterSize(std.out, 1<<16)
	enc := json.NewEncoder(out)
	for _, d := range docs {
		o := termsOutput{ID: d.id, Terms: []string{}}
		for _, t := range d.c.Analysis(strs).Rank(stats, *top) {
			o.Terms = append(o.Terms, t.Name)
		}
		if stats.store != nil && stats.store.Err() != nil {
			return fmt.Errorf("read document frequencies from %s: %w", c.data, stats.store.Err())
		}
		if err := enc.Encode(o); err != nil {
			return err
		}
	}
	if err := out.Flush(); err != nil {
		return err
	}
	took := time.Since(start)
	log.Info().Int("documents", len(docs)).Int("malformed", bad).Int("workers", *workers).
		Dur("analysis", analysed).Dur("took", took).
		Float64("docsPerSecond", float64(len(docs))/took.Seconds()).Msg("terms done")
	if bad > 0 {
		return exitError{1}
	}
	return nil
}

type analysedDoc struct {
	id json.RawMessage
	c  *nlp.Compact
}

// analyzeLines reads JSON lines and analyses them on workers goroutines,
// keeping input order. keep is called for each analysis under a lock and
// returns what to keep of it. Malformed lines are reported and counted.
func analyzeLines(ctx context.Context, ex *nlp.Extractor, name string, in io.Reader, workers int, stderr io.Writer,
	keep func(*nlp.Analysis) *nlp.Compact) ([]analysedDoc, int, error) {
	type job struct {
		i           int
		title, text string
	}
	var docs []analysedDoc
	var mu sync.Mutex
	jobs := make(chan job, 4*workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				a := ex.Candidates(j.title, j.text)
				mu.Lock()
				docs[j.i].c = keep(a)
				mu.Unlock()
			}
		}()
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	line, bad := 0, 0
	var readErr error
	for sc.Scan() {
		line++
		if ctx.Err() != nil {
			readErr = ctx.Err()
			break
		}
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var rec termsInput
		if err := json.Unmarshal(b, &rec); err != nil {
			bad++
			fmt.Fprintf(stderr, "%s:%d: %v\n", name, line, err)
			continue
		}
		text, title := rec.Text, rec.Title
		if text == "" {
			text = rec.Abstract
		}
		if len(rec.ID) == 0 {
			rec.ID = json.RawMessage(fmt.Sprint(line))
		}
		mu.Lock()
		docs = append(docs, analysedDoc{id: rec.ID})
		i := len(docs) - 1
		mu.Unlock()
		jobs <- job{i, title, text}
	}
	close(jobs)
	wg.Wait()
	if readErr == nil {
		if err := sc.Err(); err != nil {
			readErr = fmt.Errorf("%s:%d: %w", name, line+1, err)
		}
	}
	return docs, bad, readErr
}

func writeHeapProfile(name string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
