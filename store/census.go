package store

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"sync"

	"github.com/researchkg/kg/graph"
)

// census counts the writes that reach Badger by kind of key (Options.Census,
// kg ingest --write-census): what a record costs in keys is what ingest's
// time goes to (memtable inserts, compactions, the GC of the values), and
// the layout decisions of issue 33 (packed rows, counters aggregated, the
// settle's rewrites) are judged by it. Counted at commit, once per key a
// transaction writes (a key written twice in one transaction counts once).
type census struct {
	mu   sync.Mutex
	rows map[censusKind]*CensusRow
}

type censusKind struct {
	prefix, sub byte
	counter     string // a counter's name up to its first '/'
}

// CensusRow is one kind of key and the writes of it.
type CensusRow struct {
	Kind    string // "edge-out mentions", "counter df", "term ns=9" …
	Writes  int64  // sets
	Deletes int64
	Bytes   int64 // keys and values set
}

func (c *census) count(o *overlay) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rows == nil {
		c.rows = map[censusKind]*CensusRow{}
	}
	for _, p := range o.index {
		k := kindOf(p.key)
		r := c.rows[k]
		if r == nil {
			r = &CensusRow{Kind: k.String()}
			c.rows[k] = r
		}
		if p.del {
			r.Deletes++
		} else {
			r.Writes++
			r.Bytes += int64(len(p.key) + len(p.val))
		}
	}
}

func kindOf(k []byte) censusKind {
	if len(k) == 0 {
		return censusKind{}
	}
	c := censusKind{prefix: k[0]}
	switch k[0] {
	case pLookup, pTerm, pValue, pPairRow:
		if len(k) > 1 {
			c.sub = k[1]
		}
	case pOut, pIn, pList:
		if len(k) > 9 {
			c.sub = k[9]
		}
	case pCounter:
		name := k[1:]
		if i := bytes.IndexByte(name, '/'); i >= 0 {
			name = name[:i]
		}
		c.counter = string(name)
	}
	return c
}

func (k censusKind) String() string {
	switch k.prefix {
	case pMeta:
		return "meta"
	case pNode:
		return "node"
	case pText:
		return "text"
	case pLookup:
		return fmt.Sprintf("lookup ns=%d", k.sub)
	case pTerm:
		return fmt.Sprintf("term ns=%d", k.sub)
	case pValue:
		return fmt.Sprintf("value ns=%d", k.sub)
	case pPairRow:
		return "pair-row " + graph.EdgeType(k.sub).String()
	case pOut:
		return "edge-out " + graph.EdgeType(k.sub).String()
	case pIn:
		return "edge-in " + graph.EdgeType(k.sub).String()
	case pList:
		return "list " + graph.EdgeType(k.sub).String()
	case pCounter:
		return "counter " + k.counter
	}
	return fmt.Sprintf("prefix 0x%02x", k.prefix)
}

// Census returns the writes committed since the store was opened, by kind
// of key, most written first (nil unless Options.Census).
func (db *DB) Census() []CensusRow {
	if db.census == nil {
		return nil
	}
	db.census.mu.Lock()
	defer db.census.mu.Unlock()
	out := make([]CensusRow, 0, len(db.census.rows))
	for _, r := range db.census.rows {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b CensusRow) int {
		return cmp.Or(cmp.Compare(b.Writes+b.Deletes, a.Writes+a.Deletes), cmp.Compare(a.Kind, b.Kind))
	})
	return out
}
