package store

import (
	"bytes"
	"testing"

	"github.com/researchkg/kg/graph"
)

func TestKeyLayout(t *testing.T) {
	p := graph.MakeID(graph.KindPaper, 7)
	a := graph.MakeID(graph.KindAuthor, 3)
	out, in := edgeKey(pOut, a, graph.Authored, p), edgeKey(pIn, p, graph.Authored, a)
	if len(out) != 18 || out[0] != pOut || in[0] != pIn || !bytes.HasPrefix(out, edgePrefix(pOut, a, graph.Authored)) {
		t.Fatalf("edge keys: %x %x", out, in)
	}
	if got, err := parseEdgeKey(out); err != nil || got != p {
		t.Errorf("parseEdgeKey(out) = %v, %v; want %v", got, err, p)
	}
	if got, err := parseEdgeKey(in); err != nil || got != a {
		t.Errorf("parseEdgeKey(in) = %v, %v; want %v", got, err, a)
	}
	// big-endian ids: key order is id order
	if bytes.Compare(nodeKey(graph.MakeID(graph.KindPaper, 255)), nodeKey(graph.MakeID(graph.KindPaper, 256))) >= 0 {
		t.Error("node keys do not sort by id")
	}
	k := termKey(graph.IdxSearch, "reward\x00model", p)
	term, id, err := parseTermKey(k)
	if err != nil || term != "rewardmodel" || id != p {
		t.Errorf("term key round trip: %q %v %v", term, id, err)
	}
	// a term prefix scan must not match a longer term's entries as exact
	if !bytes.HasPrefix(termKey(graph.IdxSearch, "rl", p), termPrefix(graph.IdxSearch, "rl")) {
		t.Error("term prefix")
	}
	if b, err := parsePairKey(pairKey(graph.CoAuthor, a, p)); err != nil || b != p {
		t.Errorf("pair key: %v %v", b, err)
	}
}

func FuzzParseKeys(f *testing.F) {
	f.Add(termKey(graph.IdxSearch, "model", graph.MakeID(graph.KindConcept, 9)))
	f.Add(edgeKey(pOut, 1, graph.Mentions, 2))
	f.Add(pairKey(graph.CoOccurs, 3, 4))
	f.Add([]byte{pTerm, 0, 0})
	f.Fuzz(func(t *testing.T, k []byte) {
		if term, id, err := parseTermKey(k); err == nil {
			if !bytes.Equal(termKey(graph.Index(k[1]), term, id), k) && !bytes.Contains([]byte(term), []byte{0}) && len(term) <= maxKeyPart {
				t.Fatalf("term key %x does not round-trip", k)
			}
		}
		if id, err := parseEdgeKey(k); err == nil {
			if !bytes.Equal(edgeKey(k[0], graph.NodeID(be(k[1:9])), graph.EdgeType(k[9]), id), k) {
				t.Fatalf("edge key %x does not round-trip", k)
			}
		}
		_, _ = parsePairKey(k)
	})
}

func be(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}
