package schema

import (
	"fmt"
	"maps"
	"net/http"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// latencyBuckets are the upper bounds (seconds) of the request latency
// histogram.
var latencyBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// metrics counts requests, latencies and rejections for /metrics
// (Prometheus text format 0.0.4, written by hand: a few counters do not
// need a client library).
type metrics struct {
	mu       sync.Mutex
	requests map[[2]string]uint64 // (path, status) → count
	latency  map[string]*histogram
	rejected map[string]uint64 // error code → count
}

type histogram struct {
	counts []uint64 // per bucket, not cumulative
	sum    float64
	n      uint64
}

// knownPath keeps label values bounded: any other path is "other".
func knownPath(p string) string {
	switch p {
	case "/graphql", "/healthz", "/metrics", "/":
		return p
	}
	return "other"
}

func (m *metrics) observe(path string, status int, took time.Duration) {
	path = knownPath(path)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.requests == nil {
		m.requests = map[[2]string]uint64{}
		m.latency = map[string]*histogram{}
	}
	m.requests[[2]string{path, strconv.Itoa(status)}]++
	h := m.latency[path]
	if h == nil {
		h = &histogram{counts: make([]uint64, len(latencyBuckets)+1)}
		m.latency[path] = h
	}
	s := took.Seconds()
	i := sort.SearchFloat64s(latencyBuckets, s)
	h.counts[i]++
	h.sum += s
	h.n++
}

// reject counts an error answered with a code (a limit, a bad id, a
// timeout...).
func (m *metrics) reject(code string) {
	if len(code) > 40 {
		code = code[:40]
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rejected == nil {
		m.rejected = map[string]uint64{}
	}
	m.rejected[code]++
}

func (h *Handler) serveMetrics(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	m := &h.metrics
	m.mu.Lock()
	b.WriteString("# HELP kg_http_requests_total HTTP requests by path and status.\n# TYPE kg_http_requests_total counter\n")
	keys := make([][2]string, 0, len(m.requests))
	for k := range m.requests {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i][0]+keys[i][1] < keys[j][0]+keys[j][1] })
	for _, k := range keys {
		fmt.Fprintf(&b, "kg_http_requests_total{path=%q,status=%q} %d\n", k[0], k[1], m.requests[k])
	}
	b.WriteString("# HELP kg_http_request_duration_seconds Time to answer, by path.\n# TYPE kg_http_request_duration_seconds histogram\n")
	for _, p := range slices.Sorted(maps.Keys(m.latency)) {
		h := m.latency[p]
		var cum uint64
		for i, le := range latencyBuckets {
			cum += h.counts[i]
			fmt.Fprintf(&b, "kg_http_request_duration_seconds_bucket{path=%q,le=%q} %d\n", p, strconv.FormatFloat(le, 'g', -1, 64), cum)
		}
		fmt.Fprintf(&b, "kg_http_request_duration_seconds_bucket{path=%q,le=\"+Inf\"} %d\n", p, h.n)
		fmt.Fprintf(&b, "kg_http_request_duration_seconds_sum{path=%q} %g\n", p, h.sum)
		fmt.Fprintf(&b, "kg_http_request_duration_seconds_count{path=%q} %d\n", p, h.n)
	}
	b.WriteString("# HELP kg_graphql_errors_total Errors answered, by code (limits, bad input, timeouts, internal).\n# TYPE kg_graphql_errors_total counter\n")
	for _, c := range slices.Sorted(maps.Keys(m.rejected)) {
		fmt.Fprintf(&b, "kg_graphql_errors_total{code=%q} %d\n", c, m.rejected[c])
	}
	m.mu.Unlock()
	if h.opts.StoreBytes != nil {
		fmt.Fprintf(&b, "# HELP kg_store_bytes Size of the Badger store on disk (LSM and value log).\n# TYPE kg_store_bytes gauge\nkg_store_bytes %d\n", h.opts.StoreBytes())
	}
	if h.opts.DiskSpace != nil {
		if free, need, err := h.opts.DiskSpace(); err == nil {
			fmt.Fprintf(&b, "# HELP kg_disk_free_bytes Free space of the store's disk.\n# TYPE kg_disk_free_bytes gauge\nkg_disk_free_bytes %d\n", free)
			fmt.Fprintf(&b, "# HELP kg_disk_reserve_bytes Free space below which writes are refused (DISK_FULL).\n# TYPE kg_disk_reserve_bytes gauge\nkg_disk_reserve_bytes %d\n", need)
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(&b, "# HELP kg_go_heap_bytes Go heap in use.\n# TYPE kg_go_heap_bytes gauge\nkg_go_heap_bytes %d\n", ms.HeapInuse)
	fmt.Fprintf(&b, "# HELP kg_goroutines Goroutines.\n# TYPE kg_goroutines gauge\nkg_goroutines %d\n", runtime.NumGoroutine())
	if rss, ok := residentBytes(); ok {
		fmt.Fprintf(&b, "# HELP kg_process_resident_bytes Resident set size.\n# TYPE kg_process_resident_bytes gauge\nkg_process_resident_bytes %d\n", rss)
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	_, _ = w.Write([]byte(b.String()))
}

// residentBytes reads the process's resident set size (Linux).
func residentBytes() (int64, bool) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}
