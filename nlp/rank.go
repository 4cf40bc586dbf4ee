package nlp

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/ident"
)

// Params weigh the evidence in a term's score. DefaultParams were tuned on
// the keyphrase benchmarks' train splits (nlp/benchmark_test.go).
type Params struct {
	SubWeight   float64 // an occurrence inside a longer phrase, relative to a whole one
	TFExp       float64 // exponent on term frequency (damping)
	TitleBoost  float64 // multiplier for a term in the title
	DefBoost    float64 // multiplier for the long form of a defined acronym
	PosWeight   float64 // bonus for an early first occurrence: 1 + PosWeight/(1 + first/PosScale)
	PosScale    float64
	SingleWord  float64 // multiplier for one-word terms (not acronyms)
	MultiWord   float64 // multiplier per word beyond the first, up to three
	MaxDFShare  float64 // terms in more than this share of documents are generic (needs ≥ MinDocs)
	MinDocs     int
	AcronymMult float64 // multiplier for a bare acronym term
	// FragmentMult multiplies a span only ever seen as the front of a
	// longer phrase ("large language" of "large language model"), or only
	// inside one longer phrase ("space model" of "state space model").
	FragmentMult float64
	// IDFExp is the exponent on the inverse document frequency.
	IDFExp float64
}

// DefaultParams is the tuned setting (`KG_TUNE=1 go test -run '^$' -bench
// TuneParams -benchtime 1x -v ./nlp`), one knob at a time over the sum of F@5 and F@10 on Inspec train,
// KDD, WWW and SemEval-2010 train (Inspec dev checked, never tuned on).
// Whole phrases count five times more than spans inside longer ones
// (SubWeight 0.2): the keys indexers give are whole noun phrases. A title
// is worth its position, no more (TitleBoost 1: a boost on top of the
// position's lost 4 points of Inspec F@10). The square root of the inverse
// document frequency (IDFExp 0.5) gains on the four sets together over the
// plain one.
var DefaultParams = Params{
	SubWeight: 0.2, TFExp: 0.9, TitleBoost: 1, DefBoost: 3, PosWeight: 8, PosScale: 80,
	SingleWord: 0.4, MultiWord: 0, MaxDFShare: 0.15, MinDocs: 50, AcronymMult: 0.8, FragmentMult: 0,
	IDFExp: 0.5,
}

// features are what a term's score is made of.
type features struct {
	freq, sub               float64
	first                   int32
	words                   int
	title, defined, acronym bool
	fragment                bool
}

// score is a term's raw score; idf is 1 without corpus statistics.
func (p Params) score(f features, idf float64) float64 {
	tf := f.freq + p.SubWeight*f.sub
	s := math.Pow(max(tf, 0.5), p.TFExp) * math.Pow(idf, p.IDFExp)
	if f.title {
		s *= p.TitleBoost
	}
	if f.defined {
		s *= p.DefBoost
	}
	s *= 1 + p.PosWeight/(1+float64(f.first)/p.PosScale)
	if f.fragment {
		s *= p.FragmentMult
	}
	switch {
	case f.acronym:
		s *= p.AcronymMult
	case f.words == 1:
		s *= p.SingleWord
	default:
		s *= 1 + p.MultiWord*float64(min(f.words, 4)-1)
	}
	return s
}

// idfOf is a key's inverse document frequency: log(1 + N/df), 1 without
// statistics.
func idfOf(stats graph.CorpusStats, key string) float64 {
	if stats == nil || stats.Docs() == 0 {
		return 1
	}
	return math.Log(1 + float64(stats.Docs())/float64(max(stats.DocFreq(key), 1)))
}

// Rank scores the candidates against corpus statistics (nil: none) with
// DefaultParams and returns the best n terms, scores scaled to (0, 1].
func (a *Analysis) Rank(stats graph.CorpusStats, n int) []graph.Term {
	return a.RankWith(DefaultParams, stats, n)
}

type scored struct {
	c     *Candidate
	score float64
}

// RankWith is Rank with explicit parameters.
func (a *Analysis) RankWith(p Params, stats graph.CorpusStats, n int) []graph.Term {
	return (&Ranking{a: a, stats: stats, out: a.ranked(p, stats)}).Top(n)
}

// Ranking is an analysis scored against corpus statistics with
// DefaultParams (graph.Ranking).
type Ranking struct {
	a     *Analysis
	stats graph.CorpusStats
	out   []scored // best first
}

var _ graph.Ranking = (*Ranking)(nil)

// Ranked implements graph.TextAnalysis.
func (a *Analysis) Ranked(stats graph.CorpusStats) graph.Ranking {
	return &Ranking{a: a, stats: stats, out: a.ranked(DefaultParams, stats)}
}

// best is the raw score of the best key term (0 without any).
func (r *Ranking) best() float64 {
	if len(r.out) == 0 {
		return 0
	}
	return r.out[0].score
}

// relative scales a raw score to the best key term's: (0, 1].
func (r *Ranking) relative(s float64) float64 {
	w := 1.0
	if b := r.best(); b > 0 {
		w = min(1, s/b)
	}
	return max(graph.Round3(w), 0.001)
}

// Top returns the best n terms.
func (r *Ranking) Top(n int) []graph.Term {
	out := r.out[:min(n, len(r.out))]
	terms := make([]graph.Term, len(out))
	for i, o := range out {
		terms[i] = graph.Term{Name: o.c.Name, Aliases: o.c.Aliases, Score: r.relative(o.score),
			Introduced: o.c.Introduced, Single: o.c.Single(), Count: int(o.c.Freq + o.c.Sub), Fragment: o.score == 0}
	}
	return terms
}

// Uses returns every candidate's key with its weight: the ranked ones by
// their score, the others (generic across the corpus, a lone word said
// once) by what the text says of them, but not the fragments; and every
// acronym the text uses.
func (r *Ranking) Uses() []graph.Use {
	out := make([]graph.Use, 0, len(r.a.Cands))
	seen := make(map[string]bool, len(r.out))
	for _, s := range r.out {
		seen[s.c.Key] = true
		out = append(out, graph.Use{Key: s.c.Key, Weight: r.relative(s.score)})
	}
	for i := range r.a.Cands {
		c := &r.a.Cands[i]
		if seen[c.Key] || isFragment(c, r.stats) {
			continue // a fragment of a longer term is never a concept's name
		}
		seen[c.Key] = true
		s := DefaultParams.score(candFeatures(c, r.stats), idfOf(r.stats, c.Key))
		out = append(out, graph.Use{Key: c.Key, Weight: r.relative(s)})
	}
	// acronyms inside hyphenated words are no candidates ("LLM-as-a-Judge")
	for _, m := range r.a.mentions {
		if !m.acronym || strings.HasSuffix(m.key, versionMark) || seen[ident.ConceptKey(m.key)] {
			continue
		}
		k := ident.ConceptKey(m.key)
		seen[k] = true
		s := DefaultParams.score(features{freq: float64(m.count), first: m.first, words: 1, title: m.title, acronym: true},
			idfOf(r.stats, k))
		out = append(out, graph.Use{Key: k, Weight: r.relative(s)})
	}
	return out
}

// candFeatures are a candidate's features.
func candFeatures(c *Candidate, stats graph.CorpusStats) features {
	return features{freq: float64(c.Freq), sub: float64(c.Sub), first: c.First, words: int(c.Words),
		title: c.InTitle, defined: c.Defined, acronym: c.Acronym, fragment: isFragment(c, stats)}
}

// isFragment: a span only ever seen as the front of a longer phrase
// ("large language" of "large language model"), or only inside one longer
// phrase that the corpus uses as often ("space model" of "state space
// model"; "agent skill" of "transferable agent skill" is no fragment: the
// corpus uses it in many more papers).
func isFragment(c *Candidate, stats graph.CorpusStats) bool {
	if c.Freq > 0 || c.Defined || c.Acronym {
		return false
	}
	if !c.Tail {
		return true
	}
	return c.Nested && stats != nil && stats.DocFreq(c.Key) <= stats.DocFreq(c.parent)
}

// ranked scores every candidate that can be a key term, best first. It
// works on a copy: the analysis is cached and may be ranked (or its Keys
// read) again, and resolving acronyms below changes names, keys and counts.
func (a *Analysis) ranked(p Params, stats graph.CorpusStats) []scored {
	docs := 0
	if stats != nil {
		docs = stats.Docs()
	}
	cands := slices.Clone(a.Cands)
	for i := range cands {
		cands[i].Aliases = slices.Clip(cands[i].Aliases) // appends copy
	}
	merged := map[int]bool{}
	if stats != nil {
		// acronyms this text does not define stand for their usual long
		// form in the corpus, alone ("RL") or inside a name ("agent RL")
		byKey := map[string]int{}
		for i := range cands {
			byKey[cands[i].Key] = i
		}
		for i := range cands {
			c := &cands[i]
			long, ok := expandAcronyms(c.Name, stats)
			if !ok {
				continue
			}
			key := ident.ConceptKey(long)
			if j, ok := byKey[key]; ok && j != i {
				merged[i] = true
				cands[j].Freq += c.Freq
				cands[j].Sub += c.Sub
				cands[j].Aliases = appendUnique(cands[j].Aliases, c.Name)
				cands[j].First = min(cands[j].First, c.First)
				cands[j].InTitle = cands[j].InTitle || c.InTitle
				cands[j].Tail = cands[j].Tail || c.Tail
				cands[j].Introduced = cands[j].Introduced || c.Introduced
				continue
			}
			c.Aliases = appendUnique(c.Aliases, c.Name)
			c.Name, c.Key, c.Acronym = long, key, false
			c.Words = int16(len(strings.Fields(long)))
			byKey[key] = i
		}
	}
	var out []scored
	for i := range cands {
		if merged[i] {
			continue
		}
		c := &cands[i]
		tf := float64(c.Freq) + p.SubWeight*float64(c.Sub)
		if tf <= 0 && !c.Defined {
			continue
		}
		if c.Words == 1 && !c.Acronym && !c.Defined && !c.InTitle && tf < 2 {
			continue // a lone common noun said once is noise
		}
		idf := 1.0
		if docs > 0 {
			df := max(stats.DocFreq(c.Key), 1)
			if docs >= p.MinDocs && float64(df) > p.MaxDFShare*float64(docs) && !c.Defined {
				continue // generic across the corpus: "experiments", "our method"
			}
			idf = math.Log(1 + float64(docs)/float64(df))
		}
		out = append(out, scored{c, p.score(candFeatures(c, stats), idf)})
	}
	slices.SortFunc(out, func(x, y scored) int {
		if c := cmp.Compare(y.score, x.score); c != 0 {
			return c
		}
		return strings.Compare(x.c.Name, y.c.Name)
	})
	return out
}

// expandAcronyms replaces the acronyms of a name that the corpus defines
// ("agent RL" → "agent reinforcement learning").
func expandAcronyms(name string, stats graph.CorpusStats) (string, bool) {
	if !strings.ContainsFunc(name, isUpperRune) {
		return "", false
	}
	words := strings.Fields(name)
	changed := false
	for i, w := range words {
		if !isAcronym(w) {
			continue
		}
		if long, ok := stats.Acronym(w); ok && ident.ConceptKey(long) != ident.ConceptKey(w) {
			words[i] = long
			changed = true
		}
	}
	if !changed {
		return "", false
	}
	return strings.Join(words, " "), true
}

func isUpperRune(r rune) bool { return unicode.IsUpper(r) }

// sortLinks orders links by weight, then by concept id.
func sortLinks(ls []graph.Link) {
	slices.SortFunc(ls, func(x, y graph.Link) int {
		if c := cmp.Compare(y.Weight, x.Weight); c != 0 {
			return c
		}
		return cmp.Compare(x.Concept, y.Concept)
	})
}

// MemStats are corpus statistics counted in memory over a set of analyses:
// `kg terms` reads all its input first and ranks every document against it.
type MemStats struct {
	N        int
	DF       map[string]int
	Acronyms map[string]string // acronym → long form, the most frequent definition
	acrCount map[string]map[string]int
}

// NewMemStats returns empty statistics.
func NewMemStats() *MemStats {
	return &MemStats{DF: map[string]int{}, Acronyms: map[string]string{}, acrCount: map[string]map[string]int{}}
}

// Add counts one document.
func (m *MemStats) Add(a *Analysis) {
	m.N++
	for _, k := range a.Keys() {
		if _, ok := m.DF[k]; ok {
			m.DF[k]++
		} else {
			m.DF[strings.Clone(k)] = 1 // keys may share memory with a whole text
		}
	}
	for _, c := range a.Cands {
		if !c.Defined {
			continue
		}
		for _, al := range c.Aliases {
			if m.acrCount[al] == nil {
				m.acrCount[strings.Clone(al)] = map[string]int{}
			}
			if _, ok := m.acrCount[al][c.Name]; !ok {
				m.acrCount[al][strings.Clone(c.Name)] = 0
			}
			m.acrCount[al][c.Name]++
			best, n := "", 0
			for name, k := range m.acrCount[al] {
				if k > n || (k == n && name < best) {
					best, n = name, k
				}
			}
			m.Acronyms[al] = best
		}
	}
}

func (m *MemStats) Docs() int              { return m.N }
func (m *MemStats) DocFreq(key string) int { return m.DF[key] }
func (m *MemStats) Acronym(s string) (string, bool) {
	l, ok := m.Acronyms[singularAcronym(s)]
	if !ok || !graph.AcronymSpelledOut(m, s) {
		return "", false
	}
	return l, true
}
