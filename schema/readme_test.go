package schema_test

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/graphql-go/graphql"

	"github.com/researchkg/kg/schema"
)

func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The README lists every error code, in the order schema/codes.go defines
// them, and no other.
func TestReadmeListsTheErrorCodes(t *testing.T) {
	s := readme(t)
	i := strings.Index(s, "Errors carry `extensions.code`")
	if i < 0 {
		t.Fatal(`README has no paragraph "Errors carry ` + "`extensions.code`" + `"`)
	}
	para, _, _ := strings.Cut(s[i:], "\n\n")
	var listed []string
	for _, m := range regexp.MustCompile("`([A-Z][A-Z_]+)`").FindAllStringSubmatch(para, -1) {
		listed = append(listed, m[1])
	}
	var defined []string
	for _, c := range schema.Codes() {
		defined = append(defined, string(c))
	}
	if !slices.Equal(listed, defined) {
		t.Errorf("README lists the codes\n  %v\nschema/codes.go defines\n  %v", listed, defined)
	}
}

// The README's brief of the root fields agrees with the live schema: each
// field it shows exists with those arguments, defaults and result type.
func TestReadmeBriefMatchesTheSchema(t *testing.T) {
	s := readme(t)
	i := strings.Index(s, "```text\ntype Query {")
	if i < 0 {
		t.Fatal("README has no ```text block starting with type Query {")
	}
	block, _, _ := strings.Cut(s[i+len("```text\n"):], "```")
	sch, err := schema.Schema()
	if err != nil {
		t.Fatal(err)
	}
	roots := map[string]*graphql.Object{"Query": sch.QueryType(), "Mutation": sch.MutationType()}
	field := regexp.MustCompile(`^  (\w+)(?:\(([^)]*)\))?: ([\w!\[\]]+)`)
	var owner *graphql.Object
	shown := 0
	for _, line := range strings.Split(block, "\n") {
		if m := regexp.MustCompile(`^type (\w+) \{`).FindStringSubmatch(line); m != nil {
			owner = roots[m[1]]
			if owner == nil {
				t.Errorf("README brief shows type %s, which is not a root type", m[1])
			}
			continue
		}
		m := field.FindStringSubmatch(line)
		if m == nil || owner == nil {
			continue
		}
		shown++
		f, ok := owner.Fields()[m[1]]
		if !ok {
			t.Errorf("README shows %s.%s, which the schema does not have", owner.Name(), m[1])
			continue
		}
		var args []string
		for _, a := range f.Args {
			arg := a.PrivateName + ": " + a.Type.String()
			if a.DefaultValue != nil {
				arg += fmt.Sprintf(" = %v", a.DefaultValue)
			}
			args = append(args, arg)
		}
		var want []string
		if m[2] != "" {
			want = strings.Split(m[2], ", ")
		}
		slices.Sort(args)
		slices.Sort(want)
		if !slices.Equal(args, want) || f.Type.String() != m[3] {
			t.Errorf("README shows %s.%s(%s): %s; the schema has (%s): %s", owner.Name(), m[1],
				strings.Join(want, ", "), m[3], strings.Join(args, ", "), f.Type)
		}
	}
	if n := len(sch.QueryType().Fields()) + len(sch.MutationType().Fields()); shown != n {
		t.Errorf("README brief shows %d root fields; the schema has %d", shown, n)
	}
}
