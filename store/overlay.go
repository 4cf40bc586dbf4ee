package store

import (
	"bytes"

	"github.com/dgraph-io/badger/v4"
	"github.com/google/btree"
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
// Instead, the transaction's writes are also kept here, ordered in a
// B-tree, and scans merge an iterator over a read-only snapshot (opened
// with the write transaction) with the pending writes under the prefix.
// Every key a scan returns from the snapshot is also read through the
// write transaction, so Badger's conflict detection sees the same reads as
// with its own iterator (which also tracks keys, not ranges).
type overlay struct {
	txn  *badger.Txn // the write transaction: reads registered here
	snap *badger.Txn // read-only snapshot for iteration
	tree *btree.BTreeG[*pending]
	// base holds a dry run's earlier writes (nil otherwise): below tree,
	// above the snapshot; nothing reaches Badger.
	base *btree.BTreeG[*pending]
}

func newTree() *btree.BTreeG[*pending] {
	return btree.NewG(32, func(a, b *pending) bool { return bytes.Compare(a.key, b.key) < 0 })
}

// lookup finds a key among the pending writes (this transaction's, then a
// dry run's earlier ones).
func (o *overlay) lookup(k []byte) (*pending, bool) {
	probe := &pending{key: k}
	if p, ok := o.tree.Get(probe); ok {
		return p, true
	}
	if o.base != nil {
		if p, ok := o.base.Get(probe); ok {
			return p, true
		}
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

func newOverlay(txn, snap *badger.Txn) *overlay {
	return &overlay{txn: txn, snap: snap, tree: newTree()}
}

func (t *tx) set(k, v []byte) error {
	if t.over.base == nil {
		if err := t.txn.Set(k, v); err != nil {
			return err
		}
	}
	t.over.tree.ReplaceOrInsert(&pending{key: k, val: v})
	return nil
}

func (t *tx) del(k []byte) error {
	if t.over.base == nil {
		if err := t.txn.Delete(k); err != nil {
			return err
		}
	}
	t.over.tree.ReplaceOrInsert(&pending{key: k, del: true})
	return nil
}

func (o *overlay) scan(prefix, start []byte, values bool, fn func(k []byte, item valued) (bool, error)) error {
	if start == nil {
		start = prefix
	}
	// pending writes in range, in key order (usually a few): this
	// transaction's over a dry run's earlier ones
	collect := func(t *btree.BTreeG[*pending]) []*pending {
		var out []*pending
		t.AscendGreaterOrEqual(&pending{key: start}, func(p *pending) bool {
			if !bytes.HasPrefix(p.key, prefix) {
				return false
			}
			out = append(out, p)
			return true
		})
		return out
	}
	own := collect(o.tree)
	if o.base != nil {
		own = mergePending(own, collect(o.base))
	}
	opts := badger.DefaultIteratorOptions
	opts.PrefetchValues = values
	opts.Prefix = prefix
	if !values {
		opts.PrefetchSize = 0
	}
	it := o.snap.NewIterator(opts)
	defer it.Close()
	it.Seek(start)
	i := 0
	for {
		var sk []byte
		if it.ValidForPrefix(prefix) {
			sk = it.Item().Key()
		}
		if sk == nil && i >= len(own) {
			return nil
		}
		if i < len(own) && (sk == nil || bytes.Compare(own[i].key, sk) <= 0) {
			p := own[i]
			i++
			if sk != nil && bytes.Equal(p.key, sk) {
				it.Next() // the pending write shadows the stored one
			}
			if p.del {
				continue
			}
			more, err := fn(p.key, p)
			if err != nil || !more {
				return err
			}
			continue
		}
		if _, err := o.txn.Get(sk); err != nil && err != badger.ErrKeyNotFound {
			return err // registering the read failed
		}
		more, err := fn(sk, it.Item())
		if err != nil || !more {
			return err
		}
		it.Next()
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
