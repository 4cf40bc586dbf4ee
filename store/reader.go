package store

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/dgraph-io/badger/v4"

	"github.com/researchkg/kg/graph"
)

// Read opens a read-only snapshot.
func (db *DB) Read(ctx context.Context) (graph.Reader, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if v := db.bulkView.Load(); v != nil {
		return db.bulkRead(v), nil
	}
	// Queries read through the hot cache, versioned by commit timestamps
	// (hot.go): a co-author list and its twenty names at a map lookup each
	// instead of a walk of the LSM tree's levels, on a store that takes
	// writes as on a read-only one.
	txn := db.bdb.NewTransaction(false)
	return &reader{txn: txn, hot: db.hot, ts: txn.ReadTs(), scans: &db.scans}, nil
}

// reader reads a Badger snapshot; in a write transaction, under the
// transaction's own writes (over) and through the hot cache.
//
// Values returned by get must not be modified: they may be shared.
type reader struct {
	txn    *badger.Txn
	over   *overlay      // set in write transactions
	hot    *hotCache     // set in write transactions that may use it, and in snapshots
	ts     uint64        // a snapshot's read timestamp (write transactions: never)
	filter *keyFilter    // likewise
	misses *int          // counts reads that found nothing (DB.misses)
	scans  *atomic.Int64 // counts the Badger iterators opened (DB.Scans)
	// tier is a bulk load's (bulk.go), read under over and above the
	// snapshot; below says whether Badger holds anything under it (an
	// earlier flush of the load). Without it, txn is nil.
	tier  *tier
	below bool
	carry *carriedCounters // the counters of the load's flushes (below)
	back  *readBack        // nodes and lookups read from those flushes (below)
	stale func() bool      // a bulk load's reader: a flush since it began (bulkRead)
}

func (r *reader) Close() {
	if r.txn != nil && (r.stale == nil || !r.stale()) {
		r.txn.Discard()
	}
}

func (r *reader) get(k []byte) ([]byte, error) {
	if r.over != nil { // a write transaction: its own writes first
		if p, ok := r.over.lookup(k); ok {
			if p.del {
				return nil, graph.ErrNotFound
			}
			return p.val, nil
		}
	}
	if r.over != nil && !r.over.inSnapshot(k) {
		return nil, graph.ErrNotFound
	}
	if r.tier != nil {
		if v, del, ok := r.tier.get(k); ok {
			if del {
				return nil, graph.ErrNotFound
			}
			return v, nil
		}
		if !r.below {
			return nil, graph.ErrNotFound
		}
		if r.carry != nil && k[0] == pCounter {
			if v, ok := r.carry.get(k); ok {
				return v, nil
			}
			return nil, graph.ErrNotFound // Badger holds only the load's flushes
		}
	}
	if r.filter != nil && r.filter.covers(k) && !r.filter.mayContain(k) {
		return nil, graph.ErrNotFound
	}
	back := r.back != nil && readBackable(k)
	if back {
		if v, ok := r.back.get(k); ok {
			return v, nil
		}
	}
	hot := r.hot != nil && cacheable(k)
	if hot {
		if v, ok := r.hot.get(k, r.ts); ok {
			return v, nil
		}
	}
	item, err := r.txn.Get(k)
	if errors.Is(err, badger.ErrKeyNotFound) {
		if r.misses != nil && filtered(k) { // misses the filter would answer
			*r.misses++
		}
		return nil, graph.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	v, err := item.ValueCopy(nil)
	if hot && err == nil {
		r.hot.put(k, v, r.txn.ReadTs(), r.over != nil)
	}
	if back && err == nil {
		r.back.put(k, v)
	}
	return v, err
}

func (r *reader) Node(id graph.NodeID) (graph.Node, error) {
	k := nodeKey(id)
	// A snapshot takes a node decoded before from the hot cache; a write
	// transaction decodes its own copy (the writer changes nodes).
	shared := r.over == nil && r.hot != nil
	if shared {
		if n := r.hot.node(k, r.ts); n != nil {
			return *n, nil
		}
	}
	v, err := r.get(k)
	if err != nil {
		return graph.Node{}, err
	}
	var n graph.Node
	if err := json.Unmarshal(v, &n); err != nil {
		return graph.Node{}, fmt.Errorf("decode node %s: %w", id, err)
	}
	n.ID = id
	if shared {
		// full slices: a caller's append to a copy's list must not write
		// into the shared one
		n.Aliases, n.Sources, n.CoOccurs = slices.Clip(n.Aliases), slices.Clip(n.Sources), slices.Clip(n.CoOccurs)
		r.hot.keepDecoded(k, v, &n)
	}
	return n, nil
}

func (r *reader) Abstracts(id graph.NodeID) ([]string, error) {
	v, err := r.get(textKey(id))
	if errors.Is(err, graph.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	if err := json.Unmarshal(v, &out); err != nil {
		return nil, fmt.Errorf("decode abstracts of %s: %w", id, err)
	}
	return out, nil
}

func (r *reader) Lookup(ns graph.Index, key string) (graph.NodeID, error) {
	v, err := r.get(lookupKey(ns, key))
	if err != nil {
		return 0, err
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("lookup %d %q: malformed value", ns, key)
	}
	return graph.NodeID(binary.BigEndian.Uint64(v)), nil
}

func (r *reader) Lookups(ns graph.Index, fn func(string, graph.NodeID) bool) error {
	prefix := lookupKey(ns, "")
	return r.scan(prefix, nil, true, func(k []byte, item valued) (bool, error) {
		var id graph.NodeID
		if err := item.Value(func(v []byte) error {
			if len(v) != 8 {
				return fmt.Errorf("lookup %d %q: malformed value", ns, k[len(prefix):])
			}
			id = graph.NodeID(binary.BigEndian.Uint64(v))
			return nil
		}); err != nil {
			return false, err
		}
		return fn(string(k[len(prefix):]), id), nil
	})
}

func decodeWeight(v []byte) float64 {
	if len(v) != 8 {
		return 0
	}
	return math.Float64frombits(binary.BigEndian.Uint64(v))
}

func encodeWeight(w float64) []byte {
	if w == 0 {
		return nil
	}
	return binary.BigEndian.AppendUint64(nil, math.Float64bits(w))
}

// valued is what a scan callback may ask of an entry: *badger.Item, or a
// pending write of this transaction.
type valued interface {
	ValueSize() int64
	Value(fn func([]byte) error) error
}

// scan iterates keys with a prefix, starting at start (or the prefix). In a
// write transaction it merges a read snapshot with the transaction's own
// pending writes (see overlay).
func (r *reader) scan(prefix, start []byte, values bool, fn func(k []byte, item valued) (bool, error)) error {
	if r.over != nil {
		fresh := !r.over.inSnapshot(prefix) // keys of ids this transaction made: only its own writes
		inSnap := !fresh && (r.tier == nil || r.below) &&
			!(r.filter != nil && r.filter.coversScan(prefix) && !r.filter.mayContain(prefix))
		return r.over.scan(prefix, start, values, inSnap, !fresh, fn)
	}
	it := r.iterator(prefix, values)
	defer it.Close()
	if start == nil {
		start = prefix
	}
	for it.Seek(start); it.ValidForPrefix(prefix); it.Next() {
		item := it.Item()
		more, err := fn(item.Key(), item)
		if err != nil || !more {
			return err
		}
	}
	return nil
}

func (r *reader) Edges(id graph.NodeID, t graph.EdgeType, dir graph.Direction, fn func(graph.NodeID, float64) bool) error {
	return r.scanEdges(edgePrefix(dirPrefix(dir), id, t), func(_ []byte, _ graph.EdgeType, o graph.NodeID, w float64) bool {
		return fn(o, w)
	})
}

// EdgesOf reads the edges of several nodes with one Badger iterator,
// seeking from node to node in key order: a page of twenty papers' authors
// is one read of the LSM tree's levels, not twenty iterators each built
// over every memtable and level.
func (r *reader) EdgesOf(ids []graph.NodeID, t graph.EdgeType, dir graph.Direction, fn func(i int, other graph.NodeID, w float64) bool) error {
	if r.over != nil || len(ids) < 2 {
		// a write transaction reads through its overlay, one node at a time
		for i, id := range ids {
			if err := r.Edges(id, t, dir, func(o graph.NodeID, w float64) bool { return fn(i, o, w) }); err != nil {
				return err
			}
		}
		return nil
	}
	order := make([]int, len(ids))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(ids[a], ids[b]) })
	dp := dirPrefix(dir)
	it := r.iterator([]byte{dp}, true)
	defer it.Close()
	for _, i := range order {
		prefix := edgePrefix(dp, ids[i], t)
		for it.Seek(prefix); it.ValidForPrefix(prefix); it.Next() {
			item := it.Item()
			other, w, err := decodeEdge(item.Key(), item)
			if err != nil {
				return err
			}
			if !fn(i, other, w) {
				break
			}
		}
	}
	return nil
}

func (r *reader) AllEdges(id graph.NodeID, dir graph.Direction, fn func(graph.EdgeType, graph.NodeID, float64) bool) error {
	return r.scanEdges(edgePrefix(dirPrefix(dir), id, 0)[:9], func(_ []byte, t graph.EdgeType, o graph.NodeID, w float64) bool {
		return fn(t, o, w)
	})
}

func dirPrefix(dir graph.Direction) byte {
	if dir == graph.In {
		return pIn
	}
	return pOut
}

// scanEdges visits the edge keys under prefix with their weights.
func (r *reader) scanEdges(prefix []byte, fn func(k []byte, t graph.EdgeType, other graph.NodeID, w float64) bool) error {
	return r.scan(prefix, nil, true, func(k []byte, item valued) (bool, error) {
		other, w, err := decodeEdge(k, item)
		if err != nil {
			return false, err
		}
		return fn(k, graph.EdgeType(k[9]), other, w), nil
	})
}

// decodeEdge reads an edge key's far end and its value's weight (none: 0).
func decodeEdge(k []byte, item valued) (graph.NodeID, float64, error) {
	other, err := parseEdgeKey(k)
	if err != nil {
		return 0, 0, err
	}
	var w float64
	if item.ValueSize() > 0 {
		if err := item.Value(func(v []byte) error { w = decodeWeight(v); return nil }); err != nil {
			return 0, 0, err
		}
	}
	return other, w, nil
}

func (r *reader) Edge(src graph.NodeID, t graph.EdgeType, dst graph.NodeID) (float64, bool, error) {
	v, err := r.get(edgeKey(pOut, src, t, dst))
	if errors.Is(err, graph.ErrNotFound) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return decodeWeight(v), true, nil
}

func (r *reader) List(owner graph.NodeID, t graph.EdgeType, after []byte, fn func([]byte) bool) error {
	prefix := listKey(owner, t, nil)
	var start []byte
	if after != nil {
		// the first key strictly after prefix+after
		start = append(listKey(owner, t, after), 0)
	}
	return r.scan(prefix, start, false, func(k []byte, _ valued) (bool, error) {
		return fn(k[len(prefix):]), nil
	})
}

func (r *reader) Pairs(t graph.EdgeType, a graph.NodeID, fn func(graph.NodeID, int64) bool) error {
	return r.storedPairs(t, a, fn)
}

// AllPairs reads every row and part of a type in key order; each pair is
// in both its rows, and is given from the row of its smaller id.
func (r *reader) AllPairs(t graph.EdgeType, fn func(a, b graph.NodeID, n int64) bool) error {
	return r.scan([]byte{pPairRow, byte(t)}, nil, true, func(k []byte, item valued) (bool, error) {
		if len(k) != 10 && len(k) != 18 {
			return false, errBadKey
		}
		a := graph.NodeID(binary.BigEndian.Uint64(k[2:10]))
		more := true
		err := item.Value(func(v []byte) error {
			if len(k) == 10 && len(v) > 0 && v[0] == rowSplit {
				return nil // its parts follow
			}
			return eachEntry(v, func(b uint64, n int64) bool {
				if uint64(a) < b {
					more = fn(a, graph.NodeID(b), n)
				}
				return more
			})
		})
		if err != nil {
			return false, fmt.Errorf("pair row %x: %w", k, err)
		}
		return more, nil
	})
}

func (r *reader) KindEdges(kind graph.Kind, t graph.EdgeType, fn func(src, dst graph.NodeID, w float64) bool) error {
	prefix := []byte{pOut, byte(kind)} // the kind is the id's top byte
	return r.scan(prefix, nil, true, func(k []byte, item valued) (bool, error) {
		dst, err := parseEdgeKey(k)
		if err != nil || graph.EdgeType(k[9]) != t {
			return err == nil, err
		}
		var w float64
		if item.ValueSize() > 0 {
			if err := item.Value(func(v []byte) error { w = decodeWeight(v); return nil }); err != nil {
				return false, err
			}
		}
		return fn(graph.NodeID(binary.BigEndian.Uint64(k[1:9])), dst, w), nil
	})
}

func (r *reader) KindAllEdges(kind graph.Kind, dir graph.Direction, fn func(id graph.NodeID, t graph.EdgeType, other graph.NodeID, w float64) bool) error {
	return r.scanEdges([]byte{dirPrefix(dir), byte(kind)}, func(k []byte, t graph.EdgeType, other graph.NodeID, w float64) bool {
		return fn(graph.NodeID(binary.BigEndian.Uint64(k[1:9])), t, other, w)
	})
}

func (r *reader) KindNodes(kind graph.Kind, fn func(graph.Node) bool) error {
	return r.scan([]byte{pNode, byte(kind)}, nil, true, func(k []byte, item valued) (bool, error) {
		if len(k) != 9 {
			return false, errBadKey
		}
		var n graph.Node
		if err := item.Value(func(v []byte) error { return json.Unmarshal(v, &n) }); err != nil {
			return false, fmt.Errorf("decode node %x: %w", k, err)
		}
		n.ID = graph.NodeID(binary.BigEndian.Uint64(k[1:]))
		return fn(n), nil
	})
}

func (r *reader) Pair(t graph.EdgeType, a, b graph.NodeID) (int64, error) {
	return r.storedPair(t, a, b)
}

func (r *reader) Counters(prefix string, fn func(string, int64) bool) error {
	return r.scan(counterKey(prefix), nil, true, func(k []byte, item valued) (bool, error) {
		var n int64
		if err := item.Value(func(v []byte) error { n = decodeInt(v); return nil }); err != nil {
			return false, err
		}
		return fn(string(k[1:]), n), nil
	})
}

func (r *reader) Counter(name string) (int64, error) {
	v, err := r.get(counterKey(name))
	if errors.Is(err, graph.ErrNotFound) {
		return 0, nil
	}
	return decodeInt(v), err
}

// CounterValues reads the counters of many names. During a bulk load
// each read is a miss in the tier's table and arena; the table's lines of
// all the names are loaded first, as independent loads (tier.warmKeys).
func (r *reader) CounterValues(names []string, out []int64) error {
	if len(out) < len(names) {
		return fmt.Errorf("CounterValues: %d names for %d values", len(names), len(out))
	}
	keys := make([][]byte, len(names))
	for i, n := range names {
		keys[i] = counterKey(n)
	}
	if r.tier != nil {
		r.tier.warmKeys(keys)
	}
	for i, k := range keys {
		v, err := r.get(k)
		switch {
		case errors.Is(err, graph.ErrNotFound):
			out[i] = 0
		case err != nil:
			return err
		default:
			out[i] = decodeInt(v)
		}
	}
	return nil
}

func (r *reader) NodeIDs(k graph.Kind, after graph.NodeID, fn func(graph.NodeID) bool) error {
	prefix := []byte{pNode, byte(k)}
	var start []byte
	if after != 0 {
		start = append(nodeKey(after), 0)
	}
	return r.scan(prefix, start, false, func(key []byte, _ valued) (bool, error) {
		if len(key) != 9 {
			return false, errBadKey
		}
		return fn(graph.NodeID(binary.BigEndian.Uint64(key[1:]))), nil
	})
}

func (r *reader) Terms(ns graph.Index, prefix string, fn func(string, graph.NodeID) bool) error {
	return r.scan(termPrefix(ns, prefix), nil, false, func(k []byte, _ valued) (bool, error) {
		term, id, err := parseTermKey(k)
		if err != nil {
			return false, err
		}
		return fn(term, id), nil
	})
}

func (r *reader) Value(ns graph.Index, key string) ([]byte, error) {
	return r.get(valueKey(ns, key))
}

func (r *reader) Values(ns graph.Index, prefix string, fn func(key string, v []byte) bool) error {
	return r.scan(valueKey(ns, prefix), nil, true, func(k []byte, item valued) (bool, error) {
		var v []byte
		if err := item.Value(func(b []byte) error { v = slices.Clone(b); return nil }); err != nil {
			return false, err
		}
		return fn(string(k[2:]), v), nil
	})
}

func decodeInt(v []byte) int64 {
	if len(v) != 8 {
		return 0
	}
	return int64(binary.BigEndian.Uint64(v))
}

// iterator opens a Badger iterator over prefix and counts it (DB.Scans).
func (r *reader) iterator(prefix []byte, values bool) *badger.Iterator {
	if r.scans != nil {
		r.scans.Add(1)
	}
	return iterator(r.txn, prefix, values)
}

// iterator opens a Badger iterator over prefix, fetching values only when
// asked (a key-only scan prefetches nothing).
func iterator(txn *badger.Txn, prefix []byte, values bool) *badger.Iterator {
	opts := badger.DefaultIteratorOptions
	opts.PrefetchValues = false
	opts.PrefetchSize = 0
	opts.Prefix = prefix
	return txn.NewIterator(opts)
}
