package schema

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/gqlerrors"
	"github.com/graphql-go/graphql/language/ast"
	"github.com/rs/zerolog"

	"github.com/researchkg/kg/graph"
)

// Options configure the HTTP handler.
type Options struct {
	Log        zerolog.Logger
	Timeout    time.Duration // per request; default 10s
	MaxBody    int64         // request body bytes; default 1 MiB
	MaxQuery   int           // query text bytes; default 64 KiB
	MaxDepth   int           // selection nesting; default 12
	MaxFields  int           // fields after expanding fragments; default 5000
	MaxAliases int           // default 200
	// MaxFragments bounds fragment spreads and inline fragments, counted
	// as expanded; default 500.
	MaxFragments int
	// CostBudget bounds a query's estimated cost (see queryCost); default
	// 50,000. Each response reports its cost in extensions.
	CostBudget int
	// ScanPerCost: a field that scans papers (facets, top, emerging, path,
	// filtered lists) costs one more per this many papers its filter may
	// read; default 100.
	ScanPerCost int
	// WriteToken enables mutations for requests bearing it
	// ("Authorization: Bearer <token>"); empty: no writes over HTTP.
	WriteToken string
	// ReadOnly refuses mutations whatever the token (kg serve --read-only).
	ReadOnly bool
	// MaxWriteBody is the body limit of requests bearing the write token
	// (documents as text); default 32 MiB.
	MaxWriteBody int64
	// CORSOrigins lists origins allowed to call from a browser ("*": any);
	// empty: no CORS headers.
	CORSOrigins []string
	// CacheControl is the Cache-Control header of successful query
	// responses over GET (which carry an ETag and answer If-None-Match
	// with 304); default "no-cache": caches revalidate each time, and a
	// dashboard polling an unchanged answer gets 304 without a body.
	CacheControl string
	// StoreBytes reports the store's size for /metrics; nil: not reported.
	StoreBytes func() int64
	// Healthy reports whether the store is open; nil means always.
	Healthy func() bool
	// Damaged reports whether the store was found damaged while serving
	// (a periodic kg verify): every request is then answered with INTERNAL
	// and the error, and /healthz with 503; nil: never.
	Damaged func() error
	// DiskSpace reports the free space of the store's disk and the reserve
	// below which writes are refused (/healthz, /metrics); nil: not
	// reported.
	DiskSpace func() (free, need uint64, err error)
}

func (o Options) withDefaults() Options {
	if o.CacheControl == "" {
		o.CacheControl = "no-cache"
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.MaxBody <= 0 {
		o.MaxBody = 1 << 20
	}
	if o.MaxQuery <= 0 {
		o.MaxQuery = 64 << 10
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = 12
	}
	if o.MaxFields <= 0 {
		o.MaxFields = 5000
	}
	if o.MaxAliases <= 0 {
		o.MaxAliases = 200
	}
	if o.MaxFragments <= 0 {
		o.MaxFragments = 500
	}
	if o.CostBudget <= 0 {
		o.CostBudget = 50000
	}
	if o.ScanPerCost <= 0 {
		o.ScanPerCost = scanPerCost
	}
	if o.MaxWriteBody <= 0 {
		o.MaxWriteBody = 32 << 20
	}
	return o
}

// Handler serves GraphQL at /graphql (POST JSON, or GET with ?query=; a GET
// without a query serves GraphiQL), the explorer at / with its files under
// /assets/, /healthz and /metrics.
type Handler struct {
	svc       *graph.Service
	schema    graphql.Schema
	opts      Options
	mux       *http.ServeMux
	docs      docCache
	persisted persistedQueries
	reqID     atomic.Uint64
	metrics   metrics
}

// NewHandler builds the HTTP handler over a graph service.
func NewHandler(svc *graph.Service, opts Options) (*Handler, error) {
	s, err := Schema()
	if err != nil {
		return nil, fmt.Errorf("build schema: %w", err)
	}
	h := &Handler{svc: svc, schema: s, opts: opts.withDefaults(), mux: http.NewServeMux()}
	h.docs.max = 1024
	h.persisted.max, h.persisted.maxBytes = 1024, 8<<20
	h.mux.HandleFunc("/graphql", h.serveGraphQL)
	h.mux.HandleFunc("/healthz", h.serveHealth)
	h.mux.HandleFunc("/metrics", h.serveMetrics)
	h.mux.HandleFunc("/assets/", serveAsset)
	h.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			servePage(w, r, "index.html")
			return
		}
		http.NotFound(w, r)
	})
	return h, nil
}

// ServeHTTP logs every request with its id, status and duration.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	id := r.Header.Get("X-Request-Id")
	if id == "" || len(id) > 64 {
		id = strconv.FormatUint(h.reqID.Add(1), 10)
	}
	w.Header().Set("X-Request-Id", id)
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	log := h.opts.Log.With().Str("req", id).Logger()
	if h.cors(sw, r) {
		return // a preflight, answered
	}
	h.mux.ServeHTTP(sw, r.WithContext(log.WithContext(r.Context())))
	took := time.Since(start)
	h.metrics.observe(r.URL.Path, sw.status, took)
	log.Info().Str("method", r.Method).Str("path", r.URL.Path).Int("status", sw.status).
		Int("bytes", sw.n).Dur("took", took).Str("remote", r.RemoteAddr).Msg("request")
}

// cors sets the CORS headers for an allowed Origin and answers preflight
// requests; it reports whether the request is done.
func (h *Handler) cors(w http.ResponseWriter, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || len(h.opts.CORSOrigins) == 0 {
		return false
	}
	allowed := false
	for _, o := range h.opts.CORSOrigins {
		if o == "*" || strings.EqualFold(o, origin) {
			allowed = true
		}
	}
	if !allowed {
		return false // the browser blocks the response; nothing to add
	}
	w.Header().Set("Access-Control-Allow-Origin", origin)
	w.Header().Add("Vary", "Origin")
	if r.Method != http.MethodOptions {
		return false
	}
	w.Header().Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
	w.Header().Set("Access-Control-Allow-Headers", "Content-Type, Authorization, X-Request-Id")
	w.Header().Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
	return true
}

// authorized reports whether a request bears the write token (compared in
// constant time).
func (h *Handler) authorized(r *http.Request) bool {
	if h.opts.WriteToken == "" {
		return false
	}
	auth := r.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(auth, "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(tok)), []byte(h.opts.WriteToken)) == 1
}

type statusWriter struct {
	http.ResponseWriter
	status, n int
}

func (w *statusWriter) WriteHeader(s int) { w.status = s; w.ResponseWriter.WriteHeader(s) }
func (w *statusWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	w.n += n
	return n, err
}

func (h *Handler) serveHealth(w http.ResponseWriter, r *http.Request) {
	if h.opts.Healthy != nil && !h.opts.Healthy() {
		http.Error(w, "store closed\n", http.StatusServiceUnavailable)
		return
	}
	if h.opts.Damaged != nil {
		if err := h.opts.Damaged(); err != nil {
			http.Error(w, err.Error()+"\n", http.StatusServiceUnavailable)
			return
		}
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if h.opts.DiskSpace != nil {
		// reads go on when the disk is nearly full: still healthy, but say so
		if free, need, err := h.opts.DiskSpace(); err == nil && free < need {
			fmt.Fprintf(w, "ok; disk nearly full: %d MB free, writes need about %d MB and are refused\n", free>>20, need>>20)
			return
		}
	}
	_, _ = w.Write([]byte("ok\n"))
}

// Request is a GraphQL request body.
type Request struct {
	Query         string         `json:"query"`
	Variables     map[string]any `json:"variables"`
	OperationName string         `json:"operationName"`
	Extensions    map[string]any `json:"extensions"`
}

// Response is a GraphQL response body.
type Response struct {
	Data       any                        `json:"data,omitempty"`
	Errors     []gqlerrors.FormattedError `json:"errors,omitempty"`
	Extensions map[string]any             `json:"extensions,omitempty"`
}

// GraphQL over HTTP (the spec's current draft): a client that accepts
// application/graphql-response+json gets that media type, and 400 for a
// request that fails before execution (parse, validation, variables,
// limits); one that accepts application/json (or sends no Accept) gets
// 200 as before. Mutations only over POST (405 over GET); a POST body must
// be application/json (415 otherwise).
const (
	mediaJSON     = "application/json"
	mediaResponse = "application/graphql-response+json"
)

// responseMedia picks the response media type from an Accept header: the
// acceptable one of the two with the highest q (the first on a tie);
// application/json when there is no header or it accepts anything; "" when
// it accepts neither.
func responseMedia(accept string) string {
	if strings.TrimSpace(accept) == "" {
		return mediaJSON
	}
	best, bestQ := "", 0.0
	for _, part := range strings.Split(accept, ",") {
		fields := strings.Split(part, ";")
		mt := strings.ToLower(strings.TrimSpace(fields[0]))
		q := 1.0
		for _, f := range fields[1:] {
			if v, ok := strings.CutPrefix(strings.TrimSpace(f), "q="); ok {
				if x, err := strconv.ParseFloat(v, 64); err == nil {
					q = x
				}
			}
		}
		var m string
		switch mt {
		case mediaResponse:
			m = mediaResponse
		case mediaJSON, "application/*", "*/*":
			m = mediaJSON
		default:
			continue
		}
		if q > bestQ {
			best, bestQ = m, q
		}
	}
	return best
}

func (h *Handler) serveGraphQL(w http.ResponseWriter, r *http.Request) {
	var req Request
	media := responseMedia(r.Header.Get("Accept"))
	if console := r.Method == http.MethodGet && r.URL.Query().Get("query") == "" && r.URL.Query().Get("extensions") == ""; media == "" && !console {
		h.fail(w, CodeNotAcceptable, "answers are "+mediaResponse+" or "+mediaJSON)
		return
	}
	switch r.Method {
	case http.MethodGet:
		q := r.URL.Query()
		if q.Get("query") == "" && q.Get("extensions") == "" {
			servePage(w, r, "graphiql.html")
			return
		}
		req.Query, req.OperationName = q.Get("query"), q.Get("operationName")
		for name, into := range map[string]*map[string]any{"variables": &req.Variables, "extensions": &req.Extensions} {
			if v := q.Get(name); v != "" {
				if err := json.Unmarshal([]byte(v), into); err != nil {
					h.fail(w, CodeBadRequest, name+" is not a JSON object: "+err.Error())
					return
				}
			}
		}
	case http.MethodPost:
		if ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";"); !strings.EqualFold(strings.TrimSpace(ct), mediaJSON) {
			h.fail(w, CodeUnsupportedMedia, "the body must be "+mediaJSON+" {query, variables, operationName}")
			return
		}
		limit := h.opts.MaxBody
		if h.authorized(r) {
			limit = max(limit, h.opts.MaxWriteBody)
		}
		body := http.MaxBytesReader(w, r.Body, limit)
		dec := json.NewDecoder(body)
		if err := dec.Decode(&req); err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				h.fail(w, CodeBodyTooLarge, fmt.Sprintf("request body over %d bytes", limit))
				return
			}
			h.fail(w, CodeBadRequest, "body must be JSON {query, variables, operationName}: "+err.Error())
			return
		}
	default:
		w.Header().Set("Allow", "GET, POST")
		h.fail(w, CodeMethodNotAllowed, "use POST (or GET with ?query=)")
		return
	}
	if e := h.persisted.resolve(&req, h.opts.MaxQuery); e != nil {
		status := http.StatusOK
		if media == mediaResponse {
			status = http.StatusBadRequest
		}
		h.metrics.reject(e.Extensions["code"].(string))
		w.Header().Set("Content-Type", media+"; charset=utf-8")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(Response{Errors: []gqlerrors.FormattedError{*e}})
		return
	}
	if r.Method == http.MethodGet && h.isMutation(req) {
		w.Header().Set("Allow", "POST")
		h.fail(w, CodeMethodNotAllowed, "mutations are sent with POST")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.opts.Timeout)
	defer cancel()
	if h.authorized(r) {
		ctx = context.WithValue(ctx, writerKey{}, true)
	}
	resp := h.Execute(ctx, req)
	for _, e := range resp.Errors {
		if c, ok := e.Extensions["code"].(string); ok {
			h.metrics.reject(c)
		}
	}
	status := http.StatusOK
	if media == mediaResponse && resp.Data == nil && len(resp.Errors) > 0 {
		status = http.StatusBadRequest // failed before execution
	}
	body, err := encodeResponse(resp)
	if err != nil {
		h.fail(w, CodeInternal, "encode the answer: "+err.Error())
		return
	}
	body = append(body, '\n')
	w.Header().Set("Content-Type", media+"; charset=utf-8")
	if r.Method == http.MethodGet && status == http.StatusOK && len(resp.Errors) == 0 {
		sum := sha256.Sum256(body)
		etag := `"` + hex.EncodeToString(sum[:16]) + `"`
		w.Header().Set("ETag", etag)
		w.Header().Set("Cache-Control", h.opts.CacheControl)
		w.Header().Add("Vary", "Accept")
		if etagMatches(r.Header.Get("If-None-Match"), etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// etagMatches reports whether an If-None-Match header lists etag (or *).
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// isMutation reports whether the operation a request runs is a mutation
// (false when the query does not parse: Execute reports that).
func (h *Handler) isMutation(req Request) bool {
	doc, errs := h.document(req.Query)
	if errs != nil {
		return false
	}
	for _, d := range doc.Definitions {
		if op, ok := d.(*ast.OperationDefinition); ok {
			if req.OperationName == "" || (op.Name != nil && op.Name.Value == req.OperationName) {
				return op.Operation == ast.OperationTypeMutation
			}
		}
	}
	return false
}

// writerKey marks a request context that bears the write token.
type writerKey struct{}

// fail answers a request refused before GraphQL reads it, with the
// code's status.
func (h *Handler) fail(w http.ResponseWriter, code Code, msg string) {
	h.metrics.reject(string(code))
	writeJSON(w, HTTPStatus(code), Response{Errors: []gqlerrors.FormattedError{codedError(code, msg)}})
}

func codedError(code Code, msg string) gqlerrors.FormattedError {
	e := gqlerrors.NewFormattedError(msg)
	e.Extensions = map[string]any{"code": string(code)}
	return e
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// Execute runs one GraphQL request: limits on the text, parse, the checks
// that must precede validation (fragment cycles crash graphql-go v0.8.1;
// depth and size bound its quadratic validation), validation (cached by
// query text), then execution on one read snapshot closed at the end.
func (h *Handler) Execute(ctx context.Context, req Request) Response {
	if h.opts.Damaged != nil {
		if err := h.opts.Damaged(); err != nil { // never answer from a damaged store
			return Response{Errors: []gqlerrors.FormattedError{codedError(CodeInternal, err.Error())}}
		}
	}
	if strings.TrimSpace(req.Query) == "" {
		return Response{Errors: []gqlerrors.FormattedError{codedError(CodeBadRequest, "query is empty")}}
	}
	if len(req.Query) > h.opts.MaxQuery {
		return Response{Errors: []gqlerrors.FormattedError{codedError(CodeQueryTooLarge,
			fmt.Sprintf("query is %d bytes; at most %d", len(req.Query), h.opts.MaxQuery))}}
	}
	doc, errs := h.document(req.Query)
	if errs != nil {
		return Response{Errors: errs}
	}
	pr := h.pricer(ctx, req.Variables)
	cost, err := queryCost(&h.schema, doc, req.OperationName, req.Variables, h.opts.CostBudget, pr.price)
	pr.close()
	if err != nil {
		return Response{Errors: []gqlerrors.FormattedError{codedError(CodeBadRequest, err.Error())}}
	}
	ext := map[string]any{"cost": cost, "budget": h.opts.CostBudget}
	if cost > h.opts.CostBudget {
		return Response{Extensions: ext, Errors: []gqlerrors.FormattedError{codedError(CodeTooCostly, fmt.Sprintf(
			"query would cost more than %d (each field counts once per item its enclosing lists may return: lower first, or ask less deep)", h.opts.CostBudget))}}
	}
	writer, _ := ctx.Value(writerKey{}).(bool)
	st := &reqState{ctx: ctx, svc: h.svc, log: *zerolog.Ctx(ctx), writer: writer, writes: h.writes()}
	defer st.close()
	res := graphql.Execute(graphql.ExecuteParams{
		Schema: h.schema, AST: doc, Args: req.Variables, OperationName: req.OperationName,
		// never done: see reqState.ctx
		Context: context.WithValue(context.WithoutCancel(ctx), ctxKey{}, st),
	})
	for k, v := range res.Extensions {
		ext[k] = v
	}
	return Response{Data: res.Data, Errors: res.Errors, Extensions: ext}
}

// writes says why mutations are refused ("" when they are allowed for a
// request bearing the token).
func (h *Handler) writes() string {
	switch {
	case h.opts.ReadOnly:
		return "this server is read-only (kg serve --read-only)"
	case h.opts.WriteToken == "":
		return "writes over HTTP are off: start kg serve with --write-token (or KG_WRITE_TOKEN)"
	}
	return ""
}
