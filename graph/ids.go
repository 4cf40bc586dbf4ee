package graph

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/researchkg/kg/graph/ident"
)

// Kind is the kind of a node. Its numeric value is part of every NodeID and so
// of stored keys: never renumber.
type Kind uint8

// The node kinds.
const (
	KindPaper        Kind = 1
	KindAuthor       Kind = 2
	KindSubject      Kind = 3
	KindConcept      Kind = 4
	KindRepository   Kind = 5
	KindOrganization Kind = 6
)

// Kinds lists every node kind in a stable order.
var Kinds = []Kind{KindPaper, KindAuthor, KindSubject, KindConcept, KindRepository, KindOrganization}

var kindNames = map[Kind]string{
	KindPaper:        "paper",
	KindAuthor:       "author",
	KindSubject:      "subject",
	KindConcept:      "concept",
	KindRepository:   "repository",
	KindOrganization: "organization",
}

// String returns the lower-case name of the kind ("paper", "author", ...).
func (k Kind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Valid reports whether k is one of the defined kinds.
func (k Kind) Valid() bool { _, ok := kindNames[k]; return ok }

// ParseKind maps a kind name (any case) to its Kind.
func ParseKind(s string) (Kind, error) {
	s = strings.ToLower(s)
	for k, n := range kindNames {
		if n == s {
			return k, nil
		}
	}
	return 0, Errorf(Invalid, "unknown kind %q", s)
}

// NodeID identifies a node. The top byte is the node's Kind and the low 56
// bits a sequence number shared by all kinds, so an id alone says what it
// points at and big-endian ids sort by kind, then by age.
type NodeID uint64

const seqMask = 1<<56 - 1

// MakeID combines a kind and a sequence number.
func MakeID(k Kind, seq uint64) NodeID { return NodeID(uint64(k)<<56 | seq&seqMask) }

// Kind returns the kind encoded in the id.
func (id NodeID) Kind() Kind { return Kind(id >> 56) }

// Seq returns the sequence part of the id.
func (id NodeID) Seq() uint64 { return uint64(id) & seqMask }

// String renders the public, opaque form used in GraphQL: "<kind>:<seq>",
// e.g. "paper:17".
func (id NodeID) String() string {
	return id.Kind().String() + ":" + strconv.FormatUint(id.Seq(), 10)
}

// ParseID parses the public form produced by NodeID.String. It rejects unknown
// kinds, empty or non-decimal sequence parts and zero.
func ParseID(s string) (NodeID, error) {
	name, num, ok := strings.Cut(s, ":")
	if !ok {
		return 0, Errorf(Invalid, "malformed id %q: want <kind>:<number>", ident.Clip(s, 64))
	}
	k, err := ParseKind(name)
	if err != nil {
		return 0, Errorf(Invalid, "malformed id %q: unknown kind", ident.Clip(s, 64))
	}
	seq, err := strconv.ParseUint(num, 10, 64)
	if err != nil || seq == 0 || seq > seqMask || num[0] == '+' || (len(num) > 1 && num[0] == '0') {
		return 0, Errorf(Invalid, "malformed id %q: bad number", ident.Clip(s, 64))
	}
	return MakeID(k, seq), nil
}

// EdgeType is the type of an edge. Its numeric value is stored in keys: never
// renumber.
type EdgeType uint8

// Stored edge types (facts) and derived ones (pair counters).
const (
	Authored  EdgeType = 1 // author → paper
	InSubject EdgeType = 2 // paper → subject
	Mentions  EdgeType = 3 // paper → concept, weight = term score
	HasCode   EdgeType = 4 // paper → repository
	OwnedBy   EdgeType = 5 // repository → organization
	Broader   EdgeType = 6 // concept → broader concept
	CoAuthor  EdgeType = 7 // author ↔ author, derived: weight = shared papers
	CoOccurs  EdgeType = 8 // concept ↔ concept, derived: weight = shared papers
)

var edgeNames = map[EdgeType]string{
	Authored:  "AUTHORED",
	InSubject: "IN_SUBJECT",
	Mentions:  "MENTIONS",
	HasCode:   "HAS_CODE",
	OwnedBy:   "OWNED_BY",
	Broader:   "BROADER",
	CoAuthor:  "CO_AUTHOR",
	CoOccurs:  "CO_OCCURS",
}

// String returns the public name of the edge type, e.g. "AUTHORED".
func (t EdgeType) String() string {
	if s, ok := edgeNames[t]; ok {
		return s
	}
	return fmt.Sprintf("EDGE(%d)", uint8(t))
}
