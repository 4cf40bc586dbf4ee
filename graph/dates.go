// Publication dates at the precision a source gives them: a year, a month
// or a day.

package graph

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/paperindex"
)

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
