package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/export"
)

const exportSynopsis = `kg export [--data DIR] --format FORMAT [--map authors|concepts]
          (--root ID [--depth 1] [--first 200] | --filter JSON | --all) [--out FILE]

Writes a part of the graph for other tools:
  graphml    GraphML (Gephi, networkx, Cytoscape): typed node and edge attributes
  gexf       GEXF 1.3 (Gephi): the same, nodes coloured by kind
  vosviewer  VOSviewer JSON: a co-authorship map (--map authors, the default) or
             a term co-occurrence map (--map concepts), clustered by subject
  nquads     RDF N-Quads (schema.org, DC terms, FOAF, SKOS) for Dgraph or any RDF store
  csv        nodes.csv and edges.csv for neo4j-admin database import (--out names a folder)

Which part:
  --root ID      a node's neighbourhood ("author:12", from the GraphQL API), --depth
                 1 to 3, the first --first nodes (at most 500), as neighborhood gives it
  --filter JSON  the papers a PaperFilter selects, as in GraphQL, with their people,
                 subjects and concepts: '{"subjects":["cs.CL"],"yearFrom":2025,
                 "concepts":["reward model"],"authors":["author:12"]}'
  --all          the whole graph, streamed (memory holds a few numbers a node)

Co-authorship and co-occurrence weights count shared papers (in a filtered
export, the selected papers). The file is written beside --out and renamed
when complete: never half-written. Without --out the export goes to standard
output. The formats and the RDF vocabulary: graph/export/doc.go.`

func cmdExport(ctx context.Context, args []string, std stdio) (err error) {
	var c commonFlags
	fs := newFlagSet("export", exportSynopsis, std.err, &c)
	format := fs.String("format", "", "graphml, gexf, vosviewer, nquads or csv")
	mapKind := fs.String("map", "authors", "vosviewer: authors (co-authorship) or concepts (term co-occurrence)")
	root := fs.String("root", "", "export this node's neighbourhood (an id such as author:12)")
	depth := fs.Int("depth", 1, "with --root: hops from the node, 1 to 3")
	first := fs.Int("first", 200, "with --root: at most this many nodes, 1 to 500")
	filter := fs.String("filter", "", "export the papers this PaperFilter (JSON) selects, with their people, subjects and concepts")
	all := fs.Bool("all", false, "export the whole graph")
	outPath := fs.String("out", "", `write here ("" or "-": standard output; csv: a folder)`)
	log, err := parseFlags(fs, args, &c, std.err)
	if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageExit(fs)
	}
	scopes := 0
	for _, set := range []bool{*root != "", *filter != "", *all} {
		if set {
			scopes++
		}
	}
	if scopes != 1 {
		return fmt.Errorf("give one of --root ID, --filter JSON and --all")
	}
	var formats []string
	switch *format {
	case "graphml", "gexf", "nquads":
		formats = []string{*format}
	case "vosviewer":
		if *mapKind != "authors" && *mapKind != "concepts" {
			return fmt.Errorf("--map %q: authors or concepts", *mapKind)
		}
		formats = []string{"vosviewer-" + *mapKind}
	case "csv":
		if *outPath == "" || *outPath == "-" {
			return fmt.Errorf("--format csv writes two files: give --out FOLDER")
		}
		formats = []string{"csv-nodes", "csv-edges"}
	default:
		return fmt.Errorf("--format %q: graphml, gexf, vosviewer, nquads or csv", *format)
	}
	sc := graph.ExportScope{All: *all, Depth: *depth, First: *first}
	if *root != "" {
		if sc.Root, err = graph.ParseID(*root); err != nil {
			return fmt.Errorf("--root: %w", err)
		}
	}
	if *filter != "" {
		if sc.Filter, err = parseFilterJSON(*filter); err != nil {
			return fmt.Errorf("--filter: %w", err)
		}
	}

	db, err := openStore(c.data, true, false, log)
	if err != nil {
		return err
	}
	defer closeStore(db, &err)
	svc := graph.NewService(db, nil)
	v, err := svc.View(ctx)
	if err != nil {
		return err
	}
	defer v.Close()

	files, err := newOutputs(*outPath, *format, std.out)
	if err != nil {
		return err
	}
	defer files.discard()
	var ws []export.Writer
	for i, f := range formats {
		w, err := export.New(f, files.w[i])
		if err != nil {
			return err
		}
		ws = append(ws, w)
	}
	w := export.Tee(ws...)
	start := time.Now()
	n, err := v.Export(ctx, sc, w)
	if err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("write %s: %w", files.name, err)
	}
	if err := files.commit(); err != nil {
		return err
	}
	log.Info().Str("format", *format).Str("out", files.name).Int("nodes", n.Nodes).Int("edges", n.Edges).
		Dur("took", time.Since(start)).Msg("export written")
	return nil
}

// parseFilterJSON reads a PaperFilter as GraphQL spells it, refusing
// unknown fields.
func parseFilterJSON(s string) (*graph.PaperFilter, error) {
	var in struct {
		Subjects  []string `json:"subjects"`
		Concepts  []string `json:"concepts"`
		Authors   []string `json:"authors"`
		YearFrom  int      `json:"yearFrom"`
		YearTo    int      `json:"yearTo"`
		MonthFrom string   `json:"monthFrom"`
		MonthTo   string   `json:"monthTo"`
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("%w (fields: subjects, concepts, authors, yearFrom, yearTo, monthFrom, monthTo)", err)
	}
	f := &graph.PaperFilter{Subjects: in.Subjects, Concepts: in.Concepts, YearFrom: in.YearFrom, YearTo: in.YearTo, MonthFrom: in.MonthFrom, MonthTo: in.MonthTo}
	for _, a := range in.Authors {
		id, err := graph.ParseID(a)
		if err != nil || id.Kind() != graph.KindAuthor {
			return nil, fmt.Errorf("authors: %q is not a person's id (author:N)", a)
		}
		f.Authors = append(f.Authors, id)
	}
	return f, nil
}

// outputs are where an export goes: standard output, or files written
// beside the targets and renamed over them by commit.
type outputs struct {
	name  string
	w     []io.Writer
	files []*atomicFile
}

func newOutputs(path, format string, stdout io.Writer) (*outputs, error) {
	o := &outputs{name: path}
	if path == "" || path == "-" {
		o.name = "standard output"
		o.w = []io.Writer{stdout}
		return o, nil
	}
	targets := []string{path}
	if format == "csv" {
		if err := os.MkdirAll(path, 0o755); err != nil {
			return nil, fmt.Errorf("--out: %w", err)
		}
		targets = []string{filepath.Join(path, "nodes.csv"), filepath.Join(path, "edges.csv")}
	}
	for _, t := range targets {
		f, err := createAtomic(t)
		if err != nil {
			o.discard()
			return nil, fmt.Errorf("--out: %w", err)
		}
		o.files = append(o.files, f)
		o.w = append(o.w, f)
	}
	return o, nil
}

// commit makes every file durable, then renames them (csv: both or none
// renamed while a sync can still fail).
func (o *outputs) commit() error {
	for _, f := range o.files {
		if err := f.sync(0o644); err != nil {
			return err
		}
	}
	for _, f := range o.files {
		if err := f.rename(); err != nil {
			return err
		}
	}
	o.files = nil
	return nil
}

// discard removes what commit did not rename.
func (o *outputs) discard() {
	for _, f := range o.files {
		f.discard()
	}
}
