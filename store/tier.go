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
//     uvarint key length | uvarint value length<<2 | superseded bit<<1 |
//     deleted bit | key | value. A rewrite appends a new entry and leaves
//     the old one as garbage, marked superseded, so a value handed to a
//     reader stays valid without a lock or a copy, and an entry found by
//     a key's place in order (a scan, the freeze) is its latest unless
//     marked: only then is the hash table asked. Counters are the exception: a counter's 8 bytes are
//     rewritten in place (2.6 million rewrites, 108 MB of garbage on the
//     arXiv file), since every reader decodes one as it reads it;
//   - an open-addressing hash table of uint64 slots, each a 16-bit tag of
//     the key's hash and the arena position of its latest entry;
//   - per first two key bytes (a kind of key and its namespace), the keys in order for prefix
//     scans: a sorted array of arena positions, a B-tree of the keys
//     added since it was last merged into the array (its items hold a
//     key's first 16 bytes, so most of its comparisons stay in the tree),
//     and the keys added since the last scan, sorted only when a scan
//     needs them (tierorder.go).
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
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"sync"
	"sync/atomic"
	"unsafe"
)

const (
	tierChunk = 64 << 20
	refMask   = 1<<48 - 1
	// minRef in a delta item stands for the smallest key with the item's
	// first 16 bytes (a probe: scans start from it).
	minRef = ^uint64(0)
	// the hash table grows past this load (percent): linear probing over
	// 8-byte slots reads one or two cache lines at 80%
	maxLoad = 80
)

type tier struct {
	mu      sync.RWMutex
	seed    maphash.Seed
	chunks  [][]byte // every family's, in the order made
	size    int64    // bytes appended in all, live and garbage
	slots   []uint64
	n       int       // distinct keys
	fams    []*family // by famOf, numFams of them
	famList []*family // those made, in the order made
	// frozen: the tier is being written out (freeze); it answers no read
	// (a reader that began before a flush and reads while it runs, an
	// analysis worker's textCheck, finds nothing: a "no" it tolerates)
	frozen bool

	window []hashedWrite // apply's, kept between commits
	sink   uint64        // warm's loads (t.mu held)
	rsink  atomic.Uint64 // warm's loads (t.mu read-held)
}

func newTier() *tier {
	return &tier{seed: maphash.MakeSeed(), slots: make([]uint64, 1<<16), fams: make([]*family, numFams)}
}

// bytes is the tier's memory: the arena (live entries and the garbage of
// rewrites), the hash table, the families' arrays and their pending keys.
func (t *tier) bytes() int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.frozen {
		return 0
	}
	pend := 0
	for _, f := range t.famList {
		pend += cap(f.pend)
	}
	return t.size + int64(len(t.slots))*8 + int64(t.n)*8 + int64(pend)*int64(unsafe.Sizeof(ditem{}))
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
	vend := end + int(vl>>2)
	return key, c[end:vend:vend], vl&1 != 0
}

// superseded reports whether a later entry of the same key follows the
// entry at ref (t.mu held).
func (t *tier) superseded(ref uint64) bool {
	c := t.chunks[ref>>32]
	off := int(ref & 0xFFFFFFFF)
	_, n := binary.Uvarint(c[off:])
	return c[off+n]&2 != 0 // the value length's first byte holds its low bits
}

// supersede marks the entry at ref as followed by a later one (t.mu held
// for writing).
func (t *tier) supersede(ref uint64) {
	c := t.chunks[ref>>32]
	off := int(ref & 0xFFFFFFFF)
	_, n := binary.Uvarint(c[off:])
	c[off+n] |= 2
}

// latest is the position of the latest entry of the key whose entry is at
// ref (t.mu held).
func (t *tier) latest(ref uint64) uint64 {
	if !t.superseded(ref) {
		return ref
	}
	return t.slots[t.mustFind(t.key(ref))]&refMask - 1
}

func (t *tier) key(ref uint64) []byte {
	k, _, _ := t.entry(ref)
	return k
}

// appendEntry copies an entry into its family's chunk and returns its
// position.
func (t *tier) appendEntry(f *family, k, v []byte, del bool) uint64 {
	vl := uint64(len(v)) << 2
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
	return t.putHashed(k, v, del, keep, maphash.Bytes(t.seed, k))
}

// putHashed is put of a key whose hash is h.
func (t *tier) putHashed(k, v []byte, del, keep bool, h uint64) error {
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
	f := t.family(k)
	ref := t.appendEntry(f, k, v, del)
	if found {
		t.supersede(t.slots[i]&refMask - 1)
		t.slots[i] = slot(h, ref)
		return nil
	}
	t.slots[i] = slot(h, ref)
	t.n++
	f.add(t, k, ref)
	if t.n*100 > len(t.slots)*maxLoad {
		t.grow()
	}
	return nil
}

// grow doubles the table. Each key is hashed again from the arena, where
// keys lie in the order written, not the table's: every read a cache
// miss (2.8 CPU-s of the arXiv file's load, one miss after the other).
// So, window by window, the keys' first lines are loaded first, then the
// new slots' lines, as loads that do not wait on each other.
func (t *tier) grow() {
	old := t.slots
	t.slots = make([]uint64, 2*len(old))
	mask := uint64(len(t.slots) - 1)
	var win [applyWindow]struct{ s, h uint64 }
	var sum uint64
	for len(old) > 0 {
		n, m := 0, 0
		for ; m < len(old) && n < len(win); m++ {
			if s := old[m]; s != 0 {
				ref := s&refMask - 1
				sum += uint64(t.chunks[ref>>32][ref&0xFFFFFFFF])
				win[n].s = s
				n++
			}
		}
		for i := range win[:n] {
			win[i].h = maphash.Bytes(t.seed, t.key(win[i].s&refMask-1))
			sum += t.slots[win[i].h&mask]
		}
		for _, w := range win[:n] {
			j := w.h & mask
			for t.slots[j] != 0 {
				j = (j + 1) & mask
			}
			t.slots[j] = w.s
		}
		old = old[m:]
	}
	t.sink += sum
}

// apply writes a transaction's pending writes (its overlay) into the
// tier; keep as for put.
//
// A put's cost is two cache misses (its slot, then the key its slot
// points to, in the arena): on the arXiv file 7.6 CPU-s of the writer's
// commits waited on them, one put after the other. So a transaction's
// writes go in windows: first every slot of a window is read, and the
// arena entry of every slot whose tag matches, as loads that do not
// depend on each other (the processor has many misses in flight at
// once), then the window's puts find their lines in the cache.
func (t *tier) apply(o *overlay, keep bool) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	win := t.window[:0]
	defer func() { clear(win[:cap(win)]); t.window = win[:0] }()
	for _, p := range o.index {
		win = append(win, hashedWrite{p, maphash.Bytes(t.seed, p.key)})
		if len(win) == applyWindow {
			if err := t.applyWindow(win, keep); err != nil {
				return err
			}
			win = win[:0]
		}
	}
	return t.applyWindow(win, keep)
}

// applyWindow is how many writes apply warms the cache for at once: their
// slots' and keys' lines (128 bytes a write) stay well inside a core's
// 512 KiB-2 MiB second-level cache.
const applyWindow = 2048

type hashedWrite struct {
	p *pending
	h uint64
}

func (t *tier) applyWindow(win []hashedWrite, keep bool) error {
	t.sink += t.warm(win)
	for _, w := range win {
		if err := t.putHashed(w.p.key, w.p.val, w.p.del, keep, w.h); err != nil {
			return err
		}
	}
	return nil
}

// warmKeys loads the lines that reads of keys will need (see warm), in
// windows, so that reads of them one by one find them in the cache.
func (t *tier) warmKeys(keys [][]byte) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.frozen {
		return
	}
	var win [256]hashedWrite
	for len(keys) > 0 {
		n := min(len(keys), len(win))
		for i, k := range keys[:n] {
			win[i].h = maphash.Bytes(t.seed, k)
		}
		t.rsink.Add(t.warm(win[:n]))
		keys = keys[n:]
	}
}

// warm loads the first slot of each write, then the arena line of each
// such slot whose tag is the write's; the caller keeps the sum, so that
// the loads are not dropped.
func (t *tier) warm(win []hashedWrite) uint64 {
	mask := uint64(len(t.slots) - 1)
	var sum uint64
	for _, w := range win {
		sum += t.slots[w.h&mask]
	}
	for _, w := range win {
		if s := t.slots[w.h&mask]; s != 0 && s>>48 == w.h>>48 {
			ref := s&refMask - 1
			sum += uint64(t.chunks[ref>>32][ref&0xFFFFFFFF])
		}
	}
	return sum
}
