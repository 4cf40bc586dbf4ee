package termhood

import "strings"

// KindOf reports whether a name made of modifier words before a head
// term names a kind of that term, so that the head is its broader
// concept: "multi-agent", "offline", "inverse", "hierarchical" (before
// "reinforcement learning") name kinds of it. Three kinds of modifier
// make none:
//
//   - a clause, a modifier with a function word in it ("multi-image
//     reasoning and grounding with" reinforcement learning: an acronym's
//     long form, MIRG-RL, is the name of one paper's method);
//   - a verb, a modifier ending in an -ing form ("scaling", "captioning",
//     "complexity-boosting" reinforcement learning: scaling it, for
//     captioning);
//   - a task, an action noun before a head that is an -ing form
//     ("generation" reinforcement learning: learning for generation, as
//     "instruction tuning" is tuning on instructions, not a kind of
//     tuning). Before another head the action is what the head acts on,
//     and the compound is a kind of it: "hallucination detection",
//     "image generation".
//
// The words are as the name writes them (case does not matter).
func KindOf(modifier []string, head string) bool {
	if len(modifier) == 0 {
		return false
	}
	for _, w := range modifier {
		if functionWords[strings.ToLower(w)] {
			return false
		}
	}
	last := lastPart(modifier[len(modifier)-1])
	if ingForm(last) {
		return false
	}
	hw := strings.Fields(head)
	return len(hw) == 0 || !(ingForm(lastPart(hw[len(hw)-1])) && action(last))
}

// functionWords join the parts of a clause.
var functionWords = map[string]bool{"a": true, "an": true, "the": true, "of": true, "for": true, "from": true,
	"with": true, "without": true, "in": true, "on": true, "by": true, "to": true, "via": true, "using": true,
	"and": true, "or": true, "through": true, "into": true, "over": true, "under": true, "as": true, "at": true,
	"than": true, "towards": true, "toward": true, "beyond": true, "across": true}

// lastPart is the last part of a hyphenated word, in lower case.
func lastPart(w string) string {
	w = strings.ToLower(w)
	if i := strings.LastIndexByte(w, '-'); i >= 0 {
		return w[i+1:]
	}
	return w
}

// ingForm: "scaling", "captioning", "boosting"; not "thing", "king".
func ingForm(w string) bool { return len(w) > 5 && strings.HasSuffix(w, "ing") }

// action: a noun of an action ("generation", "compression", "alignment",
// "inference", "maintenance").
func action(w string) bool {
	for _, s := range []string{"tion", "sion", "ment", "ance", "ence"} {
		if len(w) > len(s)+2 && strings.HasSuffix(w, s) {
			return true
		}
	}
	return false
}
