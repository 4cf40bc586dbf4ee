package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/researchkg/kg/graph"
)

type tx struct {
	reader
	db *DB
	// rows are the pair rows the transaction changed, written at commit
	// (pairrow.go); rowUndo what Atomic may restore; rowWrites and
	// rowBytes estimate what they will write (Pending).
	rows      map[rowID]*pairRow
	rowUndo   []rowUndo
	rowWrites int
	rowBytes  int
}

func (t *tx) NewID(k graph.Kind) (graph.NodeID, error) {
	if b := t.db.bulk; b != nil { // the same ids as the Sequence would give
		n := b.next
		b.next++
		return t.fresh(graph.MakeID(k, n+1)), nil
	}
	if t.db.seq == nil { // write transactions run one at a time (wmu)
		seq, err := t.db.bdb.GetSequence(seqKey, 256)
		if err != nil {
			return 0, fmt.Errorf("id sequence: %w", err)
		}
		t.db.seq = seq
	}
	n, err := t.db.seq.Next()
	if err != nil {
		return 0, fmt.Errorf("allocate id: %w", err)
	}
	return t.fresh(graph.MakeID(k, n+1)), nil
}

// fresh records an id made in this transaction (overlay.fresh).
func (t *tx) fresh(id graph.NodeID) graph.NodeID {
	if t.over.fresh == nil {
		t.over.fresh = map[graph.NodeID]struct{}{}
	}
	t.over.fresh[id] = struct{}{}
	return id
}

func (t *tx) PutNode(n graph.Node) error {
	v, err := json.Marshal(&n)
	if err != nil {
		return err
	}
	return t.set(nodeKey(n.ID), v)
}

func (t *tx) DeleteNode(id graph.NodeID) error {
	if err := t.del(nodeKey(id)); err != nil {
		return err
	}
	return t.del(textKey(id))
}

func (t *tx) DeleteLookup(ns graph.Index, key string) error { return t.del(lookupKey(ns, key)) }

func (t *tx) DeleteTerm(ns graph.Index, term string, id graph.NodeID) error {
	return t.del(termKey(ns, term, id))
}

func (t *tx) PutAbstracts(id graph.NodeID, abstracts []string) error {
	if len(abstracts) == 0 {
		return t.del(textKey(id))
	}
	v, err := json.Marshal(abstracts)
	if err != nil {
		return err
	}
	return t.set(textKey(id), v)
}

func (t *tx) PutLookup(ns graph.Index, key string, id graph.NodeID) error {
	return t.set(lookupKey(ns, key), binary.BigEndian.AppendUint64(nil, uint64(id)))
}

func (t *tx) PutEdge(src graph.NodeID, et graph.EdgeType, dst graph.NodeID, w float64) (bool, error) {
	old, existed, err := t.Edge(src, et, dst)
	if err != nil {
		return false, err
	}
	if existed && old == w {
		return false, nil
	}
	v := encodeWeight(w)
	if err := t.set(edgeKey(pOut, src, et, dst), v); err != nil {
		return false, err
	}
	return !existed, t.set(edgeKey(pIn, dst, et, src), v)
}

func (t *tx) SetEdge(src graph.NodeID, et graph.EdgeType, dst graph.NodeID, w float64) error {
	v := encodeWeight(w)
	if err := t.set(edgeKey(pOut, src, et, dst), v); err != nil {
		return err
	}
	return t.set(edgeKey(pIn, dst, et, src), v)
}

func (t *tx) DeleteEdge(src graph.NodeID, et graph.EdgeType, dst graph.NodeID) (bool, error) {
	_, existed, err := t.Edge(src, et, dst)
	if err != nil || !existed {
		return false, err
	}
	if err := t.del(edgeKey(pOut, src, et, dst)); err != nil {
		return false, err
	}
	return true, t.del(edgeKey(pIn, dst, et, src))
}

func (t *tx) PutListEntry(owner graph.NodeID, et graph.EdgeType, sortKey []byte) error {
	return t.set(listKey(owner, et, sortKey), nil)
}

func (t *tx) DeleteListEntry(owner graph.NodeID, et graph.EdgeType, sortKey []byte) error {
	return t.del(listKey(owner, et, sortKey))
}

func (t *tx) AddCounter(name string, delta int64) (int64, error) {
	n, err := t.Counter(name)
	if err != nil {
		return 0, err
	}
	n += delta
	if n == 0 {
		return 0, t.del(counterKey(name))
	}
	return n, t.set(counterKey(name), binary.BigEndian.AppendUint64(nil, uint64(n)))
}

func (t *tx) SetCounter(name string, n int64) error {
	if n == 0 {
		return t.del(counterKey(name))
	}
	return t.set(counterKey(name), binary.BigEndian.AppendUint64(nil, uint64(n)))
}

func (t *tx) PutTerm(ns graph.Index, term string, id graph.NodeID) error {
	return t.set(termKey(ns, term, id), nil)
}

func (t *tx) PutValue(ns graph.Index, key string, v []byte) error {
	return t.set(valueKey(ns, key), slices.Clone(v))
}

func (t *tx) DeleteValue(ns graph.Index, key string) error { return t.del(valueKey(ns, key)) }
