package store

import (
	"runtime/debug"
	"runtime/metrics"
)

// A bulk load's tier is Go memory, and so is whatever else the ingest
// holds: a settle's gains, the co-occurrence tally, the groups of names
// being clustered. Bounded by its own budget only, the tier and the rest
// of a million-paper load outgrew a 2 GiB memory limit in the settle
// (killed at 2.07 GB anonymous). So a commit also flushes the tier when
// the heap left live by the last collection is near the soft memory
// limit (debug.SetMemoryLimit, kg ingest's --mem-limit-mb) and the tier
// holds enough to be worth a flush: what is written yields memory to what
// is being computed.

// pressureShare: the heap is pressed past limit - limit/pressureShare.
const pressureShare = 10

// pressureMinTier: a tier smaller than budget/pressureMinTier is not
// flushed for pressure (each flush is a sorted run Badger merges later).
const pressureMinTier = 8

var liveHeap = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

// heapPressed reports whether the live heap is within a tenth of the soft
// memory limit (never without a limit).
func heapPressed() bool {
	limit := debug.SetMemoryLimit(-1)
	if limit <= 0 || limit == 1<<63-1 {
		return false
	}
	s := []metrics.Sample{liveHeap[0]}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return false
	}
	return int64(s[0].Value.Uint64()) > limit-limit/pressureShare
}

// pressedFlush reports whether a commit flushes a tier of the given size
// for memory pressure (a variable for tests).
var pressedFlush = func(size, budget int64) bool {
	return size > budget/pressureMinTier && heapPressed()
}
