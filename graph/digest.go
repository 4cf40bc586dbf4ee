package graph

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Digest summarises a graph independently of its ids: counts, and a hash
// over every node (by its natural identity and content), every stored edge
// and every pair counter (by the identities at both ends, with weights).
//
// Two stores hold the same graph exactly when their digests are equal,
// whatever ids ingest gave the nodes: a run interrupted and resumed
// allocates ids in another order (and skips ids it had leased) than one
// clean run, so a checksum over raw keys cannot compare them.
type Digest struct {
	Stats Stats  `json:"stats"`
	Hash  string `json:"sha256"`
}

// Digest computes the graph's digest from one snapshot. It reads the
// whole graph: for tests and operations, not for requests.
func (s *Service) Digest(ctx context.Context) (Digest, error) {
	v, err := s.View(ctx)
	if err != nil {
		return Digest{}, err
	}
	defer v.Close()
	st, err := v.Stats()
	if err != nil {
		return Digest{}, err
	}
	ident := map[NodeID]string{}
	var lines []string
	for k := KindPaper; k <= KindOrganization; k++ {
		var ids []NodeID
		if err := v.r.NodeIDs(k, 0, func(id NodeID) bool { ids = append(ids, id); return true }); err != nil {
			return Digest{}, err
		}
		for _, id := range ids {
			if err := ctx.Err(); err != nil {
				return Digest{}, err
			}
			n, err := v.r.Node(id)
			if err != nil {
				return Digest{}, fmt.Errorf("node %s: %w", id, err)
			}
			ident[id] = nodeIdentity(&n)
			if k == KindAuthor { // people who share a name: by their first paper
				first := ""
				if err := v.r.Edges(id, Authored, Out, func(p NodeID, _ float64) bool {
					if s := ident[p]; first == "" || s < first {
						first = s
					}
					return true
				}); err != nil {
					return Digest{}, err
				}
				ident[id] += "\x00" + first
			}
			abs, err := v.r.Abstracts(id)
			if err != nil {
				return Digest{}, err
			}
			lines = append(lines, "N "+ident[id]+"\x00"+n.Name+"\x00"+strings.Join(n.Aliases, "\x01")+"\x00"+
				strings.Join(n.Sources, "\x01")+"\x00"+n.Venue+"\x00"+n.Terms+"\x00"+strings.Join(abs, "\x01"))
		}
	}
	name := func(id NodeID) string {
		if s, ok := ident[id]; ok {
			return s
		}
		return "missing:" + id.String() // a dangling reference shows up in the hash
	}
	for id := range ident {
		err := v.r.AllEdges(id, Out, func(t EdgeType, o NodeID, w float64) bool {
			lines = append(lines, "E "+ident[id]+"\x00"+t.String()+"\x00"+name(o)+"\x00"+strconv.FormatFloat(w, 'g', -1, 64))
			return true
		})
		if err != nil {
			return Digest{}, err
		}
		for _, t := range []EdgeType{CoAuthor, CoOccurs} {
			err := v.r.Pairs(t, id, func(o NodeID, n int64) bool {
				lines = append(lines, "P "+ident[id]+"\x00"+t.String()+"\x00"+name(o)+"\x00"+strconv.FormatInt(n, 10))
				return true
			})
			if err != nil {
				return Digest{}, err
			}
		}
	}
	slices.Sort(lines)
	h := sha256.New()
	for _, l := range lines {
		h.Write([]byte(l))
		h.Write([]byte{'\n'})
	}
	return Digest{Stats: st, Hash: hex.EncodeToString(h.Sum(nil))}, nil
}

// nodeIdentity is what makes a node itself, without its id.
func nodeIdentity(n *Node) string {
	return n.ID.Kind().String() + "\x00" + n.Label + "\x00" + strconv.Itoa(n.Year) + "\x00" + n.ArXivID + "\x00" + n.DOI
}
