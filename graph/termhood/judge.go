package termhood

import (
	"fmt"
	"math"
	"strings"
	"unicode"
)

// Concept is what the judgement reads of one concept: plain values the
// store keeps for it.
type Concept struct {
	Name string
	// Words are the keys of its words, split at spaces and hyphens
	// ("vision-language model": vision, language, model), as the concept
	// index keys them.
	Words []string
	// Acronym: the concept is named by an acronym ("RL", "VL-PRM").
	Acronym bool
	// DocFreq: papers that use it as a term of their own or at the end
	// of a longer one; Votes: papers that rank it among their best key
	// terms.
	DocFreq, Votes int
	// Broader is the index of its broader concept among those judged
	// together, -1 for none (Judge discounts the uses its narrower
	// concepts account for).
	Broader int
}

// Reason says why a concept is or is not a term.
type Reason uint8

const (
	// Term: a term of the field.
	Term Reason = iota
	// CommonWord: one word said in speech nearly as often as papers use it.
	CommonWord
	// RarelyKey: the papers that use it are rarely about it.
	RarelyKey
	// Front: mostly the front of longer terms ("natural language" of
	// "natural language processing").
	Front
)

// Verdict is the judgement of one concept, with the figures it rests on.
type Verdict struct {
	Reason Reason
	// Keyness is the share of the papers that use it on their own that
	// rank it among their key terms.
	Keyness float64
	// Weirdness of a one-word concept (0 for others).
	Weirdness float64
	// Longer is, for a Front, the longer term it is mostly the front of.
	Longer string
}

// IsTerm reports whether the concept is a term.
func (v Verdict) IsTerm() bool { return v.Reason == Term }

func (v Verdict) String() string {
	switch v.Reason {
	case Term:
		return "a term"
	case CommonWord:
		return fmt.Sprintf("a word of everyday English (weirdness %.1f)", v.Weirdness)
	case RarelyKey:
		return fmt.Sprintf("rarely what its papers are about (keyness %.3f)", v.Keyness)
	case Front:
		return fmt.Sprintf("the front of %q", v.Longer)
	}
	return "?"
}

// The bars, drawn by reading the judged dev list of the arXiv file's
// concepts on either side of them (doc.go): round numbers between the
// words and the terms, not fitted ones.
const (
	// phraseKeyness: a name of several words is a term when one paper in
	// eight that uses it on its own ranks it among its key terms.
	phraseKeyness = 0.12
	// compoundKeyness: a hyphenated word ("fine-tuning") is ranked as one
	// word and votes like a name of several: its bar is lower.
	compoundKeyness = 0.01
	// technicalWeirdness, technicalKeyness: a word a hundred times more
	// common in papers than in speech is a term when one paper in
	// thirty-three that uses it on its own is about it;
	// topicalWeirdness, topicalKeyness: a word only twenty times more
	// common needs one paper in ten.
	technicalWeirdness, technicalKeyness = 100.0, 0.03
	topicalWeirdness, topicalKeyness     = 20.0, 0.1
	// minVotes: a concept is judged by its keyness once its papers are
	// enough for its bar to mean this many votes; fewer, and too few
	// votes may be chance (a broader concept of two papers that the
	// hierarchy made, "policy optimization" in the seed pages, has none).
	minVotes = 3
	// nestedFloor: a concept is used on its own by at least this share of
	// its papers, whatever its narrower concepts account for.
	nestedFloor = 0.1
	// frontMax, frontSum: a name is mostly the front of longer terms when
	// one of them is used by frontMax times its papers, or all of them
	// together by frontSum times.
	frontMax, frontSum = 1.5, 2.0
	// screenMinPapers: Screen rejects no concept of fewer papers.
	screenMinPapers = 30
)

type shape uint8

const (
	shapeAcronym  shape = iota
	shapeName           // one word written as a name: "ImageNet", "Trace2Skill", "GPT-5"
	shapeWord           // one word of English, however written: "space", "Stream"
	shapeCompound       // one hyphenated word: "fine-tuning"
	shapePhrase         // several words
)

func shapeOf(c *Concept) shape {
	switch {
	case c.Acronym:
		return shapeAcronym
	case strings.ContainsFunc(strings.TrimSpace(c.Name), unicode.IsSpace):
		return shapePhrase
	case strings.Contains(c.Name, "-"):
		return shapeCompound
	case strings.ContainsFunc(c.Name, unicode.IsDigit):
		return shapeName
	case strings.ContainsFunc(c.Name, unicode.IsUpper) && EnglishPerMillion(c.Name) == 0:
		// a name that is also an English word ("Stream", "ReVision") is
		// linked to every paper that says the word: judged as the word
		return shapeName
	}
	return shapeWord
}

// keyness is votes over the papers that use a concept on its own.
func keyness(votes int, own float64) float64 { return float64(votes) / math.Max(own, 1) }

// decided reports whether a concept's papers are enough to hold it to bar:
// all of them, its narrower concepts' too (a concept used only inside its
// narrower ones, "splatting" in "gaussian splatting", is judged by the
// votes its own few uses bring).
func decided(c *Concept, bar float64) bool { return float64(c.DocFreq)*bar >= minVotes }

// Judge judges the concepts of a vocabulary together. The rules and where
// they come from: doc.go.
func Judge(cs []Concept, corpus Corpus) []Verdict {
	narrower := make([]int, len(cs)) // papers of the direct narrower concepts
	for i := range cs {
		if b := cs[i].Broader; b >= 0 && b < len(cs) && b != i {
			narrower[b] += cs[i].DocFreq
		}
	}
	fronts := frontIndex(cs)
	out := make([]Verdict, len(cs))
	for i := range cs {
		c := &cs[i]
		own := math.Max(float64(c.DocFreq-narrower[i]), nestedFloor*float64(c.DocFreq))
		out[i] = judge(c, own, fronts, corpus)
	}
	return out
}

// Screen judges a concept about to be made, alone: before its narrower
// concepts are known, so it rejects only what they could not save (its
// keyness even if nine tenths of its uses were theirs is under the bars
// of its shape), and only a concept of screenMinPapers papers or more.
// Judge has the last word.
func Screen(c Concept, corpus Corpus) Verdict {
	if c.DocFreq < screenMinPapers {
		return Verdict{Reason: Term}
	}
	return judge(&c, nestedFloor*float64(c.DocFreq), nil, corpus)
}

func judge(c *Concept, own float64, fronts map[string]front, corpus Corpus) Verdict {
	switch sh := shapeOf(c); sh {
	case shapeAcronym, shapeName:
		return Verdict{Reason: Term}
	case shapeCompound, shapePhrase:
		if f, ok := fronts[strings.Join(c.Words, " ")]; ok && len(c.Words) >= 2 {
			if d := float64(max(c.DocFreq, 1)); float64(f.max) >= frontMax*d || float64(f.sum) >= frontSum*d {
				return Verdict{Reason: Front, Longer: f.name}
			}
		}
		bar := phraseKeyness
		if sh == shapeCompound {
			bar = compoundKeyness
		}
		k := keyness(c.Votes, own)
		if k < bar && decided(c, bar) {
			return Verdict{Reason: RarelyKey, Keyness: k}
		}
		return Verdict{Reason: Term, Keyness: k}
	}
	w := Weirdness(c.Name, c.DocFreq, corpus)
	v := Verdict{Weirdness: w, Keyness: keyness(c.Votes, own)}
	technical := v.Keyness >= technicalKeyness || !decided(c, technicalKeyness)
	topical := v.Keyness >= topicalKeyness || !decided(c, topicalKeyness)
	switch {
	case w >= technicalWeirdness && technical, w >= topicalWeirdness && topical:
		v.Reason = Term
	case w < topicalWeirdness:
		v.Reason = CommonWord
	default:
		v.Reason = RarelyKey
	}
	return v
}

// front sums the longer concepts that start with the same words.
type front struct {
	max, sum int
	name     string // the one of most papers
}

// frontIndex maps the words of every proper front of a concept's name to
// the concepts that start with them.
func frontIndex(cs []Concept) map[string]front {
	out := map[string]front{}
	for i := range cs {
		c := &cs[i]
		for n := 1; n < len(c.Words); n++ {
			k := strings.Join(c.Words[:n], " ")
			f := out[k]
			f.sum += c.DocFreq
			if c.DocFreq > f.max || c.DocFreq == f.max && c.Name < f.name {
				f.max, f.name = c.DocFreq, c.Name
			}
			out[k] = f
		}
	}
	return out
}

// topicFactor: a term is shown as a topic of its own (Topical) when its
// papers are about it twice as often as a term of its shape must be.
const topicFactor = 2.0

// Topical reports whether a term is one its papers are about often enough
// to stand as a topic of its own in a ranking that counts rising use
// (emerging): its keyness over all its papers (DocFreq: its narrower
// concepts are not known there) at least topicFactor times the bar its
// shape needs to be a term. Names and acronyms are topics. A phrase of
// general words whose use rises ("visual evidence" 0.18, "memory system"
// 0.18, "task completion" 0.15) is a term but no topic; "world model"
// (0.45) and "flow matching" (0.46) are topics.
func Topical(c Concept, corpus Corpus) bool {
	var bar float64
	switch sh := shapeOf(&c); sh {
	case shapeAcronym, shapeName:
		return true
	case shapePhrase:
		bar = phraseKeyness
	case shapeCompound:
		bar = compoundKeyness
	default:
		bar = topicalKeyness
		if Weirdness(c.Name, c.DocFreq, corpus) >= technicalWeirdness {
			bar = technicalKeyness
		}
	}
	return keyness(c.Votes, float64(c.DocFreq)) >= topicFactor*bar
}
