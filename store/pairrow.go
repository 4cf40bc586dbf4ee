package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"

	"github.com/researchkg/kg/graph"
)

// Pair rows (layout 2). A node's pair counts of one type (its co-authors,
// its co-occurring concepts) are one value, as Dgraph keeps a posting list:
//
//	0x0C | type(1) | a(8)             → 0x00 | entries        (a row)
//	                                  → 0x01 | part starts    (a split row)
//	0x0C | type(1) | a(8) | start(8)  → 0x00 | entries        (one part)
//
// entries: uvarint(count), then per entry, in id order, uvarint(id minus
// the previous id; the first: the id) and uvarint(n > 0). Part starts:
// uvarint(count), then delta-coded ids, the first 0. A part holds the
// entries from its start up to the next part's.
//
// Layout 1 kept one key per pair and direction (0x07|type|a|b → n): a
// paper of k authors wrote k·(k-1) keys, 35% of ingest's key writes, and a
// co-author list was a scan. A row is read with one get (a part per 4,096
// entries), and a transaction changes a row in memory (pairRow) and
// writes it once at commit: a batch of papers writes one value per author
// it touches, not one per pair.
//
// A row is split once it holds more than maxPartEntries: a part that
// outgrows it is cut in two at its middle entry, and parts keep their
// starts, so adding a new node (ids grow) rewrites the last part only.
var maxPartEntries = 4096 // a variable for tests, which split rows of a few entries

const (
	rowPlain byte = 0
	rowSplit byte = 1
)

func pairRowKey(t graph.EdgeType, a graph.NodeID) []byte {
	k := make([]byte, 10, 18)
	k[0] = pPairRow
	k[1] = byte(t)
	binary.BigEndian.PutUint64(k[2:], uint64(a))
	return k
}

func pairPartKey(t graph.EdgeType, a graph.NodeID, start uint64) []byte {
	return binary.BigEndian.AppendUint64(pairRowKey(t, a), start)
}

// pairEntry is one count of a row.
type pairEntry struct {
	id uint64
	n  int64
}

var errBadRow = errors.New("malformed pair row")

func encodeEntries(es []pairEntry) []byte {
	v := make([]byte, 0, 1+binary.MaxVarintLen32+len(es)*5)
	v = append(v, rowPlain)
	v = binary.AppendUvarint(v, uint64(len(es)))
	prev := uint64(0)
	for _, e := range es {
		v = binary.AppendUvarint(v, e.id-prev)
		v = binary.AppendUvarint(v, uint64(e.n))
		prev = e.id
	}
	return v
}

// eachEntry decodes a plain row or part, calling fn in id order until it
// returns false. Ids must rise strictly, counts be positive.
func eachEntry(v []byte, fn func(id uint64, n int64) bool) error {
	if len(v) == 0 || v[0] != rowPlain {
		return errBadRow
	}
	v = v[1:]
	count, k := binary.Uvarint(v)
	if k <= 0 || count > uint64(len(v)) {
		return errBadRow
	}
	v = v[k:]
	prev := uint64(0)
	for i := uint64(0); i < count; i++ {
		d, k := binary.Uvarint(v)
		if k <= 0 || (d == 0 && i > 0) || d > ^prev {
			return errBadRow
		}
		v = v[k:]
		n, k := binary.Uvarint(v)
		if k <= 0 || n == 0 || n > 1<<62 {
			return errBadRow
		}
		v = v[k:]
		prev += d
		if !fn(prev, int64(n)) {
			return nil
		}
	}
	if len(v) != 0 {
		return errBadRow
	}
	return nil
}

func decodeEntries(v []byte) ([]pairEntry, error) {
	var out []pairEntry
	err := eachEntry(v, func(id uint64, n int64) bool {
		out = append(out, pairEntry{id, n})
		return true
	})
	return out, err
}

func encodeStarts(starts []uint64) []byte {
	v := []byte{rowSplit}
	v = binary.AppendUvarint(v, uint64(len(starts)))
	prev := uint64(0)
	for _, s := range starts {
		v = binary.AppendUvarint(v, s-prev)
		prev = s
	}
	return v
}

func decodeStarts(v []byte) ([]uint64, error) {
	if len(v) == 0 || v[0] != rowSplit {
		return nil, errBadRow
	}
	v = v[1:]
	count, k := binary.Uvarint(v)
	if k <= 0 || count == 0 || count > uint64(len(v)) {
		return nil, errBadRow
	}
	v = v[k:]
	out := make([]uint64, 0, count)
	prev := uint64(0)
	for i := uint64(0); i < count; i++ {
		d, k := binary.Uvarint(v)
		if k <= 0 || (d == 0 && i > 0) || d > ^prev {
			return nil, errBadRow
		}
		v = v[k:]
		prev += d
		out = append(out, prev)
	}
	if len(v) != 0 || out[0] != 0 {
		return nil, errBadRow
	}
	return out, nil
}

// rowParts reads the stored row of (t, a): its part starts (nil when it is
// not split) and calls fn with each part in id order. An absent row has
// no parts.
func (r *reader) rowParts(t graph.EdgeType, a graph.NodeID, fn func(part []byte) error) (starts []uint64, err error) {
	v, err := r.get(pairRowKey(t, a))
	if errors.Is(err, graph.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if len(v) > 0 && v[0] == rowPlain {
		return nil, fn(v)
	}
	if starts, err = decodeStarts(v); err != nil {
		return nil, fmt.Errorf("pair row %d of %s: %w", t, a, err)
	}
	for _, s := range starts {
		pv, err := r.get(pairPartKey(t, a, s))
		if errors.Is(err, graph.ErrNotFound) {
			continue // a part emptied
		}
		if err != nil {
			return nil, err
		}
		if err := fn(pv); err != nil {
			return nil, err
		}
	}
	return starts, nil
}

// storedPairs visits the stored counts of a's row in id order.
func (r *reader) storedPairs(t graph.EdgeType, a graph.NodeID, fn func(graph.NodeID, int64) bool) error {
	more := true
	_, err := r.rowParts(t, a, func(part []byte) error {
		if !more {
			return nil
		}
		if err := eachEntry(part, func(id uint64, n int64) bool {
			more = fn(graph.NodeID(id), n)
			return more
		}); err != nil {
			return fmt.Errorf("pair row %d of %s: %w", t, a, err)
		}
		return nil
	})
	return err
}

// storedPair reads one count, from the one part that may hold it.
func (r *reader) storedPair(t graph.EdgeType, a, b graph.NodeID) (int64, error) {
	v, err := r.get(pairRowKey(t, a))
	if errors.Is(err, graph.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if len(v) > 0 && v[0] == rowSplit {
		starts, err := decodeStarts(v)
		if err != nil {
			return 0, fmt.Errorf("pair row %d of %s: %w", t, a, err)
		}
		i := sort.Search(len(starts), func(i int) bool { return starts[i] > uint64(b) }) - 1
		if v, err = r.get(pairPartKey(t, a, starts[i])); errors.Is(err, graph.ErrNotFound) {
			return 0, nil
		} else if err != nil {
			return 0, err
		}
	}
	var n int64
	err = eachEntry(v, func(id uint64, c int64) bool {
		if id >= uint64(b) {
			if id == uint64(b) {
				n = c
			}
			return false
		}
		return true
	})
	if err != nil {
		return 0, fmt.Errorf("pair row %d of %s: %w", t, a, err)
	}
	return n, nil
}
