package main

import (
	"os"
	"path"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/rs/zerolog"
)

// The Go heap's soft limit. Without one the collector lets the heap grow
// to twice what is live: a kg serve of a million papers (the facet index,
// ~0.75 KB a paper) then asks for ~1.7 GB, and a container's limit kills
// it instead of the collector working harder. So where kg runs under a
// memory limit (a cgroup's: Docker, Kubernetes, systemd's MemoryMax) and
// neither --mem-limit-mb nor GOMEMLIMIT says otherwise, the soft limit is
// a share of it: the rest is left to what is not the heap (the stacks,
// Badger's tables mapped from disk, the page cache the cgroup counts).

// Shares of a container's limit given to the heap: kg ingest's bulk load
// was measured at 0.7 (a 1M load in 2 GiB, soft limit 1424 MiB); kg
// serve's reads need the page cache more than its heap grows.
const (
	ingestHeapShare = 0.7
	serveHeapShare  = 0.75
)

// setMemLimit sets the heap's soft limit (heapLimitMB); GOMEMLIMIT wins.
func setMemLimit(mb int64, flagSet bool, share float64, log zerolog.Logger) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	c := containerLimit()
	limit := heapLimitMB(mb, flagSet, share, c)
	if limit != mb {
		log.Info().Int64("containerMB", c>>20).Int64("heapLimitMB", limit).Msg("running under a memory limit: the heap's soft limit is a share of it (--mem-limit-mb to choose)")
	}
	if limit > 0 {
		debug.SetMemoryLimit(limit << 20)
	}
}

// heapLimitMB is the heap's soft limit in MiB (0: none): mb, or, when the
// flag was not set and the process runs under a container's limit of
// container bytes, the smaller of mb and share of that.
func heapLimitMB(mb int64, flagSet bool, share float64, container int64) int64 {
	if flagSet || container <= 0 {
		return mb
	}
	if fit := int64(float64(container)*share) >> 20; mb == 0 || fit < mb {
		return max(fit, 1)
	}
	return mb
}

// containerLimit is the memory limit in bytes of the cgroup this process
// runs in, the smallest of its own and its parents' (0: none, or no
// cgroup to read).
func containerLimit() int64 {
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0
	}
	var least int64
	for _, f := range cgroupLimitFiles(string(self)) {
		if b, err := os.ReadFile(f); err == nil {
			if n, ok := parseMemLimit(string(b)); ok && (least == 0 || n < least) {
				least = n
			}
		}
	}
	return least
}

// cgroupLimitFiles names the files that may hold a memory limit of the
// cgroup /proc/self/cgroup describes: v2's memory.max, v1's
// memory.limit_in_bytes, of the group and of each group above it up to
// the mount's root (in a container the group's path is often its host's,
// and its own files are at the root).
func cgroupLimitFiles(self string) []string {
	var out []string
	for line := range strings.Lines(self) {
		parts := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(parts) != 3 || !strings.HasPrefix(parts[2], "/") {
			continue
		}
		var root, file string
		switch {
		case parts[0] == "0" && parts[1] == "":
			root, file = "/sys/fs/cgroup", "memory.max"
		case strings.Contains(","+parts[1]+",", ",memory,"):
			root, file = "/sys/fs/cgroup/memory", "memory.limit_in_bytes"
		default:
			continue
		}
		for g := path.Clean(parts[2]); ; g = path.Dir(g) {
			out = append(out, path.Join(root, g, file))
			if g == "/" {
				break
			}
		}
	}
	return out
}

// parseMemLimit reads a limit file's value: bytes, or none ("max", or
// v1's page-rounded 2^63 for no limit).
func parseMemLimit(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if s == "max" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n >= 1<<60 {
		return 0, false
	}
	return n, true
}
