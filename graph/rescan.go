package graph

// The rescan of a settle: the earlier papers that mention the concepts
// marked for a scan, read through their prints where they have them.

import (
	"context"
	"maps"
	"runtime"
	"slices"
	"sync"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/vocab"
)

// rescanChunk is how many papers one snapshot of a rescan reads.
const rescanChunk = 2000

// rescanPlan finds the papers to link to the concepts marked for a scan
// (more papers used them before they existed than uses are recorded for,
// or their name is one word): every stored paper whose title or abstracts
// mention them, by ScanMentions on every core. The weight of such a link is
// not the paper's own ranking (that would need tagging every paper again):
// 0.1 for one mention, 0.05 more a mention, at most 0.5. It also counts,
// for each concept named by one word, the scanned papers that say it
// (rejectModifiers).
func (s *Service) rescanPlan(ctx context.Context) (add *gains, marked []NodeID, surface map[NodeID]int, err error) {
	if s.terms == nil {
		return &gains{}, nil, nil, nil
	}
	r, err := s.store.Read(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	all := rescanNames{names: map[string]NodeID{}, acronyms: map[string]NodeID{}, spelling: map[string]string{}}
	names, acronyms := all.names, all.acronyms
	err = r.Terms(IdxRescan, "", func(_ string, c NodeID) bool {
		marked = append(marked, c)
		return true
	})
	for _, c := range marked {
		if err != nil {
			break
		}
		var n Node
		if n, err = r.Node(c); ErrorCode(err) == NotFound {
			err = nil
			continue
		}
		if vocab.OneWord(n.Label) {
			if surface == nil {
				surface = map[NodeID]int{}
			}
			surface[c] = 0
		}
		// every name of the concept, the old ones too: the scan finds
		// papers that say them where the tagger did not (a new alias
		// brings them in as a new concept does)
		for _, name := range append([]string{n.Label}, n.Aliases...) {
			if vocab.IsOneAcronym(name) {
				short := ident.SingularAcronym(name)
				stats := newStoreStats(r, &err)
				if acronymStandsFor(stats, short, ident.ConceptKey(n.Label)) && err == nil {
					acronyms[short] = c
				}
				if k := ident.ConceptKey(name); readAsWords(name) && k != "" {
					// read as its words ("GPT-4o", "ResNet-50"): found by
					// its key, as linking finds it
					names[k], all.spelling[k] = c, name
				}
			} else if k := ident.ConceptKey(name); k != "" {
				names[k], all.spelling[k] = c, name
			}
		}
	}
	var papers int64
	if err == nil && len(marked) > 0 {
		papers, err = r.Counter(cntPapers)
	}
	r.Close()
	if err != nil || len(marked) == 0 {
		return nil, marked, nil, err
	}
	all.surface = surface
	// Ids come from one sequence: a paper stored after a concept was made
	// was linked to it then, and is not scanned for it.
	var newest uint64
	for _, c := range marked {
		newest = max(newest, c.Seq())
	}
	add = &gains{}
	var after NodeID
	scanned, read := 0, 0
	printer, _ := s.terms.(ScanPrinter)
	wantNames, wantAcronyms := keySet(names), keySet(acronyms)
	var look *rescanLook
	for {
		ids, err := s.paperIDs(ctx, after, rescanChunk)
		if err != nil {
			return nil, nil, nil, err
		}
		for len(ids) > 0 && ids[len(ids)-1].Seq() > newest {
			ids = ids[:len(ids)-1]
		}
		if len(ids) == 0 {
			break
		}
		after = ids[len(ids)-1]
		// what the chunk's papers can be linked to: a concept older than
		// them all passes no print (its scan links only papers stored
		// before it) unless its word is counted. It is still looked for:
		// an acronym not looked for is read as its word, which may be a
		// concept's name.
		// (compiled again only when the set shrinks to where prints help:
		// a first settle of a large ingest looks for tens of thousands)
		if n := all.sizeFrom(ids[0].Seq()); look == nil || n < look.size && printer != nil && n <= maxPrintNames {
			look = all.from(ids[0].Seq()).look(printer)
		}
		texts, err := s.scanInputs(ctx, ids, printer, look.maySay)
		if err != nil {
			return nil, nil, nil, err
		}
		found := make([]map[NodeID]float64, len(ids))
		said := make([][]NodeID, len(ids)) // one-word concepts a paper says
		onEveryCore(len(texts), func(i int) {
			t := &texts[i]
			if t.skip {
				return
			}
			visit := func(key string, acronym bool, count int) {
				c, ok := names[key]
				if acronym {
					c, ok = acronyms[key]
				}
				if !ok {
					return
				}
				if _, one := surface[c]; one && !acronym {
					said[i] = append(said[i], c)
				}
				if c.Seq() < ids[i].Seq() {
					return // stored after c: linked then
				}
				if found[i] == nil {
					found[i] = map[NodeID]float64{}
				}
				found[i][c] = max(found[i][c], min(0.5, 0.05+0.05*float64(count)))
			}
			if t.print == nil && printer != nil { // its first scan: keep its print
				t.print, t.newPrint = printer.ScanMentionsPrint(t.title, t.text, wantNames, wantAcronyms, visit), true
			} else {
				s.terms.ScanMentions(t.title, t.text, wantNames, wantAcronyms, visit)
			}
		})
		if err := s.storePrints(ctx, ids, texts); err != nil {
			return nil, nil, nil, err
		}
		for i := range texts {
			if !texts[i].skip {
				read++
			}
		}
		for i, f := range found {
			for c, w := range f {
				add.scanned(ids[i], c, w)
			}
			for _, c := range said[i] {
				surface[c]++
			}
		}
		scanned += len(ids)
		s.report(StageRescan, scanned, int(papers)) // papers stored after the concepts are not read
	}
	s.report(StageRescanRead, read, scanned)

	return add, marked, surface, nil
}

// maxPrintNames: a rescan for more names and acronyms than this (the first
// settle of a large ingest) reads every text; prints would pass nearly all.
const maxPrintNames = 2000

// rescanNames is what a rescan looks for: concept keys and acronyms, each
// with its concept, the names behind the keys (for prints) and the
// one-word concepts whose sayings are counted (in every paper scanned).
type rescanNames struct {
	names, acronyms map[string]NodeID
	spelling        map[string]string
	surface         map[NodeID]int
}

// keeps reports whether papers stored after the id sequence's seq can be
// linked to c or counted for it: c made after seq, or counted.
func (n rescanNames) keeps(c NodeID, seq uint64) bool {
	_, counted := n.surface[c]
	return counted || c.Seq() > seq
}

// sizeFrom is from(seq).size(), without making it.
func (n rescanNames) sizeFrom(seq uint64) int {
	k := 0
	for _, m := range []map[string]NodeID{n.names, n.acronyms} {
		for _, c := range m {
			if n.keeps(c, seq) {
				k++
			}
		}
	}
	return k
}

// from is what papers stored after the id sequence's seq can be linked to
// or counted for.
func (n rescanNames) from(seq uint64) rescanNames {
	keep := func(c NodeID) bool { return n.keeps(c, seq) }
	out := rescanNames{names: map[string]NodeID{}, acronyms: map[string]NodeID{}, spelling: n.spelling, surface: n.surface}
	for k, c := range n.names {
		if keep(c) {
			out.names[k] = c
		}
	}
	for a, c := range n.acronyms {
		if keep(c) {
			out.acronyms[a] = c
		}
	}
	return out
}

// rescanLook is the print filter of a rescanNames (maySay nil: read
// every text).
type rescanLook struct {
	size   int
	maySay func([]byte) bool
}

func (n rescanNames) size() int { return len(n.names) + len(n.acronyms) }

func (n rescanNames) look(printer ScanPrinter) *rescanLook {
	l := &rescanLook{size: n.size()}
	if printer != nil && n.size() <= maxPrintNames {
		spelled := make([]string, 0, len(n.names))
		for k := range n.names {
			spelled = append(spelled, n.spelling[k])
		}
		slices.Sort(spelled)
		l.maySay = printer.ScanFilter(spelled, slices.Sorted(maps.Keys(n.acronyms)))
	}
	return l
}

// scanInput is one paper of a rescan: its text, or skip when its print
// says it has none of the names looked for.
type scanInput struct {
	titleText
	skip     bool
	print    []byte // its current print (nil: none yet)
	newPrint bool   // made by this scan: to be stored
}

// scanInputs reads the papers of a rescan: each paper's print first, and
// its text only when it has no current print or the print may say one of
// the names (maySay; nil: read every text).
func (s *Service) scanInputs(ctx context.Context, ids []NodeID, printer ScanPrinter, maySay func([]byte) bool) ([]scanInput, error) {
	r, err := s.store.Read(ctx)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	out := make([]scanInput, len(ids))
	if printer != nil {
		for i, id := range ids {
			p, err := r.Value(ValScanPrint, authorTerm(id))
			if err != nil && ErrorCode(err) != NotFound {
				return nil, err
			}
			if p != nil && printer.ScanPrintCurrent(p) {
				out[i].print = p
			}
		}
		if maySay != nil { // tens of µs a print: on every core
			onEveryCore(len(out), func(i int) {
				out[i].skip = out[i].print != nil && !maySay(out[i].print)
			})
		}
	}
	for i, id := range ids {
		if out[i].skip {
			continue
		}
		if out[i].titleText, err = readTitleText(r, id); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// onEveryCore runs fn for 0..n-1 on one goroutine per core and waits.
func onEveryCore(n int, fn func(i int)) {
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// storePrints stores the prints a rescan made. A print is a function of
// its paper's text: one written twice is the same, one lost to an
// interrupt is made again by the next scan, and one whose text changed
// since it was read (a record merged another abstract, and dropped the
// print) is not stored.
func (s *Service) storePrints(ctx context.Context, ids []NodeID, in []scanInput) error {
	var idx []int
	for i := range in {
		if in[i].newPrint {
			idx = append(idx, i)
		}
	}
	return s.eachBatch(ctx, len(idx), func(w *writer, i int) error {
		id, x := ids[idx[i]], &in[idx[i]]
		abs, err := w.tx.Abstracts(id)
		if err != nil || paperText(abs) != x.text {
			return err
		}
		return w.tx.PutValue(ValScanPrint, authorTerm(id), x.print)
	})
}
