package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// soakQueries is the mixed load: what a dashboard and people exploring ask
// ($NAME: an author's name, $ID: that author's id, quoted). The last is refused
// on purpose (a bad id): it must be answered with its error, every time.
var soakQueries = []string{
	`{ stats { papers authors concepts edges } }`,
	`{ author(name: $NAME) { name coauthors(first: 10) { weight author { name } sharedPapers { title } } } }`,
	`{ search(text: "learning", first: 10) { score node { id label } } }`,
	`{ concept(name: "reinforcement learning") { name related(first: 10) { weight concept { name } } } }`,
	`{ neighborhood(id: $ID, depth: 2, first: 100) { nodes { id label } edges { type weight } } }`,
	`{ author(name: $NAME) { papers(first: 5) { totalCount nodes { title related(first: 5) { score paper { title } } } } } }`,
	`{ paper(id: "paper:zero") { title } }`,
}

type soakResult struct {
	Variant     string    `json:"variant"`
	Seconds     float64   `json:"seconds"`
	Requests    int64     `json:"requests"`
	PerSecond   float64   `json:"requestsPerSecond"`
	Errors      int64     `json:"errors"`      // transport errors, non-200, unexpected GraphQL errors
	Refused     int64     `json:"refused"`     // the deliberately bad query, answered with its error
	P50ms       float64   `json:"p50ms"`       // latency of the normal clients
	P99ms       float64   `json:"p99ms"`       //
	SlowClients int       `json:"slowClients"` // slow variant: clients trickling one byte at a time
	RSSMiB      []float64 `json:"rssMiB"`      // server RSS sampled from /metrics
}

func cmdSoak(ctx context.Context, args []string, std stdio) error {
	var c commonFlags
	fs := newFlagSet("soak", `kg soak [--addr 127.0.0.1:8080] [--duration 60s] [--variant mixed|slow|conns]

Load-tests a running kg serve on this machine (loopback addresses only):
  mixed  clients send a mix of dashboard queries as fast as the server answers;
  slow   the same, plus clients that trickle their requests a byte at a time;
  conns  the same, with a new connection for every request (many sockets).
Bounded by --duration and --max-requests. Reports requests/s, errors (the
goal is 0), p50/p99 latency and the server's RSS over time (from /metrics;
the goal is flat). Start the server first, e.g. kg serve --data DIR.`, std.err, &c)
	addr := fs.String("addr", envOr("KG_ADDR", "127.0.0.1:8080"), "address of the kg serve to load (loopback only)")
	duration := fs.Duration("duration", time.Minute, "how long to run (at most 10m)")
	maxReq := fs.Int64("max-requests", 5_000_000, "stop after this many requests")
	clients := fs.Int("clients", 2*runtime.GOMAXPROCS(0), "concurrent clients")
	variant := fs.String("variant", "mixed", "mixed, slow or conns")
	author := fs.String("author", "Xiaoxi Jiang", "an author in the served graph, for the author queries")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if _, err := parseFlags(fs, args, &c, std.err); err != nil {
		return err
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %w", *addr, err)
	}
	if ip := net.ParseIP(host); !(host == "localhost" || ip != nil && ip.IsLoopback()) {
		return fmt.Errorf("--addr %s is not a loopback address: kg soak only loads a server on this machine", *addr)
	}
	if *duration <= 0 || *duration > 10*time.Minute {
		return fmt.Errorf("--duration %v: between 1s and 10m", *duration)
	}
	if *variant != "mixed" && *variant != "slow" && *variant != "conns" {
		return fmt.Errorf("--variant %q: mixed, slow or conns", *variant)
	}
	base := "http://" + *addr
	id, err := soakAuthor(base, *author)
	if err != nil {
		return err
	}
	fill := strings.NewReplacer("$NAME", strconv.Quote(*author), "$ID", strconv.Quote(id))
	queries := make([]string, len(soakQueries))
	for i, q := range soakQueries {
		queries[i] = fill.Replace(q)
	}
	res := runSoak(ctx, base, queries, *variant, *duration, *maxReq, *clients)
	if *asJSON {
		enc := json.NewEncoder(std.out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
		if res.Errors > 0 {
			return exitError{1}
		}
		return nil
	}
	fmt.Fprintf(std.out, "%s: %d requests in %.1f s (%.0f/s), %d errors, %d refused as expected; p50 %.2f ms, p99 %.2f ms\n",
		res.Variant, res.Requests, res.Seconds, res.PerSecond, res.Errors, res.Refused, res.P50ms, res.P99ms)
	fmt.Fprintf(std.out, "server RSS (MiB, every 5 s): %v\n", res.RSSMiB)
	if res.Errors > 0 {
		return exitError{1}
	}
	return nil
}

// soakAuthor finds the id of the author the queries ask about.
func soakAuthor(base, name string) (string, error) {
	body, _ := json.Marshal(map[string]any{"query": `query($n: String!) { author(name: $n) { id } }`, "variables": map[string]any{"n": name}})
	resp, err := http.Post(base+"/graphql", "application/json", bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("no kg serve at %s: %w", base, err)
	}
	defer resp.Body.Close()
	var out struct {
		Data struct {
			Author *struct{ ID string } `json:"author"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Data.Author == nil {
		return "", fmt.Errorf("no author %q in the served graph (%v): pass --author with a name it has", name, err)
	}
	return out.Data.Author.ID, nil
}

func runSoak(ctx context.Context, base string, queries []string, variant string, d time.Duration, maxReq int64, clients int) soakResult {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	tr := &http.Transport{MaxIdleConnsPerHost: clients, DisableKeepAlives: variant == "conns"}
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	var sent, errs, refused atomic.Int64
	lat := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for q := i; ctx.Err() == nil && sent.Add(1) <= maxReq; q++ {
				k := q % len(queries)
				t0 := time.Now()
				ok, gqlErr := soakRequest(ctx, client, base, queries[k])
				if ctx.Err() != nil {
					return // the run ended mid-request: not the server's fault
				}
				lat[i] = append(lat[i], time.Since(t0))
				bad := k == len(queries)-1
				switch {
				case !ok:
					errs.Add(1)
				case bad && gqlErr:
					refused.Add(1)
				case gqlErr != bad:
					errs.Add(1)
				}
			}
		}(i)
	}
	slow := 0
	if variant == "slow" {
		slow = 50
		for i := 0; i < slow; i++ {
			wg.Add(1)
			go func() { defer wg.Done(); trickle(ctx, base) }()
		}
	}
	var rss []float64
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	sample := func() {
		if v, ok := serverRSS(base); ok {
			rss = append(rss, v)
		}
	}
	sample()
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-tick.C:
			sample()
			if sent.Load() >= maxReq {
				cancel()
			}
		}
	}
	wg.Wait()
	sample()
	secs := time.Since(start).Seconds()
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	pct := func(p float64) float64 {
		if len(all) == 0 {
			return 0
		}
		return float64(all[min(len(all)-1, int(p*float64(len(all))))].Microseconds()) / 1000
	}
	n := int64(len(all))
	return soakResult{Variant: variant, Seconds: secs, Requests: n, PerSecond: float64(n) / secs,
		Errors: errs.Load(), Refused: refused.Load(), P50ms: pct(0.50), P99ms: pct(0.99), SlowClients: slow, RSSMiB: rss}
}

// soakRequest posts one query; ok is false for transport errors and
// non-200 answers, gqlErr says the answer carried GraphQL errors.
func soakRequest(ctx context.Context, c *http.Client, base, query string) (ok, gqlErr bool) {
	body, _ := json.Marshal(map[string]string{"query": query})
	req, err := http.NewRequestWithContext(ctx, "POST", base+"/graphql", bytes.NewReader(body))
	if err != nil {
		return false, false
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return false, false
	}
	defer resp.Body.Close()
	var out struct {
		Errors []json.RawMessage `json:"errors"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&out) != nil {
		return false, false
	}
	return true, len(out.Errors) > 0
}

// trickle opens a connection and sends a request one byte every 100 ms,
// again and again until the run ends (the server drops it at its read
// timeout).
func trickle(ctx context.Context, base string) {
	host := base[len("http://"):]
	req := "POST /graphql HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{\"query\":\"{ stats { papers } }\"}       "
	for ctx.Err() == nil {
		conn, err := net.DialTimeout("tcp", host, time.Second)
		if err != nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		for i := 0; i < len(req) && ctx.Err() == nil; i++ {
			if _, err := conn.Write([]byte{req[i]}); err != nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		conn.Close()
	}
}

var rssLine = regexp.MustCompile(`(?m)^kg_process_resident_bytes (\d+)$`)

func serverRSS(base string) (float64, bool) {
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	m := rssLine.FindSubmatch(b)
	if m == nil {
		return 0, false
	}
	n, _ := strconv.ParseFloat(string(m[1]), 64)
	return float64(int(n/(1<<20)*10)) / 10, true
}
