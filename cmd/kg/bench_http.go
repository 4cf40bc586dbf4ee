package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// kgServer is kg serve, this binary, on the store: read-write
// (the default), so its hot reads are those a user gets.
type kgServer struct {
	cmd    *exec.Cmd
	url    string
	client *http.Client
	exited chan error // cmd.Wait's result
}

func startKG(dir string, extra []string, std stdio) (*kgServer, error) {
	bin, err := os.Executable()
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, append([]string{"serve", "--data", dir, "--addr", addr, "--log-level", "warn"}, extra...)...)
	cmd.Stdout, cmd.Stderr = std.err, std.err
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &kgServer{cmd: cmd, url: "http://" + addr + "/graphql",
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}, Timeout: 30 * time.Second}}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// a large store takes a while: serve verifies every table and builds
	// the facet index before it answers (~1 min for 1M papers)
	const patience = 10 * time.Minute
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); {
		if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				s.exited = exited
				return s, nil
			}
		}
		select {
		case err := <-exited:
			return nil, fmt.Errorf("kg serve on %s exited before it answered /healthz: %v", dir, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
	cmd.Process.Kill()
	<-exited
	return nil, fmt.Errorf("kg serve on %s did not become healthy in %v", dir, patience)
}

// memory reports the server's resident memory now and at its peak, and
// the part of it that is not mapped files (Badger's tables, which the
// kernel drops first when memory is short), as the kernel counts them
// (/proc/PID/status: VmRSS, VmHWM, RssAnon), or "" where there is no /proc.
func (s *kgServer) memory() string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return ""
	}
	var rss, hwm, anon string
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			rss = strings.TrimSpace(v)
		} else if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			hwm = strings.TrimSpace(v)
		} else if v, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			anon = strings.TrimSpace(v)
		}
	}
	return fmt.Sprintf("resident %s, peak %s, anonymous now %s", rss, hwm, anon)
}

func (s *kgServer) stop() {
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { <-s.exited; close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
	}
}

// The GraphQL a dashboard sends for each question.
var benchQueries = map[string]string{
	"coauthors":      `query($id: ID!) { node(id: $id) { ... on Author { coauthors(first: 20) { weight author { id name } } } } }`,
	"person-papers":  `query($id: ID!) { node(id: $id) { ... on Author { papers(first: 20) { nodes { id title year } } } } }`,
	"related":        `query($id: ID!) { node(id: $id) { ... on Paper { related(first: 10) { score paper { id title } } } } }`,
	"concept-papers": `query($id: ID!) { node(id: $id) { ... on Concept { papers(first: 20) { nodes { id title } } } } }`,
	"neighborhood-2": `query($id: ID!) { neighborhood(id: $id, depth: 2, first: 50) { nodes { id kind label } edges { source target type weight } } }`,
	"search":         `query($t: String!) { search(text: $t, first: 10) { score node { id label } } }`,
	"facet":          `query($t: String!) { facets(by: MONTH, filter: {concepts: [$t]}) { total buckets { key count } } }`,
	"top":            `query($t: String!) { top(kind: AUTHOR, filter: {subjects: [$t]}, first: 10) { count node { id label } } }`,
	"path":           `query($id: ID!, $to: ID!) { path(from: $id, to: $to, maxLength: 6) { length authors { id name } } }`,
	"noop":           `{ __typename }`,
}

func (s *kgServer) ask(q *question, in input) error {
	vars := map[string]any{}
	switch q.Name {
	case "search", "facet", "top":
		vars["t"] = in.text
	case "noop":
	case "path":
		vars["id"], vars["to"] = "author:"+strconv.FormatInt(in.a, 10), "author:"+strconv.FormatInt(in.b, 10)
	default:
		vars["id"] = in.kind + ":" + strconv.FormatInt(in.a, 10)
	}
	body, _ := json.Marshal(map[string]any{"query": benchQueries[q.Name], "variables": vars})
	resp, err := s.client.Post(s.url, "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != 200 || bytes.Contains(b, []byte(`"errors"`)) {
		return fmt.Errorf("HTTP %d: %.300s", resp.StatusCode, b)
	}
	return nil
}
