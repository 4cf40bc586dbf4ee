package paperindex_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/researchkg/kg/graph/paperindex"
)

// corpus is n papers written by hand's rules but at random: ids from 1,
// 1–3 subjects of 6, 1–5 people of 60 (a few prolific), 2–8 concepts of
// 40 with weights, dates over 2023–2025, some known only by the month or
// the year.
func corpus(seed uint64, n int) []paperindex.Facts {
	rng := rand.New(rand.NewPCG(seed, 17))
	pick := func(k, of int, base uint64) []uint64 {
		var out []uint64
		for len(out) < k {
			id := base + uint64(rng.IntN(of)) + 1
			if rng.IntN(4) == 0 { // a few nodes are far more common
				id = base + uint64(rng.IntN(max(of/8, 1))) + 1
			}
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
		return out
	}
	words := []string{"reward", "model", "agent", "graph", "vision", "speech", "robot", "policy", "retrieval", "proof"}
	facts := make([]paperindex.Facts, n)
	for i := range facts {
		y, m, d := 2023+rng.IntN(3), rng.IntN(12)+1, rng.IntN(28)+1
		switch rng.IntN(10) {
		case 0:
			m, d = 0, 0
		case 1:
			d = 0
		}
		f := paperindex.Facts{ID: uint64(i + 1), Date: paperindex.PackDate(y, m, d), Title: fmt.Sprintf("title %03d", rng.IntN(200)),
			Subjects: pick(1+rng.IntN(3), 6, 1000), Authors: pick(1+rng.IntN(5), 60, 2000), Concepts: pick(2+rng.IntN(7), 40, 3000)}
		for range f.Concepts {
			f.Weights = append(f.Weights, float64(rng.IntN(1001))/1000)
		}
		for range 1 + rng.IntN(3) {
			f.Words = append(f.Words, words[rng.IntN(len(words))])
		}
		if rng.IntN(3) == 0 {
			f.Venue = "venue " + fmt.Sprint(rng.IntN(4))
		}
		facts[i] = f
	}
	return facts
}

// newest is the order of the index's lists, written again: date
// descending, then title key, then id.
func newest(a, b paperindex.Facts) int {
	return cmp.Or(cmp.Compare(b.Date, a.Date), cmp.Compare(a.Title, b.Title), cmp.Compare(a.ID, b.ID))
}

// matches says whether a paper answers a selection, by the definition.
func matches(f *paperindex.Facts, s *paperindex.Selection) bool {
	vals := [paperindex.NumDims][]uint64{f.Subjects, f.Authors, f.Concepts}
	if s.None || f.Date < s.Lo || f.Date > s.Hi {
		return false
	}
	if _, m, _ := paperindex.UnpackDate(f.Date); s.NeedMonth && m == 0 {
		return false
	}
	for d := range paperindex.NumDims {
		for _, id := range s.All[d] {
			if !slices.Contains(vals[d], id) {
				return false
			}
		}
		if s.Any[d] != nil && !slices.ContainsFunc(s.Any[d], func(id uint64) bool { return slices.Contains(vals[d], id) }) {
			return false
		}
	}
	return true
}

// randomSelection draws a selection of up to three conditions.
func randomSelection(rng *rand.Rand) paperindex.Selection {
	s := paperindex.Everything()
	bases := [paperindex.NumDims]uint64{1000, 2000, 3000}
	sizes := [paperindex.NumDims]int{6, 60, 40}
	for range rng.IntN(4) {
		d := rng.IntN(int(paperindex.NumDims))
		id := bases[d] + uint64(rng.IntN(sizes[d]+2)) + 1 // now and then a node with no papers
		switch rng.IntN(3) {
		case 0:
			s = s.With(d, id)
		case 1:
			s.Any[d] = append(s.Any[d], id, bases[d]+uint64(rng.IntN(sizes[d]))+1)
		case 2:
			s.Lo = paperindex.PackDate(2023+rng.IntN(3), rng.IntN(13), 0)
			s.Hi = paperindex.PackDate(2024+rng.IntN(2), 12, 31)
			s.NeedMonth = rng.IntN(2) == 0
		}
	}
	return s
}

// want is the papers a selection matches, newest first, by the
// definition.
func want(facts []paperindex.Facts, s *paperindex.Selection) []uint64 {
	var ms []paperindex.Facts
	for i := range facts {
		if matches(&facts[i], s) {
			ms = append(ms, facts[i])
		}
	}
	slices.SortFunc(ms, newest)
	var out []uint64
	for _, f := range ms {
		out = append(out, f.ID)
	}
	return out
}

func TestMatchIsTheDefinition(t *testing.T) {
	facts := corpus(1, 600)
	ix := paperindex.New(facts)
	rng := rand.New(rand.NewPCG(2, 3))
	for i := range 400 {
		s := randomSelection(rng)
		got, w := ix.Papers(&s), want(facts, &s)
		if !slices.Equal(got, w) {
			t.Fatalf("selection %d %+v: %d papers, want %d\ngot  %v\nwant %v", i, s, len(got), len(w), got, w)
		}
		if n := ix.Count(&s); n != len(w) {
			t.Fatalf("selection %d: Count %d, want %d", i, n, len(w))
		}
	}
}

// An index brought up to date paper by paper, or rebuilt by a large
// update, holds what one built afresh from the same papers holds, and
// answers the same.
func TestUpdateIsRebuild(t *testing.T) {
	// one at a time; past reindexShare; many small ones, whose rows' old
	// places outgrow the live ones (reindexGarbageMin)
	for _, c := range []struct{ batch, rounds int }{{5, 6}, {1500, 6}, {40, 150}} {
		batch := c.batch
		facts := corpus(3, 1200)
		ix := paperindex.New(facts)
		rng := rand.New(rand.NewPCG(4, uint64(batch)))
		live := map[uint64]paperindex.Facts{}
		for _, f := range facts {
			live[f.ID] = f
		}
		more := corpus(5, 1600)
		for round := range c.rounds {
			var changed []paperindex.Facts
			var gone []uint64
			for range batch {
				f := more[rng.IntN(len(more))]
				switch rng.IntN(3) {
				case 0:
					gone = append(gone, f.ID)
					delete(live, f.ID)
				default:
					changed = append(changed, f)
					live[f.ID] = f
				}
			}
			// a paper both changed and gone in one update is gone
			for _, id := range gone {
				changed = slices.DeleteFunc(changed, func(f paperindex.Facts) bool { return f.ID == id })
				delete(live, id)
			}
			ix.Update(changed, gone)
			if err := ix.Check(); err != nil {
				t.Fatalf("batch %d round %d: %v", batch, round, err)
			}
			var now []paperindex.Facts
			for _, f := range live {
				now = append(now, f)
			}
			fresh := paperindex.New(now)
			if ix.Live() != fresh.Live() || ix.Live() != len(live) {
				t.Fatalf("batch %d round %d: %d live, fresh %d, want %d", batch, round, ix.Live(), fresh.Live(), len(live))
			}
			all := paperindex.Everything()
			if a, b := dump(ix, &all), dump(fresh, &all); !slices.Equal(a, b) {
				t.Fatalf("batch %d round %d: rows differ from a fresh index", batch, round)
			}
			for range 20 {
				s := randomSelection(rng)
				if a, b := ix.Papers(&s), fresh.Papers(&s); !slices.Equal(a, b) {
					t.Fatalf("batch %d round %d: %+v: %v, fresh %v", batch, round, s, a, b)
				}
			}
		}
	}
}

func dump(ix *paperindex.Index, s *paperindex.Selection) []string {
	var out []string
	ix.Each(s, func(f paperindex.Facts) bool {
		out = append(out, fmt.Sprint(f.ID, f.Date, f.Subjects, f.Authors, f.Concepts, f.Weights))
		return true
	})
	return out
}

func TestTopAndPeriodsCount(t *testing.T) {
	facts := corpus(6, 500)
	ix := paperindex.New(facts)
	rng := rand.New(rand.NewPCG(7, 8))
	name := func(id uint64) string { return fmt.Sprint(id) }
	for range 100 {
		s := randomSelection(rng)
		ids := want(facts, &s)
		in := map[uint64]bool{}
		for _, id := range ids {
			in[id] = true
		}
		for _, d := range []int{paperindex.Subject, paperindex.Author, paperindex.Concept} {
			counts := map[uint64]int{}
			for _, f := range facts {
				if in[f.ID] {
					for _, v := range [paperindex.NumDims][]uint64{f.Subjects, f.Authors, f.Concepts}[d] {
						counts[v]++
					}
				}
			}
			var all []paperindex.Counted
			for id, n := range counts {
				all = append(all, paperindex.Counted{ID: id, Count: n})
			}
			slices.SortFunc(all, func(a, b paperindex.Counted) int {
				return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(name(a.ID), name(b.ID)))
			})
			first := 7
			if d == paperindex.Subject {
				first = len(all) // subjects: all of them
			}
			total, top := ix.Top(d, &s, 7, name)
			if total != len(ids) || !slices.Equal(top, all[:min(first, len(all))]) {
				t.Fatalf("%+v dim %d: %d %v, want %d %v", s, d, total, top, len(ids), all[:min(first, len(all))])
			}
		}
		years := map[int]int{}
		for _, f := range facts {
			if in[f.ID] {
				y, _, _ := paperindex.UnpackDate(f.Date)
				years[y]++
			}
		}
		total, periods := ix.Periods(&s, false)
		got := map[int]int{}
		for i := 0; i < len(periods); i += 2 {
			if periods[i+1] > 0 {
				got[periods[i]] = periods[i+1]
			}
		}
		if total != len(ids) || fmt.Sprint(got) != fmt.Sprint(years) {
			t.Fatalf("%+v: years %v (of %d), want %v (of %d)", s, got, total, years, len(ids))
		}
	}
}

// Pages read one after another, each from the cursor of the last, give
// the whole list in its order; the relevance order is by the best weight
// of the selection's concepts, then newest first.
func TestListPagesByCursor(t *testing.T) {
	facts := corpus(9, 700)
	byID := map[uint64]paperindex.Facts{}
	for _, f := range facts {
		byID[f.ID] = f
	}
	ix := paperindex.New(facts)
	defer paperindex.SetKnobs(paperindex.Knobs{RelevanceCacheMin: 1, PostingWeightsMin: 1, WordPostings: true})()
	for _, c := range []uint64{3001, 3002, 3017} {
		s := paperindex.Everything().With(paperindex.Concept, c)
		for _, order := range []paperindex.Order{paperindex.Newest, paperindex.Oldest, paperindex.Relevance} {
			var got []uint64
			var after *paperindex.Cursor
			for pages := 0; ; pages++ {
				p := ix.List(&s, order, 9, after)
				got = append(got, p.Papers...)
				if !p.HasNext {
					break
				}
				back, err := paperindex.DecodeCursor(p.Cursors[len(p.Cursors)-1].Encode(), order)
				if err != nil {
					t.Fatal(err)
				}
				after = &back
			}
			w := want(facts, &s)
			switch order {
			case paperindex.Oldest:
				slices.Reverse(w)
			case paperindex.Relevance:
				weight := func(id uint64) float64 {
					f := byID[id]
					return f.Weights[slices.Index(f.Concepts, c)]
				}
				slices.SortStableFunc(w, func(a, b uint64) int {
					return cmp.Compare(int(weight(b)*1000+0.5), int(weight(a)*1000+0.5))
				})
			}
			if !slices.Equal(got, w) {
				t.Fatalf("concept %d order %d: %v, want %v", c, order, got, w)
			}
		}
	}
}

// Path lengths are a plain breadth-first search's over the papers'
// people.
func TestPathIsShortest(t *testing.T) {
	facts := corpus(10, 150)
	ix := paperindex.New(facts)
	papersOf := map[uint64][]int{}
	for i, f := range facts {
		for _, a := range f.Authors {
			papersOf[a] = append(papersOf[a], i)
		}
	}
	bfs := func(from uint64) map[uint64]int {
		dist := map[uint64]int{from: 0}
		frontier := []uint64{from}
		for d := 1; len(frontier) > 0; d++ {
			var next []uint64
			for _, a := range frontier {
				for _, i := range papersOf[a] {
					for _, b := range facts[i].Authors {
						if _, ok := dist[b]; !ok {
							dist[b] = d
							next = append(next, b)
						}
					}
				}
			}
			frontier = next
		}
		return dist
	}
	all := paperindex.Everything()
	for from := uint64(2001); from <= 2060; from += 7 {
		dist := bfs(from)
		for to := uint64(2001); to <= 2062; to++ {
			d, joined := dist[to]
			path, err := ix.Path(context.Background(), from, to, 8, &all)
			if err != nil {
				t.Fatal(err)
			}
			if !joined || d > 8 {
				if path != nil {
					t.Errorf("%d → %d: path %v, want none", from, to, path)
				}
				continue
			}
			if len(path) != d+1 || path[0] != from || path[d] != to {
				t.Errorf("%d → %d: path %v, want %d hops", from, to, path, d)
				continue
			}
			for i := 1; i < len(path); i++ {
				pair := all.With(paperindex.Author, path[i-1]).With(paperindex.Author, path[i])
				if ix.Count(&pair) == 0 {
					t.Errorf("%d → %d: %d and %d share no paper", from, to, path[i-1], path[i])
				}
			}
			if d > 1 {
				if short, _ := ix.Path(context.Background(), from, to, d-1, &all); short != nil {
					t.Errorf("%d → %d: a path of %d hops within %d", from, to, len(short)-1, d-1)
				}
			}
		}
	}
}
