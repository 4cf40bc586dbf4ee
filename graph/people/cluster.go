package people

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/researchkg/kg/graph/ident"
)

// Evidence is what one paper says about the person behind one of its
// author names: the facts clustering compares (cluster.go). Everything in
// it is read from the paper itself, never from the rest of the graph, so a
// block's partition depends on its papers alone, not on the order they came
// in or on what else was ingested.
type Evidence struct {
	Paper     string   // the paper's order-independent identity (paperIdentity)
	Coauthors []string // FoldKeys of the paper's other authors, sorted, distinct
	Subjects  []string // arXiv codes, primary first
	Words     []string // content words of title and abstracts (EvidenceWords), sorted, distinct
	Year      int
	ORCID     string   // the author's ORCID iD when the source gives one
	Affils    []string // words of the author's affiliation and e-mail domain, sorted, distinct
}

// Priors are the corpus-wide facts clustering weighs evidence with: how
// common a name is, and how rare a word. They are fixed tables shipped with
// kg (priors.go), so the same papers always give the same people.
type Priors interface {
	// People is the expected number of different people who carry a full
	// name (1 for a name nobody else is likely to carry).
	People(nameKey string) float64
	// IDF is the inverse document frequency of a content word.
	IDF(word string) float64
}

// Constraint is a manual correction of one name's people, by paper
// identities: every paper of A and B is one person (Same), or no paper of A
// is the same person as a paper of B.
type Constraint struct {
	A, B []string
	Same bool
}

// Clustering parameters, tuned on the dev half of the planted homonyms and
// the distinctive names (TestPeopleOnArXiv); see doc.go.
var (
	// a shared co-author joins two papers unless that co-author's name is
	// carried by more than this many people; then two shared co-authors do.
	commonCoauthor = 1.5
	// the threshold of a merge: mergeBase, plus mergePerLog times the log
	// of the other people expected to carry the name (nameOdds), plus
	// mergePerSize times the log of the smaller group's papers
	mergeBase    = 0.05
	mergePerLog  = 0.02
	mergePerSize = 0.13
	mergeSizeCap = 8 // beyond eight papers a side, more say little more
	// weights of the subjects' and the affiliations' cosines beside the
	// words' (1); affiliations are rare in our sources and untuned: a
	// shared institution counts a little more than a shared subject
	simSubjects = 0.10
	simAffils   = 0.15
)

// ClusterPeople partitions the uses of one name (a block) into people and
// returns each use's cluster number: clusters are numbered by their first
// use in ev's order. ev must be sorted by Paper, so the result is the same
// whatever order the papers were ingested in.
//
// The rule, after S2AND and OpenAlex (see doc.go):
//  1. An ORCID iD settles it: the same iD joins, different iDs part.
//     Manual corrections likewise.
//  2. Papers that share a co-author are one person (two shared co-authors
//     when the one is a common name).
//  3. The groups so formed merge, most similar first, while their
//     similarity (content words, subjects, affiliations) reaches a
//     threshold that rises with how many people carry the name: a rare name
//     is almost always one person, a common one needs evidence.
//
// fill, when not nil, is called once before step 3 to fill in the Words
// and Subjects of ev: a block whose papers all share co-authors needs none.
func ClusterPeople(name string, ev []Evidence, pr Priors, cons []Constraint, fill func([]Evidence)) []int {
	n := len(ev)
	uf := newUnionFind(n)
	byPaper := make(map[string]int, n)
	for i := range ev {
		byPaper[ev[i].Paper] = i
	}
	// apart: each use's sides in the constraints that keep uses apart,
	// kept per union-find root (bit 1: side A, bit 2: side B)
	sides := map[int]map[int]uint8{}
	side := func(c, i int, bit uint8) {
		if sides[i] == nil {
			sides[i] = map[int]uint8{}
		}
		sides[i][c] |= bit
	}
	var together [][2]int
	napart := 0
	for _, c := range cons {
		var as, bs []int
		for _, p := range c.A {
			if i, ok := byPaper[p]; ok {
				as = append(as, i)
			}
		}
		for _, p := range c.B {
			if i, ok := byPaper[p]; ok {
				bs = append(bs, i)
			}
		}
		if c.Same {
			all := append(as, bs...)
			for _, i := range all[min(1, len(all)):] {
				together = append(together, [2]int{all[0], i})
			}
			continue
		}
		if len(as) == 0 || len(bs) == 0 {
			continue
		}
		for _, i := range as {
			side(napart, i, 1)
		}
		for _, i := range bs {
			side(napart, i, 2)
		}
		napart++
	}
	orcids := map[string][]int{}
	for i := range ev {
		if o := ev[i].ORCID; o != "" {
			orcids[o] = append(orcids[o], i)
		}
	}
	if len(orcids) > 1 { // each iD apart from the others
		for _, o := range slices.Sorted(maps.Keys(orcids)) {
			for _, i := range orcids[o] {
				side(napart, i, 1)
			}
			for o2, is := range orcids {
				if o2 != o {
					for _, i := range is {
						side(napart, i, 2)
					}
				}
			}
			napart++
		}
	}
	for _, o := range slices.Sorted(maps.Keys(orcids)) {
		for _, i := range orcids[o][1:] {
			together = append(together, [2]int{orcids[o][0], i})
		}
	}
	clash := func(a, b map[int]uint8) bool {
		if len(b) < len(a) {
			a, b = b, a
		}
		for c, x := range a {
			if x|b[c] == 3 {
				return true
			}
		}
		return false
	}
	join := func(a, b int) {
		ra, rb := uf.find(a), uf.find(b)
		if ra == rb || clash(sides[ra], sides[rb]) {
			return
		}
		uf.union(ra, rb)
		r, o := uf.find(ra), ra+rb-uf.find(ra)
		if sides[o] != nil {
			if sides[r] == nil {
				sides[r] = map[int]uint8{}
			}
			for c, x := range sides[o] {
				sides[r][c] |= x
			}
		}
	}
	for _, p := range together {
		join(p[0], p[1])
	}
	// co-authors
	users := map[string][]int{}
	for i := range ev {
		for _, c := range ev[i].Coauthors {
			users[c] = append(users[c], i)
		}
	}
	shared := map[[2]int]int{} // pairs sharing common-named co-authors
	for _, c := range slices.Sorted(maps.Keys(users)) {
		us := users[c]
		if len(us) < 2 {
			continue
		}
		if pr.People(c) <= commonCoauthor {
			for _, u := range us[1:] {
				join(us[0], u)
			}
			continue
		}
		for x, a := range us {
			for _, b := range us[x+1:] {
				shared[[2]int{a, b}]++
			}
		}
	}
	for _, p := range slices.SortedFunc(maps.Keys(shared), func(a, b [2]int) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	}) {
		if shared[p] >= 2 {
			join(p[0], p[1])
		}
	}
	// groups, then merges by similarity
	root := map[int]int{} // union-find root → group
	var gs []*personGroup
	for i := range ev {
		r := uf.find(i)
		g, ok := root[r]
		if !ok {
			g = len(gs)
			root[r] = g
			gs = append(gs, &personGroup{})
		}
		gs[g].members = append(gs[g].members, i)
		if len(ev[i].Coauthors) > 0 {
			gs[g].withCo++
		}
	}
	if len(gs) > 1 && len(gs) <= maxMergeGroups {
		if fill != nil {
			fill(ev)
		}
		for _, g := range gs {
			g.sides = sides[uf.find(g.members[0])]
		}
		mergeGroups(gs, groupSimilarity(ev, pr, gs), mergeBase+mergePerLog*nameOdds(pr.People(name)), func(a, b *personGroup) bool {
			return clash(a.sides, b.sides)
		})
	}
	out := make([]int, n)
	c := 0
	for _, g := range gs {
		if g.members == nil {
			continue
		}
		for _, m := range g.members {
			out[m] = c
		}
		c++
	}
	return out
}

// maxMergeGroups bounds the groups of one block that are merged by
// similarity (the merging costs the cube of their number): a name carried
// on more separate groups keeps them apart.
const maxMergeGroups = 2000

// personGroup is a group of uses believed to be one person; merged groups
// have no members.
type personGroup struct {
	members []int
	withCo  int           // members whose paper has co-authors
	sides   map[int]uint8 // its uses' sides in the constraints that keep uses apart
}

// mergeGroups merges groups by average linkage (the mean similarity of
// their papers, updated by the Lance-Williams rule): always the pair whose
// similarity most exceeds its threshold, until no pair reaches it. The
// threshold of a pair rises with the log of its smaller group's size
// (counting the papers that name co-authors): finding no co-author in
// common says more the more papers each side has (two circles of six
// papers each that never met are two people; one paper outside a circle
// is a person's other collaboration), and nothing when a source lists no
// co-authors (a profile page).
func mergeGroups(gs []*personGroup, gsim [][]float64, base float64, apart func(a, b *personGroup) bool) {
	n := len(gs)
	for {
		bi, bj, best := -1, -1, 0.0
		for i := range gs {
			if gs[i].members == nil {
				continue
			}
			for j := i + 1; j < n; j++ {
				if gs[j].members == nil {
					continue
				}
				small := min(gs[i].withCo, gs[j].withCo, len(gs[i].members), len(gs[j].members))
				margin := gsim[i][j] - base - mergePerSize*math.Log(float64(min(max(small, 1), mergeSizeCap)))
				if margin >= 0 && (bi < 0 || margin > best) && !apart(gs[i], gs[j]) {
					bi, bj, best = i, j, margin
				}
			}
		}
		if bi < 0 {
			return
		}
		a, b := gs[bi], gs[bj]
		na, nb := float64(len(a.members)), float64(len(b.members))
		for k := range gs {
			if gs[k].members != nil && k != bi && k != bj {
				gsim[bi][k] = (na*gsim[bi][k] + nb*gsim[bj][k]) / (na + nb)
				gsim[k][bi] = gsim[bi][k]
			}
		}
		a.members = append(a.members, b.members...)
		a.withCo += b.withCo
		slices.Sort(a.members)
		b.members = nil
		if b.sides != nil {
			m := maps.Clone(a.sides)
			if m == nil {
				m = map[int]uint8{}
			}
			for c, x := range b.sides {
				m[c] |= x
			}
			a.sides = m
		}
	}
}

// groupSimilarity is the mean similarity of every two groups' papers: the
// cosine of their content words weighted by idf, plus simSubjects times
// the cosine of their subjects (the primary counted twice), plus
// simAffils times the cosine of their affiliations' words. A cosine is
// the dot product of unit vectors, so the sum over the pairs of two groups
// is the dot product of the groups' sums: a name's 2,864 uses in 263
// groups (the arXiv file's largest block grown 16 times) cost 34,453
// group products instead of 4.1 million paper products and a matrix of
// them (65 MB), and the cost grows with the groups, not the papers
// (BenchmarkClusterGrown).
func groupSimilarity(ev []Evidence, pr Priors, gs []*personGroup) [][]float64 {
	intern := map[string]int32{}
	// a group's sum of its papers' unit vectors, one map per kind
	type sums struct{ words, subjects, affils map[int32]float64 }
	var ws []float64
	add := func(m map[int32]float64, keys []string, weight func(i int, k string) float64) {
		ws = ws[:0]
		norm := 0.0
		for i, k := range keys {
			ws = append(ws, weight(i, k))
			norm += ws[i] * ws[i]
		}
		norm = math.Sqrt(norm)
		for i, k := range keys {
			id, ok := intern[k]
			if !ok {
				id = int32(len(intern))
				intern[k] = id
			}
			m[id] += ws[i] / norm
		}
	}
	vecs := make([][3]vec, len(gs))
	for g, x := range gs {
		s := sums{map[int32]float64{}, map[int32]float64{}, map[int32]float64{}}
		for _, m := range x.members {
			add(s.words, ev[m].Words, func(_ int, w string) float64 { return pr.IDF(w) })
			add(s.affils, ev[m].Affils, func(_ int, w string) float64 { return pr.IDF(w) })
			add(s.subjects, slices.Compact(slices.Clone(ev[m].Subjects)), func(i int, _ string) float64 {
				if i == 0 {
					return 2
				}
				return 1
			})
		}
		vecs[g] = [3]vec{sorted(s.words), sorted(s.subjects), sorted(s.affils)}
	}
	gsim := make([][]float64, len(gs))
	for i := range gs {
		gsim[i] = make([]float64, len(gs))
	}
	for i := range gs {
		for j := range i {
			a, b := &vecs[i], &vecs[j]
			t := dot(a[0], b[0]) + simSubjects*dot(a[1], b[1]) + simAffils*dot(a[2], b[2])
			gsim[i][j] = t / float64(len(gs[i].members)*len(gs[j].members))
			gsim[j][i] = gsim[i][j]
		}
	}
	return gsim
}

// vec is a sparse vector, ids ascending.
type vec struct {
	ids []int32
	w   []float64
}

func sorted(m map[int32]float64) vec {
	v := vec{make([]int32, 0, len(m)), make([]float64, len(m))}
	for id := range m {
		v.ids = append(v.ids, id)
	}
	slices.Sort(v.ids)
	for i, id := range v.ids {
		v.w[i] = m[id]
	}
	return v
}

func dot(a, b vec) float64 {
	t := 0.0
	for i, j := 0, 0; i < len(a.ids) && j < len(b.ids); {
		switch {
		case a.ids[i] < b.ids[j]:
			i++
		case a.ids[i] > b.ids[j]:
			j++
		default:
			t += a.w[i] * b.w[j]
			i++
			j++
		}
	}
	return t
}

// EvidenceWords are the content words of a paper's title and abstracts:
// folded, plural "s" dropped, three letters or more, no stop word or
// number, each once, sorted.
func EvidenceWords(title string, abstracts []string) []string {
	seen := map[string]bool{}
	for _, t := range append([]string{title}, abstracts...) {
		for _, w := range ident.Tokens(t) {
			if len(w) < 3 || stopWord[w] || strings.Trim(w, "0123456789") == "" {
				continue
			}
			if len(w) > 4 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
				w = w[:len(w)-1]
			}
			seen[w] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

var stopWord = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`the and for with that this from are our can which these their its not but has have been was were also such
	into over than more most other both each only they them then there when where while what how all any may use used using based
	show shows shown propose proposed paper approach method methods results result new two one via however further well between
	through without within across among under upon however thus than very high low large small different various existing
	present presents introduce introduces demonstrate demonstrates achieve achieves achieving significantly significant
	performance state art work study first novel effective efficient provide provides allow allows enable enables`) {
		m[w] = true
	}
	return m
}()

type unionFind struct{ parent []int }

func newUnionFind(n int) *unionFind {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return &unionFind{p}
}

func (u *unionFind) find(x int) int {
	for u.parent[x] != x {
		u.parent[x] = u.parent[u.parent[x]]
		x = u.parent[x]
	}
	return x
}

// union joins two roots, keeping the smaller index as root (deterministic).
func (u *unionFind) union(a, b int) {
	if b < a {
		a, b = b, a
	}
	u.parent[b] = a
}

// nameOdds is the log of how many other people are expected to carry a
// name (People − 1), kept within [−12, 3]: about −11 for "Nassir Navab",
// −3 for "Yinan He", +0.5 for "Yang Liu".
func nameOdds(people float64) float64 {
	return min(max(math.Log(max(people-1, 1e-9)), -12), 3)
}

// AffiliationWords are the words of an affiliation and the domain of an e-mail
// address, as evidence.
func AffiliationWords(aff, email string) []string {
	var out []string
	if aff != "" {
		out = EvidenceWords(aff, nil)
	}
	if i := strings.LastIndex(email, "@"); i >= 0 && i < len(email)-1 {
		out = append(out, "@"+ident.FoldKey(email[i+1:]))
	}
	slices.Sort(out)
	return slices.Compact(out)
}
