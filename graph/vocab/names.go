package vocab

import (
	"slices"
	"strings"

	"github.com/researchkg/kg/graph/ident"
)

// IsOneAcronym reports whether s is a single acronym ("RL", "VL-PRM").
func IsOneAcronym(s string) bool { return !strings.Contains(s, " ") && ident.IsAcronym(s) }

// FunctionWords are the words two long forms of one acronym may differ
// in and still name one idea (FunctionWordVariant).
var FunctionWords = map[string]bool{"a": true, "an": true, "the": true, "of": true, "for": true, "from": true,
	"with": true, "in": true, "on": true, "by": true, "to": true, "via": true, "using": true, "and": true,
	"through": true, "into": true, "over": true}

// FunctionWordVariant reports whether two names differ only in their
// function words, keeping at least two other words in the same order:
// "reinforcement learning with human feedback" and "reinforcement
// learning from human feedback"; not "model of the world" and "world
// model", whose words are in another order, nor "learning to rank" and
// "to rank", which keeps one.
func FunctionWordVariant(a, b string) bool {
	content := func(s string) []string {
		var out []string
		for _, w := range strings.FieldsFunc(ident.FoldKey(s), func(r rune) bool { return r == ' ' || r == '-' }) {
			if !FunctionWords[w] {
				out = append(out, ident.ConceptKey(w))
			}
		}
		return out
	}
	ca, cb := content(a), content(b)
	return ident.ConceptKey(a) != ident.ConceptKey(b) && len(ca) >= 2 && slices.Equal(ca, cb)
}

// genreHeads are the words papers call their contribution by: a concept
// followed by one of them ("reinforcement learning method", "machine
// learning algorithm", "natural language processing task",
// "retrieval-augmented generation system") names that concept, no idea of
// its own.
var genreHeads = map[string]bool{"method": true, "methodology": true, "approach": true, "technique": true,
	"framework": true, "algorithm": true, "strategy": true, "paradigm": true, "scheme": true, "pipeline": true,
	"task": true, "system": true, "architecture": true}

// GenreTail returns the front of a name of three or more words that ends
// in a genre word: the concept it would name twice.
func GenreTail(name string) (string, bool) {
	words := strings.Fields(name)
	if len(words) < 3 || !genreHeads[strings.ToLower(words[len(words)-1])] {
		return "", false
	}
	return strings.Join(words[:len(words)-1], " "), true
}

// TailTerm is a concept's IdxConceptTail entry: its word keys in reverse
// order ("process reward model" → "model reward process"), so a prefix
// scan finds every concept ending with a phrase.
func TailTerm(words []string) string { return ReverseWords(words) }

// ReverseWords joins words in reverse order.
func ReverseWords(words []string) string {
	r := slices.Clone(words)
	slices.Reverse(r)
	return strings.Join(r, " ")
}

// InsertSorted adds v to a sorted list of a concept's aliases (the order
// they were met in would depend on the order papers came in).
func InsertSorted(s []string, v string) []string {
	i, found := slices.BinarySearch(s, v)
	if found {
		return s
	}
	return slices.Insert(s, i, v)
}

// OneWord reports whether a concept's name is one word, not an acronym:
// the names whose use as a noun is checked.
func OneWord(name string) bool { return !strings.Contains(name, " ") && !ident.IsAcronym(name) }

// IsModifier reports whether a word whose document frequency as a noun
// phrase is df, said by surface papers, is mostly a modifier or a verb.
func IsModifier(df, surface int64) bool {
	return float64(df) < NounShare*float64(surface)
}

// NounShare: a one-word concept is kept only when at least this share of
// the papers that say it use it as a noun (graph's rejectModifiers; the
// rule and how the line was drawn are in graph's reject.go).
const NounShare = 0.4
