package graph

import (
	"cmp"
	"slices"
	"strings"
)

// maxConceptsPerPaper bounds a paper's mentions.
const maxConceptsPerPaper = 20

// coOccurTop is how many of a paper's best concepts count for co-occurrence:
// 45 pairs a paper instead of 190, and the pairs that say most.
const coOccurTop = 10

// topConcepts picks a paper's coOccurTop best mentions, by weight then id,
// so the same stored weights always give the same set.
func topConcepts(m map[NodeID]float64) map[NodeID]bool {
	ids := make([]NodeID, 0, len(m))
	for c := range m {
		ids = append(ids, c)
	}
	slices.SortFunc(ids, func(a, b NodeID) int {
		if m[a] != m[b] {
			if m[a] > m[b] {
				return -1
			}
			return 1
		}
		return cmp.Compare(a, b)
	})
	top := make(map[NodeID]bool, coOccurTop)
	for _, c := range ids[:min(len(ids), coOccurTop)] {
		top[c] = true
	}
	return top
}

// dfCounter names the document frequency of a candidate key.
func dfCounter(key string) string { return "df/" + key }

// paperText is what the extractor reads of a paper: its title and every
// abstract.
func paperText(abstracts []string) string { return strings.Join(abstracts, "\n\n") }

// analyze runs the extractor, caching by text so the same text (a paper in
// two documents of one run, work done ahead by the pipeline) is not tagged
// twice.
func (w *writer) analyze(title, text string) TextAnalysis {
	key := title + "\x00" + text
	if a, ok := w.analyses[key]; ok {
		return a
	}
	a := w.svc.terms.Analyze(title, text)
	w.analyses[key] = a
	return a
}

// txStats are corpus statistics read inside the ingest transaction: they
// include this transaction's own counts, the paper count still pending.
type txStats struct {
	readerStats
	w *writer
}

func newTxStats(w *writer) txStats { return txStats{readerStats{w.tx}, w} }

func (s txStats) Docs() int { return s.readerStats.Docs() + int(s.w.counts[cntPapers]) }

// DocFreq answers from the values countTerms just wrote when it can.
func (s txStats) DocFreq(key string) int {
	if n, ok := s.w.df[key]; ok {
		return int(n)
	}
	return s.readerStats.DocFreq(key)
}

// countTerms moves the document frequencies of a paper from its old text's
// candidates to its new text's: keys in both do not move, so a replay
// changes nothing. old is nil when the paper was not counted before.
func (w *writer) countTerms(old, cur TextAnalysis) error {
	seen := map[string]int64{}
	if old != nil {
		for _, k := range old.Keys() {
			seen[k]--
		}
	}
	for _, k := range cur.Keys() {
		seen[k]++
	}
	keys := make([]string, 0, len(seen))
	for k, d := range seen {
		if d != 0 {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		n, err := w.tx.AddCounter(dfCounter(k), seen[k])
		if err != nil {
			return err
		}
		w.df[k] = n // ranking reads it next: spare the second lookup
	}
	return nil
}

// paperConcepts re-reads a paper's text after it changed: document
// frequencies move from the old text to the new (oldAbstracts nil: the
// paper is new or was never counted), then its mentions are ranked anew.
func (w *writer) paperConcepts(p *Node, oldAbstracts, abstracts []string, sortKey []byte) error {
	cur := w.analyze(p.Label, paperText(abstracts))
	var old TextAnalysis
	if oldAbstracts != nil && p.Terms == w.svc.terms.Version() {
		old = w.analyze(p.Label, paperText(oldAbstracts))
	}
	if err := w.countTerms(old, cur); err != nil {
		return err
	}
	if p.Terms != w.svc.terms.Version() {
		p.Terms = w.svc.terms.Version()
		if err := w.tx.PutNode(*p); err != nil {
			return err
		}
	}
	return w.setMentions(p, cur.Rank(newTxStats(w), maxConceptsPerPaper), sortKey)
}

// setMentions replaces a paper's mentions with terms. Co-occurrence pairs
// move by the difference between the old and new concept sets, so replaying
// the same terms changes nothing. A concept left without papers is removed.
func (w *writer) setMentions(p *Node, terms []Term, sortKey []byte) error {
	tx := w.tx
	old := map[NodeID]float64{}
	if err := tx.Edges(p.ID, Mentions, Out, func(c NodeID, wt float64) bool { old[c] = wt; return true }); err != nil {
		return err
	}
	cur := map[NodeID]float64{}
	var order []NodeID
	for _, t := range terms {
		if len(order) >= maxConceptsPerPaper {
			break
		}
		c, err := w.concept(t)
		if err != nil {
			return err
		}
		if c == 0 {
			continue
		}
		if _, dup := cur[c]; dup {
			cur[c] = max(cur[c], t.Score)
			continue
		}
		cur[c] = t.Score
		order = append(order, c)
	}
	// co-occurrence among each paper's top concepts: +1 for pairs new to
	// this paper, -1 for pairs it lost
	oldTop, curTop := topConcepts(old), topConcepts(cur)
	in := func(m map[NodeID]bool, a, b NodeID) bool { return m[a] && m[b] }
	for _, pass := range []struct {
		from, other map[NodeID]bool
		delta       int64
	}{{curTop, oldTop, 1}, {oldTop, curTop, -1}} {
		ids := make([]NodeID, 0, len(pass.from))
		for c := range pass.from {
			ids = append(ids, c)
		}
		slices.Sort(ids)
		for i, a := range ids {
			for _, b := range ids[i+1:] {
				if !in(pass.other, a, b) {
					if err := w.pair(CoOccurs, a, b, pass.delta); err != nil {
						return err
					}
				}
			}
		}
	}
	oldIDs := make([]NodeID, 0, len(old))
	for c := range old {
		oldIDs = append(oldIDs, c)
	}
	slices.Sort(oldIDs)
	// added or re-weighted concepts
	for _, c := range order {
		if _, had := old[c]; had {
			if old[c] != cur[c] {
				if _, err := tx.PutEdge(p.ID, Mentions, c, cur[c]); err != nil {
					return err
				}
			}
			continue
		}
		if _, err := w.edge(p.ID, Mentions, c, cur[c]); err != nil {
			return err
		}
		if _, err := tx.AddCounter(degreeCounter(c, Mentions), 1); err != nil {
			return err
		}
		if err := tx.PutListEntry(c, Mentions, sortKey); err != nil {
			return err
		}
	}
	// removed concepts
	for _, c := range oldIDs {
		if _, keep := cur[c]; keep {
			continue
		}
		if existed, err := tx.DeleteEdge(p.ID, Mentions, c); err != nil {
			return err
		} else if existed {
			w.count(cntEdges, -1)
		}
		if err := tx.DeleteListEntry(c, Mentions, sortKey); err != nil {
			return err
		}
		if n, err := tx.AddCounter(degreeCounter(c, Mentions), -1); err != nil {
			return err
		} else if n == 0 {
			if err := w.dropConcept(c); err != nil {
				return err
			}
		}
	}
	return nil
}

// concept resolves a term to a concept node, creating it, adding aliases and
// linking it into the broader/narrower hierarchy. It returns 0 for a term
// with no usable name.
func (w *writer) concept(t Term) (NodeID, error) {
	tx := w.tx
	key := ConceptKey(t.Name)
	if key == "" {
		return 0, nil
	}
	id, err := tx.Lookup(IdxConcept, key)
	if err != nil && ErrorCode(err) != NotFound {
		return 0, err
	}
	if err != nil {
		id = 0
		// Not known by its name; maybe by an alias (a bare acronym seen
		// before its definition): then the long form becomes the name.
		for _, a := range t.Aliases {
			aid, aerr := tx.Lookup(IdxConcept, ConceptKey(a))
			if aerr != nil {
				continue
			}
			n, err := tx.Node(aid)
			if err != nil {
				return 0, err
			}
			if ConceptKey(n.Label) == ConceptKey(a) {
				if err := w.renameConcept(&n, t.Name); err != nil {
					return 0, err
				}
				id = aid
			}
			break
		}
	}
	if id == 0 {
		if id, err = tx.NewID(KindConcept); err != nil {
			return 0, err
		}
		if err := tx.PutNode(Node{ID: id, Label: t.Name}); err != nil {
			return 0, err
		}
		if err := tx.PutLookup(IdxConcept, key, id); err != nil {
			return 0, err
		}
		if err := w.searchTerms(id, t.Name); err != nil {
			return 0, err
		}
		w.count(cntConcepts, 1)
		w.res.ConceptsAdded++
		if err := w.hierarchy(id, t.Name); err != nil {
			return 0, err
		}
	}
	return id, w.addAliases(id, key, t.Aliases)
}

// renameConcept gives a concept known by an acronym its long form as name,
// keeping the acronym as an alias.
func (w *writer) renameConcept(n *Node, name string) error {
	if err := w.tx.DeleteTerm(IdxConceptTail, reverseWords(strings.Fields(FoldKey(n.Label))), n.ID); err != nil {
		return err
	}
	n.Aliases = appendNew(n.Aliases, n.Label)
	n.Label = name
	if err := w.tx.PutNode(*n); err != nil {
		return err
	}
	if err := w.tx.PutLookup(IdxConcept, ConceptKey(name), n.ID); err != nil {
		return err
	}
	if err := w.searchTerms(n.ID, name); err != nil {
		return err
	}
	return w.hierarchy(n.ID, name)
}

// addAliases records new aliases of a concept; the first concept to claim
// an alias keeps it.
func (w *writer) addAliases(id NodeID, key string, aliases []string) error {
	tx := w.tx
	var n *Node
	changed := false
	for _, a := range aliases {
		ak := ConceptKey(a)
		if ak == "" || ak == key {
			continue
		}
		owner, err := tx.Lookup(IdxConcept, ak)
		indexed := err == nil
		if err != nil && ErrorCode(err) != NotFound {
			return err
		}
		if indexed && owner != id {
			continue
		}
		if n == nil {
			nn, err := tx.Node(id)
			if err != nil {
				return err
			}
			n = &nn
		}
		if slices.Contains(n.Aliases, a) || ConceptKey(n.Label) == ak {
			continue
		}
		n.Aliases = append(n.Aliases, a)
		changed = true
		if !indexed {
			if err := tx.PutLookup(IdxConcept, ak, id); err != nil {
				return err
			}
		}
		if err := w.searchTerms(id, a); err != nil {
			return err
		}
	}
	if changed {
		return tx.PutNode(*n)
	}
	return nil
}

// dropConcept removes a concept no paper mentions any more: its node,
// lookups, index entries and hierarchy links. Its narrower concepts are
// linked to the next broader one.
func (w *writer) dropConcept(c NodeID) error {
	tx := w.tx
	n, err := tx.Node(c)
	if err != nil {
		return err
	}
	for _, name := range append([]string{n.Label}, n.Aliases...) {
		k := ConceptKey(name)
		if owner, err := tx.Lookup(IdxConcept, k); err == nil && owner == c {
			if err := tx.DeleteLookup(IdxConcept, k); err != nil {
				return err
			}
		}
		for _, tok := range Tokens(name) {
			if err := tx.DeleteTerm(IdxSearch, tok, c); err != nil {
				return err
			}
		}
	}
	if err := tx.DeleteTerm(IdxConceptTail, reverseWords(strings.Fields(FoldKey(n.Label))), c); err != nil {
		return err
	}
	var parents, children []NodeID
	if err := tx.Edges(c, Broader, Out, func(p NodeID, _ float64) bool { parents = append(parents, p); return true }); err != nil {
		return err
	}
	if err := tx.Edges(c, Broader, In, func(ch NodeID, _ float64) bool { children = append(children, ch); return true }); err != nil {
		return err
	}
	for _, p := range parents {
		if _, err := tx.DeleteEdge(c, Broader, p); err != nil {
			return err
		}
		w.count(cntEdges, -1)
	}
	for _, ch := range children {
		if _, err := tx.DeleteEdge(ch, Broader, c); err != nil {
			return err
		}
		w.count(cntEdges, -1)
		cn, err := tx.Node(ch)
		if err != nil {
			return err
		}
		if err := w.linkBroader(ch, strings.Fields(FoldKey(cn.Label))); err != nil {
			return err
		}
	}
	if err := tx.DeleteNode(c); err != nil {
		return err
	}
	w.count(cntConcepts, -1)
	return nil
}

func appendNew(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

// linkBroader links a concept to the longest proper tail of its words that
// is itself a concept ("vision-language process reward model" → "process
// reward model").
func (w *writer) linkBroader(id NodeID, words []string) error {
	for k := 1; k < len(words); k++ {
		parent, err := w.tx.Lookup(IdxConcept, ConceptKey(strings.Join(words[k:], " ")))
		if err == nil && parent != id {
			_, err := w.edge(id, Broader, parent, 0)
			return err
		} else if err != nil && ErrorCode(err) != NotFound {
			return err
		}
	}
	return nil
}

// hierarchy links a new concept to its broader concept and re-parents the
// existing longer concepts that end with it.
func (w *writer) hierarchy(id NodeID, name string) error {
	tx := w.tx
	words := strings.Fields(FoldKey(name))
	if len(words) == 0 {
		return nil
	}
	if err := w.linkBroader(id, words); err != nil {
		return err
	}
	rev := reverseWords(words)
	var longer []NodeID
	if err := tx.Terms(IdxConceptTail, rev+" ", func(_ string, c NodeID) bool {
		if c != id {
			longer = append(longer, c)
		}
		return true
	}); err != nil {
		return err
	}
	for _, c := range longer {
		var cur NodeID
		if err := tx.Edges(c, Broader, Out, func(p NodeID, _ float64) bool { cur = p; return false }); err != nil {
			return err
		}
		if cur == id {
			continue
		}
		if cur != 0 {
			pn, err := tx.Node(cur)
			if err != nil {
				return err
			}
			if len(strings.Fields(FoldKey(pn.Label))) >= len(words) {
				continue // already under a closer parent
			}
			if _, err := tx.DeleteEdge(c, Broader, cur); err != nil {
				return err
			}
			w.count(cntEdges, -1)
		}
		if _, err := w.edge(c, Broader, id, 0); err != nil {
			return err
		}
	}
	return tx.PutTerm(IdxConceptTail, rev, id)
}

func reverseWords(words []string) string {
	r := slices.Clone(words)
	slices.Reverse(r)
	return strings.Join(r, " ")
}
