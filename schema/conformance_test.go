package schema_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// conformanceDir holds the Node checks and their pinned packages
// (package-lock.json).
const conformanceDir = "../testdata/conformance"

// The ecosystem's reference implementation loads kg's schema and agrees
// with it: graphql-js's getIntrospectionQuery (every option) is answered,
// buildClientSchema takes it and printSchema gives
// schema/testdata/schema.graphql; every query of the README and of
// testdata validates against it; the graphql-http audit of GraphQL over
// HTTP has no warning. Needs Node.js and npm (the packages come from the
// npm registry, pinned by the lockfile); skipped, saying so, without Node.
func TestConformance(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("Node.js not found: install it (Debian: apt-get install nodejs npm) to run the graphql-js and graphql-http conformance checks")
	}
	if testing.Short() {
		t.Skip("-short: the Node conformance checks are skipped")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := os.Stat(filepath.Join(conformanceDir, "node_modules", "graphql-http")); err != nil {
		npm, err := exec.LookPath("npm")
		if err != nil {
			t.Fatalf("node is installed but npm is not: %v", err)
		}
		cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund")
		cmd.Dir = conformanceDir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", conformanceDir, err, out)
		}
	}
	h, err := newHandler(t)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	queries := exampleQueries(t)
	qf := filepath.Join(t.TempDir(), "queries.json")
	b, _ := json.Marshal(queries)
	if err := os.WriteFile(qf, b, 0o644); err != nil {
		t.Fatal(err)
	}
	runs := exampleRuns(t, srv, queries)
	rf := filepath.Join(t.TempDir(), "runs.json")
	b, _ = json.Marshal(runs)
	if err := os.WriteFile(rf, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, node, "check.mjs", srv.URL+"/graphql", qf, rf)
	cmd.Dir = conformanceDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node check.mjs: %v\n%s", err, stderr.String())
	}
	var res struct {
		IntrospectionStatus int             `json:"introspectionStatus"`
		IntrospectionErrors json.RawMessage `json:"introspectionErrors"`
		SDL                 string          `json:"sdl"`
		Invalid             []struct {
			Name   string   `json:"name"`
			Errors []string `json:"errors"`
		} `json:"invalid"`
		Audit []struct {
			ID, Name, Status, Reason string
		} `json:"audit"`
		Runs []struct {
			Name   string          `json:"name"`
			Errors json.RawMessage `json:"errors"`
			Data   map[string]any  `json:"data"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("node check.mjs printed no JSON: %v\n%s", err, out)
	}
	if res.IntrospectionStatus != 200 || string(res.IntrospectionErrors) != "null" {
		t.Errorf("getIntrospectionQuery: status %d, errors %s", res.IntrospectionStatus, res.IntrospectionErrors)
	}
	want, err := os.ReadFile("testdata/schema.graphql")
	if err != nil {
		t.Fatal(err)
	}
	if d := os.Getenv("KG_CONFORMANCE_SDL"); d != "" {
		_ = os.WriteFile(d, []byte(res.SDL), 0o644)
	}
	if got := strings.TrimSpace(res.SDL); got != strings.TrimSpace(string(want)) {
		gl, wl := strings.Split(got, "\n"), strings.Split(strings.TrimSpace(string(want)), "\n")
		for i := 0; i < min(len(gl), len(wl)); i++ {
			if gl[i] != wl[i] {
				t.Errorf("graphql-js printSchema differs from testdata/schema.graphql at line %d:\n  graphql-js: %s\n  file:       %s", i+1, gl[i], wl[i])
				break
			}
		}
		if len(gl) != len(wl) {
			t.Errorf("graphql-js printSchema: %d lines, testdata/schema.graphql %d", len(gl), len(wl))
		}
	}
	if len(queries) < 3 {
		t.Errorf("only %d example queries found: the extraction is broken", len(queries))
	}
	for _, q := range res.Invalid {
		t.Errorf("%s does not validate with graphql-js: %s", q.Name, strings.Join(q.Errors, "; "))
	}
	if len(res.Runs) != len(runs) {
		t.Errorf("graphql-http's client ran %d of %d README operations", len(res.Runs), len(runs))
	}
	for _, r := range res.Runs {
		empty := true
		for _, v := range r.Data {
			empty = empty && v == nil
		}
		if string(r.Errors) != "null" || empty {
			t.Errorf("%s, run by graphql-http's client: errors %s, data %v", r.Name, r.Errors, r.Data)
		}
	}
	counts := map[string]int{}
	for _, a := range res.Audit {
		counts[a.Status]++
		if a.Status == "warn" || a.Status == "error" {
			t.Errorf("graphql-http audit %s: %s %q: %s", a.Status, a.ID, a.Name, a.Reason)
		} else if a.Status == "notice" {
			t.Logf("graphql-http audit notice %s %q: %s", a.ID, a.Name, a.Reason)
		}
	}
	t.Logf("graphql-http audit: %v; %d example queries validated; %d README operations run by graphql-http's client", counts, len(queries), len(res.Runs))
}

// readmeVariables are the variables the README's example operations run
// with on the seed pages ("$author" is replaced by an author's id).
var readmeVariables = map[string]map[string]any{
	"ConceptPapers": {"name": "reinforcement learning"},
	"RelatedWork":   {"draft": "Group policy optimisation for reasoning\nWe train language models with reinforcement learning and a reward model."},
	"People":        {"name": "Xiaoxi Jiang"},
	"ConceptTrend":  {"concept": "reinforcement learning", "subject": "cs.CL"},
	"MonthPapers":   {"concept": "reinforcement learning", "subject": "cs.CL", "month": "2026-01"},
}

type run struct {
	Name          string         `json:"name"`
	Query         string         `json:"query"`
	OperationName string         `json:"operationName,omitempty"`
	Variables     map[string]any `json:"variables,omitempty"`
}

// exampleRuns are the README's curl queries and the operations of its
// graphql blocks, each with its variables, for graphql-http's client to
// run unchanged.
func exampleRuns(t *testing.T, srv *httptest.Server, queries []namedQuery) []run {
	t.Helper()
	var out []run
	opName := regexp.MustCompile(`(?m)^\s*(?:query|mutation)\s+(\w+)`)
	author := ""
	for _, q := range queries {
		if strings.HasPrefix(q.Name, "README curl example") {
			out = append(out, run{Name: q.Name, Query: q.Query})
		}
		if !strings.HasPrefix(q.Name, "README graphql block") {
			continue
		}
		for _, m := range opName.FindAllStringSubmatch(q.Query, -1) {
			vars, ok := readmeVariables[m[1]]
			if !ok {
				t.Errorf("README operation %s has no variables in readmeVariables: add them so that it is run", m[1])
				continue
			}
			for k, v := range vars {
				if v == "$author" {
					if author == "" {
						author = authorID(t, srv)
					}
					vars[k] = author
				}
			}
			out = append(out, run{Name: q.Name + " " + m[1], Query: q.Query, OperationName: m[1], Variables: vars})
		}
	}
	return out
}

// authorID asks the server for the id of a seed author.
func authorID(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	res := post(t, srv, `{ author(name: "Xiaoxi Jiang") { id } }`, nil)
	id, _ := get(res.Data, "author", "id").(string)
	if id == "" {
		t.Fatalf("no id for Xiaoxi Jiang: %+v", res.Errors)
	}
	return id
}

type namedQuery struct {
	Name  string `json:"name"`
	Query string `json:"query"`
}

// exampleQueries collects the queries a user may copy: the README's
// ```graphql blocks and curl bodies, and the .graphql queries of
// schema/testdata (not the SDL file).
func exampleQueries(t *testing.T) []namedQuery {
	t.Helper()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []namedQuery
	fence := regexp.MustCompile("(?s)```graphql\n(.*?)```")
	for i, m := range fence.FindAllSubmatch(readme, -1) {
		out = append(out, namedQuery{Name: "README graphql block " + itoa(i+1), Query: string(m[1])})
	}
	curl := regexp.MustCompile(`(?s)-d '(\{"query":.*?\})'`)
	for i, m := range curl.FindAllSubmatch(readme, -1) {
		var body struct{ Query string }
		if err := json.Unmarshal(m[1], &body); err != nil {
			t.Errorf("README curl example %d: the body is not JSON: %v", i+1, err)
			continue
		}
		out = append(out, namedQuery{Name: "README curl example " + itoa(i+1), Query: body.Query})
	}
	files, _ := filepath.Glob("testdata/*.graphql")
	for _, f := range files {
		if filepath.Base(f) == "schema.graphql" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, namedQuery{Name: f, Query: string(b)})
	}
	return out
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
