package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startServe runs kg serve on a free loopback port and returns its base URL;
// the server stops (gracefully) when the test ends.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int)
	go func() {
		done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--log-level", "warn"}, args...), stdio{in: strings.NewReader(""), out: pw, err: io.Discard})
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("serve did not start: %v", err)
	}
	go io.Copy(io.Discard, pr)
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("serve exit %d", code)
			}
		case <-time.After(20 * time.Second):
			t.Error("serve did not shut down")
		}
	})
	return strings.TrimSuffix(strings.TrimSpace(line[strings.Index(line, "http://"):]), "/graphql")
}

// kg soak against a real kg serve: every variant ends with no error, and
// the refused query is answered with its error each time.
func TestSoakVariants(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	seeds := t.TempDir()
	copySeeds(t, seeds)
	base := startServe(t, "--data", filepath.Join(t.TempDir(), "d"), "--seeds", seeds)
	addr := strings.TrimPrefix(base, "http://")
	for _, v := range []string{"mixed", "conns", "slow"} {
		code, out, errs := runKG(t, "soak", "--addr", addr, "--duration", "2s", "--clients", "4", "--variant", v, "--json")
		var res soakResult
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%s: %v (%s)", v, err, errs)
		}
		if code != 0 || res.Errors != 0 || res.Requests < 20 || res.Refused == 0 || len(res.RSSMiB) < 2 {
			t.Errorf("%s: exit %d, %+v", v, code, res)
		}
	}
	if code, _, errs := runKG(t, "soak", "--addr", "192.0.2.1:80"); code == 0 || !strings.Contains(errs, "loopback") {
		t.Errorf("soak of a remote address: %d %s", code, errs)
	}
}

// serve --read-only answers queries and refuses writes even with the token.
func TestServeReadOnly(t *testing.T) {
	_, data := seededStore(t)
	tok := "0123456789abcdef0123"
	base := startServe(t, "--data", data, "--read-only", "--write-token", tok)
	post := func(q string) string {
		req, _ := http.NewRequest("POST", base+"/graphql", strings.NewReader(q))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if out := post(`{"query":"{ stats { papers } }"}`); !strings.Contains(out, `"papers":18`) {
		t.Errorf("read: %s", out)
	}
	if out := post(`{"query":"mutation { ingest(name: \"x\", text: \"Ann\\nPublications\\nT\\nA.\\n\") { documents } }"}`); !strings.Contains(out, "WRITES_DISABLED") {
		t.Errorf("write on a read-only server: %s", out)
	}
}
