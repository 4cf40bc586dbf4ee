package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/researchkg/kg/nlp"
)

// seedAbstracts returns the profile page's four (title, abstract) pairs.
func seedAbstracts(t *testing.T) [][2]string {
	t.Helper()
	b, err := os.ReadFile("../../testdata/seeds/000_2b6da9e22186d8f2.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var out [][2]string
	for i := 2; i+1 < len(lines); i += 2 {
		out = append(out, [2]string{lines[i], lines[i+1]})
	}
	return out
}

func TestTermsCommand(t *testing.T) {
	dir := t.TempDir()
	var in bytes.Buffer
	for i, p := range seedAbstracts(t) {
		line, _ := json.Marshal(map[string]any{"id": i + 100, "text": p[0] + ". " + p[1]})
		in.Write(line)
		in.WriteByte('\n')
	}
	plain := filepath.Join(dir, "in.jsonl")
	os.WriteFile(plain, in.Bytes(), 0o644)
	code, out, _ := runKG(t, "terms", "--top", "5", plain)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var ids []float64
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var rec struct {
			ID    float64  `json:"id"`
			Terms []string `json:"terms"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("output line %q: %v", sc.Text(), err)
		}
		if len(rec.Terms) != 5 {
			t.Errorf("id %v: %d terms, want 5: %v", rec.ID, len(rec.Terms), rec.Terms)
		}
		ids = append(ids, rec.ID)
	}
	if len(ids) != 4 || ids[0] != 100 || ids[3] != 103 {
		t.Fatalf("ids %v, want 100..103 in input order", ids)
	}
	if !strings.Contains(out, "multimodal large language model") || !strings.Contains(out, "Trace2Skill") {
		t.Errorf("expected themes missing:\n%s", out)
	}

	// gzip input gives the same output
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(in.Bytes())
	zw.Close()
	gzName := filepath.Join(dir, "in.jsonl.gz")
	os.WriteFile(gzName, gz.Bytes(), 0o644)
	if code, out2, _ := runKG(t, "terms", "--top", "5", gzName); code != 0 || out2 != out {
		t.Errorf("gzip input: exit %d, output differs", code)
	}

	// a malformed line is reported with its number and skipped; exit 1
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, append(append([]byte{}, in.Bytes()...), []byte("{\"id\": 7, \"text\": \n")...), 0o644)
	code, out3, errOut := runKG(t, "terms", "--top", "5", bad)
	if code != 1 || !strings.Contains(errOut, "bad.jsonl:5:") || strings.Count(out3, "\n") != 4 {
		t.Errorf("malformed line: exit %d, stderr %q, %d output lines", code, errOut, strings.Count(out3, "\n"))
	}
}

func TestRecomputeCommand(t *testing.T) {
	in := t.TempDir()
	copySeeds(t, in)
	data := filepath.Join(t.TempDir(), "d")
	if code, _, _ := runKG(t, "ingest", "--data", data, in); code != 0 {
		t.Fatalf("ingest exit %d", code)
	}
	code, out, errOut := runKG(t, "recompute", "--data", data)
	if code != 0 || !strings.Contains(out, "recomputed 18 papers") {
		t.Fatalf("recompute: exit %d, %q %q", code, out, errOut)
	}
	code, out, _ = runKG(t, "stats", "--data", data)
	var st map[string]int
	if err := json.Unmarshal([]byte(out), &st); err != nil || code != 0 || st["papers"] != 18 || st["concepts"] == 0 {
		t.Errorf("stats after recompute: %v %v", st, err)
	}
}

func FuzzTermsInput(f *testing.F) {
	f.Add([]byte(`{"id": 1, "text": "reinforcement learning (RL) for agents"}` + "\n"))
	f.Add([]byte(`{"id": "x", "title": "T", "abstract": "reward models"}` + "\n{bad\n"))
	f.Add([]byte("\x1f\x8b garbage"))
	ex := nlp.New()
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, bad, err := analyzeLines(context.Background(), ex, "fuzz", bytes.NewReader(data), 2, io.Discard,
			func(a *nlp.Analysis) *nlp.Compact { return a.Compact(nlp.NewStrings()) })
		if err != nil && !strings.HasPrefix(err.Error(), "fuzz:") {
			t.Fatalf("error without file name: %v", err)
		}
		for _, d := range docs {
			if d.c == nil || len(d.id) == 0 {
				t.Fatalf("document without analysis or id (bad=%d)", bad)
			}
		}
	})
}
