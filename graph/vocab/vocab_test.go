package vocab_test

import (
	"fmt"
	"testing"

	"github.com/researchkg/kg/graph/vocab"
)

// The filter never forgets a key, grows past its capacity, and lets
// about 1% of absent keys through.
func TestFilter(t *testing.T) {
	f := vocab.NewFilter(1 << 14)
	const n = 50_000 // three times its first part
	for i := range n {
		f.Add(fmt.Sprintf("concept %d", i))
	}
	for i := range n {
		if !f.MayHave(fmt.Sprintf("concept %d", i)) {
			t.Fatalf("key %d added but not had", i)
		}
	}
	false := 0
	for i := range n {
		if f.MayHave(fmt.Sprintf("absent %d", i)) {
			false++
		}
	}
	// each part answers ~1% wrongly; the filter asks every part
	if rate := float64(false) / n; rate > 0.04 {
		t.Errorf("false positives %.3f of absent keys", rate)
	}
}

func TestNameRules(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"reinforcement learning with human feedback", "reinforcement learning from human feedback", true},
		{"model of the world", "world model", false},
		{"learning to rank", "to rank", false},
		{"reward model", "reward model", false},
		{"vision language model", "vision-language model", false},
	} {
		if got := vocab.FunctionWordVariant(c.a, c.b); got != c.want {
			t.Errorf("FunctionWordVariant(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	for name, want := range map[string]string{"reinforcement learning method": "reinforcement learning",
		"retrieval-augmented generation system": "retrieval-augmented generation", "learning method": "", "world model": ""} {
		got, ok := vocab.GenreTail(name)
		if got != want || ok != (want != "") {
			t.Errorf("GenreTail(%q) = %q %v, want %q", name, got, ok, want)
		}
	}
	for name, want := range map[string]bool{"RL": true, "VL-PRM": true, "reward model": false, "reward": false} {
		if got := vocab.IsOneAcronym(name); got != want {
			t.Errorf("IsOneAcronym(%q) = %v", name, got)
		}
	}
	for name, want := range map[string]bool{"skill": true, "RLHF": false, "reward model": false} {
		if got := vocab.OneWord(name); got != want {
			t.Errorf("OneWord(%q) = %v", name, got)
		}
	}
	if !vocab.IsModifier(2, 100) || vocab.IsModifier(45, 100) {
		t.Error("IsModifier: 2% of uses as a noun is a modifier, 45% is no modifier")
	}
	if got := vocab.TailTerm([]string{"process", "reward", "model"}); got != "model reward process" {
		t.Errorf("TailTerm: %q", got)
	}
	if got := vocab.InsertSorted(vocab.InsertSorted([]string{"b"}, "a"), "b"); fmt.Sprint(got) != "[a b]" {
		t.Errorf("InsertSorted: %v", got)
	}
}
