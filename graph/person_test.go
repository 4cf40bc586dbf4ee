package graph_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/people"
	"github.com/researchkg/kg/graph/source"
)

// peopleRecords are the 50 arXiv records (from ../shared) that carry one
// of five names: Lin Sun, Pei Wang and Jun Yan (common names, each on
// papers in three groups with no co-author in common), Helen Meng and
// Norimichi Ukita; one has 1,114 authors.
func peopleRecords(tb testing.TB) []graph.Record {
	tb.Helper()
	f, err := os.Open("testdata/arxiv-people.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var recs []graph.Record
	if err := source.Read("arxiv-people.jsonl", f, func(d graph.Document) error {
		recs = append(recs, d.Records...)
		return nil
	}, func(err error) { tb.Error(err) }); err != nil {
		tb.Fatal(err)
	}
	if len(recs) != 50 {
		tb.Fatalf("read %d records, want 50", len(recs))
	}
	return recs
}

func ingestEach(tb testing.TB, svc *graph.Service, recs []graph.Record) {
	tb.Helper()
	for _, r := range recs {
		if _, err := svc.Ingest(context.Background(), graph.Document{Source: "arxiv-people.jsonl", Format: "arxiv", Records: []graph.Record{r}}); err != nil {
			tb.Fatal(err)
		}
	}
}

// ingestPipeline ingests records through a pipeline (batches of
// documents), settled once at the end.
func ingestPipeline(tb testing.TB, svc *graph.Service, recs []graph.Record) {
	tb.Helper()
	p := svc.NewPipeline(context.Background(), 2, func(_ graph.Document, _ graph.IngestResult, err error) {
		if err != nil {
			tb.Error(err)
		}
	})
	for _, r := range recs {
		if err := p.Add(graph.Document{Source: "arxiv-people.jsonl", Records: []graph.Record{r}}); err != nil {
			tb.Fatal(err)
		}
	}
	if err := p.Close(); err != nil {
		tb.Fatal(err)
	}
}

// paperText reads a paper's node and abstracts.
func paperText(tb testing.TB, r graph.Reader, id graph.NodeID) (graph.Node, []string) {
	tb.Helper()
	n, err := r.Node(id)
	if err != nil {
		tb.Fatal(err)
	}
	abs, err := r.Abstracts(id)
	if err != nil {
		tb.Fatal(err)
	}
	return n, abs
}

func mustDigest(tb testing.TB, svc *graph.Service) graph.Digest {
	tb.Helper()
	d, err := svc.Digest(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// people returns the persons carrying a name, most papers first, with
// their paper counts.
func peopleOf(tb testing.TB, svc *graph.Service, name string) ([]*graph.Node, []int) {
	tb.Helper()
	v := view(tb, svc)
	ps, err := v.AuthorsByName(name, 100)
	if err != nil {
		tb.Fatal(err)
	}
	var n []int
	for _, p := range ps {
		pg, err := v.Papers(p.ID, 1, "")
		if err != nil {
			tb.Fatal(err)
		}
		n = append(n, pg.Total)
	}
	return ps, n
}

// The people of a name are the same whatever order its papers came in:
// one record at a time in three orders, or the whole file as one
// document, give the same graph (digest), and reclustering it changes
// nothing.
func TestPeopleOrderIndependent(t *testing.T) {
	recs := peopleRecords(t)
	orders := map[string][]graph.Record{"file": recs}
	rev := slices.Clone(recs)
	slices.Reverse(rev)
	orders["reversed"] = rev
	shuf := slices.Clone(recs)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuf), func(i, j int) { shuf[i], shuf[j] = shuf[j], shuf[i] })
	orders["shuffled"] = shuf
	var want graph.Digest
	var wantFrom string
	for _, name := range []string{"file", "reversed", "shuffled", "pipeline"} {
		svc := graph.NewService(MustOpen(t), nil)
		if name == "pipeline" { // batches of documents, settled once at the end
			ingestPipeline(t, svc, recs)
		} else {
			ingestEach(t, svc, orders[name])
		}
		got := mustDigest(t, svc)
		if wantFrom == "" {
			want, wantFrom = got, name
			checkPeopleExact(t, svc)
			if err := svc.Recluster(context.Background()); err != nil {
				t.Fatal(err)
			}
			if again := mustDigest(t, svc); again != got {
				t.Errorf("reclustering changed the graph: %+v, was %+v", again.Stats, got.Stats)
			}
			for _, n := range []string{"Lin Sun", "Pei Wang", "Jun Yan", "Helen Meng", "Norimichi Ukita"} {
				ps, sizes := peopleOf(t, svc, n)
				t.Logf("%s: %d people, papers %v", n, len(ps), sizes)
			}
			continue
		}
		if got != want {
			t.Errorf("%s order: graph %+v %s, %s order gave %+v %s", name, got.Stats, got.Hash[:12], wantFrom, want.Stats, want.Hash[:12])
		}
	}
}

// checkPeopleExact recounts from the authorship edges every count that
// moves with people: the pair counters and paper counts of every author,
// the author and pair totals, and the co-author lists (profiles, large
// collaborations included) of the people of the fixture's five names, of
// everyone who wrote with them on papers of up to 100 authors, and of 50
// authors of the large collaboration.
func checkPeopleExact(t *testing.T, svc *graph.Service) {
	t.Helper()
	ctx := context.Background()
	if err := svc.SettlePeople(ctx); err != nil {
		t.Fatal(err)
	}
	r, err := svc.Store().Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	type pair struct{ a, b graph.NodeID }
	papersOf := map[graph.NodeID][]graph.NodeID{}
	var papers, authors []graph.NodeID
	r.NodeIDs(graph.KindPaper, 0, func(id graph.NodeID) bool { papers = append(papers, id); return true })
	r.NodeIDs(graph.KindAuthor, 0, func(id graph.NodeID) bool { authors = append(authors, id); return true })
	small := map[pair]int{}
	authorsOf := map[graph.NodeID][]graph.NodeID{}
	var big []graph.NodeID
	for _, p := range papers {
		var as []graph.NodeID
		if err := r.Edges(p, graph.Authored, graph.In, func(a graph.NodeID, _ float64) bool { as = append(as, a); return true }); err != nil {
			t.Fatal(err)
		}
		authorsOf[p] = as
		if len(as) > graph.BigPaperAuthors {
			big = append(big, p)
		}
		for i, a := range as {
			papersOf[a] = append(papersOf[a], p)
			if len(as) > graph.BigPaperAuthors {
				continue
			}
			for _, b := range as[i+1:] {
				small[pair{min(a, b), max(a, b)}]++
			}
		}
	}
	v := view(t, svc)
	pairs := 0
	for _, a := range authors {
		if _, err := r.Node(a); err != nil {
			t.Fatalf("author %s: %v", a, err)
		}
		pg, err := v.Papers(a, 1, "")
		if err != nil {
			t.Fatal(err)
		}
		if pg.Total != len(papersOf[a]) || pg.Total == 0 {
			t.Errorf("author %s: %d papers counted, %d authorship edges", a, pg.Total, len(papersOf[a]))
		}
		if err := r.Pairs(graph.CoAuthor, a, func(b graph.NodeID, n int64) bool {
			pairs++
			if s := small[pair{min(a, b), max(a, b)}]; int64(s) != n {
				t.Errorf("pair counter %s–%s: %d, papers of ≤ %d authors listing both %d", a, b, n, graph.BigPaperAuthors, s)
			}
			return true
		}); err != nil {
			t.Fatal(err)
		}
	}
	if pairs != 2*len(small) {
		t.Errorf("%d pair counters, %d pairs of authors on papers of ≤ %d authors", pairs, 2*len(small), graph.BigPaperAuthors)
	}
	// co-author lists of the people of the five names and around them
	check := map[graph.NodeID]bool{}
	for _, n := range []string{"Lin Sun", "Pei Wang", "Jun Yan", "Helen Meng", "Norimichi Ukita"} {
		ps, err := v.AuthorsByName(n, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			check[p.ID] = true
			for k := range small {
				if k.a == p.ID {
					check[k.b] = true
				} else if k.b == p.ID {
					check[k.a] = true
				}
			}
		}
	}
	for _, p := range big {
		for _, a := range authorsOf[p][:min(50, len(authorsOf[p]))] {
			check[a] = true
		}
	}
	for a := range check {
		shared := map[graph.NodeID]int{}
		for _, p := range papersOf[a] {
			for _, b := range authorsOf[p] {
				if b != a {
					shared[b]++
				}
			}
		}
		cs, err := v.CoAuthors(a, 100)
		if err != nil {
			t.Fatal(err)
		}
		all, err := v.CoAuthors(a, 100000)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != len(shared) {
			t.Errorf("author %s: %d co-authors listed, %d recounted", a, len(all), len(shared))
		}
		if !slices.EqualFunc(cs, all[:len(cs)], func(x, y graph.Coauthor) bool { return x.Author.ID == y.Author.ID && x.Weight == y.Weight }) {
			t.Errorf("author %s: profile's co-authors differ from a live count", a)
		}
		for _, c := range all {
			if w := shared[c.Author.ID]; w != c.Weight {
				t.Fatalf("%s–%s: weight %d, papers listing both %d", a, c.Author.ID, c.Weight, w)
			}
		}
	}
	st, err := v.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Authors != len(authors) {
		t.Errorf("authors counter %d, author nodes %d", st.Authors, len(authors))
	}
	if n, _ := r.Counter("pairs/" + graph.CoAuthor.String()); int(n) != len(small) {
		t.Errorf("co-author pairs counter %d, pairs %d", n, len(small))
	}
	t.Logf("exact: %d authors, %d pairs, co-author lists of %d", len(authors), len(small), len(check))
}

// withoutLarge leaves out the record of 3,303 authors (tests of
// corrections and ids need not pay for it).
func withoutLarge(recs []graph.Record) []graph.Record {
	return slices.DeleteFunc(slices.Clone(recs), func(r graph.Record) bool { return len(r.Authors) > graph.BigPaperAuthors })
}

// A person keeps their id when their name is clustered again with new
// papers, as long as they keep most of their papers.
func TestPeopleKeepTheirIDs(t *testing.T) {
	recs := withoutLarge(peopleRecords(t))
	svc := graph.NewService(MustOpen(t), nil)
	ingestEach(t, svc, recs[:len(recs)-10])
	before := map[graph.NodeID]int{}
	for _, n := range []string{"Lin Sun", "Pei Wang", "Jun Yan", "Helen Meng", "Norimichi Ukita"} {
		ps, sizes := peopleOf(t, svc, n)
		for i, p := range ps {
			before[p.ID] = sizes[i]
		}
	}
	ingestEach(t, svc, recs[len(recs)-10:])
	kept := 0
	for id, n := range before {
		v := view(t, svc)
		pg, err := v.Papers(id, 1, "")
		if err == nil && pg.Total >= n {
			kept++
		}
	}
	if kept < len(before)*3/4 {
		t.Errorf("%d of %d people kept their id and papers after 10 more records", kept, len(before))
	}
	checkPeopleExact(t, svc)
}

// A manual split and merge stand through re-ingest and reclustering, and
// are listed.
func TestAuthorCorrections(t *testing.T) {
	ctx := context.Background()
	recs := withoutLarge(peopleRecords(t))
	svc := graph.NewService(MustOpen(t), nil)
	ingestEach(t, svc, recs)
	ps, sizes := peopleOf(t, svc, "Norimichi Ukita")
	if len(ps) != 1 || sizes[0] < 4 {
		t.Fatalf("Norimichi Ukita: %d people %v, want one with his papers", len(ps), sizes)
	}
	ukita := ps[0].ID
	v := view(t, svc)
	pg, err := v.Papers(ukita, 100, "")
	if err != nil {
		t.Fatal(err)
	}
	part := []graph.NodeID{pg.Papers[0].ID, pg.Papers[1].ID}
	got, err := svc.SplitAuthor(ctx, ukita, part, "test")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] == got[1] || got[1] != ukita {
		t.Fatalf("split gave %v, want a new person and %s", got, ukita)
	}
	check := func(when string, wantPeople int) {
		t.Helper()
		ps, sizes := peopleOf(t, svc, "Norimichi Ukita")
		if len(ps) != wantPeople {
			t.Errorf("%s: %d people %v, want %d", when, len(ps), sizes, wantPeople)
		}
	}
	check("after the split", 2)
	ingestEach(t, svc, recs)
	check("after re-ingest", 2)
	if err := svc.Recluster(ctx); err != nil {
		t.Fatal(err)
	}
	check("after reclustering", 2)
	checkPeopleExact(t, svc)
	if _, err := svc.SplitAuthor(ctx, got[0], part, ""); graph.ErrorCode(err) != graph.Invalid {
		t.Errorf("splitting all of a person's papers: %v, want INVALID", err)
	}
	if _, err := svc.SplitAuthor(ctx, ukita, part, ""); graph.ErrorCode(err) != graph.Invalid {
		t.Errorf("splitting papers the person does not have: %v, want INVALID", err)
	}
	one, err := svc.MergeAuthors(ctx, got, "test")
	if err != nil {
		t.Fatal(err)
	}
	check("after the merge", 1)
	ingestEach(t, svc, recs)
	check("after the merge and re-ingest", 1)
	if ps, _ := peopleOf(t, svc, "Norimichi Ukita"); ps[0].ID != one {
		t.Errorf("merged person %s, now %s", one, ps[0].ID)
	}
	lin, _ := peopleOf(t, svc, "Lin Sun")
	if _, err := svc.MergeAuthors(ctx, []graph.NodeID{one, lin[0].ID}, ""); graph.ErrorCode(err) != graph.Invalid {
		t.Errorf("merging people of two names: %v, want INVALID", err)
	}
	cs, err := svc.Corrections(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Name != "norimichi ukita" || len(cs[0].Corrections) != 2 ||
		cs[0].Corrections[0].Op != "split" || cs[0].Corrections[1].Op != "merge" || len(cs[0].Corrections[0].Papers) != 2 {
		t.Errorf("corrections: %+v", cs)
	}
	checkPeopleExact(t, svc)
}

// ORCID iDs from an Atom feed decide who is who: two papers that share a
// co-author are two people when their iDs differ; a paper on another
// subject with no co-author in common is the same person when its iD is.
func TestPeopleByORCIDFromAtom(t *testing.T) {
	svc := graph.NewService(MustOpen(t), nil)
	ingestFiles(t, svc, "../testdata/atom/orcid.xml")
	ps, sizes := peopleOf(t, svc, "Wei Wang")
	if len(ps) != 2 || sizes[0] != 2 || sizes[1] != 1 {
		t.Fatalf("Wei Wang: %d people with %v papers, want 2 with [2 1]", len(ps), sizes)
	}
	v := view(t, svc)
	pg, err := v.Papers(ps[0].ID, 10, "")
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, p := range pg.Papers {
		titles = append(titles, p.Label)
	}
	slices.Sort(titles)
	if want := []string{"Graph Neural Networks for Molecular Property Prediction", "Spectral Surveys of Distant Galaxies"}; !slices.Equal(titles, want) {
		t.Errorf("the person of iD 0000-0002-1825-0097 wrote %q, want %q", titles, want)
	}
	checkPeopleExact(t, svc)
}

// A damaged profile value is an error, never a panic or a list longer
// than its bytes.
func FuzzDecodeProfile(f *testing.F) {
	f.Add([]byte{1, 0, 3, 0, 0, 1, 5, 2, 0})
	f.Add([]byte{})
	f.Add([]byte{1, 1, 2, 0xe9, 0x0f, 0xea, 0x0f, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		if n, err := graph.DecodeProfileLen(b); err == nil && n > len(b) {
			t.Fatalf("%d co-authors decoded from %d bytes", n, len(b))
		}
	})
}

// A paper's content words, which clustering compares a name's papers by,
// are stored with its text (ValWords) and kept with it when a record adds
// an abstract; a store written before them (no ValWords) reads the texts
// instead and gives the same people.
func TestPaperWordsStoredWithText(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t)
	svc := graph.NewService(db, nil)
	recs := withoutLarge(peopleRecords(t)) // a large paper's words are no different, and slow under -race
	ingestEach(t, svc, recs)
	more := recs[0]
	more.Abstract = "Spectral sparsification of hypergraphs, revisited."
	ingestEach(t, svc, []graph.Record{more})
	want := mustDigest(t, svc)

	r, err := db.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var papers []graph.NodeID
	if err := r.NodeIDs(graph.KindPaper, 0, func(id graph.NodeID) bool { papers = append(papers, id); return true }); err != nil {
		t.Fatal(err)
	}
	merged := 0
	for _, id := range papers {
		n, abs := paperText(t, r, id)
		if len(abs) > 1 {
			merged++
		}
		v, err := r.Value(graph.ValWords, fmt.Sprintf("%016x", uint64(id)))
		if err != nil {
			t.Fatalf("paper %q: %v", n.Label, err)
		}
		words := people.EvidenceWords(n.Label, abs)
		if got, want := string(v), strings.Join(words, " "); got != want {
			t.Errorf("paper %q (%d abstracts): stored words %q, its text has %q", n.Label, len(abs), got, want)
		}
		if got, err := graph.ClusterWords(r, id); err != nil || !slices.Equal(got, words) {
			t.Errorf("paper %q: clustering reads words %q (%v), its text has %q", n.Label, got, err, words)
		}
	}
	r.Close()
	if len(papers) != len(recs) || merged != 1 {
		t.Fatalf("%d papers (%d with two abstracts) from %d records and one more abstract; want %d and 1", len(papers), merged, len(recs), len(recs))
	}

	if err := db.Update(ctx, func(tx graph.Tx) error {
		for _, id := range papers {
			if err := tx.DeleteValue(graph.ValWords, fmt.Sprintf("%016x", uint64(id))); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	r, err = db.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range papers[:5] {
		n, abs := paperText(t, r, id)
		if got, err := graph.ClusterWords(r, id); err != nil || !slices.Equal(got, people.EvidenceWords(n.Label, abs)) {
			t.Errorf("paper %q, no stored words: clustering reads %q (%v)", n.Label, got, err)
		}
	}
	r.Close()
	if err := svc.Recluster(ctx); err != nil {
		t.Fatal(err)
	}
	if got := mustDigest(t, svc); got != want {
		t.Errorf("clustered from the texts: graph %+v %s; from the stored words %+v %s", got.Stats, got.Hash[:12], want.Stats, want.Hash[:12])
	}
}
