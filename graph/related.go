// Related work: the papers to cite for what a researcher brings (a draft's
// text, concept names, seed papers), scored over the facet index, with the
// reasons. paperindex/doc.go ("Related work") explains the score and where
// it comes from.

package graph

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/researchkg/kg/graph/ident"
	"github.com/researchkg/kg/graph/paperindex"
	"github.com/researchkg/kg/graph/vocab"
)

// RelatedQuery is what a researcher brings to find related work. At least
// one of Text, Concepts and Papers must be given.
type RelatedQuery struct {
	// Text is a draft's title and abstract (the title on the first line
	// when there are several), analysed as stored papers are.
	Text string
	// Concepts are concept names or aliases, as ConceptByName resolves
	// them.
	Concepts []string
	// Papers are seed papers (positive examples); Exclude are papers to
	// leave out (already cited, or negative examples).
	Papers, Exclude []NodeID
	// Filter selects the papers that may be answers (nil: any).
	Filter *PaperFilter
	First  int
}

// Limits of a related-work query.
const (
	MaxRelatedSeeds = 100    // seed papers, excluded papers, concept names
	MaxRelatedText  = 20_000 // bytes of draft text
)

// Related is a paper related to what was asked, with the reasons.
type Related struct {
	Paper *Node
	Score float64
	// SharedConcepts are the concepts of the query the paper mentions, by
	// their part of the score (ConceptShares, parallel) descending.
	SharedConcepts []*Node
	ConceptShares  []float64
	SharedAuthors  []*Node // people of the seed papers who wrote it
	SharedSubjects []*Node // subjects it shares with the seed papers
	// SharedTerms are a draft's key terms that are no concepts yet (used
	// by too few papers) and that this paper uses too.
	SharedTerms []string
	// Why is the reasons in one line a person reads: "shares reward
	// model, RLHF; by Wei Zhang; cs.CL, 2025".
	Why string
}

// relNestedDamp: the weight kept by a query concept whose name is inside
// another's (damp).
const relNestedDamp = 0.5

// splitDraft cuts a draft into its title (its first line, when it has
// several and the first is short enough to be one) and its body.
func splitDraft(text string) (title, body string) {
	if t, rest, ok := strings.Cut(strings.TrimSpace(text), "\n"); ok && len(t) <= 300 {
		return strings.TrimSpace(t), rest
	}
	return "", text
}

// titleWords are the words of a title that may say what it is about: its
// folded words but function words, numbers and single letters.
func titleWords(title string) []string {
	var out []string
	for _, w := range ident.Tokens(title) {
		if len(w) > 1 && !vocab.FunctionWords[w] && !titleStopWords[w] && strings.ContainsFunc(w, func(r rune) bool { return r >= 'a' && r <= 'z' }) {
			out = append(out, w)
		}
	}
	return out
}

// titleStopWords are words of titles that say nothing of the topic.
var titleStopWords = map[string]bool{"is": true, "are": true, "be": true, "we": true, "our": true, "its": true,
	"towards": true, "toward": true, "based": true, "at": true, "as": true, "or": true, "not": true, "vs": true,
	"can": true, "do": true, "does": true, "how": true, "what": true, "why": true, "when": true, "this": true}

// RelatedPapers ranks the papers related to p: RelatedWork with p as the
// one seed.
func (v *View) RelatedPapers(p NodeID, first int) ([]Related, error) {
	if _, err := v.Node(p); err != nil {
		return nil, err
	}
	return v.RelatedWork(RelatedQuery{Papers: []NodeID{p}, First: first})
}

// RelatedWork finds the papers related to what q brings, best first, with
// the reasons. Seed and excluded papers are never answers.
func (v *View) RelatedWork(q RelatedQuery) ([]Related, error) {
	if strings.TrimSpace(q.Text) == "" && len(q.Concepts) == 0 && len(q.Papers) == 0 {
		return nil, Errorf(Invalid, "relatedWork: give text, concepts or papers")
	}
	if len(q.Text) > MaxRelatedText {
		return nil, Errorf(Invalid, "relatedWork.text: %d bytes; at most %d", len(q.Text), MaxRelatedText)
	}
	for _, l := range []struct {
		name string
		n    int
	}{{"concepts", len(q.Concepts)}, {"papers", len(q.Papers)}, {"exclude", len(q.Exclude)}} {
		if l.n > MaxRelatedSeeds {
			return nil, Errorf(Invalid, "relatedWork.%s: %d values; at most %d", l.name, l.n, MaxRelatedSeeds)
		}
	}
	// the concepts asked for, by id: named ones, the text's, the seeds'
	ask := &paperindex.Ask{Concepts: map[uint64]float64{}}
	want := ask.Concepts
	for _, name := range q.Concepts {
		n, err := v.ConceptByName(name)
		if ErrorCode(err) == NotFound {
			return nil, Errorf(Invalid, "relatedWork.concepts: unknown concept %q", ident.Clip(name, 64))
		} else if err != nil {
			return nil, err
		}
		want[uint64(n.ID)] = max(want[uint64(n.ID)], 1)
		ask.Named = append(ask.Named, uint64(n.ID))
	}
	if strings.TrimSpace(q.Text) != "" {
		links, ts, err := v.textEvidence(q.Text)
		if err != nil {
			return nil, err
		}
		ask.Terms = ts
		for _, l := range links {
			want[uint64(l.Concept)] = max(want[uint64(l.Concept)], l.Weight)
		}
	}
	for _, list := range [][]NodeID{q.Papers, q.Exclude} {
		for _, p := range list {
			if p.Kind() != KindPaper {
				return nil, Errorf(Invalid, "relatedWork: %s is not a paper", p)
			}
			if _, err := v.Node(p); ErrorCode(err) == NotFound {
				return nil, Errorf(Invalid, "relatedWork: unknown paper %s", p)
			} else if err != nil {
				return nil, err
			}
		}
	}
	sel, err := v.Select(q.Filter)
	if err != nil {
		return nil, err
	}
	first := max(q.First, 0)
	title, _ := splitDraft(q.Text)
	ask.TitleWords, ask.Filter = titleWords(title), &sel.q
	ask.Seeds, ask.Exclude = uint64s(q.Papers), uint64s(q.Exclude)
	var found []paperindex.Found
	err = v.withIndex(func(ix *paperindex.Index) error {
		rq := ix.Resolve(ask)
		if err := v.damp(rq); err != nil {
			return err
		}
		found = ix.Related(rq, first)
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]Related, 0, len(found))
	for _, f := range found {
		r, err := v.reasons(f)
		if ErrorCode(err) == NotFound {
			continue // gone since the index was read
		}
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// whyConcepts and whyPeople bound what the one-line reason names.
const (
	whyConcepts = 3
	whyPeople   = 2
)

// reasons loads an answer's nodes and writes its line.
func (v *View) reasons(f paperindex.Found) (Related, error) {
	var r Related
	var err error
	if r.Paper, err = v.Node(NodeID(f.Paper)); err != nil {
		return r, err
	}
	r.Score = f.Score
	r.SharedTerms = f.Terms
	for i, id := range f.Concepts {
		n, err := v.Node(NodeID(id))
		if ErrorCode(err) == NotFound {
			continue
		} else if err != nil {
			return r, err
		}
		r.SharedConcepts = append(r.SharedConcepts, n)
		r.ConceptShares = append(r.ConceptShares, f.Shares[i])
	}
	if r.SharedAuthors, err = v.Nodes(nodeIDs(f.Authors)); err != nil {
		return r, err
	}
	if r.SharedSubjects, err = v.Nodes(nodeIDs(f.Subjects)); err != nil {
		return r, err
	}
	subject := ""
	if len(r.SharedSubjects) > 0 {
		subject = r.SharedSubjects[0].Label
	} else if subs, _, err := v.edgeList(NodeID(f.Paper), InSubject, Out); err != nil {
		return r, err
	} else if len(subs) > 0 {
		if n, err := v.Node(subs[0]); err == nil {
			subject = n.Label
		}
	}
	r.Why = whyLine(r, subject)
	return r, nil
}

// whyLine writes the reasons in one line: "shares reward model, RLHF; by
// Wei Zhang; cs.CL, 2025" (a concept by its shortest alias when that is an
// acronym; the paper's subject, else its venue; its year).
func whyLine(r Related, subject string) string {
	var parts []string
	if shared := len(r.SharedConcepts) + len(r.SharedTerms); shared > 0 {
		var names []string
		words := make([][]string, len(r.SharedConcepts)) // each name's words, once
		for i, c := range r.SharedConcepts {
			words[i] = nameWords(c.Label)
		}
		for i, c := range r.SharedConcepts {
			// "model agent" says nothing beside "large language model agent"
			if !slices.ContainsFunc(words, func(wb []string) bool { return len(words[i]) < len(wb) && wordsInWords(words[i], wb) }) {
				names = append(names, conceptShortName(c))
			}
		}
		names = append(names, r.SharedTerms...)
		if len(names) > whyConcepts {
			names = append(names[:whyConcepts], fmt.Sprintf("%d more", len(names)-whyConcepts))
		}
		parts = append(parts, "shares "+strings.Join(names, ", "))
	}
	if len(r.SharedAuthors) > 0 {
		var names []string
		for i, a := range r.SharedAuthors {
			if i == whyPeople {
				names = append(names, fmt.Sprintf("%d more", len(r.SharedAuthors)-i))
				break
			}
			names = append(names, a.Label)
		}
		parts = append(parts, "by "+strings.Join(names, ", "))
	}
	var where []string
	if subject != "" {
		where = append(where, subject)
	} else if r.Paper.Venue != "" {
		where = append(where, ident.Clip(r.Paper.Venue, 40))
	}
	if r.Paper.Year != 0 {
		where = append(where, fmt.Sprint(r.Paper.Year))
	}
	if len(where) > 0 {
		parts = append(parts, strings.Join(where, ", "))
	}
	return strings.Join(parts, "; ")
}

// conceptShortName is how a reason names a concept: a name of three or
// more words by its acronym when it has one ("RLHF"), else by its name
// ("reward model").
func conceptShortName(c *Node) string {
	if len(strings.Fields(c.Label)) < 3 {
		return c.Label
	}
	for _, a := range c.Aliases {
		if vocab.IsOneAcronym(a) {
			return a
		}
	}
	return c.Label
}

// damp halves the weight of each query concept whose name is a run of
// another query concept's: "model agent" and "language model agent" in a
// query that has "large language model agent" are the same evidence
// again, and would triple its weight.
func (v *View) damp(q *paperindex.Query) error {
	type named struct {
		id    uint64
		words []string
	}
	var cs []named
	for _, c := range q.Concepts() {
		n, err := v.Node(NodeID(c))
		if ErrorCode(err) == NotFound {
			continue
		} else if err != nil {
			return err
		}
		cs = append(cs, named{c, nameWords(n.Label)})
	}
	for _, a := range cs {
		for _, b := range cs {
			if len(a.words) < len(b.words) && wordsInWords(a.words, b.words) { // a nested in b, words found once
				q.Scale(a.id, relNestedDamp)
				break
			}
		}
	}
	return nil
}

// uint64s are node ids as the index takes them.
func uint64s(ids []NodeID) []uint64 {
	if ids == nil {
		return nil
	}
	out := make([]uint64, len(ids))
	for i, id := range ids {
		out[i] = uint64(id)
	}
	return out
}

// TextConcepts finds the concepts a text names, as ingest links a stored
// paper with this text: the extractor's analysis ranked against the
// store's statistics, its spans resolved to concepts and acronyms. A text
// of several lines is a draft: its first line is the title. Nil when the
// service has no term extractor.
func (v *View) TextConcepts(text string) ([]Link, error) {
	links, _, err := v.textEvidence(text)
	return links, err
}

// relTermTop: a draft's best key terms that are no concepts are looked up
// in the papers that use them (rare ones: a term of more than maxPostings
// papers has no complete list and says little).
const relTermTop = 30

// textEvidence is TextConcepts, and the draft's rare key terms that are
// no concepts with the papers that use them.
func (v *View) textEvidence(text string) ([]Link, []paperindex.Term, error) {
	if v.svc.terms == nil {
		return nil, nil, nil
	}
	title, body := splitDraft(text)
	stats := v.CorpusStats()
	var rerr error
	resolve := func(key string, acronym bool) (Concept, bool) {
		if rerr != nil {
			return Concept{}, false
		}
		ns := IdxConcept
		if acronym {
			ns = IdxAcronym
		}
		id, err := v.lookup(ns, key)
		if ErrorCode(err) == NotFound {
			return Concept{}, false
		}
		var n *Node
		if err == nil {
			n, err = v.Node(id)
		}
		if err != nil {
			if ErrorCode(err) != NotFound {
				rerr = err
			}
			return Concept{}, false
		}
		c := Concept{ID: id, Name: n.Label, Key: ident.ConceptKey(n.Label)}
		if acronym && !acronymStandsFor(stats, key, c.Key) {
			return Concept{}, false
		}
		if vocab.OneWord(c.Name) {
			if k, err := v.r.Counter(rejectedCounter(c.Key)); err != nil || k > 0 {
				rerr = err
				return Concept{}, false
			}
		}
		return c, true
	}
	ranked := v.svc.terms.Analyze(title, body).Ranked(stats)
	links := ranked.Link(resolve)
	if rerr == nil {
		rerr = stats.Err()
	}
	if rerr != nil {
		return nil, nil, rerr
	}
	terms, err := v.rareTerms(ranked, stats, links)
	return links, terms, err
}

// rareTerms are a draft's best key terms that are no concept it links to,
// used by at most maxPostings+1 papers, with those papers.
func (v *View) rareTerms(ranked Ranking, stats *StoreStats, links []Link) ([]paperindex.Term, error) {
	linked := map[string]bool{}
	for _, l := range links {
		if n, err := v.Node(l.Concept); err == nil {
			linked[ident.ConceptKey(n.Label)] = true
		}
	}
	docs := stats.Docs()
	var out []paperindex.Term
	for _, t := range ranked.Top(relTermTop) {
		key := ident.ConceptKey(t.Name)
		if t.Fragment || key == "" || linked[key] {
			continue
		}
		raw, err := v.r.Counter(dfCounter(key))
		if err != nil {
			return nil, err
		}
		df, level, seq := decodeDF(raw)
		if df == 0 || df > maxPostings+1 {
			continue
		}
		tt := paperindex.Term{Name: t.Name, Weight: t.Score, IDF: math.Log(1 + float64(docs)/float64(df))}
		if seq != 0 {
			tt.Papers = append(tt.Papers, uint64(MakeID(KindPaper, seq)))
			tt.PW = append(tt.PW, dfLevelWeight(level))
		}
		if err := v.r.Terms(IdxTermUse, key+" ", func(term string, p NodeID) bool {
			wt, err := strconv.ParseFloat(term[len(key)+1:], 64)
			if err != nil || wt <= 0 {
				wt = 0.001
			}
			tt.Papers = append(tt.Papers, uint64(p))
			tt.PW = append(tt.PW, wt)
			return len(tt.Papers) <= maxPostings+1
		}); err != nil {
			return nil, err
		}
		if len(tt.Papers) > 0 {
			out = append(out, tt)
		}
	}
	return out, nil
}
