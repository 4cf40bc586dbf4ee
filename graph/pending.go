// Pending mentions: a paper's links to the concepts made since the last
// settle, held as one value until the settle has judged those concepts.

package graph

import (
	"context"
	"encoding/binary"
	"errors"
	"maps"
	"math"
	"slices"
	"strconv"
)

// A concept made during an ingest is judged only at its settle
// (judgeTerms, rejectModifiers), and most are then rejected: on the
// 47,919-record arXiv file, 570,192 of the 813,357 links the records
// phase made went again at the settle ("detection", "video", "inference"
// are words of the field, not terms of it). Each was three keys written
// (the edge both ways and the concept's paper list) and three deleted,
// and every paper of a rejected concept was read and rewritten.
//
// So a paper's links to unsettled concepts (those with a backfill mark,
// made since the last settle) are kept as one value per paper
// (ValPendingMentions), with the weights they will have; the concept's
// degree counts them at once, so the modifier test (checkModifier) sees
// the same degrees as before, and the document's result counts them as
// edges as it did. The settle judges first, drops what it rejects, and
// then writes each paper's pending links to the concepts that are left as
// edges, with its other gains, in one rewrite of its mentions
// (settleApply). The graph after the settle is the one the old order made
// (the digest of the arXiv file is unchanged); until the settle, a
// concept made by the ingest under way lists none of the papers read in
// it, as it lists none of the papers read before it.
//
// Every settle writes every pending value it finds, whatever the marks
// say, so a run interrupted before its settle leaves nothing behind: the
// next settle links them.

var errBadPending = errors.New("malformed pending mentions")

// encodePending: uvarint(count), then per concept, in id order,
// uvarint(id minus the previous id) and the weight's float64 bits (8
// bytes, big-endian).
func encodePending(m map[NodeID]float64) []byte {
	b := binary.AppendUvarint(make([]byte, 0, 1+len(m)*12), uint64(len(m)))
	prev := uint64(0)
	for _, c := range slices.Sorted(maps.Keys(m)) {
		b = binary.AppendUvarint(b, uint64(c)-prev)
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(m[c]))
		prev = uint64(c)
	}
	return b
}

func decodePending(b []byte) (map[NodeID]float64, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, errBadPending
	}
	b = b[k:]
	m := make(map[NodeID]float64, n)
	prev := uint64(0)
	for i := uint64(0); i < n; i++ {
		d, k := binary.Uvarint(b)
		if k <= 0 || (d == 0 && i > 0) || d > ^prev || len(b) < k+8 {
			return nil, errBadPending
		}
		prev += d
		w := math.Float64frombits(binary.BigEndian.Uint64(b[k:]))
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, errBadPending
		}
		m[NodeID(prev)] = w
		b = b[k+8:]
	}
	if len(b) != 0 {
		return nil, errBadPending
	}
	return m, nil
}

// pendingMentions reads a paper's pending links (none: an empty map).
func pendingMentions(r Reader, p NodeID) (map[NodeID]float64, error) {
	v, err := r.Value(ValPendingMentions, authorTerm(p))
	if ErrorCode(err) == NotFound {
		return map[NodeID]float64{}, nil
	} else if err != nil {
		return nil, err
	}
	m, err := decodePending(v)
	if err != nil {
		return nil, Errorf(Internal, "pending mentions of %s: %v", p, err)
	}
	return m, nil
}

// defers reports whether a new link of the paper to c waits for the
// settle: c is unsettled, and this is no recompute (which links in its
// own pass and settles nothing).
func (w *writer) defers(c NodeID) bool { return !w.deferLinks && w.vocab.unsettledConcept(c) }

// splitLinks parts a paper's links into those written now and those that
// wait (a link it already has stays an edge).
func (w *writer) splitLinks(cur, old map[NodeID]float64) (now, later map[NodeID]float64) {
	now = make(map[NodeID]float64, len(cur))
	later = map[NodeID]float64{}
	for c, wt := range cur {
		if _, had := old[c]; !had && w.defers(c) {
			later[c] = wt
		} else {
			now[c] = wt
		}
	}
	return now, later
}

// movePending changes a paper's pending links from pend to later, counting
// them in their concepts' degrees; links of pend that become edges (in
// now) keep their count. A concept left with no paper goes, as in
// moveMentions.
func (w *writer) movePending(p NodeID, pend, later, now map[NodeID]float64) error {
	tx := w.tx
	for _, c := range slices.Sorted(maps.Keys(later)) {
		if _, had := pend[c]; had {
			continue
		}
		w.res.EdgesAdded++
		deg, err := tx.AddCounter(degreeCounter(c, Mentions), 1)
		if err != nil {
			return err
		}
		if err := w.checkModifier(c, deg); err != nil {
			return err
		}
	}
	for _, c := range slices.Sorted(maps.Keys(pend)) {
		_, wait := later[c]
		_, edge := now[c]
		if wait || edge {
			continue
		}
		if n, err := tx.AddCounter(degreeCounter(c, Mentions), -1); err != nil {
			return err
		} else if n == 0 {
			if err := w.dropConcept(c); err != nil {
				return err
			}
		}
	}
	if maps.Equal(pend, later) {
		return nil
	}
	if len(later) == 0 {
		return tx.DeleteValue(ValPendingMentions, authorTerm(p))
	}
	return tx.PutValue(ValPendingMentions, authorTerm(p), encodePending(later))
}

// pendingPapers lists the papers that have pending links, in id order.
func pendingPapers(r Reader) ([]NodeID, error) {
	var ids []NodeID
	err := r.Values(ValPendingMentions, "", func(key string, _ []byte) bool {
		if id, err := strconv.ParseUint(key, 16, 64); err == nil {
			ids = append(ids, NodeID(id))
		}
		return true
	})
	return ids, err
}

// dropPendingMentions deletes every pending link (a recompute makes its
// concepts and links afresh).
func (s *Service) dropPendingMentions(ctx context.Context) error {
	r, err := s.store.Read(ctx)
	if err != nil {
		return err
	}
	ids, err := pendingPapers(r)
	r.Close()
	if err != nil {
		return err
	}
	return s.eachBatch(ctx, len(ids), func(w *writer, i int) error {
		return w.tx.DeleteValue(ValPendingMentions, authorTerm(ids[i]))
	})
}
