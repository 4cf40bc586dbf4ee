package export

import (
	"encoding/csv"
	"strconv"
	"strings"

	"github.com/researchkg/kg/graph"
)

// csvFile writes the node file or the relationship file of
// neo4j-admin database import: typed headers (id:ID, :LABEL, year:int,
// aliases:string[] with ";" between items; :START_ID, :END_ID, :TYPE,
// weight:double), one label a node (its kind), one type a relationship.
// Pairs are written once, from the lower id.
type csvFile struct {
	*out
	nodes   bool
	w       *csv.Writer
	started bool
}

func newCSV(o *out, nodes bool) *csvFile {
	return &csvFile{out: o, nodes: nodes, w: csv.NewWriter(o.w)}
}

var (
	csvNodeHeader = []string{"id:ID", ":LABEL", "name", "year:int", "date", "arxivId", "doi", "venue", "subject", "papers:int", "aliases:string[]"}
	csvEdgeHeader = []string{":START_ID", ":END_ID", ":TYPE", "weight:double"}
)

func (c *csvFile) row(rec []string) {
	if c.err != nil {
		return
	}
	if !c.started {
		c.started = true
		h := csvEdgeHeader
		if c.nodes {
			h = csvNodeHeader
		}
		c.err = c.w.Write(h)
	}
	if rec != nil && c.err == nil {
		c.err = c.w.Write(rec)
	}
}

func (c *csvFile) Node(n graph.ExportNode) error {
	if !c.nodes {
		return c.err
	}
	year, papers := "", ""
	if n.Year > 0 {
		year = strconv.Itoa(n.Year)
	}
	if n.Kind() != graph.KindPaper {
		papers = strconv.Itoa(n.Papers)
	}
	aliases := sortedAliases(n)
	for i, a := range aliases {
		aliases[i] = strings.ReplaceAll(a, ";", ",")
	}
	c.row([]string{n.ID.String(), kindLabel(n.Kind()), clean(n.Shown()), year, n.Date, n.ArXivID, n.DOI, clean(n.Venue), n.Subject, papers, strings.Join(aliases, ";")})
	return c.err
}

func (c *csvFile) Edge(e graph.Edge) error {
	if c.nodes {
		return c.err
	}
	w := ""
	if e.HasWeight {
		w = strconv.FormatFloat(e.Weight, 'g', -1, 64)
	}
	c.row([]string{e.Source.String(), e.Target.String(), e.Type.String(), w})
	return c.err
}

func (c *csvFile) Close() error {
	c.row(nil)
	if c.err == nil {
		c.w.Flush()
		c.err = c.w.Error()
	}
	return c.flush()
}
