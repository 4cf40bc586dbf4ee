package schema_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/source"
	"github.com/researchkg/kg/nlp"
	"github.com/researchkg/kg/schema"
	"github.com/researchkg/kg/store"
)

var (
	extractor     *nlp.Extractor
	extractorOnce sync.Once
)

// newServer serves a graph of the seed pages over a real HTTP server.
func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	h, err := newHandler(t)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// newHandler builds the handler over an in-memory store of the seed pages.
func newHandler(t testing.TB) (*schema.Handler, error) {
	return newHandlerWith(t, schema.Options{})
}

// newHandlerWith is newHandler with options.
func newHandlerWith(t testing.TB, opts schema.Options) (*schema.Handler, error) {
	t.Helper()
	h, _, err := newHandlerDB(t, opts)
	return h, err
}

// newHandlerDB is newHandlerWith, and the store under it.
func newHandlerDB(t testing.TB, opts schema.Options) (*schema.Handler, *store.DB, error) {
	t.Helper()
	db, err := store.Open(store.DefaultOptions("").WithInMemory(true))
	if err != nil {
		return nil, nil, err
	}
	t.Cleanup(func() { closeStore(t, db) })
	extractorOnce.Do(func() { extractor = nlp.New() })
	svc := graph.NewService(db, extractor)
	files, _ := filepath.Glob("../testdata/seeds/*.txt")
	if len(files) != 3 {
		t.Fatalf("seed pages: %v", files)
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		err = source.Read(filepath.Base(f), fh, func(d graph.Document) error {
			_, err := svc.Ingest(context.Background(), d)
			return err
		}, nil)
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	h, err := schema.NewHandler(svc, opts)
	return h, db, err
}

type gqlResponse struct {
	Data       map[string]any `json:"data"`
	Extensions map[string]any `json:"extensions"`
	Errors     []struct {
		Message    string         `json:"message"`
		Extensions map[string]any `json:"extensions"`
		Path       []any          `json:"path"`
	} `json:"errors"`
}

func post(t *testing.T, srv *httptest.Server, query string, vars map[string]any) gqlResponse {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	resp, err := http.Post(srv.URL+"/graphql", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	var out gqlResponse
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// get walks a decoded JSON value by keys and indexes: get(v, "a", 0, "b").
func get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

func num(v any) int { f, _ := v.(float64); return int(f) }

func TestEndToEndSeeds(t *testing.T) {
	srv := newServer(t)
	r := post(t, srv, `{
	  stats { papers authors subjects repositories concepts edges }
	  x: author(name: "Xiaoxi Jiang") { name papers { totalCount } coauthors { weight author { name } sharedPapers { title } } }
	  g: author(name: "guanjun  jiang") { papers(first: 100) { totalCount nodes { title } } }
	  lg: subject(code: "cs.LG") { name papers { totalCount } }
	  as: subject(code: "eess.AS") { papers { totalCount } }
	  gd: paper(title: "GD2PO") { title year arxivId doi venue repositories { url owner { name } } }
	  t2s: paper(title: "trace2skill: distill trajectory-local lessons into transferable agent skills") { abstracts sources }
	  rl: concept(name: "RL") { name aliases papers { totalCount } }
	  nobody: author(name: "No Such Person")
	  { name }
	}`, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("errors: %+v", r.Errors)
	}
	d := r.Data
	for k, want := range map[string]int{"papers": 18, "authors": 2, "subjects": 5, "repositories": 10} {
		if got := num(get(d, "stats", k)); got != want {
			t.Errorf("stats.%s: got %d, want %d", k, got, want)
		}
	}
	if got := num(get(d, "x", "papers", "totalCount")); got != 18 {
		t.Errorf("Xiaoxi Jiang papers: got %d, want 18", got)
	}
	if got := num(get(d, "g", "papers", "totalCount")); got != 7 {
		t.Errorf("Guanjun Jiang papers: got %d, want 7", got)
	}
	if w, name := num(get(d, "x", "coauthors", 0, "weight")), get(d, "x", "coauthors", 0, "author", "name"); w != 7 || name != "Guanjun Jiang" {
		t.Errorf("co-author: got %v weight %d, want Guanjun Jiang 7", name, w)
	}
	if n := len(get(d, "x", "coauthors", 0, "sharedPapers").([]any)); n != 7 {
		t.Errorf("shared papers: got %d, want 7", n)
	}
	if get(d, "lg", "name") != "Machine Learning" || num(get(d, "lg", "papers", "totalCount")) != 8 || num(get(d, "as", "papers", "totalCount")) != 1 {
		t.Errorf("subjects: %v %v", get(d, "lg"), get(d, "as"))
	}
	if title, _ := get(d, "gd", "title").(string); !strings.HasPrefix(title, "GD²PO:") || get(d, "gd", "repositories", 0, "owner", "name") != "Qwen-Applications" {
		t.Errorf("GD2PO: %v", get(d, "gd"))
	}
	if a, s := get(d, "t2s", "abstracts").([]any), get(d, "t2s", "sources").([]any); len(a) != 2 || len(s) != 3 {
		t.Errorf("Trace2Skill: %d abstracts, %d sources; want 2 and 3", len(a), len(s))
	}
	if v, ok := d["gd"].(map[string]any); !ok || v["arxivId"] != nil || v["doi"] != nil {
		t.Errorf("seed papers carry no external ids: %v", d["gd"])
	}
	if get(d, "rl", "name") != "reinforcement learning" {
		t.Errorf("concept RL: %v", get(d, "rl"))
	}
	if v, ok := d["nobody"]; !ok || v != nil {
		t.Errorf("unknown author: got %v, want null", v)
	}
}

func TestPaginationOverHTTP(t *testing.T) {
	srv := newServer(t)
	q := `query($after: String) { author(name: "Xiaoxi Jiang") { papers(first: 5, after: $after) {
		totalCount edges { cursor node { id } } pageInfo { hasNextPage endCursor } } } }`
	seen := map[string]bool{}
	var after any
	for page := 0; page < 10; page++ {
		r := post(t, srv, q, map[string]any{"after": after})
		if len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
		p := get(r.Data, "author", "papers")
		for _, e := range get(p, "edges").([]any) {
			id := get(e, "node", "id").(string)
			if seen[id] {
				t.Fatalf("paper %s on two pages", id)
			}
			seen[id] = true
		}
		if get(p, "pageInfo", "hasNextPage") != true {
			break
		}
		after = get(p, "pageInfo", "endCursor")
	}
	if len(seen) != 18 {
		t.Errorf("paged through %d papers, want 18", len(seen))
	}
	r := post(t, srv, q, map[string]any{"after": "garbage!!"})
	if len(r.Errors) != 1 || r.Errors[0].Extensions["code"] != "INVALID" {
		t.Errorf("bad cursor: %+v", r.Errors)
	}
}

func TestRelatedSearchNeighborhood(t *testing.T) {
	srv := newServer(t)
	r := post(t, srv, `{
	  s: search(text: "gd2po", kinds: [PAPER], first: 3) { score node { id kind label } }
	  o: search(text: "qwen applications", kinds: [ORGANIZATION]) { node { ... on Organization { name repositories { url } } } }
	  p: paper(title: "Skill-RM: Unifying Heterogeneous Evaluation Criteria via Agent Skill") {
	    id related(first: 3) { score paper { title } sharedConcepts { name } sharedAuthors { name } sharedSubjects { code } }
	  }
	}`, nil)
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	if l, _ := get(r.Data, "s", 0, "node", "label").(string); !strings.HasPrefix(l, "GD²PO") || get(r.Data, "s", 0, "node", "kind") != "PAPER" {
		t.Errorf("search: %v", get(r.Data, "s"))
	}
	if n := len(get(r.Data, "o", 0, "node", "repositories").([]any)); n != 9 {
		t.Errorf("Qwen-Applications repositories: %d, want 9", n)
	}
	rel := get(r.Data, "p", "related").([]any)
	if len(rel) != 3 {
		t.Fatalf("related: %v", rel)
	}
	for _, x := range rel {
		if len(get(x, "sharedConcepts").([]any))+len(get(x, "sharedAuthors").([]any)) == 0 {
			t.Errorf("related paper without a reason: %v", x)
		}
	}
	id := get(r.Data, "p", "id").(string)
	n := post(t, srv, `query($id: ID!) { neighborhood(id: $id, depth: 1, kinds: [AUTHOR, SUBJECT, REPOSITORY]) {
		nodes { id kind } edges { source target type weight } } }`, map[string]any{"id": id})
	if len(n.Errors) > 0 {
		t.Fatal(n.Errors)
	}
	nodes := get(n.Data, "neighborhood", "nodes").([]any)
	kinds := map[any]int{}
	for _, x := range nodes {
		kinds[get(x, "kind")]++
	}
	if kinds["PAPER"] != 1 || kinds["AUTHOR"] != 1 || kinds["SUBJECT"] != 1 || kinds["REPOSITORY"] != 1 || kinds["CONCEPT"] != 0 {
		t.Errorf("neighbourhood kinds: %v", kinds)
	}
	if e := get(n.Data, "neighborhood", "edges").([]any); len(e) != 3 {
		t.Errorf("neighbourhood edges: %v", e)
	}
}

func TestErrorsHaveCodes(t *testing.T) {
	srv := newServer(t)
	for _, tc := range []struct{ query, code string }{
		{`{ paper(id: "paper:zero") { title } }`, "INVALID"},
		{`{ paper(id: "author:1") { title } }`, "INVALID"},
		{`{ paper { title } }`, "INVALID"},
		{`{ author(name: "Xiaoxi Jiang") { papers(first: 100000) { totalCount } } }`, "INVALID"},
		{`{ neighborhood(id: "paper:1", depth: 9) { nodes { id } } }`, "INVALID"},
		{`{ nosuchfield }`, "GRAPHQL_VALIDATION_FAILED"},
		{`{ author(name: ) }`, "PARSE_ERROR"},
		{`query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }`, "FRAGMENT_CYCLE"},
		{`{ author(name: "x") { papers { nodes { authors { papers { nodes { authors { papers { nodes { authors { papers { nodes { authors { name } } } } } } } } } } } } } }`, "TOO_DEEP"},
		{strings.Repeat("{", 30000), "TOO_DEEP"},
		{strings.Repeat("{", 100000), "QUERY_TOO_LARGE"},
		{fragmentBomb(25), "TOO_MANY_FRAGMENTS"},
		{"{" + strings.Repeat(" stats { papers }", 2600) + " }", "TOO_MANY_FIELDS"},
	} {
		r := post(t, srv, tc.query, nil)
		if len(r.Errors) == 0 || r.Errors[0].Extensions["code"] != tc.code {
			t.Errorf("%.60s: got %+v, want code %s", tc.query, r.Errors, tc.code)
		}
	}
	// the server survived all of it
	if r := post(t, srv, `{ stats { papers } }`, nil); num(get(r.Data, "stats", "papers")) != 18 {
		t.Errorf("after hostile queries: %+v", r)
	}
}

func TestHTTPSurface(t *testing.T) {
	srv := newServer(t)
	const (
		js   = "application/json"
		gql  = "application/graphql-response+json"
		good = `{"query":"{ stats { papers } }"}`
		bad  = `{"query":"{ stats { papers "}`
	)
	for _, tc := range []struct {
		method, path, contentType, accept, body string
		status                                  int
		contains, media, allow                  string
	}{
		{"GET", "/healthz", "", "", "", 200, "ok", "text/plain", ""},
		{"GET", "/graphql", "", "", "", 200, "<title>kg", "text/html", ""},
		{"GET", "/graphql?query=%7Bstats%7Bpapers%7D%7D", "", "", "", 200, `"papers":18`, js, ""},
		{"PUT", "/graphql", "", "", "", 405, "METHOD_NOT_ALLOWED", js, "GET, POST"},
		{"POST", "/graphql", js, "", "{not json", 400, "BAD_REQUEST", js, ""},
		{"POST", "/graphql", js, "", `{"query":"` + strings.Repeat("a", 2<<20) + `"}`, 413, "BODY_TOO_LARGE", js, ""},
		{"GET", "/nope", "", "", "", 404, "", "", ""},
		// GraphQL over HTTP
		{"POST", "/graphql", "", "", good, 415, "UNSUPPORTED_MEDIA_TYPE", js, ""},
		{"POST", "/graphql", "text/plain", "", good, 415, "UNSUPPORTED_MEDIA_TYPE", js, ""},
		{"POST", "/graphql", "application/json; charset=utf-8", gql, good, 200, `"papers":18`, gql, ""},
		{"POST", "/graphql", js, gql, bad, 400, "PARSE_ERROR", gql, ""},
		{"POST", "/graphql", js, "", bad, 200, "PARSE_ERROR", js, ""},
		{"POST", "/graphql", js, js, `{"query":"{ nope }"}`, 200, "GRAPHQL_VALIDATION_FAILED", js, ""},
		{"POST", "/graphql", js, gql + ", " + js + ";q=0.9", `{"query":"{ nope }"}`, 400, "GRAPHQL_VALIDATION_FAILED", gql, ""},
		{"POST", "/graphql", js, js + ";q=0.5, " + gql, bad, 400, "PARSE_ERROR", gql, ""},
		{"POST", "/graphql", js, "text/html", good, 406, "NOT_ACCEPTABLE", js, ""},
		{"GET", "/graphql?query=" + url.QueryEscape(`mutation { ingest(name: "x", text: "y") { documents } }`), "", "", "", 405, "METHOD_NOT_ALLOWED", js, "POST"},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(tc.body))
		if tc.contentType != "" {
			req.Header.Set("Content-Type", tc.contentType)
		}
		if tc.accept != "" {
			req.Header.Set("Accept", tc.accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		name := fmt.Sprintf("%s %.60s (Content-Type %q, Accept %q)", tc.method, tc.path, tc.contentType, tc.accept)
		if resp.StatusCode != tc.status || !strings.Contains(string(b), tc.contains) {
			t.Errorf("%s: got %d %.100q, want %d containing %q", name, resp.StatusCode, b, tc.status, tc.contains)
		}
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.media) {
			t.Errorf("%s: Content-Type %q, want %s", name, resp.Header.Get("Content-Type"), tc.media)
		}
		if got := resp.Header.Get("Allow"); got != tc.allow {
			t.Errorf("%s: Allow %q, want %q", name, got, tc.allow)
		}
	}
}

// A query over GET carries an ETag and the configured Cache-Control; the
// same query with If-None-Match gets 304 and no body; an answer with
// errors is not cached.
func TestGetCaching(t *testing.T) {
	h, err := newHandlerWith(t, schema.Options{CacheControl: "max-age=30"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	do := func(query, ifNoneMatch string) (*http.Response, string) {
		req, _ := http.NewRequest("GET", srv.URL+"/graphql?query="+url.QueryEscape(query), nil)
		if ifNoneMatch != "" {
			req.Header.Set("If-None-Match", ifNoneMatch)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}
	resp, body := do("{ stats { papers } }", "")
	etag := resp.Header.Get("ETag")
	if resp.StatusCode != 200 || etag == "" || resp.Header.Get("Cache-Control") != "max-age=30" {
		t.Fatalf("first GET: %d, ETag %q, Cache-Control %q", resp.StatusCode, etag, resp.Header.Get("Cache-Control"))
	}
	if resp, body2 := do("{ stats { papers } }", etag); resp.StatusCode != http.StatusNotModified || body2 != "" {
		t.Errorf("GET with If-None-Match %s: %d %q, want 304 and no body", etag, resp.StatusCode, body2)
	}
	if resp, body2 := do("{ stats { papers } }", `"other"`); resp.StatusCode != 200 || body2 != body {
		t.Errorf("GET with another ETag: %d %q, want 200 and the same body", resp.StatusCode, body2)
	}
	if resp, _ := do("{ stats { papers } } ", ""); resp.Header.Get("ETag") != etag {
		t.Errorf("the same answer to another text has another ETag: %q, %q", resp.Header.Get("ETag"), etag)
	}
	if resp, _ := do("{ nope }", ""); resp.Header.Get("ETag") != "" || resp.Header.Get("Cache-Control") != "" {
		t.Errorf("an error answer is cacheable: ETag %q, Cache-Control %q", resp.Header.Get("ETag"), resp.Header.Get("Cache-Control"))
	}
}

// fragmentBomb builds n fragments each spreading the next twice: 2^n fields
// once expanded, from a query of a few hundred bytes.
func fragmentBomb(n int) string {
	var b strings.Builder
	b.WriteString("{ ...F0 }\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "fragment F%d on Query { stats { papers } ...F%d ...F%d }\n", i, i+1, i+1)
	}
	fmt.Fprintf(&b, "fragment F%d on Query { stats { papers } }\n", n)
	return b.String()
}

// The standard introspection query, every option on, is answered: every
// GraphQL tool sends it first. Its nesting is the schema's, beyond
// MaxDepth; abusive introspection is still refused.
func TestIntrospection(t *testing.T) {
	srv := newServer(t)
	q, err := os.ReadFile("testdata/introspection.graphql")
	if err != nil {
		t.Fatal(err)
	}
	res := post(t, srv, string(q), nil)
	if len(res.Errors) > 0 {
		t.Fatalf("the standard introspection query: %+v", res.Errors)
	}
	types := map[string]any{}
	for _, ty := range get(res.Data, "__schema", "types").([]any) {
		types[get(ty, "name").(string)] = ty
	}
	for _, name := range []string{"Query", "Mutation", "Paper", "Author", "Concept", "PaperConnection", "__Schema"} {
		if types[name] == nil {
			t.Errorf("type %s missing from the introspection", name)
		}
	}
	if get(res.Data, "__schema", "queryType", "name") != "Query" {
		t.Errorf("queryType: %v", get(res.Data, "__schema", "queryType"))
	}
	for _, d := range get(res.Data, "__schema", "directives").([]any) {
		if get(d, "isRepeatable") != false {
			t.Errorf("directive %v: isRepeatable %v", get(d, "name"), get(d, "isRepeatable"))
		}
	}

	for _, c := range []struct{ name, query, code string }{
		{"__schema under many aliases", "{ a: __schema { types { name } } b: __schema { types { name } } c: __schema { types { name } } d: __schema { types { name } } }", "TOO_MANY_FIELDS"},
		{"lists inside lists", "{ __type(name: \"Query\") { fields { type { fields { type { fields { type { fields { name } } } } } } } } }", "TOO_DEEP"},
		{"types inside types", "{ __schema { types { fields { args { type { fields { name } } } } } } }", "TOO_DEEP"},
	} {
		res := post(t, srv, c.query, nil)
		if len(res.Errors) == 0 || res.Errors[0].Extensions["code"] != c.code {
			t.Errorf("%s: %+v, want %s", c.name, res.Errors, c.code)
		}
	}
	// the data's own nesting keeps its bound
	deep := "{ paper(title: \"x\") { concepts { concept { papers { nodes { concepts { concept { papers { nodes { concepts { concept { papers { nodes { title } } } } } } } } } } } } } }"
	if res := post(t, srv, deep, nil); len(res.Errors) == 0 || res.Errors[0].Extensions["code"] != "TOO_DEEP" {
		t.Errorf("a deep data query: %+v, want TOO_DEEP", res.Errors)
	}
}

// Automatic persisted queries as Apollo's clients send them: an unknown
// hash gets PERSISTED_QUERY_NOT_FOUND, the query sent with its hash is
// registered and answered, then the hash alone is enough, over POST and
// GET. A hash that is not the query's is refused and registers nothing.
func TestPersistedQueries(t *testing.T) {
	srv := newServer(t)
	query := "{ stats { papers } }"
	sum := sha256.Sum256([]byte(query))
	hash := hex.EncodeToString(sum[:])
	ext := map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hash}}
	send := func(body map[string]any) gqlResponse {
		t.Helper()
		b, _ := json.Marshal(body)
		resp, err := http.Post(srv.URL+"/graphql", "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out gqlResponse
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	code := func(r gqlResponse) any {
		if len(r.Errors) == 0 {
			return nil
		}
		return r.Errors[0].Extensions["code"]
	}
	if r := send(map[string]any{"extensions": ext}); code(r) != "PERSISTED_QUERY_NOT_FOUND" {
		t.Fatalf("an unknown hash: %+v, want PERSISTED_QUERY_NOT_FOUND", r.Errors)
	}
	other := sha256.Sum256([]byte("{ stats { authors } }"))
	wrong := map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hex.EncodeToString(other[:])}}
	if r := send(map[string]any{"query": query, "extensions": wrong}); code(r) != "BAD_REQUEST" {
		t.Errorf("a query with another's hash: %+v, want BAD_REQUEST", r.Errors)
	}
	if r := send(map[string]any{"extensions": wrong}); code(r) != "PERSISTED_QUERY_NOT_FOUND" {
		t.Errorf("a mismatched hash was registered: %+v", r.Errors)
	}
	if r := send(map[string]any{"query": query, "extensions": ext}); len(r.Errors) > 0 || num(get(r.Data, "stats", "papers")) != 18 {
		t.Fatalf("register: %+v %v", r.Errors, r.Data)
	}
	if r := send(map[string]any{"extensions": ext}); len(r.Errors) > 0 || num(get(r.Data, "stats", "papers")) != 18 {
		t.Errorf("by hash over POST: %+v %v", r.Errors, r.Data)
	}
	e, _ := json.Marshal(ext)
	resp, err := http.Get(srv.URL + "/graphql?extensions=" + url.QueryEscape(string(e)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"papers":18`) || resp.Header.Get("ETag") == "" {
		t.Errorf("by hash over GET: %d %s (ETag %q)", resp.StatusCode, b, resp.Header.Get("ETag"))
	}
	if r := send(map[string]any{"extensions": map[string]any{"persistedQuery": map[string]any{"version": 2, "sha256Hash": hash}}}); code(r) != "PERSISTED_QUERY_NOT_SUPPORTED" {
		t.Errorf("version 2: %+v", r.Errors)
	}
}

// closeStore closes a store and fails the test on its error, which carries
// the last background commit's.
func closeStore(tb testing.TB, db interface{ Close() error }) {
	tb.Helper()
	if err := db.Close(); err != nil {
		tb.Errorf("close the store: %v", err)
	}
}
