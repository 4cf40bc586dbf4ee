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

// A write transaction's pair rows: read when first touched, changed in
// memory, written once at commit (flushRows), each changed part only.
//
// A split row's parts are read when a count in them is first asked for or
// changed, not with the row: at 1M papers a concept's co-occurrence row
// holds tens of thousands of entries, and a settle that counts 126,000
// papers a batch at a time decoded every hot row whole in every batch
// (eachEntry and its appends were 28% of the CPU, the garbage they left
// another third) to change a few entries of each.

// pairRow is a row a write transaction changes: its stored parts (one
// when not split), each read when first needed, and the counts changed
// since (0: removed).
type pairRow struct {
	et     graph.EdgeType
	a      graph.NodeID
	starts []uint64      // the stored part starts (nil: not split)
	parts  [][]pairEntry // a part's stored entries, once loaded
	loaded []bool
	delta  map[uint64]int64
	// changed counts the ids in delta per part: the parts flushRows
	// writes, which Pending estimates.
	changed []int32
}

type rowID struct {
	t graph.EdgeType
	a graph.NodeID
}

// part returns the stored part that holds id.
func (p *pairRow) part(id uint64) int {
	if len(p.starts) == 0 {
		return 0
	}
	return sort.Search(len(p.starts), func(i int) bool { return p.starts[i] > id }) - 1
}

// partCost estimates the bytes a write of loaded part k costs: its key
// and its entries at 5 bytes each (an id delta and a count; the first id
// is 9), as a part is rewritten whole.
func (p *pairRow) partCost(k int) int { return 32 + 5*len(p.parts[k]) }

// rowUndo is a count a transaction's Atomic may restore.
type rowUndo struct {
	row  *pairRow
	id   uint64
	had  bool // the id was in delta, with prev
	prev int64
}

// row returns the transaction's copy of a row, reading its head (the row
// when not split, its part starts when split) the first time.
func (t *tx) row(et graph.EdgeType, a graph.NodeID) (*pairRow, error) {
	id := rowID{et, a}
	if p, ok := t.rows[id]; ok {
		return p, nil
	}
	p := &pairRow{et: et, a: a, delta: map[uint64]int64{}}
	v, err := t.reader.get(pairRowKey(et, a))
	switch {
	case errors.Is(err, graph.ErrNotFound):
		p.parts, p.loaded = [][]pairEntry{nil}, []bool{true}
	case err != nil:
		return nil, fmt.Errorf("pair row %d of %s: %w", et, a, err)
	case len(v) > 0 && v[0] == rowSplit:
		if p.starts, err = decodeStarts(v); err != nil {
			return nil, fmt.Errorf("pair row %d of %s: %w", et, a, err)
		}
		p.parts, p.loaded = make([][]pairEntry, len(p.starts)), make([]bool, len(p.starts))
	default:
		es, err := decodeEntries(v)
		if err != nil {
			return nil, fmt.Errorf("pair row %d of %s: %w", et, a, err)
		}
		p.parts, p.loaded = [][]pairEntry{es}, []bool{true}
	}
	p.changed = make([]int32, len(p.parts))
	if t.rows == nil {
		t.rows = map[rowID]*pairRow{}
	}
	t.rows[id] = p
	return p, nil
}

// loadPart reads part k of a split row if it is not read yet.
func (t *tx) loadPart(p *pairRow, k int) error {
	if p.loaded[k] {
		return nil
	}
	v, err := t.reader.get(pairPartKey(p.et, p.a, p.starts[k]))
	if errors.Is(err, graph.ErrNotFound) { // a part emptied
		p.loaded[k] = true
		return nil
	}
	if err == nil {
		p.parts[k], err = decodeEntries(v)
	}
	if err != nil {
		return fmt.Errorf("pair row %d of %s: %w", p.et, p.a, err)
	}
	p.loaded[k] = true
	return nil
}

// count returns the count of b in the row now.
func (t *tx) count(p *pairRow, b uint64) (int64, error) {
	if n, ok := p.delta[b]; ok {
		return n, nil
	}
	k := p.part(b)
	if err := t.loadPart(p, k); err != nil {
		return 0, err
	}
	if i, ok := slices.BinarySearchFunc(p.parts[k], b, func(e pairEntry, b uint64) int {
		switch {
		case e.id < b:
			return -1
		case e.id > b:
			return 1
		}
		return 0
	}); ok {
		return p.parts[k][i].n, nil
	}
	return 0, nil
}

func (t *tx) setCount(p *pairRow, b graph.NodeID, n int64) error {
	prev, had := p.delta[uint64(b)]
	if !had {
		k := p.part(uint64(b))
		if err := t.loadPart(p, k); err != nil {
			return err
		}
		t.rowBytes += 5
		if p.changed[k] == 0 {
			t.rowWrites++
			t.rowBytes += p.partCost(k)
		}
		p.changed[k]++
	}
	if t.over.atomic > 0 {
		t.rowUndo = append(t.rowUndo, rowUndo{p, uint64(b), had, prev})
	}
	p.delta[uint64(b)] = max(n, 0)
	return nil
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

// mergeDelta returns the entries es (ids in order) with the changed counts
// ids (sorted) of delta applied, the zeros dropped.
func mergeDelta(es []pairEntry, ids []uint64, delta map[uint64]int64) []pairEntry {
	if len(ids) == 0 {
		return es
	}
	out := make([]pairEntry, 0, len(es)+len(ids))
	i := 0
	for _, id := range ids {
		for i < len(es) && es[i].id < id {
			out = append(out, es[i])
			i++
		}
		if i < len(es) && es[i].id == id {
			i++
		}
		if n := delta[id]; n > 0 {
			out = append(out, pairEntry{id, n})
		}
	}
	return append(out, es[i:]...)
}

// rowWrites returns the keys that store a changed row: the row whole while
// it fits one part and was never split; else the parts that hold a change
// (cut in two when they outgrow maxPartEntries) and the starts when they
// changed. The parts that hold a change are loaded (setCount loads them).
func rowWrites(t graph.EdgeType, a graph.NodeID, p *pairRow) []kv {
	ids := slices.Sorted(maps.Keys(p.delta))
	main := pairRowKey(t, a)
	if p.starts == nil {
		var base []pairEntry
		if len(p.parts) > 0 {
			base = p.parts[0]
		}
		es := mergeDelta(base, ids, p.delta)
		if len(es) <= maxPartEntries {
			if len(es) == 0 {
				return []kv{{k: main}}
			}
			return []kv{{main, encodeEntries(es)}}
		}
	}
	starts := p.starts
	if starts == nil {
		starts = []uint64{0}
	}
	var out []kv
	var newStarts []uint64
	j := 0 // the first changed id not yet merged
	for i := range starts {
		end := len(ids)
		if i+1 < len(starts) {
			next := starts[i+1]
			end = j + sort.Search(len(ids)-j, func(k int) bool { return ids[j+k] >= next })
		}
		mine := ids[j:end]
		j = end
		if len(mine) == 0 && p.starts != nil {
			newStarts = append(newStarts, starts[i])
			continue
		}
		var stored []pairEntry
		if i < len(p.parts) {
			stored = p.parts[i]
		}
		part := mergeDelta(stored, mine, p.delta)
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
		return t.count(p, uint64(b))
	}
	return t.reader.storedPair(et, a, b)
}

func (t *tx) Pairs(et graph.EdgeType, a graph.NodeID, fn func(graph.NodeID, int64) bool) error {
	p, ok := t.rows[rowID{et, a}]
	if !ok {
		return t.reader.storedPairs(et, a, fn)
	}
	ids := slices.Sorted(maps.Keys(p.delta))
	j := 0
	for k := range p.parts {
		if err := t.loadPart(p, k); err != nil {
			return err
		}
		end := len(ids)
		if k+1 < len(p.starts) {
			next := p.starts[k+1]
			end = j + sort.Search(len(ids)-j, func(i int) bool { return ids[j+i] >= next })
		}
		for _, e := range mergeDelta(p.parts[k], ids[j:end], p.delta) {
			if !fn(graph.NodeID(e.id), e.n) {
				return nil
			}
		}
		j = end
	}
	return nil
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
	n, err := t.count(p, uint64(b))
	if err != nil {
		return 0, err
	}
	n = max(n+delta, 0)
	return n, t.SetPair(et, a, b, n)
}

func (t *tx) SetPair(et graph.EdgeType, a, b graph.NodeID, n int64) error {
	for _, ab := range [2][2]graph.NodeID{{a, b}, {b, a}} {
		p, err := t.row(et, ab[0])
		if err != nil {
			return err
		}
		if err := t.setCount(p, ab[1], n); err != nil {
			return err
		}
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
		if err := t.setCount(p, c.Other, c.N); err != nil {
			return err
		}
	}
	return nil
}
