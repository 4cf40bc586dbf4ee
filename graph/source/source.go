package source

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/researchkg/kg/graph"
)

// Format names a detected input format.
type Format string

// The formats this package reads.
const (
	FormatProfile  Format = "profile"  // author page: name, "Publications", title/abstract lines
	FormatSubjects Format = "subjects" // arXiv-subjects listing: arXivYYYY, title, abstract, code↗
	FormatArXiv    Format = "arxiv"    // arXiv metadata JSON lines (Kaggle snapshot layout), one paper a line
	FormatAtom     Format = "atom"     // arXiv API Atom feed, one paper an entry
	FormatBibTeX   Format = "bibtex"   // BibTeX, one paper an entry
)

// MaxLine is the longest line a reader accepts.
const MaxLine = 4 << 20

// sniffSize is how much of a file Detect looks at.
const sniffSize = 64 << 10

// ErrUnknownFormat is returned when no reader recognises the content.
var ErrUnknownFormat = errors.New("unknown format")

// Detect names the format of content from its first bytes.
func Detect(head []byte) (Format, error) {
	if bytes.IndexByte(head, 0) >= 0 {
		return "", fmt.Errorf("%w: content is binary", ErrUnknownFormat)
	}
	if f, ok := detectJSONLines(head); ok {
		return f, nil
	}
	if detectAtom(head) {
		return FormatAtom, nil
	}
	if detectBibTeX(head) {
		return FormatBibTeX, nil
	}
	var lines []string
	for _, l := range strings.Split(string(head), "\n") {
		l = clean(l)
		if l != "" {
			lines = append(lines, l)
		}
		if len(lines) == 2 {
			break
		}
	}
	switch {
	case len(lines) >= 1 && strings.EqualFold(lines[0], "arXiv subjects"):
		return FormatSubjects, nil
	case len(lines) == 2 && strings.EqualFold(lines[1], "Publications"):
		return FormatProfile, nil
	}
	return "", fmt.Errorf("%w: not a profile page (name, \"Publications\", ...), an arXiv-subjects listing, arXiv metadata JSON lines, an arXiv Atom feed or BibTeX", ErrUnknownFormat)
}

// Read detects the format of r (gzip is undone first) and calls fn for each
// document in it, streaming: a page is one document, a JSON line is one.
// name is used in errors and as the documents' source. A document that
// fails to parse is passed to bad, named by file and line, and reading goes
// on; with bad nil it ends the read. An error from fn ends the read.
func Read(name string, r io.Reader, fn func(graph.Document) error, bad func(error)) error {
	br := bufio.NewReaderSize(r, sniffSize)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return fmt.Errorf("%s: gzip: %w", name, err)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, sniffSize)
	}
	head, err := br.Peek(sniffSize)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return fmt.Errorf("%s: %w", name, err)
	}
	format, err := Detect(head)
	if err != nil {
		return fmt.Errorf("%s:1: %w", name, err)
	}
	switch format {
	case FormatArXiv:
		return readArXiv(name, br, fn, bad)
	case FormatAtom:
		return readAtom(name, br, fn, bad)
	case FormatBibTeX:
		return readBibTeX(name, br, fn, bad)
	}
	lines, err := readLines(name, br)
	if err != nil {
		return err
	}
	var doc graph.Document
	switch format {
	case FormatProfile:
		doc, err = parseProfile(name, lines)
	case FormatSubjects:
		doc, err = parseSubjects(name, lines)
	}
	if err != nil {
		if bad != nil {
			bad(err)
			return nil
		}
		return err
	}
	return fn(doc)
}

// line is a non-blank, cleaned line with its 1-based number.
type line struct {
	n    int
	text string
}

// readLines reads all non-blank lines, cleaned: CR, BOM and surrounding
// space removed. Invalid UTF-8 is an error naming the line.
func readLines(name string, r io.Reader) ([]line, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	var out []line
	n := 0
	for sc.Scan() {
		n++
		raw := sc.Bytes()
		if !utf8.Valid(raw) {
			return nil, fmt.Errorf("%s:%d: invalid UTF-8", name, n)
		}
		if t := clean(string(raw)); t != "" {
			out = append(out, line{n, t})
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes", name, n+1, MaxLine)
		}
		return nil, fmt.Errorf("%s:%d: %w", name, n+1, err)
	}
	return out, nil
}

func clean(s string) string {
	s = strings.TrimPrefix(s, "\uFEFF")
	return strings.TrimSpace(strings.TrimSuffix(s, "\r"))
}
