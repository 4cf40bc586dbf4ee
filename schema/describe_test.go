package schema_test

import (
	"flag"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/graphql-go/graphql"

	"github.com/researchkg/kg/schema"
)

// Every type, field, argument and enum value of our schema says what it
// is: GraphQL tools show these descriptions as the schema's documentation.
func TestEverythingDescribed(t *testing.T) {
	s, err := schema.Schema()
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	need := func(what, desc string) {
		if strings.TrimSpace(desc) == "" {
			missing = append(missing, what)
		}
	}
	fields := func(owner string, fs graphql.FieldDefinitionMap) {
		for name, f := range fs {
			need(owner+"."+name, f.Description)
			for _, a := range f.Args {
				need(owner+"."+name+"("+a.PrivateName+")", a.PrivateDescription)
			}
		}
	}
	for name, ty := range s.TypeMap() {
		if strings.HasPrefix(name, "__") {
			continue
		}
		switch ty := ty.(type) {
		case *graphql.Object:
			need(name, ty.Description())
			fields(name, ty.Fields())
		case *graphql.Interface:
			need(name, ty.Description())
			fields(name, ty.Fields())
		case *graphql.Enum:
			need(name, ty.Description())
			for _, v := range ty.Values() {
				need(name+"."+v.Name, v.Description)
			}
		case *graphql.InputObject:
			need(name, ty.Description())
			for fname, f := range ty.Fields() {
				need(name+"."+fname, f.Description())
			}
		case *graphql.Scalar, *graphql.Union:
			if !builtinScalar[name] {
				need(name, ty.Description())
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d without a description:\n%s", len(missing), strings.Join(missing, "\n"))
	}
}

var builtinScalar = map[string]bool{"String": true, "Int": true, "Float": true, "Boolean": true, "ID": true}

var update = flag.Bool("update", false, "rewrite schema/testdata/schema.graphql from the live schema")

// schema/testdata/schema.graphql is the live schema in SDL (the README
// links it); go test ./schema -run SchemaSDL -update rewrites it after a
// change to the schema.
func TestSchemaSDL(t *testing.T) {
	s, err := schema.Schema()
	if err != nil {
		t.Fatal(err)
	}
	got := schema.SDL(s)
	const golden = "testdata/schema.graphql"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./schema -run SchemaSDL -update)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < min(len(gl), len(wl)); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs from the live schema at line %d:\n  file: %s\n  live: %s\n(go test ./schema -run SchemaSDL -update rewrites it)", golden, i+1, wl[i], gl[i])
			}
		}
		t.Fatalf("%s has %d lines, the live schema %d (go test ./schema -run SchemaSDL -update rewrites it)", golden, len(wl), len(gl))
	}
}
