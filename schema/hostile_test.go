package schema_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/researchkg/kg/schema"
)

const token = "0123456789abcdef0123"

func serverWith(t *testing.T, opts schema.Options) *httptest.Server {
	t.Helper()
	h, err := newHandlerWith(t, opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// postAs sends a query with an Authorization header (empty: none).
func postAs(t *testing.T, srv *httptest.Server, auth, query string, vars map[string]any) gqlResponse {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest("POST", srv.URL+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out gqlResponse
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("status %d: %v", resp.StatusCode, err)
	}
	return out
}

func code(r gqlResponse) string {
	if len(r.Errors) == 0 {
		return ""
	}
	c, _ := r.Errors[0].Extensions["code"].(string)
	return c
}

// Every answer reports its estimated cost; one over the budget is refused
// before it runs, quickly, whatever it would have read.
func TestQueryCost(t *testing.T) {
	srv := serverWith(t, schema.Options{CostBudget: 20000})
	r := post(t, srv, `{ stats { papers } }`, nil)
	if r.Extensions["cost"] != float64(2) || r.Extensions["budget"] != float64(20000) {
		t.Errorf("cost of stats: %v", r.Extensions)
	}
	// 1 author + 1 coauthors list + 7 per co-author (first: 7) × 2 fields
	r = post(t, srv, `{ author(name: "Xiaoxi Jiang") { coauthors(first: 7) { weight author { name } } } }`, nil)
	if r.Extensions["cost"] != float64(1+1+7*3) {
		t.Errorf("cost with first 7: %v, want %d", r.Extensions["cost"], 1+1+7*3)
	}
	// a connection's first sizes its nodes
	r = post(t, srv, `{ author(name: "Xiaoxi Jiang") { papers(first: 20) { totalCount nodes { title } } } }`, nil)
	if r.Extensions["cost"] != float64(1+1+1+1+20) {
		t.Errorf("cost of papers(first: 20): %v, want %d", r.Extensions["cost"], 1+1+1+1+20)
	}
	// a variable counts like a literal
	r = post(t, srv, `query($n: Int) { author(name: "Xiaoxi Jiang") { coauthors(first: $n) { weight } } }`, map[string]any{"n": 50})
	if r.Extensions["cost"] != float64(1+1+50) {
		t.Errorf("cost with first $n=50: %v", r.Extensions["cost"])
	}
	// 500 nodes (the neighbourhood's first) × 100 related papers × 2 fields
	expensive := `{ neighborhood(id: "author:1", first: 500) { nodes { ... on Paper { related(first: 100) { paper { title } } } } } }`
	start := time.Now()
	r = post(t, srv, expensive, nil)
	if code(r) != "TOO_COSTLY" || time.Since(start) > 2*time.Second {
		t.Errorf("expensive query: %+v after %v", r.Errors, time.Since(start))
	}
	if r.Data != nil {
		t.Errorf("a refused query returned data: %v", r.Data)
	}
}

func TestTooManyFragments(t *testing.T) {
	srv := serverWith(t, schema.Options{MaxFragments: 50})
	var b strings.Builder
	b.WriteString("{ stats { ")
	for i := 0; i < 60; i++ {
		b.WriteString("... on Stats { papers } ")
	}
	b.WriteString("} }")
	if r := post(t, srv, b.String(), nil); code(r) != "TOO_MANY_FRAGMENTS" {
		t.Errorf("60 inline fragments: %+v", r.Errors)
	}
}

// Writes need the token; without one configured they are off; reads stay
// open either way.
func TestIngestMutationNeedsToken(t *testing.T) {
	line, err := os.ReadFile("../testdata/arxiv/sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	m := `mutation($t: String!) { ingest(name: "sample.jsonl", text: $t) { documents failed papersAdded failures } }`
	vars := map[string]any{"t": string(line)}

	off := serverWith(t, schema.Options{})
	if r := postAs(t, off, "Bearer "+token, m, vars); code(r) != "WRITES_DISABLED" {
		t.Errorf("no token configured: %+v", r.Errors)
	}
	ro := serverWith(t, schema.Options{WriteToken: token, ReadOnly: true})
	if r := postAs(t, ro, "Bearer "+token, m, vars); code(r) != "WRITES_DISABLED" {
		t.Errorf("read-only: %+v", r.Errors)
	}

	srv := serverWith(t, schema.Options{WriteToken: token})
	for _, auth := range []string{"", "Bearer wrong-token-of-some-length", "Basic " + token, token} {
		if r := postAs(t, srv, auth, m, vars); code(r) != "UNAUTHENTICATED" {
			t.Errorf("auth %q: %+v", auth, r.Errors)
		}
	}
	before := num(get(post(t, srv, `{ stats { papers } }`, nil).Data, "stats", "papers"))
	r := postAs(t, srv, "Bearer "+token, m, vars)
	if len(r.Errors) > 0 {
		t.Fatalf("ingest with the token: %+v", r.Errors)
	}
	lines := strings.Count(strings.TrimSpace(string(line)), "\n") + 1
	added := num(get(r.Data, "ingest", "papersAdded"))
	// the sample's last line is malformed on purpose: reported, skipped
	if num(get(r.Data, "ingest", "documents"))+num(get(r.Data, "ingest", "failed")) != lines || added == 0 {
		t.Errorf("report: %v (want %d lines accounted for)", r.Data, lines)
	}
	after := num(get(post(t, srv, `{ stats { papers } }`, nil).Data, "stats", "papers"))
	if after != before+added {
		t.Errorf("papers %d → %d, report says %d added", before, after, added)
	}
	// a broken document is listed and skipped; the good one lands
	bad := map[string]any{"t": strings.SplitN(string(line), "\n", 2)[0] + "\n{\"id\": \"2501.00001\", \"title\": \"Broken\n"}
	r = postAs(t, srv, "Bearer "+token, m, bad)
	if num(get(r.Data, "ingest", "failed")) != 1 || !strings.Contains(fmt.Sprint(get(r.Data, "ingest", "failures")), "sample.jsonl:2") {
		t.Errorf("broken line: %+v %v", r.Errors, r.Data)
	}
	// text in no known format is refused as such
	r = postAs(t, srv, "Bearer "+token, m, map[string]any{"t": "\x00\x01 not a format"})
	if code(r) != "INVALID" || !strings.Contains(r.Errors[0].Message, "unknown format") {
		t.Errorf("garbage text: %+v", r.Errors)
	}
}

// A dashboard on another origin may call when allowed: preflight answered,
// the origin echoed; others get no CORS headers.
func TestCORS(t *testing.T) {
	srv := serverWith(t, schema.Options{CORSOrigins: []string{"https://dash.example.org"}})
	for _, tc := range []struct {
		origin, method string
		status         int
		allow          string
	}{
		{"https://dash.example.org", "OPTIONS", 204, "https://dash.example.org"},
		{"https://dash.example.org", "GET", 200, "https://dash.example.org"},
		{"https://evil.example.com", "OPTIONS", 405, ""},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+"/graphql?query=%7Bstats%7Bpapers%7D%7D", nil)
		req.Header.Set("Origin", tc.origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status || resp.Header.Get("Access-Control-Allow-Origin") != tc.allow {
			t.Errorf("%s %s: %d allow=%q", tc.method, tc.origin, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
		}
	}
}

// /metrics counts what was served and refused.
func TestMetrics(t *testing.T) {
	srv := serverWith(t, schema.Options{StoreBytes: func() int64 { return 12345 }})
	for i := 0; i < 3; i++ {
		post(t, srv, `{ stats { papers } }`, nil)
	}
	post(t, srv, `{ paper(id: "paper:zero") { title } }`, nil)
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	text := string(b)
	for _, want := range []string{
		`kg_http_requests_total{path="/graphql",status="200"} 4`,
		`kg_http_request_duration_seconds_count{path="/graphql"} 4`,
		`kg_graphql_errors_total{code="INVALID"} 1`,
		`kg_store_bytes 12345`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %q:\n%s", want, text)
		}
	}
	if m := regexp.MustCompile(`kg_process_resident_bytes (\d+)`).FindStringSubmatch(text); m == nil {
		t.Error("no resident set size")
	} else if n, _ := strconv.ParseInt(m[1], 10, 64); n <= 0 {
		t.Errorf("resident bytes %d", n)
	}
}

// Ingest over HTTP while dashboards read (run under -race): every query
// answers without error, and the counts only grow.
func TestIngestWhileServing(t *testing.T) {
	srv := serverWith(t, schema.Options{WriteToken: token})
	lines, err := os.ReadFile("../testdata/arxiv/sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := 0
			for {
				select {
				case <-stop:
					return
				default:
				}
				r := post(t, srv, `{ stats { papers } author(name: "Xiaoxi Jiang") { coauthors { weight } } search(text: "reward") { score } }`, nil)
				if len(r.Errors) > 0 {
					t.Errorf("query during ingest: %+v", r.Errors)
					return
				}
				n := num(get(r.Data, "stats", "papers"))
				if n < last {
					t.Errorf("papers went from %d to %d", last, n)
				}
				last = n
			}
		}()
	}
	for _, l := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
		r := postAs(t, srv, "Bearer "+token, `mutation($t: String!) { ingest(name: "s", text: $t) { papersAdded } }`, map[string]any{"t": l})
		if len(r.Errors) > 0 {
			t.Errorf("ingest: %+v", r.Errors)
		}
	}
	close(stop)
	wg.Wait()
}
