package schema

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/graphql-go/graphql"
)

// SDL prints a schema in the GraphQL schema definition language, types
// and their fields, arguments and values sorted by name, each with its
// description, in the layout of graphql-js's printSchema (after
// lexicographicSortSchema). schema/testdata/schema.graphql is this for
// kg's schema (TestSchemaSDL).
func SDL(s graphql.Schema) string {
	var names []string
	for name := range s.TypeMap() {
		if strings.HasPrefix(name, "__") || builtinScalars[name] {
			continue
		}
		names = append(names, name)
	}
	slices.Sort(names)
	var blocks []string
	for _, name := range names {
		blocks = append(blocks, sdlType(s.Type(name)))
	}
	return strings.Join(blocks, "\n\n") + "\n"
}

var builtinScalars = map[string]bool{"String": true, "Int": true, "Float": true, "Boolean": true, "ID": true}

func sdlType(t graphql.Type) string {
	var b strings.Builder
	b.WriteString(sdlDescription(t.Description(), "", true))
	switch t := t.(type) {
	case *graphql.Object:
		b.WriteString("type " + t.Name())
		if len(t.Interfaces()) > 0 {
			var is []string
			for _, i := range t.Interfaces() {
				is = append(is, i.Name())
			}
			slices.Sort(is)
			b.WriteString(" implements " + strings.Join(is, " & "))
		}
		b.WriteString(sdlFields(t.Fields()))
	case *graphql.Interface:
		b.WriteString("interface " + t.Name() + sdlFields(t.Fields()))
	case *graphql.Enum:
		b.WriteString("enum " + t.Name() + " {\n")
		vals := slices.Clone(t.Values())
		slices.SortFunc(vals, func(a, b *graphql.EnumValueDefinition) int { return strings.Compare(a.Name, b.Name) })
		for i, v := range vals {
			b.WriteString(sdlDescription(v.Description, "  ", i == 0) + "  " + v.Name + sdlDeprecated(v.DeprecationReason) + "\n")
		}
		b.WriteString("}")
	case *graphql.InputObject:
		b.WriteString("input " + t.Name() + " {\n")
		fs := t.Fields()
		for i, name := range sortedKeys(fs) {
			f := fs[name]
			b.WriteString(sdlDescription(f.Description(), "  ", i == 0) + "  " + name + ": " + f.Type.String() + sdlDefault(f.DefaultValue, f.Type) + "\n")
		}
		b.WriteString("}")
	case *graphql.Union:
		var ms []string
		for _, m := range t.Types() {
			ms = append(ms, m.Name())
		}
		slices.Sort(ms)
		b.WriteString("union " + t.Name() + " = " + strings.Join(ms, " | "))
	case *graphql.Scalar:
		b.WriteString("scalar " + t.Name())
	}
	return b.String()
}

func sdlFields(fs graphql.FieldDefinitionMap) string {
	var b strings.Builder
	b.WriteString(" {\n")
	for i, name := range sortedKeys(fs) {
		f := fs[name]
		b.WriteString(sdlDescription(f.Description, "  ", i == 0) + "  " + name + sdlArgs(f.Args) + ": " + f.Type.String() + sdlDeprecated(f.DeprecationReason) + "\n")
	}
	b.WriteString("}")
	return b.String()
}

func sdlArgs(args []*graphql.Argument) string {
	if len(args) == 0 {
		return ""
	}
	args = slices.Clone(args)
	slices.SortFunc(args, func(a, b *graphql.Argument) int { return strings.Compare(a.PrivateName, b.PrivateName) })
	described := false
	for _, a := range args {
		described = described || a.PrivateDescription != ""
	}
	arg := func(a *graphql.Argument) string {
		return a.PrivateName + ": " + a.Type.String() + sdlDefault(a.DefaultValue, a.Type)
	}
	if !described {
		var parts []string
		for _, a := range args {
			parts = append(parts, arg(a))
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	var b strings.Builder
	b.WriteString("(\n")
	for i, a := range args {
		b.WriteString(sdlDescription(a.PrivateDescription, "    ", i == 0) + "    " + arg(a) + "\n")
	}
	b.WriteString("  )")
	return b.String()
}

// sdlDefault prints a default value as a GraphQL literal (kg's defaults
// are numbers and booleans; strings, lists and enum values are printed
// too).
func sdlDefault(v any, t graphql.Input) string {
	if v == nil {
		return ""
	}
	return " = " + sdlValue(v, t)
}

func sdlValue(v any, t graphql.Input) string {
	if nn, ok := t.(*graphql.NonNull); ok {
		t = nn.OfType
	}
	if e, ok := t.(*graphql.Enum); ok { // an enum's default is its value: print its name
		if name, ok := e.Serialize(v).(string); ok {
			return name
		}
	}
	switch v := v.(type) {
	case string:
		return quoteString(v)
	case []any:
		var parts []string
		for _, x := range v {
			var of graphql.Input = t
			if l, ok := t.(*graphql.List); ok {
				of = l.OfType
			}
			parts = append(parts, sdlValue(x, of))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

func sdlDeprecated(reason string) string {
	if reason == "" {
		return ""
	}
	return " @deprecated(reason: " + quoteString(reason) + ")"
}

// sdlDescription prints a description as a block string above a
// definition; a definition after the first of its block gets a blank line
// before its description.
func sdlDescription(desc, indent string, first bool) string {
	if desc == "" {
		return ""
	}
	prefix := indent
	if indent != "" && !first {
		prefix = "\n" + indent
	}
	body := strings.ReplaceAll(desc, `"""`, `\"""`)
	// graphql-js printBlockString: several lines past 70 UTF-16 units
	if strings.Contains(desc, "\n") || utf16Len(desc) > 70 || strings.HasSuffix(desc, `"`) || strings.HasSuffix(desc, `\`) {
		body = "\"\"\"\n" + indent + strings.ReplaceAll(body, "\n", "\n"+indent) + "\n" + indent + "\"\"\""
	} else {
		body = `"""` + body + `"""`
	}
	return prefix + body + "\n"
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

func quoteString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
