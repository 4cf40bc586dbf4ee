// Node kinds, node ids and edge types; publication dates at the precision
// a source gives them (a year, a month or a day).

package graph

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/paperindex"
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

// Date is a publication date: the first version's, where a source gives
// it. Month and Day are 0 when unknown (a year alone, a month alone).
type Date struct{ Year, Month, Day int }

// ParseDate reads "2025", "2025-07" or "2025-07-14" (years 1000–9999).
func ParseDate(s string) (Date, error) {
	bad := func() (Date, error) {
		return Date{}, Errorf(Invalid, "date %q: want YYYY, YYYY-MM or YYYY-MM-DD", ident.Clip(s, 32))
	}
	parts := strings.Split(s, "-")
	if len(parts) > 3 || len(parts[0]) != 4 {
		return bad()
	}
	var d Date
	for i, p := range parts {
		if (i > 0 && len(p) != 2) || !ident.AllDigits(p) {
			return bad()
		}
		n, _ := strconv.Atoi(p)
		switch i {
		case 0:
			d.Year = n
		case 1:
			d.Month = n
		case 2:
			d.Day = n
		}
	}
	if d.Year < 1000 || d.Month > 12 || len(parts) > 1 && d.Month < 1 || len(parts) > 2 && (d.Day < 1 || d.Day > daysIn(d.Year, d.Month)) {
		return bad()
	}
	return d, nil
}

// ParseMonth reads "YYYY-MM" and nothing else (a filter's bound).
func ParseMonth(s string) (Date, error) {
	d, err := ParseDate(s)
	if err != nil || d.Month == 0 || d.Day != 0 {
		return Date{}, Errorf(Invalid, "month %q: want YYYY-MM", ident.Clip(s, 32))
	}
	return d, nil
}

func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// String renders the date at its precision ("" for the zero Date).
func (d Date) String() string {
	switch {
	case d.Year == 0:
		return ""
	case d.Month == 0:
		return fmt.Sprintf("%04d", d.Year)
	case d.Day == 0:
		return fmt.Sprintf("%04d-%02d", d.Year, d.Month)
	}
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day)
}

// MonthString is "YYYY-MM", or "" when the month is unknown.
func (d Date) MonthString() string {
	if d.Year == 0 || d.Month == 0 {
		return ""
	}
	return fmt.Sprintf("%04d-%02d", d.Year, d.Month)
}

// packed orders dates: by year, then month, then day, an unknown part
// before every known one (so newest first puts a paper known only by its
// year after that year's dated papers).
func (d Date) packed() uint32 { return paperindex.PackDate(d.Year, d.Month, d.Day) }

func unpackDate(p uint32) Date {
	y, m, d := paperindex.UnpackDate(p)
	return Date{y, m, d}
}

// monthIndex numbers months consecutively (year·12 + month − 1); -1 when
// the month is unknown.
func (d Date) monthIndex() int {
	if d.Year == 0 || d.Month == 0 {
		return -1
	}
	return d.Year*12 + d.Month - 1
}

func monthOfIndex(i int) Date { return Date{Year: i / 12, Month: i%12 + 1} }

// DateOfTime is the day of a time, in UTC.
func DateOfTime(t time.Time) Date {
	t = t.UTC()
	return Date{t.Year(), int(t.Month()), t.Day()}
}

// ArXivMonth is the month of first submission an arXiv id carries: YYMM
// of a new-style id ("2507.01234" → 2025-07), or of an old-style one
// ("hep-th/9901001" → 1999-01). Zero when the id has none.
func ArXivMonth(id string) Date {
	key := ident.ArXivKey(id)
	yymm := ""
	if a, _, ok := strings.Cut(key, "."); ok && len(a) == 4 {
		yymm = a
	} else if _, num, ok := strings.Cut(key, "/"); ok && len(num) == 7 {
		yymm = num[:4]
	}
	if yymm == "" {
		return Date{}
	}
	yy, _ := strconv.Atoi(yymm[:2])
	mm, _ := strconv.Atoi(yymm[2:])
	if mm < 1 || mm > 12 {
		return Date{}
	}
	// new-style ids began in April 2007 (0704); old-style ones ran 1991–2007
	year := 2000 + yy
	if yy >= 91 {
		year = 1900 + yy
	}
	return Date{Year: year, Month: mm}
}

// PaperDate is a paper's date: the one its sources gave, else the month
// of its arXiv id, else its year.
func PaperDate(n *Node) Date {
	if n.Date != "" {
		if d, err := ParseDate(n.Date); err == nil {
			return d
		}
	}
	if d := ArXivMonth(n.ArXivID); d.Year != 0 && (n.Year == 0 || d.Year == n.Year) {
		return d
	}
	return Date{Year: n.Year}
}

// mergeDate combines two dates of one paper from two sources: the more
// precise when they agree ("2025-07" and "2025-07-14"), else the earlier
// (a paper's date is its first version's).
func mergeDate(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "" || a == b:
		return a
	case strings.HasPrefix(b, a):
		return b
	case strings.HasPrefix(a, b):
		return a
	}
	return min(a, b)
}
