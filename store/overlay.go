package store

import (
	"bytes"
	"slices"
	"unsafe"

	"github.com/dgraph-io/badger/v4"
	"github.com/google/btree"

	"github.com/researchkg/kg/graph"
)

// overlay makes prefix scans inside a write transaction cost what they cost
// outside one.
//
// Badger (v4.9.6, Txn.newPendingWritesIterator) copies and sorts every
// pending write of a transaction each time an iterator is opened in it,
// whatever the iterator's prefix. Ingest opens many small scans in one
// transaction (a paper's authors, its old mentions, the concepts ending
// with a new one), so a document of many records cost O(scans · writes ·
// log writes): 85% of a fresh ingest of the seed pages.
//
// Instead, a transaction's writes are kept here, ordered in a B-tree, and
// reach Badger only at commit (DB.Update); reads look here first, and scans
// merge an iterator over a read-only snapshot with the pending writes under
// the prefix. Badger's conflict detection is off: DB.Update runs one write
// transaction at a time, so there is nothing for it to find.
type overlay struct {
	snap *badger.Txn // read-only snapshot for iteration
	tree *btree.BTreeG[*pending]
	// index holds every pending write by key; tree orders those of the
	// prefixes ingest scans (sorted below). Point reads and writes are most
	// of a transaction's work, and keeping every write in a B-tree cost a
	// fifth of the writer's time on the arXiv file.
	index map[string]*pending
	// base holds writes below tree and above the snapshot: a dry run's
	// earlier writes (nothing reaches Badger), or the commit under way
	// (with its index as baseIndex).
	base      *btree.BTreeG[*pending]
	baseIndex map[string]*pending
	bytes     int // keys and values of the writes held
	maxVal    int // the largest value written (undone ones included)

	atomic int    // depth of tx.Atomic calls
	undo   []undo // writes inside Atomic, to roll back

	// fresh holds the ids allocated in this transaction: the snapshot
	// cannot hold a key naming one, so reads and scans of such keys skip
	// it. A new paper's edges, a new author's pairs, a new concept's
	// mentions are all written after a check that they do not exist yet;
	// on a fresh ingest of the arXiv file most of those checks were of
	// such keys (a million Badger reads in 20,000 records, all misses).
	fresh map[graph.NodeID]struct{}

	slab []pending // where new pending writes are allocated

	// tier holds the commits of a bulk load (bulk.go) below the pending
	// writes; reads and scans that miss here look there.
	tier *tier
}

// inSnapshot reports whether the snapshot may hold k (or, for a scan
// prefix, keys under it): not when the key names a fresh id.
func (o *overlay) inSnapshot(k []byte) bool {
	if len(o.fresh) == 0 || len(k) == 0 {
		return true
	}
	a, b := keyIDs(k)
	_, fa := o.fresh[a]
	_, fb := o.fresh[b]
	return !(a != 0 && fa || b != 0 && fb)
}

// sorted reports whether pending writes under k's prefix are kept in key
// order: the prefixes scanned during writes (edges, lists, pairs, terms,
// counters: graph reads the document frequencies of every longer term
// when a term is promoted, and a scan of unsorted writes passes over all
// of them). Scans of the others (nodes by kind) sort what they find.
func sorted(k []byte) bool {
	switch k[0] {
	case pOut, pIn, pList, pPairRow, pTerm, pCounter:
		return true
	}
	return false
}

// each visits every pending write, in no particular order.
func (o *overlay) each(fn func(p *pending)) {
	for _, p := range o.index {
		fn(p)
	}
}

func newTree() *btree.BTreeG[*pending] {
	return btree.NewG(32, func(a, b *pending) bool { return bytes.Compare(a.key, b.key) < 0 })
}

// lookup finds a key among the pending writes (this transaction's, then a
// dry run's earlier ones).
func (o *overlay) lookup(k []byte) (*pending, bool) {
	if p, ok := o.index[string(k)]; ok {
		return p, true
	}
	switch {
	case o.baseIndex != nil:
		p, ok := o.baseIndex[string(k)]
		return p, ok
	case o.base != nil:
		return o.base.Get(&pending{key: k})
	}
	return nil, false
}

// pending is one write of the transaction; it implements valued.
type pending struct {
	key, val []byte
	del      bool
}

func (p *pending) ValueSize() int64 { return int64(len(p.val)) }

func (p *pending) Value(fn func([]byte) error) error { return fn(p.val) }

// newOverlay starts an overlay on snap sized for about size writes (the
// last transaction's: a batch grows its index to ~16,000 keys, and growing
// it from empty rehashed it a dozen times).
func newOverlay(snap *badger.Txn, size int) *overlay {
	return &overlay{snap: snap, tree: newTree(), index: make(map[string]*pending, size)}
}

func (t *tx) set(k, v []byte) error {
	p := t.over.alloc()
	p.key, p.val = k, v
	return t.over.put(p)
}

func (t *tx) del(k []byte) error {
	p := t.over.alloc()
	p.key, p.del = k, true
	return t.over.put(p)
}

// alloc returns a new pending write from the overlay's slab (one
// allocation per 512 writes instead of one each).
func (o *overlay) alloc() *pending {
	if len(o.slab) == cap(o.slab) {
		o.slab = make([]pending, 0, 512)
	}
	o.slab = append(o.slab, pending{})
	return &o.slab[len(o.slab)-1]
}

// keyString is k as a map key without a copy. Keys are built afresh for
// each write and never changed after (store's key functions return new
// slices), so the string's bytes stay put.
func keyString(k []byte) string {
	if len(k) == 0 {
		return ""
	}
	return unsafe.String(&k[0], len(k))
}

// undo is what one write replaced: its previous pending write, or nothing.
type undo struct {
	key  []byte
	prev *pending
}

// maxKey is Badger's key size limit (it refuses larger keys at commit).
const maxKey = 65000

func (o *overlay) put(p *pending) error {
	if len(p.key) > maxKey {
		return graph.Errorf(graph.Invalid, "key of %d bytes is over the store's limit", len(p.key))
	}
	prev, had := o.index[string(p.key)]
	o.index[keyString(p.key)] = p
	if sorted(p.key) {
		o.tree.ReplaceOrInsert(p)
	}
	o.bytes += len(p.key) + len(p.val)
	o.maxVal = max(o.maxVal, len(p.val))
	if had {
		o.bytes -= len(prev.key) + len(prev.val)
	} else {
		prev = nil
	}
	if o.atomic > 0 {
		o.undo = append(o.undo, undo{key: p.key, prev: prev})
	}
	return nil
}

// Atomic runs fn; when it fails, the writes fn made are undone (the
// transaction's earlier writes stay). Ids fn allocated are not reused.
func (t *tx) Atomic(fn func() error) error {
	o := t.over
	mark, rowMark := len(o.undo), len(t.rowUndo)
	o.atomic++
	err := fn()
	o.atomic--
	if err != nil {
		t.undoRows(rowMark)
		for i := len(o.undo) - 1; i >= mark; i-- {
			u := o.undo[i]
			cur := o.index[string(u.key)]
			o.bytes -= len(cur.key) + len(cur.val)
			if u.prev == nil {
				delete(o.index, string(u.key))
				if sorted(u.key) {
					o.tree.Delete(cur)
				}
				continue
			}
			o.index[keyString(u.key)] = u.prev
			if sorted(u.key) {
				o.tree.ReplaceOrInsert(u.prev)
			}
			o.bytes += len(u.prev.key) + len(u.prev.val)
		}
	}
	if err != nil || o.atomic == 0 {
		o.undo = o.undo[:mark]
		t.rowUndo = t.rowUndo[:rowMark]
	}
	return err
}

// Pending reports the writes the transaction holds (distinct keys) and
// their size in bytes.
func (t *tx) Pending() (writes, bytes int) {
	return len(t.over.index) + t.rowWrites, t.over.bytes + t.rowBytes
}

// scan visits the keys under prefix from start: the pending writes merged
// with the bulk load's tier (inTier; overlay.tier) and the snapshot's
// (inSnap false: the snapshot has none). On equal keys the pending write
// wins over the tier's, and the tier's over the snapshot's.
func (o *overlay) scan(prefix, start []byte, values, inSnap, inTier bool, fn func(k []byte, item valued) (bool, error)) error {
	if start == nil {
		start = prefix
	}
	// pending writes in range, in key order (usually a few): this
	// transaction's over the base's (a dry run's earlier writes, which
	// have no index and are all in their tree; or the commit under way)
	collect := func(t *btree.BTreeG[*pending], index map[string]*pending) []*pending {
		var out []*pending
		if index == nil || sorted(prefix) {
			t.AscendGreaterOrEqual(&pending{key: start}, func(p *pending) bool {
				if !bytes.HasPrefix(p.key, prefix) {
					return false
				}
				out = append(out, p)
				return true
			})
			return out
		}
		for _, p := range index {
			if bytes.HasPrefix(p.key, prefix) && bytes.Compare(p.key, start) >= 0 {
				out = append(out, p)
			}
		}
		slices.SortFunc(out, func(a, b *pending) int { return bytes.Compare(a.key, b.key) })
		return out
	}
	own := collect(o.tree, o.index)
	if o.base != nil {
		own = mergePending(own, collect(o.base, o.baseIndex))
	}
	var tc *tierCursor
	if inTier && o.tier != nil {
		tc = o.tier.cursor(prefix, start)
	}
	var it *badger.Iterator
	if inSnap {
		it = iterator(o.snap, prefix, values)
		defer it.Close()
		it.Seek(start)
	}
	i := 0
	for {
		// the smallest key of the three sources, and which hold it
		var ok, tk, sk []byte
		if i < len(own) {
			ok = own[i].key
		}
		if tc != nil && tc.valid() {
			tk = tc.cur().key
		}
		if it != nil && it.ValidForPrefix(prefix) {
			sk = it.Item().Key()
		}
		k := ok
		for _, c := range [][]byte{tk, sk} {
			if c != nil && (k == nil || bytes.Compare(c, k) < 0) {
				k = c
			}
		}
		if k == nil {
			return nil
		}
		takeSnap := sk != nil && bytes.Equal(sk, k)
		takeTier := tk != nil && bytes.Equal(tk, k)
		var item valued
		del := false
		switch {
		case ok != nil && bytes.Equal(ok, k):
			p := own[i]
			item, del = p, p.del
			i++
		case takeTier:
			e := tc.cur()
			item, del = e, e.del
		default:
			item = it.Item()
		}
		if !del {
			more, err := fn(k, item)
			if err != nil || !more {
				return err
			}
		}
		// a Badger item and a batch of the tier's are valid until their
		// source moves on
		if takeTier {
			tc.next()
		}
		if takeSnap {
			it.Next()
		}
	}
}

// mergePending merges two sorted runs of pending writes; top wins on equal
// keys.
func mergePending(top, below []*pending) []*pending {
	out := make([]*pending, 0, len(top)+len(below))
	i, j := 0, 0
	for i < len(top) || j < len(below) {
		switch {
		case j >= len(below) || (i < len(top) && bytes.Compare(top[i].key, below[j].key) < 0):
			out = append(out, top[i])
			i++
		case i >= len(top) || bytes.Compare(below[j].key, top[i].key) < 0:
			out = append(out, below[j])
			j++
		default: // equal keys
			out = append(out, top[i])
			i++
			j++
		}
	}
	return out
}
