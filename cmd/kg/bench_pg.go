package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/researchkg/kg/graph"
)

// pgData is the corpus as kg holds it, with its people as kg told them
// apart, in rows for PostgreSQL's tables.
type pgData struct {
	papers, people, authorship, subjects, paperSubjects, concepts, mentions, labels [][]any
}

// export reads the store whole into rows.
func (f *floor) export() (*pgData, error) {
	r, err := f.db.Read(f.ctx)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	d := &pgData{}
	label := func(kind string, n graph.Node) {
		d.labels = append(d.labels, []any{kind + ":" + strconv.FormatUint(n.ID.Seq(), 10), n.Label})
	}
	if err := r.KindNodes(graph.KindPaper, func(n graph.Node) bool {
		var month any
		if dt := graph.PaperDate(&n); dt.Month != 0 {
			month = dt.MonthString()
		}
		var year any
		if n.Year != 0 {
			year = int32(n.Year)
		}
		d.papers = append(d.papers, []any{int64(n.ID.Seq()), n.Label, year, month})
		label("paper", n)
		return true
	}); err != nil {
		return nil, err
	}
	if err := r.KindNodes(graph.KindAuthor, func(n graph.Node) bool {
		d.people = append(d.people, []any{int64(n.ID.Seq()), n.Label})
		label("author", n)
		return true
	}); err != nil {
		return nil, err
	}
	if err := r.KindNodes(graph.KindSubject, func(n graph.Node) bool {
		d.subjects = append(d.subjects, []any{int64(n.ID.Seq()), n.Label})
		label("subject", n)
		return true
	}); err != nil {
		return nil, err
	}
	df := map[uint64]int32{}
	if err := r.KindEdges(graph.KindPaper, graph.Mentions, func(p, c graph.NodeID, w float64) bool {
		d.mentions = append(d.mentions, []any{int64(p.Seq()), int64(c.Seq()), float32(w)})
		df[c.Seq()]++
		return true
	}); err != nil {
		return nil, err
	}
	n := float64(len(d.papers))
	if err := r.KindNodes(graph.KindConcept, func(c graph.Node) bool {
		papers := df[c.ID.Seq()]
		d.concepts = append(d.concepts, []any{int64(c.ID.Seq()), c.Label, papers, float32(math.Log(n / float64(max(papers, 1))))})
		label("concept", c)
		return true
	}); err != nil {
		return nil, err
	}
	if err := r.KindEdges(graph.KindAuthor, graph.Authored, func(a, p graph.NodeID, _ float64) bool {
		d.authorship = append(d.authorship, []any{int64(a.Seq()), int64(p.Seq())})
		return true
	}); err != nil {
		return nil, err
	}
	err = r.KindEdges(graph.KindPaper, graph.InSubject, func(p, s graph.NodeID, _ float64) bool {
		d.paperSubjects = append(d.paperSubjects, []any{int64(p.Seq()), int64(s.Seq())})
		return true
	})
	return d, err
}

// pgSchema is a plain relational schema with the indexes the questions
// need: each list question is an index range, each count a join over
// indexed keys. idf is kept per concept, as related work needs it.
const pgSchema = `
CREATE TABLE papers (id bigint PRIMARY KEY, title text NOT NULL, year int, month text);
CREATE TABLE people (id bigint PRIMARY KEY, name text NOT NULL);
CREATE TABLE authorship (person bigint NOT NULL, paper bigint NOT NULL, PRIMARY KEY (person, paper));
CREATE TABLE subjects (id bigint PRIMARY KEY, code text NOT NULL);
CREATE TABLE paper_subjects (paper bigint NOT NULL, subject bigint NOT NULL, PRIMARY KEY (paper, subject));
CREATE TABLE concepts (id bigint PRIMARY KEY, name text NOT NULL, papers int NOT NULL, idf real NOT NULL);
CREATE TABLE mentions (paper bigint NOT NULL, concept bigint NOT NULL, weight real NOT NULL, PRIMARY KEY (paper, concept));
CREATE TABLE labels (id text PRIMARY KEY, label text NOT NULL);
`

const pgIndexes = `
CREATE INDEX ON authorship (paper, person);
CREATE INDEX ON paper_subjects (subject, paper);
CREATE INDEX ON mentions (concept, weight DESC, paper);
CREATE INDEX ON papers (id) INCLUDE (month, title);
CREATE INDEX ON concepts (lower(name));
CREATE UNIQUE INDEX ON subjects (code);
ALTER TABLE labels ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', label)) STORED;
CREATE INDEX ON labels USING gin (tsv);
`

// pgSQL answers each question; $1 is the input's id (or text), $2 the
// second person of a path.
var pgSQL = map[string]string{
	"coauthors": `SELECT b.person, pe.name, count(*) AS weight
		FROM authorship a JOIN authorship b ON b.paper = a.paper AND b.person <> a.person JOIN people pe ON pe.id = b.person
		WHERE a.person = $1 GROUP BY b.person, pe.name ORDER BY weight DESC, pe.name LIMIT 20`,
	"person-papers": `SELECT p.id, p.title, p.year FROM authorship a JOIN papers p ON p.id = a.paper
		WHERE a.person = $1 ORDER BY p.month DESC NULLS LAST, p.year DESC NULLS LAST, p.title LIMIT 20`,
	// the papers sharing the most idf-weighted concepts with the paper
	"related": `SELECT r.paper, p.title, r.score FROM (
			SELECT m2.paper, sum(m1.weight * m2.weight * c.idf * c.idf) AS score
			FROM mentions m1 JOIN concepts c ON c.id = m1.concept
			JOIN mentions m2 ON m2.concept = m1.concept AND m2.paper <> m1.paper
			WHERE m1.paper = $1 GROUP BY m2.paper ORDER BY score DESC LIMIT 10) r
		JOIN papers p ON p.id = r.paper ORDER BY r.score DESC`,
	"concept-papers": `SELECT p.id, p.title FROM mentions m JOIN papers p ON p.id = m.paper
		WHERE m.concept = $1 ORDER BY m.weight DESC, p.month DESC NULLS LAST LIMIT 20`,
	// an author's papers, their people, subjects and concepts (50 nodes),
	// and the edges among them
	"neighborhood-2": `WITH
		p1 AS (SELECT paper AS id FROM authorship WHERE person = $1 ORDER BY paper LIMIT 49),
		a2 AS (SELECT DISTINCT a.person AS id FROM authorship a JOIN p1 ON a.paper = p1.id WHERE a.person <> $1),
		s2 AS (SELECT DISTINCT s.subject AS id FROM paper_subjects s JOIN p1 ON s.paper = p1.id),
		c2 AS (SELECT DISTINCT m.concept AS id FROM mentions m JOIN p1 ON m.paper = p1.id),
		nodes AS (SELECT * FROM (
			SELECT 'author' AS kind, $1::bigint AS id, 0 AS o UNION ALL
			SELECT 'paper', id, 1 FROM p1 UNION ALL SELECT 'author', id, 2 FROM a2 UNION ALL
			SELECT 'subject', id, 3 FROM s2 UNION ALL SELECT 'concept', id, 4 FROM c2) x ORDER BY o, id LIMIT 50),
		na AS (SELECT id FROM nodes WHERE kind = 'author'), np AS (SELECT id FROM nodes WHERE kind = 'paper'),
		ns AS (SELECT id FROM nodes WHERE kind = 'subject'), nc AS (SELECT id FROM nodes WHERE kind = 'concept')
		SELECT 'AUTHORED', a.person, a.paper, 0::real FROM authorship a WHERE a.person IN (SELECT id FROM na) AND a.paper IN (SELECT id FROM np)
		UNION ALL SELECT 'IN_SUBJECT', s.paper, s.subject, 0 FROM paper_subjects s WHERE s.paper IN (SELECT id FROM np) AND s.subject IN (SELECT id FROM ns)
		UNION ALL SELECT 'MENTIONS', m.paper, m.concept, m.weight FROM mentions m WHERE m.paper IN (SELECT id FROM np) AND m.concept IN (SELECT id FROM nc)
		UNION ALL SELECT 'CO_AUTHOR', a.person, b.person, count(*) FROM authorship a JOIN authorship b ON b.paper = a.paper AND a.person < b.person
			WHERE a.person IN (SELECT id FROM na) AND b.person IN (SELECT id FROM na) GROUP BY a.person, b.person`,
	"neighborhood-labels": `SELECT l.id, l.label FROM labels l WHERE l.id = ANY($1)`,
	"search": `SELECT id, label FROM labels WHERE tsv @@ to_tsquery('simple', $1)
		ORDER BY ts_rank(tsv, to_tsquery('simple', $1)) DESC, length(label), label LIMIT 10`,
	"facet": `SELECT p.month, count(*) FROM mentions m JOIN papers p ON p.id = m.paper
		WHERE m.concept = (SELECT id FROM concepts WHERE lower(name) = lower($1) ORDER BY papers DESC LIMIT 1) AND p.month IS NOT NULL
		GROUP BY p.month ORDER BY p.month`,
	"top": `SELECT a.person, pe.name, count(*) AS n FROM paper_subjects s JOIN authorship a ON a.paper = s.paper JOIN people pe ON pe.id = a.person
		WHERE s.subject = (SELECT id FROM subjects WHERE code = $1) GROUP BY a.person, pe.name ORDER BY n DESC, pe.name LIMIT 10`,
	// one breadth-first level of co-authorship: the people beside a frontier
	"path-level": `SELECT DISTINCT a.person, b.person FROM authorship a JOIN authorship b ON b.paper = a.paper AND b.person <> a.person
		WHERE a.person = ANY($1)`,
	"path-names": `SELECT id, name FROM people WHERE id = ANY($1)`,
	"noop":       `SELECT 1`,
}

type pgPeer struct {
	pool *pgxpool.Pool
	dir  string
	as   func(args ...string) *exec.Cmd
	bin  string
}

// pgBin finds PostgreSQL 15's server programs.
func pgBin() (string, error) {
	for _, d := range []string{"/usr/lib/postgresql/15/bin"} {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", fmt.Errorf("no PostgreSQL 15 (initdb) on this machine: apt-get install -y postgresql-15")
}

// startPostgres starts a private PostgreSQL on a Unix socket in a
// temporary folder (as the postgres user when run as root: it refuses
// root) and loads the corpus.
func startPostgres(ctx context.Context, d *pgData, std stdio) (*pgPeer, error) {
	bin, err := pgBin()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "kg-harness-pg-")
	if err != nil {
		return nil, err
	}
	p := &pgPeer{dir: dir, bin: bin, as: func(args ...string) *exec.Cmd { return exec.Command(args[0], args[1:]...) }}
	if u, _ := user.Current(); u != nil && u.Uid == "0" {
		if _, err := user.Lookup("postgres"); err != nil {
			if out, err := exec.Command("useradd", "-r", "postgres").CombinedOutput(); err != nil {
				return nil, fmt.Errorf("useradd postgres: %v: %s", err, out)
			}
		}
		if out, err := exec.Command("chown", "-R", "postgres", dir).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("chown: %v: %s", err, out)
		}
		os.Chmod(dir, 0o755)
		p.as = func(args ...string) *exec.Cmd {
			return exec.Command("su", "postgres", "-s", "/bin/sh", "-c", strings.Join(args, " "))
		}
	}
	if out, err := p.as(filepath.Join(bin, "initdb"), "-D", dir+"/pg", "-A", "trust", "-U", "kg").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	opts := fmt.Sprintf("'-k %s -c listen_addresses= -c shared_buffers=512MB -c max_connections=80 -c work_mem=16MB -c fsync=off -c synchronous_commit=off'", dir)
	if out, err := p.as(filepath.Join(bin, "pg_ctl"), "-D", dir+"/pg", "-o", opts, "-l", dir+"/pg.log", "-w", "start").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pg_ctl start: %v: %s", err, out)
	}
	cfg, err := pgxpool.ParseConfig(fmt.Sprintf("host=%s user=kg dbname=postgres", dir))
	if err != nil {
		p.stop()
		return nil, err
	}
	cfg.MaxConns = 64
	if p.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		p.stop()
		return nil, err
	}
	start := time.Now()
	if err := p.load(ctx, d); err != nil {
		p.stop()
		return nil, err
	}
	var version string
	p.pool.QueryRow(ctx, "SHOW server_version").Scan(&version)
	fmt.Fprintf(std.err, "postgres %s: loaded %d papers, %d people, %d authorships, %d mentions in %.1f s\n",
		version, len(d.papers), len(d.people), len(d.authorship), len(d.mentions), time.Since(start).Seconds())
	return p, nil
}

func (p *pgPeer) load(ctx context.Context, d *pgData) error {
	if _, err := p.pool.Exec(ctx, pgSchema); err != nil {
		return err
	}
	for _, t := range []struct {
		name string
		cols []string
		rows [][]any
	}{
		{"papers", []string{"id", "title", "year", "month"}, d.papers},
		{"people", []string{"id", "name"}, d.people},
		{"authorship", []string{"person", "paper"}, d.authorship},
		{"subjects", []string{"id", "code"}, d.subjects},
		{"paper_subjects", []string{"paper", "subject"}, d.paperSubjects},
		{"concepts", []string{"id", "name", "papers", "idf"}, d.concepts},
		{"mentions", []string{"paper", "concept", "weight"}, d.mentions},
		{"labels", []string{"id", "label"}, d.labels},
	} {
		if _, err := p.pool.CopyFrom(ctx, pgx.Identifier{t.name}, t.cols, pgx.CopyFromRows(t.rows)); err != nil {
			return fmt.Errorf("load %s: %w", t.name, err)
		}
	}
	if _, err := p.pool.Exec(ctx, pgIndexes); err != nil {
		return err
	}
	_, err := p.pool.Exec(ctx, "VACUUM ANALYZE")
	return err
}

func (p *pgPeer) stop() {
	if p.pool != nil {
		p.pool.Close()
	}
	p.as(filepath.Join(p.bin, "pg_ctl"), "-D", p.dir+"/pg", "-m", "immediate", "stop").Run()
	os.RemoveAll(p.dir)
}

// rows runs a query and reads every row, as a client would.
func (p *pgPeer) rows(ctx context.Context, sql string, args ...any) ([][]any, error) {
	rs, err := p.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var out [][]any
	for rs.Next() {
		v, err := rs.Values()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rs.Err()
}

func (p *pgPeer) ask(q *question, in input) error {
	ctx := context.Background()
	switch q.Name {
	case "search":
		var terms []string
		for _, w := range strings.FieldsFunc(strings.ToLower(in.text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			terms = append(terms, w+":*")
		}
		if len(terms) == 0 {
			return nil
		}
		_, err := p.rows(ctx, pgSQL["search"], strings.Join(terms, " | "))
		return err
	case "facet", "top":
		_, err := p.rows(ctx, pgSQL[q.Name], in.text)
		return err
	case "neighborhood-2":
		edges, err := p.rows(ctx, pgSQL[q.Name], in.a)
		if err != nil {
			return err
		}
		ids := map[string]bool{"author:" + strconv.FormatInt(in.a, 10): true}
		kinds := map[string][2]string{"AUTHORED": {"author", "paper"}, "IN_SUBJECT": {"paper", "subject"}, "MENTIONS": {"paper", "concept"}, "CO_AUTHOR": {"author", "author"}}
		for _, e := range edges {
			k := kinds[e[0].(string)]
			ids[k[0]+":"+strconv.FormatInt(e[1].(int64), 10)] = true
			ids[k[1]+":"+strconv.FormatInt(e[2].(int64), 10)] = true
		}
		var list []string
		for id := range ids {
			list = append(list, id)
		}
		_, err = p.rows(ctx, pgSQL["neighborhood-labels"], list)
		return err
	case "path":
		_, err := p.path(ctx, in.a, in.b, 6)
		return err
	case "noop":
		_, err := p.rows(ctx, pgSQL[q.Name])
		return err
	}
	_, err := p.rows(ctx, pgSQL[q.Name], in.a)
	return err
}

// path is a bidirectional breadth-first search over co-authorship, one
// query per level from the smaller frontier, then the names on the path.
func (p *pgPeer) path(ctx context.Context, from, to int64, maxLen int) ([]int64, error) {
	if from == to {
		return []int64{from}, nil
	}
	parent := [2]map[int64]int64{{from: from}, {to: to}}
	frontier := [2][]int64{{from}, {to}}
	for hops := 0; hops < maxLen && len(frontier[0]) > 0 && len(frontier[1]) > 0; hops++ {
		side := 0
		if len(frontier[1]) < len(frontier[0]) {
			side = 1
		}
		rows, err := p.rows(ctx, pgSQL["path-level"], frontier[side])
		if err != nil {
			return nil, err
		}
		var next []int64
		meet := int64(-1)
		for _, r := range rows {
			a, b := r[0].(int64), r[1].(int64)
			if _, seen := parent[side][b]; seen {
				continue
			}
			parent[side][b] = a
			next = append(next, b)
			if _, ok := parent[1-side][b]; ok && meet < 0 {
				meet = b
			}
		}
		if meet >= 0 {
			var path []int64
			for x := meet; ; x = parent[0][x] {
				path = append([]int64{x}, path...)
				if x == from {
					break
				}
			}
			for x := meet; x != to; {
				x = parent[1][x]
				path = append(path, x)
			}
			_, err := p.rows(ctx, pgSQL["path-names"], path)
			return path, err
		}
		frontier[side] = next
	}
	return nil, nil
}
