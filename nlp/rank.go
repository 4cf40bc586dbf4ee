package nlp

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/researchkg/kg/graph"
)

// Params weigh the evidence in a term's score. DefaultParams were tuned on
// the KDD, WWW and SemEval-2010 benchmarks (README, "Key terms").
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
	// longer phrase ("large language" of "large language model").
	FragmentMult float64
}

// DefaultParams is the tuned setting.
var DefaultParams = Params{
	SubWeight: 1, TFExp: 0.9, TitleBoost: 2, DefBoost: 3, PosWeight: 4, PosScale: 40,
	SingleWord: 0.6, MultiWord: 0, MaxDFShare: 0.15, MinDocs: 50, AcronymMult: 1.2, FragmentMult: 0.1,
}

// Rank scores the candidates against corpus statistics (nil: none) with
// DefaultParams and returns the best n terms, scores scaled to (0, 1].
func (a *Analysis) Rank(stats graph.CorpusStats, n int) []graph.Term {
	return a.RankWith(DefaultParams, stats, n)
}

// RankWith is Rank with explicit parameters.
func (a *Analysis) RankWith(p Params, stats graph.CorpusStats, n int) []graph.Term {
	docs := 0
	if stats != nil {
		docs = stats.Docs()
	}
	type scored struct {
		c     *Candidate
		score float64
	}
	var out []scored
	// a bare acronym defined elsewhere in the corpus counts for its long form
	merged := map[int]bool{}
	// a copy: the analysis is cached and may be ranked (or its Keys read)
	// again, and resolving acronyms below changes names, keys and counts
	cands := slices.Clone(a.Cands)
	for i := range cands {
		cands[i].Aliases = slices.Clip(cands[i].Aliases) // appends copy
	}
	if stats != nil {
		byKey := map[string]int{}
		for i := range cands {
			byKey[cands[i].Key] = i
		}
		for i := range cands {
			c := &cands[i]
			if !c.Acronym || c.Defined {
				continue
			}
			long, ok := stats.Acronym(c.Name)
			if !ok {
				continue
			}
			if j, ok := byKey[graph.ConceptKey(long)]; ok && j != i {
				merged[i] = true
				cands[j].Freq += c.Freq
				cands[j].Sub += c.Sub
				cands[j].Aliases = appendUnique(cands[j].Aliases, c.Name)
				cands[j].First = min(cands[j].First, c.First)
				cands[j].InTitle = cands[j].InTitle || c.InTitle
				continue
			}
			c.Aliases = appendUnique(c.Aliases, c.Name)
			c.Name, c.Key, c.Acronym = long, graph.ConceptKey(long), false
			c.Words = int16(len(strings.Fields(long)))
		}
	}
	for i := range cands {
		if merged[i] {
			continue
		}
		c := &cands[i]
		tf := float64(c.Freq) + p.SubWeight*float64(c.Sub)
		if tf <= 0 && !c.Defined {
			continue
		}
		fragment := c.Freq == 0 && !c.Tail && !c.Defined && !c.Acronym // only ever the front of a longer phrase: "large language" of "large language model"
		if c.Words == 1 && !c.Acronym && !c.Defined && !c.InTitle && tf < 2 {
			continue // a lone common noun said once is noise
		}
		s := math.Pow(max(tf, 0.5), p.TFExp)
		if docs > 0 {
			df := max(stats.DocFreq(c.Key), 1)
			if docs >= p.MinDocs && float64(df) > p.MaxDFShare*float64(docs) && !c.Defined {
				continue // generic across the corpus: "experiments", "our method"
			}
			s *= math.Log(1 + float64(docs)/float64(df))
		}
		if c.InTitle {
			s *= p.TitleBoost
		}
		if c.Defined {
			s *= p.DefBoost
		}
		s *= 1 + p.PosWeight/(1+float64(c.First)/p.PosScale)
		if fragment {
			s *= p.FragmentMult
		}
		switch {
		case c.Acronym:
			s *= p.AcronymMult
		case c.Words == 1:
			s *= p.SingleWord
		default:
			s *= 1 + p.MultiWord*float64(min(c.Words, 4)-1)
		}
		out = append(out, scored{c, s})
	}
	slices.SortFunc(out, func(x, y scored) int {
		if c := cmp.Compare(y.score, x.score); c != 0 {
			return c
		}
		return strings.Compare(x.c.Name, y.c.Name)
	})
	if len(out) > n {
		out = out[:n]
	}
	terms := make([]graph.Term, len(out))
	for i, o := range out {
		terms[i] = graph.Term{Name: o.c.Name, Aliases: o.c.Aliases, Score: max(round3(o.score/out[0].score), 0.001)}
	}
	return terms
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
	for _, c := range a.Cands {
		if _, ok := m.DF[c.Key]; ok {
			m.DF[c.Key]++
		} else {
			m.DF[strings.Clone(c.Key)] = 1 // keys may share memory with a whole text
		}
		if c.Defined {
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
}

func (m *MemStats) Docs() int              { return m.N }
func (m *MemStats) DocFreq(key string) int { return m.DF[key] }
func (m *MemStats) Acronym(s string) (string, bool) {
	l, ok := m.Acronyms[singularAcronym(s)]
	return l, ok
}
