// Paper filters: what a dashboard asks for (subjects, concepts, people, a
// span of years or months), resolved against the graph and matched on the
// facet index.

package graph

import (
	"fmt"
	"math"
	"slices"
	"strings"
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
// every paper): per dimension
// the nodes any of which a paper must have (nil: no condition), nodes a
// paper must all have (the owner of a list: Concept.papers), and a span
// of packed dates.
type Selection struct {
	vals      [numDims][]NodeID
	all       []NodeID
	lo, hi    uint32
	needMonth bool // a month bound: papers without a month are out
}

// selectAll matches every paper.
func selectAll() *Selection { return &Selection{hi: math.MaxUint32} }

// orAll is s, or every paper when s is nil: the View methods that take a
// selection take nil for "no filter".
func (s *Selection) orAll() *Selection {
	if s == nil {
		return selectAll()
	}
	return s
}

// with adds the condition "has node id" (a person's, a subject's or a
// concept's own papers).
func (s *Selection) with(id NodeID) *Selection {
	out := *s
	out.all = append(slices.Clone(s.all), id)
	return &out
}

// empty reports whether the selection has no condition.
func (s *Selection) empty() bool {
	return len(s.all) == 0 && s.vals[0] == nil && s.vals[1] == nil && s.vals[2] == nil && s.lo == 0 && s.hi == math.MaxUint32
}

// concepts are the concepts a selection names (RELEVANCE ranks papers by
// their weight).
func (s *Selection) concepts() []NodeID {
	var out []NodeID
	for _, id := range s.all {
		if id.Kind() == KindConcept {
			out = append(out, id)
		}
	}
	return append(out, s.vals[dimConcept]...)
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
			return nil, Errorf(Invalid, "filter.subjects: unknown subject %q", truncate(code, 64))
		} else if err != nil {
			return nil, err
		}
		s.vals[dimSubject] = appendNew(s.vals[dimSubject], n.ID)
	}
	for _, name := range f.Concepts {
		n, err := v.ConceptByName(name)
		if ErrorCode(err) == NotFound {
			return nil, Errorf(Invalid, "filter.concepts: unknown concept %q", truncate(name, 64))
		} else if err != nil {
			return nil, err
		}
		s.vals[dimConcept] = appendNew(s.vals[dimConcept], n.ID)
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
		s.vals[dimAuthor] = appendNew(s.vals[dimAuthor], id)
	}
	if f.YearFrom < 0 || f.YearTo < 0 || f.YearFrom > 9999 || f.YearTo > 9999 {
		return nil, Errorf(Invalid, "filter: years must be between 1 and 9999")
	}
	if f.YearFrom != 0 && f.YearTo != 0 && f.YearFrom > f.YearTo {
		return nil, Errorf(Invalid, "filter: yearFrom %d is after yearTo %d", f.YearFrom, f.YearTo)
	}
	if f.YearFrom != 0 {
		s.lo = Date{Year: f.YearFrom}.packed()
	}
	if f.YearTo != 0 {
		s.hi = Date{Year: f.YearTo, Month: 15, Day: 31}.packed()
	}
	var from, to Date
	if f.MonthFrom != "" {
		d, err := ParseMonth(f.MonthFrom)
		if err != nil {
			return nil, Errorf(Invalid, "filter.monthFrom: %v", err)
		}
		from, s.needMonth = d, true
		s.lo = max(s.lo, d.packed())
	}
	if f.MonthTo != "" {
		d, err := ParseMonth(f.MonthTo)
		if err != nil {
			return nil, Errorf(Invalid, "filter.monthTo: %v", err)
		}
		to, s.needMonth = d, true
		s.hi = min(s.hi, Date{Year: d.Year, Month: d.Month, Day: 31}.packed())
	}
	if from.Year != 0 && to.Year != 0 && from.monthIndex() > to.monthIndex() {
		return nil, Errorf(Invalid, "filter: monthFrom %s is after monthTo %s", from.MonthString(), to.MonthString())
	}
	return s, nil
}

func appendNew(s []NodeID, id NodeID) []NodeID {
	if slices.Contains(s, id) {
		return s
	}
	return append(s, id)
}

// describe renders a selection for errors and logs.
func (s *Selection) String() string {
	var parts []string
	for d, vs := range s.vals {
		if vs != nil {
			parts = append(parts, fmt.Sprintf("%s in %v", dimKinds[d], vs))
		}
	}
	if len(s.all) > 0 {
		parts = append(parts, fmt.Sprintf("with %v", s.all))
	}
	if s.lo != 0 || s.hi != math.MaxUint32 {
		parts = append(parts, fmt.Sprintf("dated %s..%s", unpackDate(s.lo), unpackDate(min(s.hi, Date{9999, 12, 31}.packed()))))
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
	for _, ids := range s.vals {
		if ids == nil {
			continue
		}
		n := 0
		for _, id := range ids {
			c, err := v.PaperCount(id)
			if err != nil {
				return 0, err
			}
			n += c
		}
		best = min(best, n)
	}
	return best, nil
}
