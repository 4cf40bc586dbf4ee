package source

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode"

	"github.com/researchkg/kg/graph"
)

// detectBibTeX: the first line that is not blank or a % comment starts with
// "@type{" or "@type(".
func detectBibTeX(head []byte) bool {
	for _, l := range strings.Split(string(head), "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(l, "\uFEFF"))
		if l == "" || strings.HasPrefix(l, "%") {
			continue
		}
		return bibEntryStart.MatchString(l)
	}
	return false
}

var bibEntryStart = regexp.MustCompile(`^@\s*[A-Za-z]+\s*[{(]`)

// maxBibEntry bounds one entry; real ones are a few KB.
const maxBibEntry = 1 << 20

// bibLexer reads BibTeX runes with line numbers.
type bibLexer struct {
	r       *bufio.Reader
	line    int
	peek    rune
	has     bool
	n       int  // runes read in the current entry
	inEntry bool // the size limit applies inside entries only
}

var errBibEOF = errors.New("unexpected end of file")

func (l *bibLexer) next() (rune, error) {
	if l.has {
		l.has = false
		return l.peek, nil
	}
	r, _, err := l.r.ReadRune()
	if err != nil {
		return 0, err
	}
	if r == '\n' {
		l.line++
	}
	l.n++
	if l.inEntry && l.n > maxBibEntry {
		return 0, fmt.Errorf("entry longer than %d bytes", maxBibEntry)
	}
	return r, nil
}

func (l *bibLexer) back(r rune) { l.peek, l.has = r, true }

func (l *bibLexer) skipSpace() (rune, error) {
	for {
		r, err := l.next()
		if err != nil {
			return 0, err
		}
		if !unicode.IsSpace(r) {
			return r, nil
		}
	}
}

func (l *bibLexer) ident() (string, error) {
	var b strings.Builder
	for {
		r, err := l.next()
		if err != nil {
			return b.String(), err
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_-:./+'", r) {
			b.WriteRune(r)
			continue
		}
		l.back(r)
		return b.String(), nil
	}
}

// braced reads up to the brace closing an already-read '{', nested braces
// kept in the text.
func (l *bibLexer) braced() (string, error) {
	var b strings.Builder
	depth := 1
	for {
		r, err := l.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return "", fmt.Errorf("unbalanced braces: %w", errBibEOF)
			}
			return "", err
		}
		switch r {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return b.String(), nil
			}
		case '@':
			// a line starting with "@type{" inside a value: the entry lost
			// a closing brace
			if l.atLineStart(&b) {
				l.back(r) // resync starts the next entry here
				return "", fmt.Errorf("unbalanced braces: a new entry starts before this one closed")
			}
		}
		b.WriteRune(r)
	}
}

func (l *bibLexer) atLineStart(b *strings.Builder) bool {
	s := b.String()
	i := strings.LastIndexByte(s, '\n')
	return i >= 0 && strings.TrimSpace(s[i+1:]) == ""
}

// quoted reads up to the '"' closing an already-read one, at brace depth 0.
func (l *bibLexer) quoted() (string, error) {
	var b strings.Builder
	depth := 0
	for {
		r, err := l.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return "", fmt.Errorf("unterminated quoted value: %w", errBibEOF)
			}
			return "", err
		}
		switch {
		case r == '{':
			depth++
		case r == '}':
			depth--
		case r == '"' && depth == 0:
			return b.String(), nil
		}
		b.WriteRune(r)
	}
}

// bibMonths are BibTeX's predefined macros.
var bibMonths = map[string]string{
	"jan": "January", "feb": "February", "mar": "March", "apr": "April", "may": "May", "jun": "June",
	"jul": "July", "aug": "August", "sep": "September", "oct": "October", "nov": "November", "dec": "December",
}

// value reads a field value: pieces joined with '#', each {...}, "...", a
// number or a macro name.
func (l *bibLexer) value(macros map[string]string) (string, error) {
	var b strings.Builder
	for {
		r, err := l.skipSpace()
		if err != nil {
			return "", fmt.Errorf("value expected: %w", errBibEOF)
		}
		switch {
		case r == '{':
			s, err := l.braced()
			if err != nil {
				return "", err
			}
			b.WriteString(s)
		case r == '"':
			s, err := l.quoted()
			if err != nil {
				return "", err
			}
			b.WriteString(s)
		case unicode.IsDigit(r) || unicode.IsLetter(r):
			l.back(r)
			word, err := l.ident()
			if err != nil && !errors.Is(err, io.EOF) {
				return "", err
			}
			if v, ok := macros[strings.ToLower(word)]; ok {
				b.WriteString(v)
			} else if allDigitsStr(word) {
				b.WriteString(word)
			} else if m, ok := bibMonths[strings.ToLower(word)]; ok {
				b.WriteString(m)
			} else {
				return "", fmt.Errorf("undefined macro %q", word)
			}
		default:
			return "", fmt.Errorf("value expected, found %q", r)
		}
		r, err = l.skipSpace()
		if err != nil {
			return b.String(), nil
		}
		if r != '#' {
			l.back(r)
			return b.String(), nil
		}
	}
}

func allDigitsStr(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

type bibEntry struct {
	typ, key string
	fields   map[string]string
	line     int
}

// readBibTeX streams the entries of a BibTeX file, one document each.
// @string macros are collected (case-insensitive) and expanded, '#'
// concatenates, @comment and @preamble are skipped. An entry that cannot be
// parsed or used is reported to bad with its line and key, and reading
// resumes at the next line that starts an entry.
func readBibTeX(name string, r io.Reader, fn func(graph.Document) error, bad func(error)) error {
	l := &bibLexer{r: bufio.NewReaderSize(r, 1<<16), line: 1}
	macros := map[string]string{}
	report := func(err error) error {
		if bad == nil {
			return err
		}
		bad(err)
		return nil
	}
	for {
		// outside entries everything but '@' is comment
		c, err := l.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, l.line, err)
		}
		if c != '@' {
			continue
		}
		l.n, l.inEntry = 0, true
		start := l.line
		e, err := l.entry(macros)
		l.inEntry = false
		if err != nil {
			perr := fmt.Errorf("%s:%d: entry %s: %v; skipped", name, start, e.describe(), err)
			if rerr := report(perr); rerr != nil {
				return rerr
			}
			if err := l.resync(); err != nil {
				return nil
			}
			continue
		}
		if e == nil {
			continue // @string, @comment, @preamble
		}
		e.line = start
		doc, err := bibDocument(name, e)
		if err != nil {
			if rerr := report(err); rerr != nil {
				return rerr
			}
			continue
		}
		if err := fn(doc); err != nil {
			return err
		}
	}
}

func (e *bibEntry) describe() string {
	if e == nil || e.key == "" {
		return "?"
	}
	return fmt.Sprintf("%q", e.key)
}

// resync skips to the next line that starts with '@'.
func (l *bibLexer) resync() error {
	if l.has && l.peek == '@' {
		return nil // the failed entry ended where the next one starts
	}
	l.has = false
	atStart := false
	for {
		r, _, err := l.r.ReadRune()
		if err != nil {
			return err
		}
		if r == '\n' {
			l.line++
			atStart = true
			continue
		}
		if atStart && r == '@' {
			l.back('@')
			return nil
		}
		if !unicode.IsSpace(r) {
			atStart = false
		}
	}
}

// entry parses one entry after its '@'. It returns nil, nil for @string,
// @comment and @preamble.
func (l *bibLexer) entry(macros map[string]string) (*bibEntry, error) {
	typ, err := l.ident()
	if err != nil {
		return nil, err
	}
	typ = strings.ToLower(typ)
	open, err := l.skipSpace()
	if err != nil || (open != '{' && open != '(') {
		return nil, fmt.Errorf("expected { or ( after @%s", typ)
	}
	closer := '}'
	if open == '(' {
		closer = ')'
	}
	switch typ {
	case "comment", "preamble":
		if open == '{' {
			_, err := l.braced()
			return nil, err
		}
		for {
			r, err := l.next()
			if err != nil || r == ')' {
				return nil, err
			}
		}
	case "string":
		r, err := l.skipSpace()
		if err != nil {
			return nil, err
		}
		l.back(r)
		name, err := l.ident()
		if err != nil || name == "" {
			return nil, fmt.Errorf("@string without a name")
		}
		if r, err := l.skipSpace(); err != nil || r != '=' {
			return nil, fmt.Errorf("@string %s: expected =", name)
		}
		v, err := l.value(macros)
		if err != nil {
			return nil, fmt.Errorf("@string %s: %w", name, err)
		}
		macros[strings.ToLower(name)] = v
		if r, err := l.skipSpace(); err != nil || r != closer {
			return nil, fmt.Errorf("@string %s: expected %c", name, closer)
		}
		return nil, nil
	}
	e := &bibEntry{typ: typ, fields: map[string]string{}}
	r, err := l.skipSpace()
	if err != nil {
		return e, err
	}
	l.back(r)
	key, err := l.ident()
	if err != nil {
		return e, err
	}
	e.key = key
	for {
		r, err := l.skipSpace()
		if err != nil {
			return e, fmt.Errorf("unbalanced braces: %w", errBibEOF)
		}
		switch {
		case r == closer:
			return e, nil
		case r == ',':
			continue
		case unicode.IsLetter(r):
			l.back(r)
			field, err := l.ident()
			if err != nil {
				return e, err
			}
			if r, err := l.skipSpace(); err != nil || r != '=' {
				return e, fmt.Errorf("field %s: expected =", field)
			}
			v, err := l.value(macros)
			if err != nil {
				return e, fmt.Errorf("field %s: %w", field, err)
			}
			e.fields[strings.ToLower(field)] = v
		default:
			return e, fmt.Errorf("unexpected %q", r)
		}
	}
}
