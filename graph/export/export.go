package export

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/researchkg/kg/graph"
)

// Writer writes one format. Node gets every node, then Edge every edge
// between two of them; Close ends the document and flushes it. The first
// error of the underlying writer is kept and returned by every later call.
type Writer interface {
	graph.ExportSink
	Close() error
}

// Formats are the formats New knows, in the order --help lists them.
var Formats = []string{"graphml", "gexf", "vosviewer-authors", "vosviewer-concepts", "nquads", "csv-nodes", "csv-edges"}

// New returns a writer of format to w.
func New(format string, w io.Writer) (Writer, error) {
	out := &out{w: bufio.NewWriterSize(w, 64<<10)}
	switch format {
	case "graphml":
		return &graphML{out: out}, nil
	case "gexf":
		return &gexf{out: out}, nil
	case "vosviewer-authors":
		return newVOSviewer(out, graph.KindAuthor, graph.CoAuthor), nil
	case "vosviewer-concepts":
		return newVOSviewer(out, graph.KindConcept, graph.CoOccurs), nil
	case "nquads":
		return &nquads{out: out, labels: map[graph.NodeID]string{}, iris: map[graph.NodeID]string{}}, nil
	case "csv-nodes":
		return newCSV(out, true), nil
	case "csv-edges":
		return newCSV(out, false), nil
	}
	return nil, fmt.Errorf("unknown export format %q: one of %s", format, strings.Join(Formats, ", "))
}

// Tee is a sink that passes everything to each of ws; Close closes each.
func Tee(ws ...Writer) Writer { return tee(ws) }

type tee []Writer

func (t tee) Node(n graph.ExportNode) error {
	for _, w := range t {
		if err := w.Node(n); err != nil {
			return err
		}
	}
	return nil
}

func (t tee) Edge(e graph.Edge) error {
	for _, w := range t {
		if err := w.Edge(e); err != nil {
			return err
		}
	}
	return nil
}

func (t tee) Close() error {
	var first error
	for _, w := range t {
		if err := w.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// out is a buffered writer that keeps its first error.
type out struct {
	w   *bufio.Writer
	err error
}

func (o *out) str(s string) {
	if o.err == nil {
		_, o.err = o.w.WriteString(s)
	}
}

func (o *out) flush() error {
	if o.err == nil {
		o.err = o.w.Flush()
	}
	return o.err
}

// kindLabel is a kind's name as a label or class: "Paper", "Author".
func kindLabel(k graph.Kind) string {
	s := k.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

// clean makes text one line of valid UTF-8 without control characters.
func clean(s string) string {
	if !strings.ContainsFunc(s, bad) && utf8.ValidString(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if bad(r) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

func bad(r rune) bool { return r < 0x20 || r == 0x7f || r == 0xFFFE || r == 0xFFFF }

// sortedAliases are a node's other names, without its label, sorted.
func sortedAliases(n graph.ExportNode) []string {
	var out []string
	for _, a := range n.Aliases {
		if a = clean(a); a != "" && a != n.Label {
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
