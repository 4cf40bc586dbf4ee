// The explorer (GET /) and GraphiQL (GET /graphql in a browser): pages
// and their assets, embedded in the binary; see explorer/explorer.js and
// doc.go ("Explorer").

package schema

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
)

//go:embed explorer/index.html explorer/graphiql.html explorer/explorer.js explorer/explorer.css explorer/graphiql-start.js explorer/vendor
var explorerFiles embed.FS

// pageCSP keeps every page of kg on this server: scripts, styles, data and
// images come from here (styles may be inline: GraphiQL and Cytoscape set
// them; images may be data: and blob: URLs, as charts and downloads are).
const pageCSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

// asset is an embedded file with its content type and ETag, and its
// gzip form when that is smaller (compressed once, at start).
type asset struct {
	body, gz []byte
	ctype    string
	etag     string
}

// explorerFilesOnce loads the files under /assets/ by path ("explorer.js",
// "vendor/cytoscape.min.js") and the two pages at the first request for
// one: compressing them takes a tenth of a second that kg ingest and the
// other commands need not spend.
var explorerFilesOnce = sync.OnceValues(loadAssets)

func loadAssets() (map[string]asset, map[string]asset) {
	assets, pages := map[string]asset{}, map[string]asset{}
	err := fs.WalkDir(explorerFiles, "explorer", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := explorerFiles.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		ctype := mime.TypeByExtension(path.Ext(p))
		switch path.Ext(p) {
		case ".js":
			ctype = "text/javascript; charset=utf-8"
		case "", ".txt":
			ctype = "text/plain; charset=utf-8"
		}
		a := asset{body: b, ctype: ctype, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		var z bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		if z.Len() < len(b)*9/10 {
			a.gz = z.Bytes()
		}
		name := strings.TrimPrefix(p, "explorer/")
		if strings.HasSuffix(name, ".html") {
			pages[name] = a
		} else {
			assets[name] = a
		}
		return nil
	})
	if err != nil {
		panic("explorer assets: " + err.Error())
	}
	return assets, pages
}

// serveAsset answers GET /assets/NAME; revalidated by ETag (no-cache), so
// a new binary's files are picked up at once and unchanged ones cost a
// 304.
func serveAsset(w http.ResponseWriter, r *http.Request) {
	assets, _ := explorerFilesOnce()
	a, ok := assets[strings.TrimPrefix(r.URL.Path, "/assets/")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	serveFile(w, r, a)
}

func serveFile(w http.ResponseWriter, r *http.Request, a asset) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	if strings.HasPrefix(a.ctype, "text/html") {
		h.Set("Content-Security-Policy", pageCSP)
	}
	body, etag := a.body, a.etag
	if a.gz != nil {
		h.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			body, etag = a.gz, strings.TrimSuffix(a.etag, `"`)+`-gz"`
			h.Set("Content-Encoding", "gzip")
		}
	}
	h.Set("ETag", etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// acceptsGzip reports whether an Accept-Encoding header takes gzip (a
// q of 0 refuses it).
func acceptsGzip(h string) bool {
	for _, part := range strings.Split(h, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}

// servePage answers with one of the two pages.
func servePage(w http.ResponseWriter, r *http.Request, name string) {
	_, pages := explorerFilesOnce()
	serveFile(w, r, pages[name])
}
