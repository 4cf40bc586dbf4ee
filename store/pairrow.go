package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
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

// pairRow is a row a write transaction changes: as stored, and the counts
// changed since (0: removed). It is written once, at commit (flushRows).
type pairRow struct {
	base   []pairEntry
	starts []uint64 // the stored part starts (nil: not split)
	delta  map[uint64]int64
	// changed counts the ids in delta per stored part (one part when not
	// split): the parts flushRows writes, which Pending estimates.
	changed []int32
}

// part returns the stored part that holds id.
func (p *pairRow) part(id uint64) int {
	if len(p.starts) == 0 {
		return 0
	}
	return sort.Search(len(p.starts), func(i int) bool { return p.starts[i] > id }) - 1
}

// partCost estimates the bytes a write of part k costs: its key and its
// entries at 5 bytes each (an id delta and a count; the first id is 9),
// with a part that is rewritten whole.
func (p *pairRow) partCost(k int) int {
	lo, hi := 0, len(p.base)
	if len(p.starts) > 0 {
		search := func(s uint64) int {
			return sort.Search(len(p.base), func(i int) bool { return p.base[i].id >= s })
		}
		lo = search(p.starts[k])
		if k+1 < len(p.starts) {
			hi = search(p.starts[k+1])
		}
	}
	return 32 + 5*(hi-lo)
}

type rowID struct {
	t graph.EdgeType
	a graph.NodeID
}

func (p *pairRow) get(b uint64) int64 {
	if n, ok := p.delta[b]; ok {
		return n
	}
	i, ok := slices.BinarySearchFunc(p.base, b, func(e pairEntry, b uint64) int {
		switch {
		case e.id < b:
			return -1
		case e.id > b:
			return 1
		}
		return 0
	})
	if ok {
		return p.base[i].n
	}
	return 0
}

// merged returns the row's counts now, in id order.
func (p *pairRow) merged() []pairEntry {
	if len(p.delta) == 0 {
		return p.base
	}
	ids := make([]uint64, 0, len(p.delta))
	for id := range p.delta {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]pairEntry, 0, len(p.base)+len(ids))
	i := 0
	for _, id := range ids {
		for i < len(p.base) && p.base[i].id < id {
			out = append(out, p.base[i])
			i++
		}
		if i < len(p.base) && p.base[i].id == id {
			i++
		}
		if n := p.delta[id]; n > 0 {
			out = append(out, pairEntry{id, n})
		}
	}
	return append(out, p.base[i:]...)
}

// rowUndo is a count a transaction's Atomic may restore.
type rowUndo struct {
	row  *pairRow
	id   uint64
	had  bool // the id was in delta, with prev
	prev int64
}

// row returns the transaction's copy of a row, reading it the first time.
func (t *tx) row(et graph.EdgeType, a graph.NodeID) (*pairRow, error) {
	id := rowID{et, a}
	if p, ok := t.rows[id]; ok {
		return p, nil
	}
	p := &pairRow{delta: map[uint64]int64{}}
	var err error
	p.starts, err = t.reader.rowParts(et, a, func(part []byte) error {
		return eachEntry(part, func(id uint64, n int64) bool {
			p.base = append(p.base, pairEntry{id, n})
			return true
		})
	})
	if err != nil {
		return nil, fmt.Errorf("pair row %d of %s: %w", et, a, err)
	}
	if t.rows == nil {
		t.rows = map[rowID]*pairRow{}
	}
	t.rows[id] = p
	p.changed = make([]int32, max(len(p.starts), 1))
	return p, nil
}

func (t *tx) setCount(p *pairRow, b graph.NodeID, n int64) {
	prev, had := p.delta[uint64(b)]
	if t.over.atomic > 0 {
		t.rowUndo = append(t.rowUndo, rowUndo{p, uint64(b), had, prev})
	}
	if !had {
		t.rowBytes += 5
		k := p.part(uint64(b))
		if p.changed[k] == 0 {
			t.rowWrites++
			t.rowBytes += p.partCost(k)
		}
		p.changed[k]++
	}
	p.delta[uint64(b)] = max(n, 0)
}

// undoRows restores the counts changed after mark.
func (t *tx) undoRows(mark int) {
	for i := len(t.rowUndo) - 1; i >= mark; i-- {
		u := t.rowUndo[i]
		if u.had {
			u.row.delta[u.id] = u.prev
			continue
		}
		delete(u.row.delta, u.id)
		t.rowBytes -= 5
		k := u.row.part(u.id)
		if u.row.changed[k]--; u.row.changed[k] == 0 {
			t.rowWrites--
			t.rowBytes -= u.row.partCost(k)
		}
	}
}

// flushRows writes the rows the transaction changed into its overlay, each
// part that holds a change, and forgets them.
func (t *tx) flushRows() error {
	for id, p := range t.rows {
		if len(p.delta) == 0 {
			continue
		}
		for _, w := range rowWrites(id.t, id.a, p) {
			var err error
			if w.v == nil {
				err = t.del(w.k)
			} else {
				err = t.set(w.k, w.v)
			}
			if err != nil {
				return err
			}
		}
	}
	t.rows, t.rowUndo, t.rowBytes, t.rowWrites = nil, nil, 0, 0
	return nil
}

type kv struct{ k, v []byte } // v nil: delete

// rowWrites returns the keys that store a changed row: the row whole while
// it fits one part and was never split; else the parts that hold a change
// (cut in two when they outgrow maxPartEntries) and the starts when they
// changed.
func rowWrites(t graph.EdgeType, a graph.NodeID, p *pairRow) []kv {
	es := p.merged()
	main := pairRowKey(t, a)
	if p.starts == nil && len(es) <= maxPartEntries {
		if len(es) == 0 {
			return []kv{{k: main}}
		}
		return []kv{{main, encodeEntries(es)}}
	}
	starts := p.starts
	if starts == nil {
		starts = []uint64{0}
	}
	// the parts as they are now, by the stored starts
	parts := make([][]pairEntry, len(starts))
	j := 0
	for i := range starts {
		end := len(es)
		if i+1 < len(starts) {
			next := starts[i+1]
			end = j + sort.Search(len(es)-j, func(k int) bool { return es[j+k].id >= next })
		}
		parts[i] = es[j:end]
		j = end
	}
	changed := make([]bool, len(starts))
	for id := range p.delta {
		changed[sort.Search(len(starts), func(i int) bool { return starts[i] > id })-1] = true
	}
	var out []kv
	var newStarts []uint64
	for i, part := range parts {
		if !changed[i] && p.starts != nil {
			newStarts = append(newStarts, starts[i])
			continue
		}
		if i > 0 && len(part) == 0 { // an emptied part goes
			out = append(out, kv{k: pairPartKey(t, a, starts[i])})
			continue
		}
		// cut a part that outgrew the limit in halves until each fits
		pieces := [][]pairEntry{part}
		for k := 0; k < len(pieces); {
			if len(pieces[k]) <= maxPartEntries {
				k++
				continue
			}
			mid := len(pieces[k]) / 2
			pieces = slices.Insert(pieces, k+1, pieces[k][mid:])
			pieces[k] = pieces[k][:mid]
		}
		for k, piece := range pieces {
			s := starts[i]
			if k > 0 {
				s = piece[0].id
			}
			newStarts = append(newStarts, s)
			out = append(out, kv{pairPartKey(t, a, s), encodeEntries(piece)})
		}
	}
	if !slices.Equal(newStarts, p.starts) {
		out = append(out, kv{main, encodeStarts(newStarts)})
	}
	return out
}

func (t *tx) Pair(et graph.EdgeType, a, b graph.NodeID) (int64, error) {
	if p, ok := t.rows[rowID{et, a}]; ok {
		return p.get(uint64(b)), nil
	}
	return t.reader.storedPair(et, a, b)
}

func (t *tx) Pairs(et graph.EdgeType, a graph.NodeID, fn func(graph.NodeID, int64) bool) error {
	if p, ok := t.rows[rowID{et, a}]; ok {
		for _, e := range p.merged() {
			if !fn(graph.NodeID(e.id), e.n) {
				return nil
			}
		}
		return nil
	}
	return t.reader.storedPairs(et, a, fn)
}

// AllPairs in a write transaction: the stored rows under the changed ones.
func (t *tx) AllPairs(et graph.EdgeType, fn func(a, b graph.NodeID, n int64) bool) error {
	owners := map[graph.NodeID]bool{}
	for id := range t.rows {
		if id.t == et {
			owners[id.a] = true
		}
	}
	if err := t.reader.scanRowOwners(et, func(a graph.NodeID) bool { owners[a] = true; return true }); err != nil {
		return err
	}
	for _, a := range slices.Sorted(maps.Keys(owners)) {
		more := true
		if err := t.Pairs(et, a, func(b graph.NodeID, n int64) bool {
			if a < b {
				more = fn(a, b, n)
			}
			return more
		}); err != nil || !more {
			return err
		}
	}
	return nil
}

// scanRowOwners visits the nodes that have a row of type t, in id order.
func (r *reader) scanRowOwners(t graph.EdgeType, fn func(graph.NodeID) bool) error {
	return r.scan([]byte{pPairRow, byte(t)}, nil, false, func(k []byte, _ valued) (bool, error) {
		if len(k) != 10 {
			return true, nil // a part
		}
		return fn(graph.NodeID(binary.BigEndian.Uint64(k[2:]))), nil
	})
}

// AddPair moves the symmetric pair count of a and b by delta, in both rows.
func (t *tx) AddPair(et graph.EdgeType, a, b graph.NodeID, delta int64) (int64, error) {
	p, err := t.row(et, a)
	if err != nil {
		return 0, err
	}
	n := max(p.get(uint64(b))+delta, 0)
	return n, t.SetPair(et, a, b, n)
}

func (t *tx) SetPair(et graph.EdgeType, a, b graph.NodeID, n int64) error {
	for _, ab := range [2][2]graph.NodeID{{a, b}, {b, a}} {
		p, err := t.row(et, ab[0])
		if err != nil {
			return err
		}
		t.setCount(p, ab[1], n)
	}
	return nil
}

// SetPairsOf sets a's side of its pair counts (graph.Tx): its row is read
// once and written once, at commit.
func (t *tx) SetPairsOf(et graph.EdgeType, a graph.NodeID, counts []graph.PairCount) error {
	p, err := t.row(et, a)
	if err != nil {
		return err
	}
	for _, c := range counts {
		t.setCount(p, c.Other, c.N)
	}
	return nil
}
