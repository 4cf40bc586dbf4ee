package source

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/ident"
)

// arxivRecord is one line of arXiv metadata in the Kaggle snapshot layout.
type arxivRecord struct {
	ID            json.RawMessage `json:"id"`
	Submitter     *string         `json:"submitter"`
	Authors       string          `json:"authors"`
	Title         string          `json:"title"`
	Comments      *string         `json:"comments"`
	JournalRef    *string         `json:"journal-ref"`
	DOI           *string         `json:"doi"`
	Categories    string          `json:"categories"`
	Abstract      string          `json:"abstract"`
	Versions      []arxivVersion  `json:"versions"`
	UpdateDate    string          `json:"update_date"`
	AuthorsParsed [][]string      `json:"authors_parsed"`
}

type arxivVersion struct {
	Version string `json:"version"`
	Created string `json:"created"`
}

// detectJSONLines recognises arXiv metadata JSON lines from the first line.
func detectJSONLines(head []byte) (Format, bool) {
	head = bytes.TrimLeft(head, " \t\r\n\uFEFF")
	if len(head) == 0 || head[0] != '{' {
		return "", false
	}
	first, _, _ := bytes.Cut(head, []byte("\n"))
	var probe map[string]json.RawMessage
	if json.Unmarshal(first, &probe) != nil {
		// a first line longer than the sniffed prefix: judge by its keys
		for _, k := range []string{`"id"`, `"title"`, `"categories"`} {
			if !bytes.Contains(first, []byte(k)) {
				return "", false
			}
		}
		return FormatArXiv, true
	}
	_, id := probe["id"]
	_, title := probe["title"]
	_, cats := probe["categories"]
	_, abs := probe["abstract"]
	if id && title && (cats || abs) {
		return FormatArXiv, true
	}
	return "", false
}

// maxJSONLine bounds one metadata line; arXiv's longest are a few KB.
const maxJSONLine = 8 << 20

// readArXiv streams arXiv metadata lines, one document each.
func readArXiv(name string, r io.Reader, fn func(graph.Document) error, bad func(error)) error {
	br := bufio.NewReaderSize(r, 1<<20)
	line := 0
	for {
		b, err := readLine(br, maxJSONLine)
		if len(b) == 0 && err == io.EOF {
			return nil
		}
		line++
		if errors.Is(err, errLineTooLong) {
			perr := fmt.Errorf("%s:%d: line longer than %d bytes; skipped", name, line, maxJSONLine)
			if bad == nil {
				return perr
			}
			bad(perr)
			continue
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if len(bytes.TrimSpace(b)) > 0 {
			doc, perr := parseArXivLine(name, line, b)
			if perr != nil {
				if bad == nil {
					return perr
				}
				bad(perr)
			} else if ferr := fn(doc); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

var errLineTooLong = errors.New("line too long")

// readLine reads one line without its newline; a line over max is consumed
// and reported as errLineTooLong, so one bad line never costs more memory
// than max.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var out []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(out)+len(chunk) > max {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			return nil, errLineTooLong
		}
		out = append(out, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(out, "\r\n"), err
	}
}

func parseArXivLine(name string, line int, b []byte) (graph.Document, error) {
	var rec arxivRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return graph.Document{}, fmt.Errorf("%s:%d: malformed JSON: %v", name, line, err)
	}
	id := rawString(rec.ID)
	if strings.TrimSpace(rec.Title) == "" {
		return graph.Document{}, fmt.Errorf("%s:%d: record %q has no title", name, line, id)
	}
	r := graph.Record{
		Title:    unwrap(rec.Title),
		Abstract: unwrap(rec.Abstract),
		Subjects: strings.Fields(rec.Categories),
		Line:     line,
		ArXivID:  id,
		DOI:      deref(rec.DOI),
		Venue:    deref(rec.JournalRef),
		Authors:  arxivAuthors(rec),
		Year:     arxivYear(rec, id),
		Date:     arxivDate(rec),
	}
	if len(r.Authors) == 0 {
		return graph.Document{}, fmt.Errorf("%s:%d: record %q has no authors", name, line, id)
	}
	return graph.Document{Source: name, Format: string(FormatArXiv), Records: []graph.Record{r}}, nil
}

// rawString reads an id given as a JSON string or number.
func rawString(m json.RawMessage) string {
	var s string
	if json.Unmarshal(m, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(m))
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return strings.TrimSpace(*s)
}

// unwrap joins the hard line breaks of OAI text.
func unwrap(s string) string { return strings.Join(strings.Fields(s), " ") }

// arxivAuthors reads authors_parsed ([last, first, suffix]) when present,
// else splits the authors string on commas and "and".
func arxivAuthors(rec arxivRecord) []string {
	var out []string
	if len(rec.AuthorsParsed) > 0 {
		for _, p := range rec.AuthorsParsed {
			var parts []string
			if len(p) > 1 && strings.TrimSpace(p[1]) != "" {
				parts = append(parts, strings.TrimSpace(p[1]))
			}
			if len(p) > 0 && strings.TrimSpace(p[0]) != "" {
				parts = append(parts, strings.TrimSpace(p[0]))
			}
			if len(p) > 2 && strings.TrimSpace(p[2]) != "" {
				parts = append(parts, strings.TrimSpace(p[2]))
			}
			if n := strings.Join(parts, " "); n != "" {
				out = append(out, n)
			}
		}
		return out
	}
	s := strings.ReplaceAll(unwrap(rec.Authors), " and ", ", ")
	for _, a := range strings.Split(s, ",") {
		if a = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(a), "and ")); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// arxivDate is the first version's day ("" when the record lists no
// versions: ingest then takes the month of the id).
func arxivDate(rec arxivRecord) string {
	if t, ok := firstVersion(rec); ok {
		return graph.DateOfTime(t).String()
	}
	return ""
}

// firstVersion is the time of the first version: "Mon, 2 Apr 2007
// 19:18:42 GMT" (the day not always of two digits, as RFC 1123 has it).
func firstVersion(rec arxivRecord) (time.Time, bool) {
	if len(rec.Versions) == 0 {
		return time.Time{}, false
	}
	s := strings.TrimSpace(rec.Versions[0].Created)
	for _, layout := range []string{"Mon, 2 Jan 2006 15:04:05 MST", time.RFC1123, time.RFC1123Z} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// arxivYear: the first version's date, else the id's YYMM, else
// update_date (the day the record was listed, for ids without a date).
func arxivYear(rec arxivRecord, id string) int {
	if t, ok := firstVersion(rec); ok {
		return t.UTC().Year()
	}
	key := ident.ArXivKey(id)
	if yymm, _, ok := strings.Cut(key, "."); ok && len(yymm) == 4 {
		if yy, err := strconv.Atoi(yymm[:2]); err == nil {
			return 2000 + yy
		}
	}
	if _, num, ok := strings.Cut(key, "/"); ok && len(num) == 7 {
		if yy, err := strconv.Atoi(num[:2]); err == nil {
			if yy >= 91 {
				return 1900 + yy
			}
			return 2000 + yy
		}
	}
	if len(rec.UpdateDate) >= 4 {
		if y, err := strconv.Atoi(rec.UpdateDate[:4]); err == nil {
			return y
		}
	}
	return 0
}
