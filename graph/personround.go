package graph

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/people"
)

// A round of a people settle reads what clustering needs of its names'
// papers once, in key order, before it clusters any name.
//
// A name's papers are scattered over the store (ids follow ingest
// order, names their spelling), so clustering name by name read every
// paper, its authors, words and subjects at random. At 1M papers in a 2
// GiB memory limit the store (5.2 GB) no longer fits the page cache the
// heap leaves: each random read faulted in a 128 KB read-ahead window,
// the process read 1.2 GB/s from disk and clustered 4,096 names of
// 360,999 in 99 s, then none in five minutes. Read in id order, a round's
// papers (tens of thousands, a few ids apart) are a near-sequential pass
// that the read-ahead serves, and each is read once however many of its
// names the round holds.

// nameOutline is a name's persons and, for each, its papers and their
// author positions (the Authored edges' weights).
type nameOutline struct {
	persons []NodeID
	papers  [][]NodeID
	pos     [][]float64
}

func readOutline(r Reader, block string) (nameOutline, error) {
	var o nameOutline
	persons, err := peopleOf(r, block)
	if err != nil {
		return o, err
	}
	o.persons = persons
	for _, a := range persons {
		papers, pos, err := edgeList(r, a, Authored, Out)
		if err != nil {
			return o, err
		}
		o.papers = append(o.papers, papers)
		o.pos = append(o.pos, pos)
	}
	return o, nil
}

// paperFacts is what clustering reads of a paper.
type paperFacts struct {
	node     Node
	names    []string // its authors' fold keys, sorted, without repeats
	words    string   // its content words, space-separated
	subjects []string // its subject codes, by position
	authors  []NodeID // (while the round is read)
}

// roundPapers holds the facts of a round's papers, by id.
type roundPapers struct {
	ids   []NodeID // sorted
	facts []paperFacts
}

func (rp *roundPapers) get(id NodeID) (*paperFacts, bool) {
	i, ok := slices.BinarySearch(rp.ids, id)
	if !ok {
		return nil, false
	}
	return &rp.facts[i], true
}

// readRound reads the outlines of a round's names, then the facts of their
// papers and the names of those papers' authors, each in id order, on
// every reader (one a core).
func readRound(ctx context.Context, rs []Reader, codes []map[NodeID]string, fc *foldCache, blocks []string) ([]nameOutline, *roundPapers, error) {
	outlines := make([]nameOutline, len(blocks))
	if err := inChunks(ctx, rs, len(blocks), func(r Reader, _, i int) error {
		o, err := readOutline(r, blocks[i])
		if err != nil {
			return fmt.Errorf("cluster %q: %w", blocks[i], err)
		}
		outlines[i] = o
		return nil
	}); err != nil {
		return nil, nil, err
	}
	rp := &roundPapers{}
	for _, o := range outlines {
		for _, ps := range o.papers {
			rp.ids = append(rp.ids, ps...)
		}
	}
	slices.Sort(rp.ids)
	rp.ids = slices.Compact(rp.ids)
	rp.facts = make([]paperFacts, len(rp.ids))
	if err := inChunks(ctx, rs, len(rp.ids), func(r Reader, k, i int) error {
		return readPaperFacts(r, codes[k], rp.ids[i], &rp.facts[i])
	}); err != nil {
		return nil, nil, err
	}
	var authors []NodeID
	for i := range rp.facts {
		authors = append(authors, rp.facts[i].authors...)
	}
	slices.Sort(authors)
	authors = slices.Compact(authors)
	folds := make([]string, len(authors))
	var unread []int // authors[unread[j]] is not in the cache
	for i, a := range authors {
		if f, ok := fc.get(a); ok {
			folds[i] = f
		} else {
			unread = append(unread, i)
		}
	}
	if err := inChunks(ctx, rs, len(unread), func(r Reader, _, j int) error {
		i := unread[j]
		n, err := r.Node(authors[i])
		if err != nil {
			return fmt.Errorf("author %s: %w", authors[i], err)
		}
		folds[i] = ident.FoldKey(n.Label)
		return nil
	}); err != nil {
		return nil, nil, err
	}
	for _, i := range unread {
		fc.put(authors[i], folds[i])
	}
	for i := range rp.facts {
		f := &rp.facts[i]
		f.names = make([]string, 0, len(f.authors))
		for _, a := range f.authors {
			j, _ := slices.BinarySearch(authors, a)
			f.names = append(f.names, folds[j])
		}
		slices.Sort(f.names)
		f.names = slices.Compact(f.names)
		f.authors = nil
	}
	return outlines, rp, nil
}

// foldCache keeps the fold keys of the authors read by a settle's earlier
// rounds. A round's papers have some eight authors each, and the same
// people recur round after round: on 250,000 grown papers the rounds read
// 3.39 million authors for 644,000 people, each a seek and a decode at
// random over the store (at 1M in 2 GiB the stage was disk-bound; which
// of its reads the page cache missed was not measured). A person's label
// never changes within a settle (a split names the new person as the
// old; ids are not reused), so a fold key read once stays true for it. Two generations of at most max entries bound the memory
// (about 50 bytes an entry): a key read again moves to the current one,
// and when that is full the older is dropped.
type foldCache struct {
	cur, old map[NodeID]string
	max      int
}

func newFoldCache(max int) *foldCache {
	return &foldCache{cur: map[NodeID]string{}, max: max}
}

func (c *foldCache) get(a NodeID) (string, bool) {
	if f, ok := c.cur[a]; ok {
		return f, true
	}
	if f, ok := c.old[a]; ok {
		c.put(a, f)
		return f, true
	}
	return "", false
}

func (c *foldCache) put(a NodeID, f string) {
	if len(c.cur) >= c.max {
		c.old, c.cur = c.cur, make(map[NodeID]string, c.max)
	}
	c.cur[a] = f
}

// readPaperFacts reads a paper's node, authors, words and subjects.
func readPaperFacts(r Reader, codes map[NodeID]string, p NodeID, f *paperFacts) error {
	var err error
	if f.node, err = r.Node(p); err != nil {
		return fmt.Errorf("paper %s: %w", p, err)
	}
	if f.authors, err = paperAuthors(r, p); err != nil {
		return err
	}
	v, err := r.Value(ValWords, authorTerm(p))
	switch {
	case err == nil:
		f.words = string(v)
	case ErrorCode(err) == NotFound: // a store written before ValWords
		abs, err := r.Abstracts(p)
		if err != nil {
			return err
		}
		f.words = strings.Join(people.EvidenceWords(f.node.Label, abs), " ")
	default:
		return err
	}
	ids, pos, err := edgeList(r, p, InSubject, Out)
	if err != nil {
		return err
	}
	type sub struct {
		code string
		pos  float64
	}
	subs := make([]sub, len(ids))
	for i, s := range ids {
		code, ok := codes[s]
		if !ok {
			n, err := r.Node(s)
			if err != nil {
				return fmt.Errorf("subject %s of paper %s: %w", s, p, err)
			}
			code = n.Label
			codes[s] = code
		}
		subs[i] = sub{code, pos[i]}
	}
	slices.SortFunc(subs, func(a, b sub) int { return cmp.Or(cmp.Compare(a.pos, b.pos), cmp.Compare(a.code, b.code)) })
	for _, s := range subs {
		f.subjects = append(f.subjects, s.code)
	}
	return nil
}

// inChunks runs fn for 0..n-1, rs[k] reading a contiguous chunk (the
// store's order when the items are sorted), and returns the first error.
func inChunks(ctx context.Context, rs []Reader, n int, fn func(r Reader, k, i int) error) error {
	errs := make([]error, len(rs))
	var wg sync.WaitGroup
	for k := range rs {
		lo, hi := k*n/len(rs), (k+1)*n/len(rs)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				if err := ctx.Err(); err != nil {
					errs[k] = err
					return
				}
				if err := fn(rs[k], k, i); err != nil {
					errs[k] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// openReaders opens a snapshot a core; close closes them.
func (s *Service) openReaders(ctx context.Context) (rs []Reader, close func(), err error) {
	close = func() {
		for _, r := range rs {
			r.Close()
		}
	}
	for range runtime.GOMAXPROCS(0) {
		r, err := s.store.Read(ctx)
		if err != nil {
			close()
			return nil, nil, err
		}
		rs = append(rs, r)
	}
	return rs, close, nil
}
