// The memory tier of a bulk load (bulk.go): every write a bulk load
// commits lands here instead of in Badger, and reads find it here. Badger's
// write path costs a bulk load more than the graph's own work: each write
// is a skiplist insert that misses the cache, a log append, and later one
// or more compactions that rewrite it (on the arXiv file 70 of 240
// CPU-seconds, with the reads through its levels). The tier keeps each
// key's latest value in memory and writes it once, sorted, when the load
// ends (Badger's StreamWriter builds the tables directly).
//
// Layout, chosen so that the garbage collector has nothing to scan, a
// point read costs one or two cache misses, and a key costs 20 to 30
// bytes besides itself and its value (6.9 million keys on the arXiv file:
// an arena of 564 MB, of which 424 MB are the keys and values written):
//
//   - an arena of 64 MB chunks ([]byte) to which entries are appended:
//     uvarint key length | uvarint value length<<1 | deleted bit | key |
//     value. A rewrite appends a new entry and leaves the old one as
//     garbage, so a value handed to a reader stays valid without a lock
//     or a copy. Counters are the exception: a counter's 8 bytes are
//     rewritten in place (2.6 million rewrites, 108 MB of garbage on the
//     arXiv file), since every reader decodes one as it reads it;
//   - an open-addressing hash table of uint64 slots, each a 16-bit tag of
//     the key's hash and the arena position of its latest entry;
//   - per first key byte (a kind of key), the keys in order for prefix
//     scans: a sorted array of arena positions, and a B-tree of the keys
//     added since it was last merged into the array (its items hold a
//     key's first 8 bytes, so most of its comparisons stay in the tree).
//     A key stays in its family once added; its latest entry (a deletion,
//     perhaps) comes from the hash table.
//
// Methods lock: one writer applies commits (apply) while analysis workers
// may read (get, scan). A scan collects a few hundred entries under the
// read lock and calls its function without it, so that function may read
// again while a writer waits.
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

const (
	tierChunk = 64 << 20
	refMask   = 1<<48 - 1
	// minRef in a delta item stands for the smallest key with the item's
	// first 8 bytes (a probe: scans start from it).
	minRef = ^uint64(0)
	// the hash table grows past this load (percent): linear probing over
	// 8-byte slots reads one or two cache lines at 80%
	maxLoad = 80
)

type tier struct {
	mu     sync.RWMutex
	seed   maphash.Seed
	chunks [][]byte // every family's, in the order made
	size   int64    // bytes appended in all, live and garbage
	slots  []uint64
	n      int // distinct keys
	fams   [256]*family
	// frozen: the tier is being written out (freeze); it answers no read
	// (a reader that began before a flush and reads while it runs, an
	// analysis worker's textCheck, finds nothing: a "no" it tolerates)
	frozen bool
}

// family holds the keys of one first byte: their entries, in chunks of
// their own (a flush frees a family's chunks once it is written), and the
// keys in order: base, sorted, with a fence (the first 16 bytes) of every
// fenceEvery-th key, so that a search reads the arena a few times rather
// than at each of its ~23 steps; and delta, the keys added since base was
// last merged.
type family struct {
	chunks []int // its chunks (indexes into tier.chunks), the last one being filled
	used   int   // bytes used of its last chunk
	base   []uint64
	fences []prefix16
	delta  *btree.BTreeG[ditem]
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

func newTier() *tier {
	return &tier{seed: maphash.MakeSeed(), slots: make([]uint64, 1<<16)}
}

// bytes is the tier's memory: the arena (live entries and the garbage of
// rewrites), the hash table and the families' arrays.
func (t *tier) bytes() int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.frozen {
		return 0
	}
	return t.size + int64(len(t.slots))*8 + int64(t.n)*8
}

// keys is the number of distinct keys held (deletions included).
func (t *tier) keys() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.n
}

// entry decodes the entry at ref; off is where its value starts.
func (t *tier) entry(ref uint64) (key, val []byte, del bool) {
	c := t.chunks[ref>>32]
	off := int(ref & 0xFFFFFFFF)
	kl, n := binary.Uvarint(c[off:])
	off += n
	vl, n := binary.Uvarint(c[off:])
	off += n
	end := off + int(kl)
	key = c[off:end:end]
	vend := end + int(vl>>1)
	return key, c[end:vend:vend], vl&1 != 0
}

func (t *tier) key(ref uint64) []byte {
	k, _, _ := t.entry(ref)
	return k
}

// appendEntry copies an entry into its family's chunk and returns its
// position.
func (t *tier) appendEntry(f *family, k, v []byte, del bool) uint64 {
	vl := uint64(len(v)) << 1
	if del {
		vl |= 1
	}
	need := binary.MaxVarintLen32*2 + len(k) + len(v)
	if len(f.chunks) == 0 || f.used+need > len(t.chunks[f.chunks[len(f.chunks)-1]]) {
		size := 1 << 16 // chunks grow to tierChunk: a small family takes little
		if len(f.chunks) > 0 {
			size = min(2*len(t.chunks[f.chunks[len(f.chunks)-1]]), tierChunk)
		}
		t.chunks = append(t.chunks, make([]byte, max(size, need)))
		f.chunks = append(f.chunks, len(t.chunks)-1)
		f.used = 0
	}
	ci := f.chunks[len(f.chunks)-1]
	c := t.chunks[ci]
	off := f.used
	n := binary.PutUvarint(c[off:], uint64(len(k)))
	n += binary.PutUvarint(c[off+n:], vl)
	n += copy(c[off+n:], k)
	n += copy(c[off+n:], v)
	f.used += n
	t.size += int64(n)
	return uint64(ci)<<32 | uint64(off)
}

// find returns the slot index of k: its slot, or the empty slot where it
// would go (found false).
func (t *tier) find(k []byte, h uint64) (int, bool) {
	mask := uint64(len(t.slots) - 1)
	tag := h >> 48
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return int(i), false
		}
		if s>>48 == tag && bytes.Equal(t.key(s&refMask-1), k) {
			return int(i), true
		}
	}
}

func slot(h, ref uint64) uint64 { return h>>48<<48 | (ref + 1) }

// get returns the latest entry of k (ok false: the tier has none).
func (t *tier) get(k []byte) (val []byte, del, ok bool) {
	h := maphash.Bytes(t.seed, k)
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.frozen {
		return nil, false, false
	}
	i, found := t.find(k, h)
	if !found {
		return nil, false, false
	}
	_, v, d := t.entry(t.slots[i]&refMask - 1)
	return v, d, true
}

// put writes k's latest entry (t.mu held). A deletion of a key the tier
// has never held is written only when keep says so (Badger may hold the
// key: the deletion must shadow it).
func (t *tier) put(k, v []byte, del, keep bool) error {
	if t.frozen {
		return fmt.Errorf("tier: a write after the tier was frozen")
	}
	if len(k) == 0 || len(k) > maxKey {
		return fmt.Errorf("tier: key of %d bytes", len(k))
	}
	h := maphash.Bytes(t.seed, k)
	i, found := t.find(k, h)
	if !found && del && !keep {
		return nil
	}
	if found && k[0] == pCounter && !del && len(v) == 8 {
		if _, old, odel := t.entry(t.slots[i]&refMask - 1); !odel && len(old) == 8 {
			copy(old, v) // counters are decoded as they are read (see the file's comment)
			return nil
		}
	}
	f := t.family(k[0])
	ref := t.appendEntry(f, k, v, del)
	t.slots[i] = slot(h, ref)
	if found {
		return nil
	}
	t.n++
	f.add(t, k, ref)
	if t.n*100 > len(t.slots)*maxLoad {
		t.grow()
	}
	return nil
}

func (t *tier) grow() {
	old := t.slots
	t.slots = make([]uint64, 2*len(old))
	mask := uint64(len(t.slots) - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		h := maphash.Bytes(t.seed, t.key(s&refMask-1))
		i := h & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

func (t *tier) family(b byte) *family {
	f := t.fams[b]
	if f == nil {
		f = &family{delta: btree.NewG(32, t.dless)}
		t.fams[b] = f
	}
	return f
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

// add puts a new key in the family; the delta is merged into the array
// once it holds a quarter as many keys (at least 64k, at most 1M), so the
// merges' work stays a few times the keys' count.
func (f *family) add(t *tier, k []byte, ref uint64) {
	f.delta.ReplaceOrInsert(ditem{prefixOf(k), ref})
	if n := f.delta.Len(); n >= 1<<16 && (n >= len(f.base)/4 || n >= 1<<20) {
		f.merge(t)
	}
}

// merge merges the delta into a new array (readers may hold the old one).
func (f *family) merge(t *tier) {
	out := make([]uint64, 0, len(f.base)+f.delta.Len())
	i := 0
	f.delta.Ascend(func(d ditem) bool {
		dk := t.key(d.ref)
		for i < len(f.base) && bytes.Compare(t.key(f.base[i]), dk) < 0 {
			out = append(out, f.base[i])
			i++
		}
		out = append(out, d.ref)
		return true
	})
	f.base = append(out, f.base[i:]...)
	f.fences = make([]prefix16, 0, len(f.base)/fenceEvery+1)
	for j := 0; j < len(f.base); j += fenceEvery {
		f.fences = append(f.fences, prefixOf(t.key(f.base[j])))
	}
	f.delta.Clear(false)
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

// apply writes a transaction's pending writes (its overlay) into the
// tier; keep as for put.
func (t *tier) apply(o *overlay, keep bool) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, p := range o.index {
		if err := t.put(p.key, p.val, p.del, keep); err != nil {
			return err
		}
	}
	return nil
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
	fam           int    // the family being read
	after         []byte // the last key collected (nil: none yet in fam)
	famDone       bool
	buf           []tierEntry
	i             int
}

func (t *tier) cursor(prefix, start []byte) *tierCursor {
	if start != nil && bytes.Compare(start, prefix) < 0 {
		start = nil
	}
	c := &tierCursor{t: t, prefix: prefix, start: start}
	switch {
	case len(prefix) > 0:
		c.fam = int(prefix[0])
	case len(start) > 0:
		c.fam = int(start[0])
	}
	return c
}

func (c *tierCursor) valid() bool {
	for c.i >= len(c.buf) {
		if c.famDone {
			if len(c.prefix) > 0 || c.fam == 255 {
				return false
			}
			c.fam++ // a scan of every key goes on to the next family
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
	defer t.mu.RUnlock()
	f := t.fams[c.fam]
	if f == nil || t.frozen {
		c.famDone = true
		return
	}
	from := c.start
	if from == nil || from[0] != byte(c.fam) {
		from = []byte{byte(c.fam)}
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
		_, v, d := t.entry(t.slots[t.mustFind(k)]&refMask - 1)
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
	var fams []*family
	for _, f := range t.fams {
		if f != nil {
			fams = append(fams, f)
		}
	}
	onEachCore(len(fams), func(i int) {
		f := fams[i]
		if f.delta.Len() > 0 {
			f.merge(t)
		}
		for j, ref := range f.base {
			f.base[j] = t.slots[t.mustFind(t.key(ref))]&refMask - 1
		}
	})
	t.slots = nil
}

// flushEach visits a frozen family's latest entries in key order, then
// frees the family's memory.
func (t *tier) flushEach(b byte, fn func(e tierEntry) bool) {
	f := t.fams[b]
	if f == nil {
		return
	}
	for _, ref := range f.base {
		k, v, d := t.entry(ref)
		if !fn(tierEntry{k, v, d}) {
			break
		}
	}
	for _, ci := range f.chunks {
		t.chunks[ci] = nil
	}
	t.fams[b] = nil
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
