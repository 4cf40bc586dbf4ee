package graph_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/source"
)

// storeFacts describes every stored paper as the facet index should hold
// it, read paper by paper from a snapshot (not through the index's own
// bulk loader).
func storeFacts(t *testing.T, svc *graph.Service) map[graph.NodeID]string {
	t.Helper()
	r, err := svc.Store().Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var ids []graph.NodeID
	if err := r.NodeIDs(graph.KindPaper, 0, func(id graph.NodeID) bool { ids = append(ids, id); return true }); err != nil {
		t.Fatal(err)
	}
	out := map[graph.NodeID]string{}
	for _, id := range ids {
		n, err := r.Node(id)
		if err != nil {
			t.Fatal(err)
		}
		var subjects, authors []graph.NodeID
		concepts := map[graph.NodeID]float64{}
		for _, e := range []struct {
			t   graph.EdgeType
			dir graph.Direction
			fn  func(graph.NodeID, float64) bool
		}{
			{graph.InSubject, graph.Out, func(s graph.NodeID, _ float64) bool { subjects = append(subjects, s); return true }},
			{graph.Authored, graph.In, func(a graph.NodeID, _ float64) bool { authors = append(authors, a); return true }},
			{graph.Mentions, graph.Out, func(c graph.NodeID, w float64) bool { concepts[c] = w; return true }},
		} {
			if err := r.Edges(id, e.t, e.dir, e.fn); err != nil {
				t.Fatal(err)
			}
		}
		out[id] = graph.FactsString(graph.PaperDate(&n), subjects, authors, concepts)
	}
	return out
}

// checkIndexExact compares the service's facet index, kept current commit
// by commit, with the stored papers, and with an index built afresh.
func checkIndexExact(t *testing.T, svc *graph.Service, when string) {
	t.Helper()
	want := storeFacts(t, svc)
	got, err := graph.FacetRows(svc)
	if err != nil {
		t.Fatalf("%s: %v", when, err)
	}
	fresh, err := graph.FacetRows(graph.NewService(svc.Store(), nil))
	if err != nil {
		t.Fatalf("%s: fresh index: %v", when, err)
	}
	for _, c := range []struct {
		name string
		rows map[graph.NodeID]string
	}{{"kept current", got}, {"built afresh", fresh}} {
		if len(c.rows) != len(want) {
			t.Errorf("%s: index %s holds %d papers, the store %d", when, c.name, len(c.rows), len(want))
		}
		bad := 0
		for _, id := range slices.Sorted(maps.Keys(want)) {
			if c.rows[id] != want[id] && bad < 3 {
				bad++
				t.Errorf("%s: index %s has %s as\n  %s\nthe store as\n  %s", when, c.name, id, c.rows[id], want[id])
			}
		}
	}
}

func readDocs(t *testing.T, path string) []graph.Document {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var docs []graph.Document
	if err := source.Read(path, f, func(d graph.Document) error { docs = append(docs, d); return nil }, func(error) {}); err != nil {
		t.Fatal(err)
	}
	return docs
}

func ingestDocs(t *testing.T, svc *graph.Service, docs []graph.Document) {
	t.Helper()
	for _, d := range docs {
		if _, err := svc.Ingest(context.Background(), d); err != nil {
			t.Fatal(err)
		}
	}
}

// The facet index follows every write that moves a paper's subjects,
// people, concepts or date: ingest, re-ingest, a merge of two sources,
// manual corrections, reclustering and a recompute of the concepts.
func TestFacetIndexFollowsWrites(t *testing.T) {
	ctx := context.Background()
	svc := graph.NewService(MustOpen(t), extractor)
	if err := svc.PrepareIndex(ctx); err != nil { // built empty, then kept current
		t.Fatal(err)
	}
	people := readDocs(t, "testdata/arxiv-people.jsonl")
	ingestFiles(t, svc, seedFiles(t)...)
	ingestDocs(t, svc, people)
	checkIndexExact(t, svc, "after ingest")
	ingestDocs(t, svc, people)
	checkIndexExact(t, svc, "after the same records again")

	// the Atom entry and the BibTeX entry are one paper (arXiv 2603.01234):
	// the second merges into the first, bringing its day
	ingestDocs(t, svc, readDocs(t, "../testdata/bibtex/sample.bib"))
	ingestDocs(t, svc, readDocs(t, "../testdata/atom/query.xml"))
	checkIndexExact(t, svc, "after a merge of two sources")
	v := view(t, svc)
	p, err := v.PaperByTitle("Process Reward Models for Vision-Language Agents")
	if err != nil {
		t.Fatal(err)
	}
	if d := graph.PaperDate(p).String(); d != "2026-03-02" {
		t.Errorf("merged paper's date %q, want the Atom entry's 2026-03-02", d)
	}

	ps, _ := peopleOf(t, svc, "Norimichi Ukita")
	if len(ps) != 1 {
		t.Fatalf("Norimichi Ukita: %d people, want 1", len(ps))
	}
	pg, err := view(t, svc).Papers(ps[0].ID, 2, "")
	if err != nil || len(pg.Papers) != 2 {
		t.Fatalf("papers of %s: %v %v", ps[0].ID, pg.Papers, err)
	}
	split, err := svc.SplitAuthor(ctx, ps[0].ID, []graph.NodeID{pg.Papers[0].ID, pg.Papers[1].ID}, "test")
	if err != nil {
		t.Fatal(err)
	}
	checkIndexExact(t, svc, "after splitting a person")
	if _, err := svc.MergeAuthors(ctx, split, "test"); err != nil {
		t.Fatal(err)
	}
	checkIndexExact(t, svc, "after merging people")
	if err := svc.Recluster(ctx); err != nil {
		t.Fatal(err)
	}
	checkIndexExact(t, svc, "after reclustering")
	if _, err := svc.RecomputeConcepts(ctx, 2, nil); err != nil {
		t.Fatal(err)
	}
	checkIndexExact(t, svc, "after recomputing the concepts")
}

// seedRecords are the seed pages' records, as the reader gives them.
func seedRecords(t *testing.T) []graph.Record {
	var recs []graph.Record
	for _, f := range seedFiles(t) {
		for _, d := range readDocs(t, f) {
			recs = append(recs, d.Records...)
		}
	}
	return recs
}

func selectOrFail(t *testing.T, v *graph.View, f *graph.PaperFilter) *graph.Selection {
	t.Helper()
	s, err := v.Select(f)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func bucketMap(res graph.FacetResult) map[string]int {
	m := map[string]int{}
	for _, b := range res.Buckets {
		m[b.Key] = b.Count
	}
	return m
}

// Facets on the seed graph against a recount of the seed pages' records
// (papers merged by title key, as ingest merges them).
func TestFacetsOnSeeds(t *testing.T) {
	svc := graph.NewService(MustOpen(t), extractor)
	ingestFiles(t, svc, seedFiles(t)...)
	type paper struct {
		year     int
		subjects map[string]bool
		authors  map[string]bool
	}
	papers := map[string]*paper{}
	for _, r := range seedRecords(t) {
		k := ident.TitleKey(r.Title)
		p := papers[k]
		if p == nil {
			p = &paper{subjects: map[string]bool{}, authors: map[string]bool{}}
			papers[k] = p
		}
		if p.year == 0 {
			p.year = r.Year
		}
		for _, s := range r.Subjects {
			p.subjects[s] = true
		}
		for _, a := range r.Authors {
			p.authors[a] = true
		}
	}
	years, subjects, authors := map[string]int{}, map[string]int{}, map[string]int{}
	for _, p := range papers {
		if p.year != 0 {
			years[fmt.Sprint(p.year)]++
		}
		for s := range p.subjects {
			subjects[s]++
		}
		for a := range p.authors {
			authors[a]++
		}
	}
	v := view(t, svc)
	all := selectOrFail(t, v, nil)
	res, err := v.Facets(graph.FacetYear, all, 20)
	if err != nil {
		t.Fatal(err)
	}
	got := bucketMap(res)
	for k, n := range got { // empty years between are buckets too
		if n == 0 {
			delete(got, k)
		}
	}
	if res.Total != len(papers) || !maps.Equal(got, years) {
		t.Errorf("years: total %d %v, want %d %v", res.Total, got, len(papers), years)
	}
	res, err = v.Facets(graph.FacetSubject, all, 100)
	if err != nil {
		t.Fatal(err)
	}
	if got := bucketMap(res); !maps.Equal(got, subjects) {
		t.Errorf("subjects: %v, want %v", got, subjects)
	}
	for i := 1; i < len(res.Buckets); i++ {
		a, b := res.Buckets[i-1], res.Buckets[i]
		if a.Count < b.Count || a.Count == b.Count && a.Key > b.Key {
			t.Errorf("subject buckets out of order: %v before %v", a, b)
		}
	}
	top, err := v.Top(graph.KindAuthor, all, 10)
	if err != nil {
		t.Fatal(err)
	}
	gotA := map[string]int{}
	for _, r := range top {
		gotA[r.Node.Label] = r.Count
		if want := float64(r.Count) / float64(len(papers)); r.Score != graph.Round3(want) {
			t.Errorf("%s: score %v, want its share %v", r.Node.Label, r.Score, graph.Round3(want))
		}
	}
	if !maps.Equal(gotA, authors) {
		t.Errorf("top people: %v, want %v", gotA, authors)
	}
	// one subject: its years, and its people
	cl := selectOrFail(t, v, &graph.PaperFilter{Subjects: []string{"cs.CL"}})
	res, err = v.Facets(graph.FacetAuthor, cl, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, p := range papers {
		if p.subjects["cs.CL"] {
			want++
		}
	}
	if res.Total != want || want == 0 || len(res.Buckets) == 0 || res.Buckets[0].Count != want {
		t.Errorf("cs.CL: total %d, buckets %v; want %d papers, all by the page's owner", res.Total, res.Buckets, want)
	}
	if _, err := v.Top(graph.KindPaper, all, 10); graph.ErrorCode(err) != graph.Invalid {
		t.Errorf("top papers: %v, want INVALID", err)
	}
}

// Filters: AND between fields, OR within a list; unknown names and bad
// months are Invalid errors that name them.
func TestFilterSelects(t *testing.T) {
	svc := graph.NewService(MustOpen(t), extractor)
	ingestFiles(t, svc, seedFiles(t)...)
	v := view(t, svc)
	total := func(f *graph.PaperFilter) int {
		t.Helper()
		res, err := v.Facets(graph.FacetYear, selectOrFail(t, v, f), 10)
		if err != nil {
			t.Fatal(err)
		}
		return res.Total
	}
	cl, lg := total(&graph.PaperFilter{Subjects: []string{"cs.CL"}}), total(&graph.PaperFilter{Subjects: []string{"cs.LG"}})
	both := total(&graph.PaperFilter{Subjects: []string{"cs.CL", "cs.LG"}})
	if cl == 0 || lg == 0 || both < max(cl, lg) || both > cl+lg {
		t.Errorf("cs.CL %d, cs.LG %d, either %d", cl, lg, both)
	}
	x, err := v.AuthorByName("Xiaoxi Jiang")
	if err != nil {
		t.Fatal(err)
	}
	clX := total(&graph.PaperFilter{Subjects: []string{"cs.CL"}, Authors: []graph.NodeID{x.ID}})
	if clX == 0 || clX > cl {
		t.Errorf("cs.CL and Xiaoxi Jiang: %d papers (cs.CL %d)", clX, cl)
	}
	y2026 := total(&graph.PaperFilter{YearFrom: 2026, YearTo: 2026})
	if y := total(&graph.PaperFilter{YearFrom: 2026}); y != y2026 || y == 0 {
		t.Errorf("2026 onwards %d, 2026 %d", y, y2026)
	}
	if n := total(&graph.PaperFilter{YearTo: 1990}); n != 0 {
		t.Errorf("up to 1990: %d papers", n)
	}
	for _, c := range []struct {
		f    graph.PaperFilter
		want string
	}{
		{graph.PaperFilter{Subjects: []string{"cs.XX"}}, `unknown subject "cs.XX"`},
		{graph.PaperFilter{Concepts: []string{"no such concept at all"}}, `unknown concept "no such concept at all"`},
		{graph.PaperFilter{Authors: []graph.NodeID{graph.MakeID(graph.KindAuthor, 999999)}}, "unknown person author:999999"},
		{graph.PaperFilter{Authors: []graph.NodeID{graph.MakeID(graph.KindPaper, 1)}}, "paper:1 is not a person"},
		{graph.PaperFilter{MonthFrom: "2025-13"}, `month "2025-13"`},
		{graph.PaperFilter{MonthTo: "2025"}, `month "2025"`},
		{graph.PaperFilter{MonthFrom: "2025-07", MonthTo: "2025-06"}, "after monthTo"},
		{graph.PaperFilter{YearFrom: 2026, YearTo: 2025}, "after yearTo"},
		{graph.PaperFilter{Subjects: slices.Repeat([]string{"cs.CL"}, 101)}, "at most 100"},
	} {
		_, err := v.Select(&c.f)
		if graph.ErrorCode(err) != graph.Invalid || !strings.Contains(fmt.Sprint(err), c.want) {
			t.Errorf("%+v: %v, want INVALID naming %s", c.f, err, c.want)
		}
	}
}

// Counts are exact: by subject, year, month, subject × year and the top
// people, recounted from the records of the real arXiv file (its first
// 3,000 lines). Skips without ../shared.
func TestFacetsExactOnArXiv(t *testing.T) {
	heavyUnderRace(t)
	svc := graph.NewService(MustOpen(t), nil)
	type paper struct {
		year     string
		month    string
		subjects []string
		names    map[string]bool
	}
	var papers []paper
	ingestArXiv(t, svc, 3000, func(d graph.Document) {
		r := d.Records[0]
		p := paper{year: fmt.Sprint(r.Year), names: map[string]bool{}}
		// the month of first submission, from the id's YYMM
		if yymm, _, ok := strings.Cut(r.ArXivID, "."); ok && len(yymm) == 4 {
			p.month = "20" + yymm[:2] + "-" + yymm[2:]
		}
		seen := map[string]bool{}
		for _, s := range r.Subjects {
			if !seen[s] {
				seen[s] = true
				p.subjects = append(p.subjects, s)
			}
		}
		for _, a := range r.Authors {
			if k := ident.NameKey(ident.LatexToText(a)); k != "" && strings.ContainsFunc(a, func(r rune) bool { return r > '@' }) {
				p.names[k] = true
			}
		}
		papers = append(papers, p)
	})
	years, months, subjects, subjectYear, names := map[string]int{}, map[string]int{}, map[string]int{}, map[string]map[string]int{}, map[string]int{}
	for _, p := range papers {
		years[p.year]++
		months[p.month]++
		for _, s := range p.subjects {
			subjects[s]++
			if subjectYear[s] == nil {
				subjectYear[s] = map[string]int{}
			}
			subjectYear[s][p.year]++
		}
		for k := range p.names {
			names[k]++
		}
	}
	v := view(t, svc)
	nonzero := func(res graph.FacetResult) map[string]int {
		m := bucketMap(res)
		maps.DeleteFunc(m, func(_ string, n int) bool { return n == 0 })
		return m
	}
	all := selectOrFail(t, v, nil)
	for _, c := range []struct {
		by   graph.Facet
		want map[string]int
	}{{graph.FacetYear, years}, {graph.FacetMonth, months}} {
		res, err := v.Facets(c.by, all, 20)
		if err != nil {
			t.Fatal(err)
		}
		if got := nonzero(res); res.Total != len(papers) || !maps.Equal(got, c.want) {
			t.Errorf("facet %d: total %d %v, want %d %v", c.by, res.Total, got, len(papers), c.want)
		}
	}
	res, err := v.Facets(graph.FacetSubject, all, 100)
	if err != nil {
		t.Fatal(err)
	}
	got := bucketMap(res)
	for k, n := range subjects {
		if got[k] != n && len(got) < 100 {
			t.Errorf("subject %s: %d papers, recount %d", k, got[k], n)
		}
	}
	for _, s := range res.Buckets[:5] {
		res, err := v.Facets(graph.FacetYear, selectOrFail(t, v, &graph.PaperFilter{Subjects: []string{s.Key}}), 20)
		if err != nil {
			t.Fatal(err)
		}
		if got := nonzero(res); !maps.Equal(got, subjectYear[s.Key]) || res.Total != subjects[s.Key] {
			t.Errorf("%s by year: %d %v, recount %d %v", s.Key, res.Total, got, subjects[s.Key], subjectYear[s.Key])
		}
	}
	// the ten people with most papers: their counts are their papers, and
	// a name's people together have the name's papers
	top, err := v.Top(graph.KindAuthor, all, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range top {
		pg, err := v.Papers(r.Node.ID, 1, "")
		if err != nil {
			t.Fatal(err)
		}
		if r.Count != pg.Total {
			t.Errorf("%s: %d papers in top, %d in its list", r.Node.Label, r.Count, pg.Total)
		}
		ps, err := v.AuthorsByName(r.Node.Label, 100)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0
		for _, p := range ps {
			res, err := v.Facets(graph.FacetYear, selectOrFail(t, v, &graph.PaperFilter{Authors: []graph.NodeID{p.ID}}), 1)
			if err != nil {
				t.Fatal(err)
			}
			sum += res.Total
		}
		if want := names[ident.NameKey(r.Node.Label)]; sum != want {
			t.Errorf("%s: its %d people have %d papers; the records name it on %d", r.Node.Label, len(ps), sum, want)
		}
	}
	ranked := slices.SortedFunc(maps.Keys(names), func(a, b string) int { return names[b] - names[a] })
	if len(top) != 10 || top[0].Count > names[ranked[0]] {
		t.Errorf("top person %v; the most frequent name has %d papers", top[0], names[ranked[0]])
	}
}
