package graph

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/researchkg/kg/graph/ident"
)

// A person's profile is what the hot reads of a person need, built at
// settle and stored as one value (ValProfile): the co-authors with most
// shared papers (up to MaxFirst, sorted as CoAuthors returns them), how
// many other people share the name and, for those who share it, the
// subjects and years that tell them apart. A top-20 co-author query is one
// read and the twenty names. Any change to a person's papers or co-authors
// drops the profile in the same transaction (markProfile); until the next
// settle rebuilds it, queries compute it from the pair counters, so an
// answer is never stale.
type profile struct {
	coauthors []Coauthor // Author has only the ID set until loaded
	loaded    int        // the first loaded co-authors have their node (View.coauthorsOf)
	homonyms  int
	papers    int
	subjects  []string // primary subjects of its papers, most used first (at most 3); only for homonyms
	minYear   int
	maxYear   int
}

const profileVersion = 1

// encode: version, homonyms, papers, minYear, maxYear, n, n × (id, weight),
// m, m × (len, subject); all uvarints.
func (p *profile) encode() []byte {
	b := make([]byte, 0, 16+len(p.coauthors)*10)
	b = binary.AppendUvarint(b, profileVersion)
	for _, v := range []int{p.homonyms, p.papers, p.minYear, p.maxYear, len(p.coauthors)} {
		b = binary.AppendUvarint(b, uint64(v))
	}
	for _, c := range p.coauthors {
		b = binary.AppendUvarint(b, uint64(c.Author.ID))
		b = binary.AppendUvarint(b, uint64(c.Weight))
	}
	b = binary.AppendUvarint(b, uint64(len(p.subjects)))
	for _, s := range p.subjects {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

var errBadProfile = errors.New("malformed profile")

func decodeProfile(b []byte) (profile, error) {
	var p profile
	next := func() (uint64, error) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, errBadProfile
		}
		b = b[n:]
		return v, nil
	}
	if v, err := next(); err != nil || v != profileVersion {
		return p, errBadProfile
	}
	var nums [5]uint64
	for i := range nums {
		v, err := next()
		if err != nil {
			return p, err
		}
		nums[i] = v
	}
	if nums[4] > uint64(len(b)) {
		return p, errBadProfile
	}
	p.homonyms, p.papers, p.minYear, p.maxYear = int(nums[0]), int(nums[1]), int(nums[2]), int(nums[3])
	p.coauthors = make([]Coauthor, nums[4])
	for i := range p.coauthors {
		id, err := next()
		if err != nil {
			return p, err
		}
		w, err := next()
		if err != nil {
			return p, err
		}
		p.coauthors[i] = Coauthor{Author: &Node{ID: NodeID(id)}, Weight: int(w)}
	}
	m, err := next()
	if err != nil || m > uint64(len(b)) {
		return p, errBadProfile
	}
	for range m {
		l, err := next()
		if err != nil || l > uint64(len(b)) {
			return p, errBadProfile
		}
		p.subjects = append(p.subjects, string(b[:l]))
		b = b[l:]
	}
	return p, nil
}

// coauthorWeights counts a's shared papers with each co-author: the pair
// counters, plus the large collaborations, which are not in them.
func coauthorWeights(r Reader, a NodeID) (map[NodeID]int, error) {
	return coauthorWeightsWith(r, a, nil)
}

// coauthorWeightsWith is coauthorWeights with a cache of the authors of
// large collaborations (nil: none), for a settle that builds the profiles
// of all 3,303 authors of one paper.
func coauthorWeightsWith(r Reader, a NodeID, bigAuthors map[NodeID][]NodeID) (map[NodeID]int, error) {
	weights := map[NodeID]int{}
	if err := r.Pairs(CoAuthor, a, func(b NodeID, n int64) bool {
		weights[b] += int(n)
		return true
	}); err != nil {
		return nil, err
	}
	var big []NodeID
	if n, err := r.Counter(bigCounter(a)); err != nil {
		return nil, err
	} else if n > 0 {
		if err := r.Terms(IdxBigPaperOf, authorTerm(a), func(_ string, p NodeID) bool {
			big = append(big, p)
			return true
		}); err != nil {
			return nil, err
		}
	}
	for _, p := range big {
		as, ok := bigAuthors[p]
		if !ok {
			var err error
			if as, err = paperAuthors(r, p); err != nil {
				return nil, err
			}
			if bigAuthors != nil {
				bigAuthors[p] = as
			}
		}
		for _, b := range as {
			if b != a {
				weights[b]++
			}
		}
	}
	return weights, nil
}

// topCoauthors orders co-authors by shared papers, then name, and keeps
// the first n. Names are loaded only for those whose weight reaches the
// n-th largest (ties included).
func topCoauthors(weights map[NodeID]int, n int, node func(NodeID) (*Node, error)) ([]Coauthor, error) {
	cut := 0
	if len(weights) > n {
		ws := slices.Collect(maps.Values(weights))
		slices.Sort(ws)
		cut = ws[len(ws)-max(n, 1)]
	}
	order := func(x, y Coauthor) int {
		return cmp.Or(cmp.Compare(y.Weight, x.Weight), strings.Compare(x.Author.Label, y.Author.Label), cmp.Compare(x.Author.ID, y.Author.ID))
	}
	// the best n, kept in a heap whose root is the worst kept: a paper of
	// 3,000 authors ties them all at the cut, and most are turned away by
	// one comparison with the root
	h := make([]Coauthor, 0, min(len(weights), n))
	down := func(i int) {
		for {
			c := 2*i + 1
			if c >= len(h) {
				return
			}
			if c+1 < len(h) && order(h[c+1], h[c]) > 0 {
				c++
			}
			if order(h[c], h[i]) <= 0 {
				return
			}
			h[i], h[c] = h[c], h[i]
			i = c
		}
	}
	for b, w := range weights {
		if w < cut || n == 0 {
			continue
		}
		nd, err := node(b)
		if ErrorCode(err) == NotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		c := Coauthor{nd, w}
		if len(h) < n {
			h = append(h, c)
			for i := len(h) - 1; i > 0 && order(h[i], h[(i-1)/2]) > 0; i = (i - 1) / 2 {
				h[i], h[(i-1)/2] = h[(i-1)/2], h[i]
			}
			continue
		}
		if order(c, h[0]) < 0 {
			h[0] = c
			down(0)
		}
	}
	slices.SortFunc(h, order)
	return h, nil
}

// buildProfile computes a person's profile from the graph (bigAuthors as
// for coauthorWeightsWith).
func buildProfile(r Reader, a NodeID, node func(NodeID) (*Node, error), bigAuthors map[NodeID][]NodeID) (profile, error) {
	var p profile
	n, err := node(a)
	if err != nil {
		return p, err
	}
	weights, err := coauthorWeightsWith(r, a, bigAuthors)
	if err != nil {
		return p, err
	}
	if p.coauthors, err = topCoauthors(weights, MaxFirst, node); err != nil {
		return p, err
	}
	np, err := r.Counter(peopleCounter(ident.NameKey(n.Label)))
	if err != nil {
		return p, err
	}
	p.homonyms = max(int(np)-1, 0)
	deg, err := r.Counter(degreeCounter(a, Authored))
	if err != nil {
		return p, err
	}
	p.papers = int(deg)
	if p.homonyms == 0 {
		return p, nil
	}
	// what tells this person from the others: subjects and years
	var papers []NodeID
	if err := r.List(a, Authored, nil, func(k []byte) bool {
		if id, ok := paperFromSortKey(k); ok {
			papers = append(papers, id)
			if len(k) >= 2 {
				if y := 0xFFFF - int(binary.BigEndian.Uint16(k)); y > 0 && y < 0xFFFF {
					if p.minYear == 0 || y < p.minYear {
						p.minYear = y
					}
					p.maxYear = max(p.maxYear, y)
				}
			}
		}
		return true
	}); err != nil {
		return p, err
	}
	count := map[NodeID]int{}
	for _, paper := range papers {
		if err := r.Edges(paper, InSubject, Out, func(s NodeID, pos float64) bool {
			if pos == 1 {
				count[s]++
				return false
			}
			return true
		}); err != nil {
			return p, err
		}
	}
	subs := slices.Collect(maps.Keys(count))
	codes := map[NodeID]string{}
	for _, s := range subs {
		sn, err := node(s)
		if err != nil {
			return p, err
		}
		codes[s] = sn.Label
	}
	slices.SortFunc(subs, func(x, y NodeID) int {
		return cmp.Or(cmp.Compare(count[y], count[x]), strings.Compare(codes[x], codes[y]))
	})
	for _, s := range subs[:min(3, len(subs))] {
		p.subjects = append(p.subjects, codes[s])
	}
	return p, nil
}

// profileRound is how many profiles one round of a settle builds (reading
// snapshots, on every core) before it stores them.
const profileRound = 8192

// storeProfiles rebuilds and stores the profiles of people, clearing their
// marks.
func (s *Service) storeProfiles(ctx context.Context, ids []NodeID) error {
	workers := runtime.GOMAXPROCS(0)
	type cache struct {
		nodes map[NodeID]*Node
		big   map[NodeID][]NodeID
	}
	caches := make([]cache, workers)
	for k := range caches {
		caches[k] = cache{map[NodeID]*Node{}, map[NodeID][]NodeID{}}
	}
	for start := 0; start < len(ids); start += profileRound {
		round := ids[start:min(start+profileRound, len(ids))]
		built := make([][]byte, len(round))
		if err := s.readParallel(ctx, len(round), func(r Reader, k, i int) error {
			c := caches[k]
			p, err := buildProfile(r, round[i], func(id NodeID) (*Node, error) {
				if n, ok := c.nodes[id]; ok {
					return n, nil
				}
				n, err := r.Node(id)
				if err != nil {
					return nil, err
				}
				if len(c.nodes) > 50_000 {
					clear(c.nodes)
				}
				c.nodes[id] = &n
				return &n, nil
			}, c.big)
			if ErrorCode(err) == NotFound {
				return nil // the person is gone
			}
			if err != nil {
				return fmt.Errorf("profile of %s: %w", round[i], err)
			}
			built[i] = p.encode()
			return nil
		}); err != nil {
			return err
		}
		if err := s.eachBatch(ctx, len(round), func(w *writer, i int) error {
			if err := w.tx.DeleteTerm(IdxProfileDirty, authorTerm(round[i]), round[i]); err != nil {
				return err
			}
			if built[i] == nil {
				return nil
			}
			return w.tx.PutValue(ValProfile, authorTerm(round[i]), built[i])
		}); err != nil {
			return err
		}
		s.report(StageProfiles, start+len(round), len(ids))
	}
	return nil
}

// profile returns a person's stored profile, or computes it when a change
// has dropped it and the settle has yet to rebuild it.
func (v *View) profile(a NodeID) (*profile, error) {
	if p, ok := v.profiles[a]; ok {
		return p, nil
	}
	var p profile
	b, err := v.r.Value(ValProfile, authorTerm(a))
	switch {
	case err == nil:
		if p, err = decodeProfile(b); err != nil {
			return nil, fmt.Errorf("profile of %s: %w", a, err)
		}
	case ErrorCode(err) == NotFound:
		if p, err = buildProfile(v.r, a, v.Node, nil); err != nil {
			return nil, err
		}
		p.loaded = len(p.coauthors)
	default:
		return nil, err
	}
	if v.profiles == nil {
		v.profiles = map[NodeID]*profile{}
	}
	v.profiles[a] = &p
	return &p, nil
}

// coauthorsOf returns a profile's first n co-authors, their nodes loaded
// (only as many as asked: a person's label needs one name, not 100).
func (v *View) coauthorsOf(p *profile, n int) ([]Coauthor, error) {
	n = min(n, len(p.coauthors))
	for ; p.loaded < n; p.loaded++ {
		c := &p.coauthors[p.loaded]
		nd, err := v.Node(c.Author.ID)
		if err != nil {
			return nil, err
		}
		c.Author = nd
	}
	return p.coauthors[:n], nil
}

// Homonyms is how many other people share a person's name.
func (v *View) Homonyms(a NodeID) (int, error) {
	p, err := v.profile(a)
	if err != nil {
		return 0, err
	}
	return p.homonyms, nil
}

// Disambiguation is a short line that tells a person from others of the
// same name: main subjects, top co-authors and years ("cs.CV, cs.LG; with
// Wei Zhang, Jun Li; 2024–2025"), or "" when nobody shares the name.
func (v *View) Disambiguation(a NodeID) (string, error) {
	p, err := v.profile(a)
	if err != nil || p.homonyms == 0 {
		return "", err
	}
	var parts []string
	if len(p.subjects) > 0 {
		parts = append(parts, strings.Join(p.subjects, ", "))
	}
	var with []string
	top, err := v.coauthorsOf(p, 2)
	if err != nil {
		return "", err
	}
	for _, c := range top {
		with = append(with, c.Author.Label)
	}
	if len(with) > 0 {
		parts = append(parts, "with "+strings.Join(with, ", "))
	}
	switch {
	case p.minYear == 0:
	case p.minYear == p.maxYear:
		parts = append(parts, strconv.Itoa(p.minYear))
	default:
		parts = append(parts, strconv.Itoa(p.minYear)+"–"+strconv.Itoa(p.maxYear))
	}
	parts = append(parts, strconv.Itoa(p.papers)+" papers")
	return strings.Join(parts, "; "), nil
}

// PersonLabel is how a person reads in lists: the name, and for people
// who share it, their main subject and top co-author ("Yang Liu (cs.CV;
// with Wei Zhang)").
func (v *View) PersonLabel(n *Node) (string, error) {
	if n.Kind() != KindAuthor {
		return n.Label, nil
	}
	p, err := v.profile(n.ID)
	if err != nil || p.homonyms == 0 {
		return n.Label, err
	}
	var parts []string
	if len(p.subjects) > 0 {
		parts = append(parts, p.subjects[0])
	}
	if top, err := v.coauthorsOf(p, 1); err != nil {
		return "", err
	} else if len(top) > 0 {
		parts = append(parts, "with "+top[0].Author.Label)
	}
	if len(parts) == 0 {
		return n.Label, nil
	}
	return n.Label + " (" + strings.Join(parts, "; ") + ")", nil
}

// AuthorsByName returns every person who carries a name (in any spelling
// AuthorByName finds), most papers first.
func (v *View) AuthorsByName(name string, first int) ([]*Node, error) {
	primary, err := v.AuthorByName(name)
	if ErrorCode(err) == NotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	ids, err := peopleOf(v.r, ident.NameKey(primary.Label))
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		ids = []NodeID{primary.ID}
	}
	papers := map[NodeID]int64{}
	for _, id := range ids {
		if papers[id], err = v.r.Counter(degreeCounter(id, Authored)); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(ids, func(a, b NodeID) int { return cmp.Or(cmp.Compare(papers[b], papers[a]), cmp.Compare(a, b)) })
	return v.Nodes(ids[:min(first, len(ids))])
}
