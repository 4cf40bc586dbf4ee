package graph_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/ident"
)

// seedGraph ingests the three seed pages into a fresh in-memory store.
func seedGraph(t *testing.T) (*graph.Service, interface{ Checksum() (uint64, error) }) {
	t.Helper()
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ingestFiles(t, svc, seedFiles(t)...)
	return svc, db
}

func TestSeedCounts(t *testing.T) {
	svc, _ := seedGraph(t)
	v := view(t, svc)
	st, err := v.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Papers != 18 || st.Authors != 2 || st.Subjects != 5 || st.Repositories != 10 || st.Organizations != 2 {
		t.Errorf("stats: got %+v, want 18 papers, 2 authors, 5 subjects, 10 repositories, 2 organizations", st)
	}
	for name, want := range map[string]int{"Xiaoxi Jiang": 18, "Guanjun Jiang": 7} {
		a, err := v.AuthorByName(name)
		if err != nil {
			t.Fatalf("author %q: %v", name, err)
		}
		page, err := v.Papers(a.ID, 100, "")
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != want || len(page.Papers) != want {
			t.Errorf("%s: got %d papers (%d listed), want %d", name, page.Total, len(page.Papers), want)
		}
	}
	for code, want := range map[string]int{"cs.LG": 8, "cs.AI": 4, "cs.CL": 3, "cs.CV": 2, "eess.AS": 1} {
		s, err := v.SubjectByCode(code)
		if err != nil {
			t.Fatalf("subject %s: %v", code, err)
		}
		page, err := v.Papers(s.ID, 100, "")
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != want || len(page.Papers) != want {
			t.Errorf("%s: got %d papers, want %d", code, page.Total, want)
		}
	}
	lg, _ := v.SubjectByCode("cs.lg")
	if lg == nil || lg.Name != "Machine Learning" {
		t.Errorf("cs.LG name: got %+v, want Machine Learning", lg)
	}
}

func TestSeedCoauthors(t *testing.T) {
	svc, _ := seedGraph(t)
	v := view(t, svc)
	x, err := v.AuthorByName("Xiaoxi Jiang")
	if err != nil {
		t.Fatal(err)
	}
	cs, err := v.CoAuthors(x.ID, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Author.Label != "Guanjun Jiang" || cs[0].Weight != 7 {
		t.Fatalf("co-authors of Xiaoxi Jiang: got %+v, want Guanjun Jiang with weight 7", cs)
	}
	shared, err := v.SharedPapers(x.ID, cs[0].Author.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(shared) != 7 {
		t.Errorf("shared papers: got %d, want 7", len(shared))
	}
	// the weight is the number of shared papers, from both sides
	g, _ := v.AuthorByName("guanjun jiang")
	back, _ := v.CoAuthors(g.ID, 10)
	if len(back) != 1 || back[0].Weight != 7 {
		t.Errorf("co-authors of Guanjun Jiang: got %+v, want Xiaoxi Jiang with weight 7", back)
	}
}

func TestSeedMergesVersions(t *testing.T) {
	svc, _ := seedGraph(t)
	v := view(t, svc)
	for _, title := range []string{"Trace2Skill: Distill Trajectory-Local Lessons into Transferable Agent Skills",
		"SiameseNorm: Breaking the Barrier to Reconciling Pre/Post-Norm"} {
		p, err := v.PaperByTitle(title)
		if err != nil {
			t.Fatalf("%s: %v", title, err)
		}
		abs, err := v.Abstracts(p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(abs) != 2 || len(p.Sources) != 3 {
			t.Errorf("%s: got %d abstracts and %d sources, want 2 and 3", title, len(abs), len(p.Sources))
		}
		if p.Year != 2026 {
			t.Errorf("%s: year %d, want 2026 (learned from the listing)", title, p.Year)
		}
	}
	// a paper on one page only has one source and one abstract
	p, err := v.PaperByTitle("Skill-RM: Unifying Heterogeneous Evaluation Criteria via Agent Skill")
	if err != nil {
		t.Fatal(err)
	}
	if abs, _ := v.Abstracts(p.ID); len(abs) != 1 || len(p.Sources) != 1 {
		t.Errorf("Skill-RM: got %d abstracts, %d sources; want 1 and 1", len(abs), len(p.Sources))
	}
}

func TestSeedLatexTitle(t *testing.T) {
	svc, _ := seedGraph(t)
	v := view(t, svc)
	var ids []graph.NodeID
	for _, q := range []string{
		"GD2PO: Mitigating Multi-Reward Conflicts via Group-Dynamic reward-Decoupled Policy Optimization",
		"GD²PO: Mitigating Multi-Reward Conflicts via Group-Dynamic Reward-Decoupled Policy Optimization",
		"GD$^2$PO: mitigating multi-reward conflicts via group-dynamic reward-decoupled policy optimization",
		"GD2PO", "gd²po",
	} {
		p, err := v.PaperByTitle(q)
		if err != nil {
			t.Fatalf("paper %q: %v", q, err)
		}
		ids = append(ids, p.ID)
		if !strings.HasPrefix(p.Label, "GD²PO: ") {
			t.Errorf("title: got %q, want it rendered as GD²PO: …", p.Label)
		}
	}
	if slices.ContainsFunc(ids, func(id graph.NodeID) bool { return id != ids[0] }) {
		t.Errorf("spellings found different papers: %v", ids)
	}
	hits, err := v.Search("GD2PO", []graph.Kind{graph.KindPaper}, 3)
	if err != nil || len(hits) == 0 || hits[0].Node.ID != ids[0] {
		t.Fatalf("search GD2PO: got %v (%v), want the GD²PO paper first", hits, err)
	}
	// \textbf{D}ebiasing renders as plain text
	p, err := v.PaperByTitle("Eliminating Inductive Bias in Reward Models with Information-Theoretic Guidance")
	if err != nil {
		t.Fatal(err)
	}
	abs, err := v.Abstracts(p.ID)
	if err != nil || len(abs) != 1 {
		t.Fatalf("abstracts: %v %v", abs, err)
	}
	if a := abs[0]; strings.Contains(a, `\textbf`) || !strings.Contains(a, "Debiasing via Information optimization for RM (DIR)") {
		t.Errorf("abstract not rendered: %q", a[:min(len(a), 300)])
	}
}

func TestSeedRepositories(t *testing.T) {
	svc, _ := seedGraph(t)
	v := view(t, svc)
	hits, err := v.Search("Qwen-Applications", []graph.Kind{graph.KindOrganization}, 5)
	if err != nil || len(hits) != 1 {
		t.Fatalf("organization search: got %v, %v", hits, err)
	}
	repos, err := v.OrganizationRepositories(hits[0].Node.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(repos) != 9 {
		t.Errorf("Qwen-Applications repositories: got %d, want 9", len(repos))
	}
	for _, r := range repos {
		if strings.HasSuffix(r.Label, ".") || !strings.HasPrefix(r.Label, "https://github.com/Qwen-Applications/") {
			t.Errorf("repository url %q", r.Label)
		}
		owner, err := v.RepositoryOwner(r.ID)
		if err != nil || owner.ID != hits[0].Node.ID {
			t.Errorf("%s owner: got %v, %v", r.Label, owner, err)
		}
	}
	p, _ := v.PaperByTitle("ATP-Bench: Towards Agentic Tool Planning for MLLM Interleaved Generation")
	rs, _ := v.PaperRepositories(p.ID)
	if len(rs) != 1 || rs[0].Label != "https://github.com/Qwen-Applications/ATP-Bench" {
		t.Errorf("ATP-Bench repositories: got %v", rs)
	}
}

func TestIngestTwiceChangesNothing(t *testing.T) {
	svc, db := seedGraph(t)
	before, err := db.Checksum()
	if err != nil {
		t.Fatal(err)
	}
	res := ingestFiles(t, svc, seedFiles(t)...)
	for _, r := range res {
		if r.PapersAdded != 0 || r.PapersMerged != 0 || r.PapersSame != r.Records || r.EdgesAdded != 0 {
			t.Errorf("%s: second ingest reported changes: %+v", r.Source, r)
		}
	}
	after, err := db.Checksum()
	if err != nil {
		t.Fatal(err)
	}
	if before != after {
		t.Errorf("store checksum changed on re-ingest: %x → %x", before, after)
	}
}

// Ingest order must not change counts or weights.
func TestIngestOrderIndependent(t *testing.T) {
	files := seedFiles(t)
	stats := func(order []string) (graph.Stats, int) {
		db := MustOpen(t)
		svc := graph.NewService(db, extractor)
		ingestFiles(t, svc, order...)
		v := view(t, svc)
		st, err := v.Stats()
		if err != nil {
			t.Fatal(err)
		}
		x, _ := v.AuthorByName("Xiaoxi Jiang")
		cs, _ := v.CoAuthors(x.ID, 10)
		return st, cs[0].Weight
	}
	a, wa := stats(files)
	rev := slices.Clone(files)
	slices.Reverse(rev)
	b, wb := stats(rev)
	if a.Papers != b.Papers || a.Authors != b.Authors || a.Subjects != b.Subjects || a.Repositories != b.Repositories || wa != wb {
		t.Errorf("order changed the graph: %+v w=%d vs %+v w=%d", a, wa, b, wb)
	}
}

// A document that fails part-way writes nothing.
func TestIngestAtomic(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	before := checksum(t, db)
	doc := graph.Document{Source: "bad.txt", Records: []graph.Record{
		{Title: "A fine paper", Abstract: "About reinforcement learning (RL).", Authors: []string{"A. Person"}, Line: 3},
		{Title: "Broken", Subjects: []string{"not a code!"}, Line: 9},
	}}
	_, err := svc.Ingest(context.Background(), doc)
	if err == nil || !strings.Contains(err.Error(), "bad.txt:9") {
		t.Fatalf("got error %v, want one naming bad.txt:9", err)
	}
	after := checksum(t, db)
	if before != after {
		t.Errorf("failed document changed the store")
	}
}

func TestPapersPagination(t *testing.T) {
	svc, _ := seedGraph(t)
	v := view(t, svc)
	x, _ := v.AuthorByName("Xiaoxi Jiang")
	all, err := v.Papers(x.ID, 100, "")
	if err != nil {
		t.Fatal(err)
	}
	var paged []*graph.Node
	after := ""
	for i := 0; i < 10; i++ {
		pg, err := v.Papers(x.ID, 5, after)
		if err != nil {
			t.Fatal(err)
		}
		paged = append(paged, pg.Papers...)
		if !pg.HasNext {
			break
		}
		after = pg.EndCursor
	}
	if len(paged) != len(all.Papers) {
		t.Fatalf("paging: got %d papers, want %d", len(paged), len(all.Papers))
	}
	for i := range paged {
		if paged[i].ID != all.Papers[i].ID {
			t.Fatalf("page order differs at %d", i)
		}
	}
	// newest first, then title: papers without a year come last
	for i := 1; i < len(all.Papers); i++ {
		a, b := all.Papers[i-1], all.Papers[i]
		if a.Year < b.Year || (a.Year == b.Year && ident.TitleKey(a.Label) > ident.TitleKey(b.Label)) {
			t.Errorf("order: %q (%d) before %q (%d)", a.Label, a.Year, b.Label, b.Year)
		}
	}
	if _, err := v.Papers(x.ID, 5, "not-a-cursor!"); graph.ErrorCode(err) != graph.Invalid {
		t.Errorf("bad cursor: got %v, want an Invalid error", err)
	}
}

func TestAuthorLookupIgnoresDiacritics(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, nil)
	_, err := svc.Ingest(context.Background(), graph.Document{Source: "x", Records: []graph.Record{
		{Title: "Dense passage retrieval", Authors: []string{"Hinrich Schütze", `Jos{\'e} Garc\'{\i}a`}, Line: 1},
	}})
	if err != nil {
		t.Fatal(err)
	}
	v := view(t, svc)
	for q, want := range map[string]string{
		"Hinrich Schutze": "Hinrich Schütze", "hinrich  SCHÜTZE": "Hinrich Schütze",
		"Jose Garcia": "José García", "José García": "José García",
	} {
		a, err := v.AuthorByName(q)
		if err != nil || a.Label != want {
			t.Errorf("author %q: got %v, %v; want %s", q, a, err, want)
		}
	}
	if a, err := v.AuthorByName("Hinrich Schulze"); err == nil {
		t.Errorf("Schulze found %v", a)
	}
}

// Identity: arXiv id first, then DOI, then title — a title match with a
// different year, arXiv id or DOI is another paper; the same arXiv id with
// another year is the same paper, and the summary says so.
func TestPaperIdentity(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, nil)
	ctx := context.Background()
	ingest := func(src string, rec graph.Record) graph.IngestResult {
		t.Helper()
		rec.Line = 4
		if rec.Authors == nil {
			rec.Authors = []string{"Ann"}
		}
		res, err := svc.Ingest(ctx, graph.Document{Source: src, Records: []graph.Record{rec}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	ingest("a", graph.Record{Title: "On Graphs", Year: 2025})
	ingest("b", graph.Record{Title: "On Graphs", Year: 2026})                                // another year: another paper
	ingest("c", graph.Record{Title: "On graphs.", Year: 2025})                               // same
	ingest("d", graph.Record{Title: "Deep Nets", ArXivID: "arXiv:2503.01234v2", Year: 2025}) // by id
	res := ingest("e", graph.Record{Title: "Deep Nets, revised", ArXivID: "2503.01234", Year: 2026})
	ingest("f", graph.Record{Title: "Deep Nets", ArXivID: "2503.09999", Year: 2025}) // same title, other id
	ingest("g", graph.Record{Title: "Sparse Codes", DOI: "https://doi.org/10.1145/ABC.123"})
	ingest("h", graph.Record{Title: "Sparse codes (extended)", DOI: "10.1145/abc.123"})

	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "e:4: year 2026 differs from 2025") {
		t.Errorf("warnings: %q", res.Warnings)
	}
	v := view(t, svc)
	st := mustStats(t, v)
	if st.Papers != 5 {
		t.Errorf("papers: %d, want 5 (On Graphs ×2, Deep Nets ×2, Sparse Codes)", st.Papers)
	}
	p, _ := v.PaperByTitle("Deep Nets, revised")
	if p != nil {
		t.Errorf("a revised title is an alias, not a paper: %+v", p)
	}
	r, _ := db.Read(ctx)
	defer r.Close()
	id, err := r.Lookup(graph.IdxPaperArXiv, "2503.01234")
	if err != nil {
		t.Fatal(err)
	}
	n, _ := r.Node(id)
	if n.Year != 2025 || len(n.Sources) != 2 || n.ArXivID != "2503.01234" {
		t.Errorf("paper by arXiv id: %+v", n)
	}
	id, _ = r.Lookup(graph.IdxPaperDOI, "10.1145/abc.123")
	if n, _ := r.Node(id); len(n.Sources) != 2 || n.DOI != "10.1145/abc.123" {
		t.Errorf("paper by DOI: %+v", n)
	}
}

func TestIDKeys(t *testing.T) {
	for in, want := range map[string]string{
		"2503.01234": "2503.01234", "arXiv:2503.01234v3": "2503.01234", "http://arxiv.org/abs/2503.01234v1": "2503.01234",
		"hep-th/9901001v2": "hep-th/9901001", "math.GT/0309136": "math.gt/0309136", "1234": "", "v1": "", "2503.123": "",
	} {
		if got := ident.ArXivKey(in); got != want {
			t.Errorf("ident.ArXivKey(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"10.1145/ABC.123": "10.1145/abc.123", "https://doi.org/10.1/x": "10.1/x", "doi:10.5/Y": "10.5/y", "11.1/x": "", "10.1 /x": "",
	} {
		if got := ident.DOIKey(in); got != want {
			t.Errorf("ident.DOIKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// The same paper from an arXiv metadata line and an Atom feed is one node
// with both sources.
func TestSamePaperAcrossFormats(t *testing.T) {
	db := MustOpen(t)
	svc := graph.NewService(db, extractor)
	ingestFiles(t, svc, "../testdata/arxiv/sample.jsonl", "../testdata/atom/query.xml", "../testdata/bibtex/sample.bib")
	r, _ := db.Read(context.Background())
	defer r.Close()
	id, err := r.Lookup(graph.IdxPaperArXiv, "hep-th/9901001")
	if err != nil {
		t.Fatal(err)
	}
	n, _ := r.Node(id)
	if len(n.Sources) != 3 || n.Year != 1999 || n.DOI == "" {
		t.Errorf("hep-th/9901001 from JSON lines, Atom and BibTeX: %+v", n)
	}
	id, _ = r.Lookup(graph.IdxPaperArXiv, "2603.01234")
	if n, _ := r.Node(id); len(n.Sources) != 2 {
		t.Errorf("2603.01234 from Atom and BibTeX: %+v", n)
	}
	v := view(t, svc)
	st := mustStats(t, v)
	// five readable lines, the Atom-only paper, the BibTeX-only one
	if st.Papers != 5+1+1 {
		t.Errorf("papers: %d, want 7", st.Papers)
	}
	// "Sch\"utze" in the feed and "Sch{\"u}tze, Hinrich" in BibTeX: one author
	a, err := v.AuthorByName("Hinrich Schutze")
	if err != nil || a.Label != "Hinrich Schütze" {
		t.Fatalf("author: %+v %v", a, err)
	}
	if pg, _ := v.Papers(a.ID, 10, ""); pg.Total != 1 {
		t.Errorf("Hinrich Schütze: %d papers, want 1 (the same paper from two sources)", pg.Total)
	}
}
