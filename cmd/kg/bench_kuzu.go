package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// runKuzu is the embedded graph database peer: it writes the corpus as
// CSV files and the drawn inputs as JSON, runs the Node script in script
// (testdata/bench/kuzu/bench.js, with the kuzu package npm installed
// beside it), which loads them into Kuzu and answers the questions in
// Cypher in process, and reads its runs back.
func runKuzu(ctx context.Context, script string, d *pgData, qs []*question, cfg runConfig, std stdio) ([]benchRun, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("no node on the PATH (Debian: apt-get install -y nodejs npm)")
	}
	if _, err := os.Stat(filepath.Join(script, "node_modules", "kuzu")); err != nil {
		return nil, fmt.Errorf("no kuzu package in %s: run npm ci there", script)
	}
	dir, err := os.MkdirTemp("", "kg-bench-kuzu-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	for _, f := range []struct {
		name   string
		header []string
		rows   [][]any
	}{
		{"papers.csv", []string{"id", "title", "year", "month"}, d.papers},
		{"people.csv", []string{"id", "name"}, d.people},
		{"subjects.csv", []string{"id", "code"}, d.subjects},
		{"concepts.csv", []string{"id", "name", "papers", "idf"}, d.concepts},
		{"authorship.csv", []string{"from", "to"}, d.authorship},
		{"paper_subjects.csv", []string{"from", "to"}, d.paperSubjects},
		{"mentions.csv", []string{"from", "to", "weight"}, d.mentions},
	} {
		if err := writeCSV(filepath.Join(dir, f.name), f.header, f.rows); err != nil {
			return nil, err
		}
	}
	type jsonInput struct {
		A    int64  `json:"a"`
		B    int64  `json:"b"`
		Text string `json:"text"`
	}
	type jsonQuestion struct {
		Name   string      `json:"name"`
		Inputs []jsonInput `json:"inputs"`
	}
	var jq []jsonQuestion
	for _, q := range qs {
		x := jsonQuestion{Name: q.Name}
		for _, in := range q.inputs {
			x.Inputs = append(x.Inputs, jsonInput{in.a, in.b, in.text})
		}
		jq = append(jq, x)
	}
	b, _ := json.Marshal(jq)
	if err := os.WriteFile(filepath.Join(dir, "inputs.json"), b, 0o644); err != nil {
		return nil, err
	}
	var clients []string
	for _, c := range cfg.clients {
		clients = append(clients, fmt.Sprint(c))
	}
	cmd := exec.CommandContext(ctx, node, filepath.Join(script, "bench.js"), dir, fmt.Sprint(cfg.d.Seconds()), strings.Join(clients, ","))
	cmd.Stderr = std.err
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	var runs []benchRun
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		var r benchRun
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("kuzu: %q: %w", sc.Text(), err)
		}
		runs = append(runs, r)
	}
	if err := cmd.Wait(); err != nil {
		return runs, fmt.Errorf("node bench.js: %w", err)
	}
	return runs, nil
}

// writeCSV writes rows as CSV with a header; text loses its line breaks
// (Kuzu's parallel CSV reader takes no newline inside a field).
func writeCSV(path string, header []string, rows [][]any) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f) // buffered
	w.Write(header)
	rec := make([]string, len(header))
	for _, r := range rows {
		for i, v := range r {
			switch x := v.(type) {
			case nil:
				rec[i] = ""
			case string:
				rec[i] = strings.NewReplacer("\n", " ", "\r", " ").Replace(x)
			default:
				rec[i] = fmt.Sprint(x)
			}
		}
		w.Write(rec)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
