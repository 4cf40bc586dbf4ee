package people_test

import (
	"bytes"
	"compress/gzip"
	"slices"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph/people"
)

// An ORCID iD settles a question both ways.
func TestClusterPeopleORCID(t *testing.T) {
	pr := people.DefaultPriors()
	words := []string{"graph", "neural", "network", "molecule"}
	ev := []people.Evidence{
		{Paper: "a", Coauthors: []string{"ann lee"}, Words: words, ORCID: "0000-0002-1825-0097"},
		{Paper: "b", Coauthors: []string{"ann lee"}, Words: words, ORCID: "0000-0001-5109-3700"},
		{Paper: "c", Coauthors: []string{"bob ray"}, Words: []string{"galaxy", "spectra"}, ORCID: "0000-0002-1825-0097"},
	}
	got := people.ClusterPeople("wei wang", ev, pr, nil, nil)
	if !slices.Equal(got, []int{0, 1, 0}) {
		t.Errorf("ORCID: got %v, want [0 1 0] (a shared co-author does not join different iDs; the same iD joins different topics)", got)
	}
	// a manual correction: b apart from a, though they share a co-author
	ev2 := []people.Evidence{{Paper: "a", Coauthors: []string{"ann lee"}}, {Paper: "b", Coauthors: []string{"ann lee"}}}
	if got := people.ClusterPeople("wei wang", ev2, pr, []people.Constraint{{A: []string{"a"}, B: []string{"b"}}}, nil); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("apart: got %v, want [0 1]", got)
	}
	if got := people.ClusterPeople("wei wang", ev2, pr, nil, nil); !slices.Equal(got, []int{0, 0}) {
		t.Errorf("shared co-author: got %v, want [0 0]", got)
	}
}

// The priors table reader names the line of what it cannot read.
func FuzzReadPriors(f *testing.F) {
	f.Add("kg-priors-1 3 2\nf\tyang\t2\nl\tliu\t3\nw\tgraph\t2\n")
	f.Add("kg-priors-1 x\n")
	f.Add("f\tyang\n")
	f.Fuzz(func(t *testing.T, s string) {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write([]byte(s))
		zw.Close()
		tbl, err := people.ReadPriors(&buf)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "priors") {
				t.Fatalf("error without its place: %v", err)
			}
			return
		}
		tbl.People("yang liu")
		tbl.IDF("graph")
	})
}

// Names written with initials: which are, and which full names they fit.
func TestInitials(t *testing.T) {
	for name, want := range map[string]bool{"H. Schütze": true, "H Schütze": true, "J.-P. Serre": true, "JM Smith": true,
		"Hinrich Schütze": false, "Schütze": false, "Jo Smith": false, "ABCD Smith": false, "": false} {
		if got := people.IsAbbreviated(name); got != want {
			t.Errorf("IsAbbreviated(%q) = %v, want %v", name, got, want)
		}
	}
	for _, c := range []struct {
		abbrev, full string
		want         bool
	}{
		{"H. Schütze", "Hinrich Schütze", true},
		{"H. Schutze", "Hinrich Schütze", true},
		{"H. J. Smith", "Hans-Jürgen Smith", true},
		{"H. J. Smith", "Hans Jürgen Smith", true},
		{"H. J. Smith", "Hans Smith", false},
		{"H. Smith", "Hans Jones", false},
		{"H. Smith", "Smith", false},
	} {
		if got := people.InitialsFit(c.abbrev, c.full); got != c.want {
			t.Errorf("InitialsFit(%q, %q) = %v, want %v", c.abbrev, c.full, got, c.want)
		}
	}
	if people.HasLetter(":") || !people.HasLetter("Wei") {
		t.Error("HasLetter")
	}
}
