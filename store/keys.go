package store

import (
	"encoding/binary"
	"errors"

	"github.com/researchkg/kg/graph"
)

// Key layout, after Dgraph's x/keys.go: the first byte says what a key is;
// ids are big-endian uint64 so key order is numeric order; any variable-length
// string part comes last (or is terminated by 0x00), so a prefix scan reads
// exactly one node's entries.
const (
	pMeta    byte = 0x01 // 0x01 | name                          → value
	pNode    byte = 0x02 // 0x02 | id(8)                         → node JSON
	pLookup  byte = 0x03 // 0x03 | ns(1) | key                   → id(8)
	pOut     byte = 0x04 // 0x04 | src(8) | type(1) | dst(8)     → weight (float64 bits, or empty for 0)
	pIn      byte = 0x05 // 0x05 | dst(8) | type(1) | src(8)     → weight
	pList    byte = 0x06 // 0x06 | owner(8) | type(1) | sortKey  → empty
	pPair    byte = 0x07 // layout 1 only: 0x07 | type(1) | a(8) | b(8) → int64 big-endian (migrate.go)
	pCounter byte = 0x08 // 0x08 | name                          → int64 big-endian
	pTerm    byte = 0x09 // 0x09 | ns(1) | term | 0x00 | id(8)   → empty
	pText    byte = 0x0A // 0x0A | id(8)                         → JSON array of abstracts
	pValue   byte = 0x0B // 0x0B | ns(1) | key                   → value (derived summaries, corrections)
	pPairRow byte = 0x0C // 0x0C | type(1) | a(8) [| start(8)]   → a node's pair counts of one type (pairrow.go)
)

// maxKeyPart bounds the string part of lookup and term keys; Badger rejects
// keys over 64 KiB and long keys waste the LSM tree. Keys are compared
// truncated, which is fine for identity keys of this length.
const maxKeyPart = 512

var seqKey = []byte{pMeta, 's', 'e', 'q'}

// versionKey holds the layout version, checked on open.
var versionKey = []byte{pMeta, 'v', 'e', 'r'}

// Layout 2 (issue 33) keeps a node's pair counts as one row (pairrow.go)
// instead of a key per pair and direction; Migrate converts a layout-1
// store.
const layoutVersion = 2

func nodeKey(id graph.NodeID) []byte {
	k := make([]byte, 9)
	k[0] = pNode
	binary.BigEndian.PutUint64(k[1:], uint64(id))
	return k
}

func textKey(id graph.NodeID) []byte {
	k := nodeKey(id)
	k[0] = pText
	return k
}

func lookupKey(ns graph.Index, key string) []byte {
	key = clip(key)
	k := make([]byte, 0, 2+len(key))
	return append(append(k, pLookup, byte(ns)), key...)
}

// edgeKey builds 0x04|src|t|dst (out) or 0x05|dst|t|src (in).
func edgeKey(prefix byte, from graph.NodeID, t graph.EdgeType, to graph.NodeID) []byte {
	k := make([]byte, 18)
	k[0] = prefix
	binary.BigEndian.PutUint64(k[1:], uint64(from))
	k[9] = byte(t)
	binary.BigEndian.PutUint64(k[10:], uint64(to))
	return k
}

// edgePrefix is the 10-byte prefix of all edges of one type at a node.
func edgePrefix(prefix byte, from graph.NodeID, t graph.EdgeType) []byte {
	return edgeKey(prefix, from, t, 0)[:10]
}

func listKey(owner graph.NodeID, t graph.EdgeType, sortKey []byte) []byte {
	k := make([]byte, 10, 10+len(sortKey))
	k[0] = pList
	binary.BigEndian.PutUint64(k[1:], uint64(owner))
	k[9] = byte(t)
	return append(k, sortKey...)
}

func pairKey(t graph.EdgeType, a, b graph.NodeID) []byte {
	k := make([]byte, 18)
	k[0] = pPair
	k[1] = byte(t)
	binary.BigEndian.PutUint64(k[2:], uint64(a))
	binary.BigEndian.PutUint64(k[10:], uint64(b))
	return k
}

// keyIDs returns the node ids at fixed places in a key of a node-keyed
// prefix (none for the others).
func keyIDs(k []byte) (a, b graph.NodeID) {
	id := func(i int) graph.NodeID {
		if len(k) < i+8 {
			return 0
		}
		return graph.NodeID(binary.BigEndian.Uint64(k[i:]))
	}
	switch k[0] {
	case pNode, pText, pList:
		return id(1), 0
	case pOut, pIn:
		return id(1), id(10)
	case pPair:
		return id(2), id(10)
	case pPairRow:
		return id(2), 0 // a part's start is not a node's own key
	}
	return 0, 0
}

func valueKey(ns graph.Index, key string) []byte {
	k := lookupKey(ns, key)
	k[0] = pValue
	return k
}

func counterKey(name string) []byte { return append([]byte{pCounter}, clip(name)...) }

func termKey(ns graph.Index, term string, id graph.NodeID) []byte {
	term = clip(stripNUL(term))
	k := make([]byte, 0, 2+len(term)+9)
	k = append(k, pTerm, byte(ns))
	k = append(k, term...)
	k = append(k, 0)
	return binary.BigEndian.AppendUint64(k, uint64(id))
}

func termPrefix(ns graph.Index, prefix string) []byte {
	prefix = clip(stripNUL(prefix))
	return append([]byte{pTerm, byte(ns)}, prefix...)
}

var errBadKey = errors.New("malformed key")

// parseTermKey splits a term key into its term and id.
func parseTermKey(k []byte) (string, graph.NodeID, error) {
	if len(k) < 2+1+8 || k[0] != pTerm || k[len(k)-9] != 0 {
		return "", 0, errBadKey
	}
	return string(k[2 : len(k)-9]), graph.NodeID(binary.BigEndian.Uint64(k[len(k)-8:])), nil
}

// parseEdgeKey returns the far end of an edge key.
func parseEdgeKey(k []byte) (graph.NodeID, error) {
	if len(k) != 18 || (k[0] != pOut && k[0] != pIn) {
		return 0, errBadKey
	}
	return graph.NodeID(binary.BigEndian.Uint64(k[10:])), nil
}

func parsePairKey(k []byte) (graph.NodeID, error) {
	if len(k) != 18 || k[0] != pPair {
		return 0, errBadKey
	}
	return graph.NodeID(binary.BigEndian.Uint64(k[10:])), nil
}

func clip(s string) string {
	if len(s) > maxKeyPart {
		return s[:maxKeyPart]
	}
	return s
}

func stripNUL(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			b := []byte(s)
			n := 0
			for _, c := range b {
				if c != 0 {
					b[n] = c
					n++
				}
			}
			return string(b[:n])
		}
	}
	return s
}
