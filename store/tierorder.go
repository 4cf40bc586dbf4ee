// The tier's order: per kind of key, the keys in order for prefix scans
// (a sorted array with fences, a B-tree of the keys added since its last
// merge, and the keys added since the last scan, unsorted), the cursor
// scans walk them with, and the walk of a flush (tier.go says why the
// tier is laid out so).

package store

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"runtime"
	"slices"
	"sync"

	"github.com/google/btree"
)

// family holds the keys of one first two bytes (famOf): their entries, in chunks of
// their own (a flush frees a family's chunks once it is written), and the
// keys in order: base, sorted, with a fence (the first 16 bytes) of every
// fenceEvery-th key, so that a search reads the arena a few times rather
// than at each of its ~23 steps; delta, the keys added since base was
// last merged, ordered at a scan; and pend, the keys added since the
// family was last scanned, in the order added.
//
// Most families are never scanned while a load runs (edges, counters,
// values: the writer reads them by key): their keys are sorted once, when
// the tier is frozen, instead of each going into the B-tree as it comes
// (5.6 of 127 CPU-seconds on the arXiv file). A family that is scanned
// puts what is pending in order at the scan.
type family struct {
	chunks []int // its chunks (indexes into tier.chunks), the last one being filled
	used   int   // bytes used of its last chunk
	base   []uint64
	fences []prefix16
	delta  *btree.BTreeG[ditem]
	pend   []ditem
}

const fenceEvery = 32

// prefix16 is a key's first 16 bytes, big-endian and zero-padded (a
// shorter key pads with zeros, which keeps byte order): most keys differ
// within them (an edge's ends, a term's first 14 letters).
type prefix16 struct{ p1, p2 uint64 }

func prefixOf(k []byte) prefix16 {
	var b [16]byte
	copy(b[:], k)
	return prefix16{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])}
}

func (a prefix16) cmp(b prefix16) int {
	if c := cmp.Compare(a.p1, b.p1); c != 0 {
		return c
	}
	return cmp.Compare(a.p2, b.p2)
}

// prefixBound tells from a key's prefix16 whether it sorts after every
// key that starts with a scan prefix.
type prefixBound struct {
	p    prefix16
	mask prefix16 // the prefix's bytes within the first 16
}

func prefixEnd(prefix []byte) prefixBound {
	var m [16]byte
	for i := range min(len(prefix), 16) {
		m[i] = 0xFF
	}
	mask := prefixOf(m[:])
	return prefixBound{p: prefixOf(prefix), mask: mask}
}

// beyond reports whether a key with prefix p sorts after every key that
// starts with the bound's prefix: its first bytes (as many as the prefix
// has, up to 16) are greater.
func (b prefixBound) beyond(p prefix16) bool {
	return prefix16{p.p1 & b.mask.p1, p.p2 & b.mask.p2}.cmp(b.p) > 0
}

// ditem is a key in a delta: its prefix and the arena position of an
// entry of it.
type ditem struct {
	p   prefix16
	ref uint64
}

// numFams: a family is a key's first two bytes (famOf).
const numFams = 1 << 16

// famOf is the family of a key: its first two bytes, the kind of key and
// its namespace (a term index, a lookup's, a counter's first letter, the
// first byte of an edge's node id). A scan reads the pending keys of its
// own family only: the keys the writer adds to the word index while it
// scans the acronym definitions stay unsorted until the freeze sorts
// them, once.
func famOf(k []byte) int {
	switch len(k) {
	case 0:
		return 0
	case 1:
		return int(k[0]) << 8
	}
	return int(k[0])<<8 | int(k[1])
}

// famKey is the smallest key a family can hold.
func famKey(fam int) []byte {
	if fam&0xFF == 0 {
		return []byte{byte(fam >> 8)} // a key of one byte sorts first
	}
	return []byte{byte(fam >> 8), byte(fam)}
}

func (t *tier) family(k []byte) *family {
	id := famOf(k)
	f := t.fams[id]
	if f == nil {
		f = &family{delta: btree.NewG(32, t.dless)}
		t.fams[id] = f
		t.famList = append(t.famList, f)
	}
	return f
}

// dcmp orders the keys of two items (no probes).
func (t *tier) dcmp(a, b ditem) int {
	if c := a.p.cmp(b.p); c != 0 {
		return c
	}
	return bytes.Compare(t.key(a.ref), t.key(b.ref))
}

func (t *tier) dless(a, b ditem) bool {
	if c := a.p.cmp(b.p); c != 0 {
		return c < 0
	}
	if a.ref == minRef || b.ref == minRef {
		return a.ref == minRef && b.ref != minRef
	}
	return bytes.Compare(t.key(a.ref), t.key(b.ref)) < 0
}

// add puts a new key in the family (t.mu held), pending until the next
// scan of the family, the freeze, or until the pending keys are many
// (then merged into the array: 24 bytes a pending key against 8 in the
// array). A merge reads every key of the array, so the keys of a family
// no scan reads wait until they are as many as the array's (or a
// million): each key is merged about twice, not five times as at a
// quarter (2.4 of 136 CPU-s on the arXiv file).
func (f *family) add(t *tier, k []byte, ref uint64) {
	f.pend = append(f.pend, ditem{prefixOf(k), ref})
	if n := len(f.pend); n >= 1<<16 && (n >= len(f.base) || n >= 1<<20) {
		f.merge(t) // its array is kept: the next keys come at once
	}
}

// order puts the pending keys in order (t.mu held for writing): into the
// delta, which is merged into the array once it holds a quarter as many
// keys (at least 64k, at most 1M), so the merges' work stays a few times
// the keys' count.
func (f *family) order(t *tier) {
	if len(f.pend) == 0 {
		return
	}
	if n := f.delta.Len() + len(f.pend); n >= 1<<16 && (n >= len(f.base)/4 || n >= 1<<20) {
		f.merge(t)
		if cap(f.pend) > 1<<16 { // a scanned family's keys come in rounds: not held between
			f.pend = nil
		}
		return
	}
	for _, d := range f.pend {
		f.delta.ReplaceOrInsert(d)
	}
	f.pend = f.pend[:0]
}

// merge merges the delta and the pending keys into a new array (readers
// may hold the old one).
func (f *family) merge(t *tier) {
	if len(f.pend) > 0 {
		slices.SortFunc(f.pend, t.dcmp)
	}
	add := make([]ditem, 0, f.delta.Len())
	f.delta.Ascend(func(d ditem) bool {
		add = append(add, d)
		return true
	})
	if len(add) == 0 {
		add = f.pend
	} else if len(f.pend) > 0 {
		add = mergeItems(t, add, f.pend)
	}
	out := make([]uint64, 0, len(f.base)+len(add))
	i := 0
	for _, d := range add {
		dk := t.key(d.ref)
		for i < len(f.base) && bytes.Compare(t.key(f.base[i]), dk) < 0 {
			out = append(out, f.base[i])
			i++
		}
		out = append(out, d.ref)
	}
	f.base = append(out, f.base[i:]...)
	f.fences = make([]prefix16, 0, len(f.base)/fenceEvery+1)
	for j := 0; j < len(f.base); j += fenceEvery {
		f.fences = append(f.fences, prefixOf(t.key(f.base[j])))
	}
	f.delta.Clear(false)
	f.pend = f.pend[:0]
}

// mergeItems merges two sorted lists of distinct keys.
func mergeItems(t *tier, a, b []ditem) []ditem {
	out := make([]ditem, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if t.dcmp(a[0], b[0]) < 0 {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// search returns the index in base of the first key ≥ k.
func (f *family) search(t *tier, k []byte) int {
	p := prefixOf(k)
	// fences below p: their blocks' first keys are below k, so the
	// answer is at or after the last such block's start
	lo, _ := slices.BinarySearchFunc(f.fences, p, prefix16.cmp)
	start := max(lo-1, 0) * fenceEvery
	// fences equal to p: the answer is before the block after them
	hi := lo
	for hi < len(f.fences) && f.fences[hi] == p {
		hi++
	}
	end := len(f.base)
	if hi < len(f.fences) {
		end = hi * fenceEvery
	}
	i, _ := slices.BinarySearchFunc(f.base[start:end], k, func(ref uint64, k []byte) int {
		return bytes.Compare(t.key(ref), k)
	})
	return start + i
}

// scanBatch is how many entries a scan collects under one read lock.
const scanBatch = 256

// tierEntry is an entry a scan found (the arena's bytes: valid for good).
// It is a valued, for the overlay's scans.
type tierEntry struct {
	key, val []byte
	del      bool
}

func (e *tierEntry) ValueSize() int64                  { return int64(len(e.val)) }
func (e *tierEntry) Value(fn func([]byte) error) error { return fn(e.val) }

// scan visits, in key order, the latest entries of the keys under prefix
// from start (nil: the prefix), deletions included, until fn returns
// false.
func (t *tier) scan(prefix, start []byte, fn func(e tierEntry) bool) {
	for c := t.cursor(prefix, start); c.valid(); c.next() {
		if !fn(*c.cur()) {
			return
		}
	}
}

// tierCursor walks a tier's keys under a prefix in order, a batch at a
// time: each batch is collected under the read lock, the next one starts
// after the last key collected (a merge may have replaced the array).
type tierCursor struct {
	t             *tier
	prefix, start []byte
	fam, last     int    // the family being read, and the scan's last
	after         []byte // the last key collected (nil: none yet in fam)
	famDone       bool
	buf           []tierEntry
	i             int
}

func (t *tier) cursor(prefix, start []byte) *tierCursor {
	if start != nil && bytes.Compare(start, prefix) < 0 {
		start = nil
	}
	c := &tierCursor{t: t, prefix: prefix, start: start, last: numFams - 1}
	from := prefix
	if start != nil {
		from = start
	}
	c.fam = famOf(from)
	switch len(prefix) {
	case 0:
	case 1:
		c.last = int(prefix[0])<<8 | 0xFF
	default:
		c.last = famOf(prefix)
	}
	return c
}

func (c *tierCursor) valid() bool {
	for c.i >= len(c.buf) {
		if c.famDone {
			if c.fam >= c.last {
				return false
			}
			c.fam++ // a scan wider than a family goes on to the next
			c.famDone, c.after = false, nil
		}
		c.fill()
	}
	return true
}

func (c *tierCursor) cur() *tierEntry { return &c.buf[c.i] }

func (c *tierCursor) next() { c.i++ }

// fill collects the next batch of the current family: the array's keys
// and the delta's, merged.
func (c *tierCursor) fill() {
	t := c.t
	c.buf, c.i = c.buf[:0], 0
	t.mu.RLock()
	if f := t.fams[c.fam]; f != nil && len(f.pend) > 0 && !t.frozen {
		// keys added since the family was last scanned go in order
		// first, under the write lock, which this batch then holds
		t.mu.RUnlock()
		t.mu.Lock()
		defer t.mu.Unlock()
		if f := t.fams[c.fam]; f != nil && !t.frozen {
			f.order(t)
		}
	} else {
		defer t.mu.RUnlock()
	}
	f := t.fams[c.fam]
	if f == nil || t.frozen {
		c.famDone = true
		return
	}
	from := c.start
	if from == nil || famOf(from) != c.fam {
		from = famKey(c.fam)
	}
	if len(c.prefix) > 0 && bytes.Compare(from, c.prefix) < 0 {
		from = c.prefix
	}
	if c.after != nil {
		from = c.after
	}
	// the first key ≥ from (> from when resuming) in each
	after := c.after != nil
	past := func(k []byte) bool {
		d := bytes.Compare(k, from)
		return d > 0 || d == 0 && !after
	}
	i := f.search(t, from)
	if i < len(f.base) && !past(t.key(f.base[i])) {
		i++
	}
	var ds []uint64 // the delta's next keys under the prefix, up to a batch
	fromP := prefixOf(from)
	end := prefixEnd(c.prefix)
	f.delta.AscendGreaterOrEqual(ditem{fromP, minRef}, func(d ditem) bool {
		if d.p == fromP && !past(t.key(d.ref)) {
			return true // shares from's first 16 bytes, sorts before it
		}
		if end.beyond(d.p) {
			return false
		}
		ds = append(ds, d.ref)
		return len(ds) < scanBatch
	})
	j := 0
	for len(c.buf) < scanBatch {
		var ref uint64
		switch {
		case i < len(f.base) && (j >= len(ds) || bytes.Compare(t.key(f.base[i]), t.key(ds[j])) < 0):
			ref = f.base[i]
			i++
		case j < len(ds):
			ref = ds[j]
			j++
		default:
			c.famDone = true
			return
		}
		k := t.key(ref)
		if !bytes.HasPrefix(k, c.prefix) {
			c.famDone = true
			return
		}
		_, v, d := t.entry(t.latest(ref))
		c.buf = append(c.buf, tierEntry{k, v, d})
		c.after = k
	}
}

// mustFind is the slot of a key the tier holds (t.mu held).
func (t *tier) mustFind(k []byte) int {
	i, ok := t.find(k, maphash.Bytes(t.seed, k))
	if !ok {
		panic(fmt.Sprintf("tier: key %x is in a family but not in the table", k))
	}
	return i
}

// freeze readies the tier to be written out, once no one reads or writes
// it: each family's keys in one sorted array of their latest entries. The
// hash table is dropped; only flushEach may be used after it.
func (t *tier) freeze() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.frozen = true
	fams := t.famList
	onEachCore(len(fams), func(i int) {
		f := fams[i]
		if f.delta.Len() > 0 || len(f.pend) > 0 {
			f.merge(t)
		}
		f.pend = nil
		for j, ref := range f.base {
			f.base[j] = t.latest(ref)
		}
	})
	t.slots = nil
	t.famList = nil // flushEach frees each family as it is written
}

// flushEach visits the latest entries of a frozen tier's keys of one
// first byte, in key order, then frees those families' memory.
func (t *tier) flushEach(b byte, fn func(e tierEntry) bool) {
	for id := int(b) << 8; id <= int(b)<<8|0xFF; id++ {
		f := t.fams[id]
		if f == nil {
			continue
		}
		done := false
		for _, ref := range f.base {
			k, v, d := t.entry(ref)
			if !fn(tierEntry{k, v, d}) {
				done = true
				break
			}
		}
		for _, ci := range f.chunks {
			t.chunks[ci] = nil
		}
		t.fams[id] = nil
		if done {
			return
		}
	}
}

// keysOf is the number of keys of one first byte a frozen tier holds.
func (t *tier) keysOf(b byte) int {
	n := 0
	for id := int(b) << 8; id <= int(b)<<8|0xFF; id++ {
		if f := t.fams[id]; f != nil {
			n += len(f.base)
		}
	}
	return n
}

// onEachCore runs fn for 0..n-1 on one goroutine per core.
func onEachCore(n int, fn func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	wg.Wait()
}
