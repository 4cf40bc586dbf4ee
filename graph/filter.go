// Paper filters: what a dashboard asks for (subjects, concepts, people, a
// span of years or months), resolved against the graph and matched on the
// facet index.

package graph

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/paperindex"
)

// PaperFilter selects papers. Fields combine with AND, the values of a list
// with OR; an empty filter selects every paper.
type PaperFilter struct {
	Subjects []string // subject codes ("cs.LG")
	Concepts []string // concept names or aliases, resolved as ConceptByName
	Authors  []NodeID // people
	// YearFrom and YearTo bound the year (0: open).
	YearFrom, YearTo int
	// MonthFrom and MonthTo bound the month ("YYYY-MM"; "": open); a
	// paper whose month is unknown matches no month bound.
	MonthFrom, MonthTo string
}

// MaxFilterValues bounds the values of one list of a filter.
const MaxFilterValues = 100

// Empty reports whether the filter selects every paper.
func (f *PaperFilter) Empty() bool {
	return f == nil || len(f.Subjects)+len(f.Concepts)+len(f.Authors) == 0 &&
		f.YearFrom == 0 && f.YearTo == 0 && f.MonthFrom == "" && f.MonthTo == ""
}

// Selection is a filter resolved to nodes (View.Select; nil selects
// every paper), as the paper index matches it (paperindex.Selection).
type Selection struct{ q paperindex.Selection }

// selectAll matches every paper.
func selectAll() *Selection { return &Selection{paperindex.Everything()} }

// dimOf is the paper index's dimension of a kind's nodes.
func dimOf(k Kind) (int, bool) {
	switch k {
	case KindSubject:
		return paperindex.Subject, true
	case KindAuthor:
		return paperindex.Author, true
	case KindConcept:
		return paperindex.Concept, true
	}
	return 0, false
}

// dimKinds are the node kinds of the index's dimensions.
var dimKinds = [paperindex.NumDims]Kind{KindSubject, KindAuthor, KindConcept}

// orAll is s, or every paper when s is nil: the View methods that take a
// selection take nil for "no filter".
func (s *Selection) orAll() *Selection {
	if s == nil {
		return selectAll()
	}
	return s
}

// with adds the condition "has node id" (a person's, a subject's or a
// concept's own papers); a node of a kind without papers matches none.
func (s *Selection) with(id NodeID) *Selection {
	d, ok := dimOf(id.Kind())
	if !ok {
		out := s.q
		out.None = true
		return &Selection{out}
	}
	return &Selection{s.q.With(d, uint64(id))}
}

// nodeIDs are the index's ids as nodes.
func nodeIDs(ids []uint64) []NodeID {
	if ids == nil {
		return nil
	}
	out := make([]NodeID, len(ids))
	for i, id := range ids {
		out[i] = NodeID(id)
	}
	return out
}

// Select resolves a filter: names to nodes, months to dates. An unknown
// subject, concept or person, a malformed month, or bounds the wrong way
// round are Invalid errors naming them.
func (v *View) Select(f *PaperFilter) (*Selection, error) {
	s := selectAll()
	if f == nil {
		return s, nil
	}
	for _, l := range []struct {
		name string
		n    int
	}{{"subjects", len(f.Subjects)}, {"concepts", len(f.Concepts)}, {"authors", len(f.Authors)}} {
		if l.n > MaxFilterValues {
			return nil, Errorf(Invalid, "filter.%s: %d values; at most %d", l.name, l.n, MaxFilterValues)
		}
	}
	for _, code := range f.Subjects {
		n, err := v.SubjectByCode(code)
		if ErrorCode(err) == NotFound {
			return nil, Errorf(Invalid, "filter.subjects: unknown subject %q", ident.Clip(code, 64))
		} else if err != nil {
			return nil, err
		}
		s.q.Any[paperindex.Subject] = appendNew(s.q.Any[paperindex.Subject], n.ID)
	}
	for _, name := range f.Concepts {
		n, err := v.ConceptByName(name)
		if ErrorCode(err) == NotFound {
			return nil, Errorf(Invalid, "filter.concepts: unknown concept %q", ident.Clip(name, 64))
		} else if err != nil {
			return nil, err
		}
		s.q.Any[paperindex.Concept] = appendNew(s.q.Any[paperindex.Concept], n.ID)
	}
	for _, id := range f.Authors {
		if id.Kind() != KindAuthor {
			return nil, Errorf(Invalid, "filter.authors: %s is not a person", id)
		}
		if _, err := v.Node(id); ErrorCode(err) == NotFound {
			return nil, Errorf(Invalid, "filter.authors: unknown person %s", id)
		} else if err != nil {
			return nil, err
		}
		s.q.Any[paperindex.Author] = appendNew(s.q.Any[paperindex.Author], id)
	}
	if f.YearFrom < 0 || f.YearTo < 0 || f.YearFrom > 9999 || f.YearTo > 9999 {
		return nil, Errorf(Invalid, "filter: years must be between 1 and 9999")
	}
	if f.YearFrom != 0 && f.YearTo != 0 && f.YearFrom > f.YearTo {
		return nil, Errorf(Invalid, "filter: yearFrom %d is after yearTo %d", f.YearFrom, f.YearTo)
	}
	if f.YearFrom != 0 {
		s.q.Lo = Date{Year: f.YearFrom}.packed()
	}
	if f.YearTo != 0 {
		s.q.Hi = Date{Year: f.YearTo, Month: 15, Day: 31}.packed()
	}
	var from, to Date
	if f.MonthFrom != "" {
		d, err := ParseMonth(f.MonthFrom)
		if err != nil {
			return nil, Errorf(Invalid, "filter.monthFrom: %v", err)
		}
		from, s.q.NeedMonth = d, true
		s.q.Lo = max(s.q.Lo, d.packed())
	}
	if f.MonthTo != "" {
		d, err := ParseMonth(f.MonthTo)
		if err != nil {
			return nil, Errorf(Invalid, "filter.monthTo: %v", err)
		}
		to, s.q.NeedMonth = d, true
		s.q.Hi = min(s.q.Hi, Date{Year: d.Year, Month: d.Month, Day: 31}.packed())
	}
	if from.Year != 0 && to.Year != 0 && from.monthIndex() > to.monthIndex() {
		return nil, Errorf(Invalid, "filter: monthFrom %s is after monthTo %s", from.MonthString(), to.MonthString())
	}
	return s, nil
}

func appendNew(s []uint64, id NodeID) []uint64 {
	if slices.Contains(s, uint64(id)) {
		return s
	}
	return append(s, uint64(id))
}

// describe renders a selection for errors and logs.
func (s *Selection) String() string {
	var parts []string
	for d, vs := range s.q.Any {
		if vs != nil {
			parts = append(parts, fmt.Sprintf("%s in %v", dimKinds[d], nodeIDs(vs)))
		}
	}
	var with []NodeID
	for _, vs := range s.q.All {
		with = append(with, nodeIDs(vs)...)
	}
	if len(with) > 0 {
		parts = append(parts, fmt.Sprintf("with %v", with))
	}
	if s.q.None {
		parts = append(parts, "nothing")
	}
	if s.q.Lo != 0 || s.q.Hi != math.MaxUint32 {
		parts = append(parts, fmt.Sprintf("dated %s..%s", unpackDate(s.q.Lo), unpackDate(min(s.q.Hi, Date{9999, 12, 31}.packed()))))
	}
	return strings.Join(parts, ", ")
}

// ScanEstimate bounds the papers answering a question over a filter
// reads: the papers of its shortest list (a list's nodes' papers summed),
// or every paper when it names no subject, concept or person. It reads
// stored counters only (no index), for pricing a query before it runs; a
// filter that does not resolve counts as nothing (the query will fail on
// it).
func (v *View) ScanEstimate(f *PaperFilter) (int, error) {
	all, err := v.r.Counter(cntPapers)
	if err != nil {
		return 0, err
	}
	s, err := v.Select(f)
	if ErrorCode(err) == Invalid {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	best := int(all)
	for _, ids := range s.q.Any {
		if ids == nil {
			continue
		}
		n := 0
		for _, id := range ids {
			c, err := v.PaperCount(NodeID(id))
			if err != nil {
				return 0, err
			}
			n += c
		}
		best = min(best, n)
	}
	return best, nil
}
