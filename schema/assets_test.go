package schema_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The pages and their files come from the binary: / is the explorer,
// GET /graphql in a browser is GraphiQL, each file a page names is served
// with its type, gzip when asked, a 304 for a known ETag, and a policy
// that keeps the pages on this server.
func TestExplorerAssets(t *testing.T) {
	srv := newServer(t)
	get := func(path string, hdr map[string]string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		tr := &http.Transport{DisableCompression: true}
		resp, err := (&http.Client{Transport: tr}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	refs := regexp.MustCompile(`(?:src|href)="(/assets/[^"]+)"`)
	for path, want := range map[string]string{"/": "kg explorer", "/graphql": "GraphiQL"} {
		resp, b := get(path, map[string]string{"Accept": "text/html"})
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(b), want) {
			t.Fatalf("GET %s: %d %s, want the page with %q", path, resp.StatusCode, resp.Header.Get("Content-Type"), want)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("GET %s: policy %q", path, csp)
		}
		for _, m := range refs.FindAllStringSubmatch(string(b), -1) {
			r, body := get(m[1], nil)
			if r.StatusCode != 200 || len(body) == 0 {
				t.Errorf("%s names %s: %d", path, m[1], r.StatusCode)
			}
			if strings.HasSuffix(m[1], ".js") && !strings.HasPrefix(r.Header.Get("Content-Type"), "text/javascript") ||
				strings.HasSuffix(m[1], ".css") && !strings.HasPrefix(r.Header.Get("Content-Type"), "text/css") {
				t.Errorf("%s: type %q", m[1], r.Header.Get("Content-Type"))
			}
		}
	}
	plain, body := get("/assets/vendor/cytoscape.min.js", nil)
	zipped, zbody := get("/assets/vendor/cytoscape.min.js", map[string]string{"Accept-Encoding": "gzip, br"})
	if zipped.Header.Get("Content-Encoding") != "gzip" || len(zbody)*2 > len(body) || plain.Header.Get("Content-Encoding") != "" {
		t.Errorf("gzip: %q, %d of %d bytes; plain %q", zipped.Header.Get("Content-Encoding"), len(zbody), len(body), plain.Header.Get("Content-Encoding"))
	}
	if r, _ := get("/assets/vendor/cytoscape.min.js", map[string]string{"Accept-Encoding": "gzip;q=0"}); r.Header.Get("Content-Encoding") != "" {
		t.Error("gzip;q=0 got gzip")
	}
	if r, _ := get("/assets/vendor/cytoscape.min.js", map[string]string{"If-None-Match": plain.Header.Get("ETag")}); r.StatusCode != http.StatusNotModified {
		t.Errorf("a known ETag: %d, want 304", r.StatusCode)
	}
	for _, p := range []string{"/assets/nothing.js", "/assets/../handler.go", "/other"} {
		if r, _ := get(p, nil); r.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, r.StatusCode)
		}
	}
	if resp, err := http.Post(srv.URL+"/assets/explorer.js", "text/plain", nil); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST an asset: %v %v", resp.Status, err)
	}
}

// Every vendored file is listed in vendor/VERSIONS with its SHA-256, and
// its package's licence ships beside it.
func TestVendoredFilesAreListed(t *testing.T) {
	f, err := os.Open("explorer/vendor/VERSIONS")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	listed := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if len(fields) != 4 {
			t.Fatalf("VERSIONS line %q: want package, version, file, sha256", sc.Text())
		}
		b, err := os.ReadFile(filepath.Join("explorer/vendor", fields[2]))
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != fields[3] {
			t.Errorf("%s differs from the %s %s that VERSIONS lists: run schema/explorer/refresh-vendor.sh", fields[2], fields[0], fields[1])
		}
		if _, err := os.Stat(filepath.Join("explorer/vendor/licenses", fields[0]+".txt")); err != nil {
			t.Errorf("no licence for %s: %v", fields[0], err)
		}
		listed[fields[2]] = true
	}
	files, _ := filepath.Glob("explorer/vendor/*.*s")
	for _, f := range files {
		if !listed[filepath.Base(f)] {
			t.Errorf("%s is not in VERSIONS", f)
		}
	}
	if len(listed) < 6 {
		t.Errorf("VERSIONS lists %d files", len(listed))
	}
}
