package store

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"

	"github.com/rs/zerolog"
)

// A bulk load's tier is Go memory, and so is whatever else the ingest
// holds: a settle's gains, the co-occurrence tally, the groups of names
// being clustered. Bounded by its own budget only, the tier and the rest
// of a million-paper load outgrew a 2 GiB memory limit in the settle
// (killed at 2.07 GB anonymous). So a commit also flushes the tier when
// the heap left live by the last collection is near the soft memory
// limit (debug.SetMemoryLimit, kg ingest's --mem-limit-mb) and the tier
// holds enough to be worth a flush: what is written yields memory to what
// is being computed. The live heap is known as of the last collection
// only: until one has run wholly since the last flush, it counts the tier
// just written, and is not read (a 1M load flushed tiers of 135 MB again
// and again, a few seconds after each full one).

// pressureShare: the heap is pressed past limit - limit/pressureShare.
const pressureShare = 10

// pressureMinTier: a tier smaller than budget/pressureMinTier is not
// flushed for pressure (each flush is a sorted run Badger merges later).
const pressureMinTier = 8

// heapPressed reports whether the live heap is within a tenth of the soft
// memory limit (never without a limit).
func heapPressed() bool {
	limit := debug.SetMemoryLimit(-1)
	if limit <= 0 || limit == 1<<63-1 {
		return false
	}
	live, ok := readUint64("/gc/heap/live:bytes")
	return ok && int64(live) > limit-limit/pressureShare
}

// gcCycles is how many collections have completed.
func gcCycles() uint64 {
	n, _ := readUint64("/gc/cycles/total:gc-cycles")
	return n
}

func readUint64(name string) (uint64, bool) {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return s[0].Value.Uint64(), true
}

// pressedFlush reports whether a commit flushes a tier for memory
// pressure: size is what the flush lets go (the tier and the cache of
// values read back; not the carried counters, which stay: counted, a 1M
// load's 93 MB of them made a flush of every 20 MB of writes), gcAtFlush
// gcCycles at the end of the last flush (the second collection since
// began after the old tier was let go). A variable for tests.
var pressedFlush = func(size, budget int64, gcAtFlush uint64) bool {
	return flushForPressure(size, budget, gcCycles(), gcAtFlush, heapPressed)
}

// flushForPressure is pressedFlush's rule, given the collections completed
// now and the heap's test.
func flushForPressure(size, budget int64, cycles, gcAtFlush uint64, pressed func() bool) bool {
	return size > budget/pressureMinTier && cycles > gcAtFlush+1 && pressed()
}

// memStat is what a flush logs of the process's memory, in MiB: the heap
// the last collection left live, the heap's spans in use, and the
// resident anonymous memory (Linux; 0 elsewhere), which is what a memory
// limit (a cgroup's) kills for.
type memStat struct{ live, inUse, anon uint64 }

func memNow() memStat {
	live, _ := readUint64("/gc/heap/live:bytes")
	objects, _ := readUint64("/memory/classes/heap/objects:bytes")
	unused, _ := readUint64("/memory/classes/heap/unused:bytes")
	return memStat{live >> 20, (objects + unused) >> 20, rssAnonKB() >> 10}
}

func (m memStat) dict() *zerolog.Event {
	return zerolog.Dict().Uint64("heapLive", m.live).Uint64("heapInUse", m.inUse).Uint64("rssAnon", m.anon)
}

// rssAnonKB reads RssAnon from /proc/self/status (0 where there is none).
func rssAnonKB() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			n, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
