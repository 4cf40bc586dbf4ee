package schema

import (
	"fmt"
	"strconv"

	"github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"
)

// unsizedList is the number of items assumed for a list field without a
// "first" argument (a paper's authors, subjects, abstracts).
const unsizedList = 10

// queryCost estimates what a validated query costs to answer: every field
// costs 1, times the number of items its enclosing lists may return (the
// "first" argument, given or defaulted; for a list inside a field that
// takes "first" but returns an object, like papers { nodes } or
// neighborhood { nodes }, that field's first; unsizedList otherwise).
// A neighbourhood of 500 nodes each asking for 100 related papers costs
// 50,000 before it runs.
//
// A field that scans papers (a filter over the corpus: facets, top,
// emerging, path, filtered paper lists) costs, on top, what price says for
// each item (nil: nothing).
//
// It stops counting past limit (the budget), so a query built to overflow
// the sum costs no more than the budget to reject.
func queryCost(s *graphql.Schema, doc *ast.Document, opName string, vars map[string]any, limit int, price func(fd *graphql.FieldDefinition, f *ast.Field) int) (int, error) {
	frags := map[string]*ast.FragmentDefinition{}
	var op *ast.OperationDefinition
	for _, d := range doc.Definitions {
		switch d := d.(type) {
		case *ast.FragmentDefinition:
			frags[d.Name.Value] = d
		case *ast.OperationDefinition:
			if opName == "" || (d.Name != nil && d.Name.Value == opName) {
				if op == nil {
					op = d
				}
			}
		}
	}
	if op == nil {
		return 0, fmt.Errorf("no operation %q in the document", opName)
	}
	root := s.QueryType()
	if op.Operation == ast.OperationTypeMutation {
		root = s.MutationType()
	}
	if root == nil {
		return 0, fmt.Errorf("the schema has no %s type", op.Operation)
	}
	total := 0
	// inherited is the first of the nearest enclosing object field that
	// takes one (0: none)
	var walk func(parent graphql.Type, ss *ast.SelectionSet, mult, inherited int) bool
	walk = func(parent graphql.Type, ss *ast.SelectionSet, mult, inherited int) bool {
		if ss == nil {
			return true
		}
		for _, sel := range ss.Selections {
			switch sel := sel.(type) {
			case *ast.Field:
				total += mult
				if total > limit {
					return false
				}
				fd := fieldDef(parent, sel.Name.Value)
				if fd != nil && price != nil {
					if extra := price(fd, sel); extra > 0 {
						if total += satMul(mult, extra, limit); total > limit {
							return false
						}
					}
				}
				if fd == nil || sel.SelectionSet == nil {
					continue
				}
				n, pass := 1, 0
				v, hasFirst := firstValue(fd, sel, vars)
				switch {
				case isList(fd.Type) && hasFirst:
					n = max(v, 1)
				case isList(fd.Type) && inherited > 0:
					n = inherited
				case isList(fd.Type):
					n = unsizedList
				case hasFirst:
					pass = max(v, 1)
				}
				if !walk(named(fd.Type), sel.SelectionSet, satMul(mult, n, limit), pass) {
					return false
				}
			case *ast.InlineFragment:
				t := parent
				if sel.TypeCondition != nil {
					if ct := s.Type(sel.TypeCondition.Name.Value); ct != nil {
						t = ct
					}
				}
				if !walk(t, sel.SelectionSet, mult, inherited) {
					return false
				}
			case *ast.FragmentSpread:
				f := frags[sel.Name.Value]
				if f == nil {
					continue
				}
				t := parent
				if f.TypeCondition != nil {
					if ct := s.Type(f.TypeCondition.Name.Value); ct != nil {
						t = ct
					}
				}
				if !walk(t, f.SelectionSet, mult, inherited) {
					return false
				}
			}
		}
		return true
	}
	walk(root, op.SelectionSet, 1, 0)
	return total, nil
}

func satMul(a, b, limit int) int {
	if a > 0 && b > (limit+1)/a {
		return limit + 1
	}
	return a * b
}

// fieldDef finds a field of an object or interface type (nil for
// __typename and unknown names).
func fieldDef(t graphql.Type, name string) *graphql.FieldDefinition {
	switch t := t.(type) {
	case *graphql.Object:
		return t.Fields()[name]
	case *graphql.Interface:
		return t.Fields()[name]
	}
	return nil
}

func isList(t graphql.Type) bool {
	if nn, ok := t.(*graphql.NonNull); ok {
		t = nn.OfType
	}
	_, ok := t.(*graphql.List)
	return ok
}

// named unwraps lists and non-nulls.
func named(t graphql.Type) graphql.Type {
	for {
		switch w := t.(type) {
		case *graphql.NonNull:
			t = w.OfType
		case *graphql.List:
			t = w.OfType
		default:
			return t
		}
	}
}

// firstValue is the field's "first" argument: a literal, a variable, or the
// declared default.
func firstValue(fd *graphql.FieldDefinition, f *ast.Field, vars map[string]any) (int, bool) {
	var decl *graphql.Argument
	for _, a := range fd.Args {
		if a.Name() == "first" {
			decl = a
		}
	}
	if decl == nil {
		return 0, false
	}
	for _, a := range f.Arguments {
		if a.Name == nil || a.Name.Value != "first" {
			continue
		}
		switch v := a.Value.(type) {
		case *ast.IntValue:
			n, err := strconv.Atoi(v.Value)
			return n, err == nil
		case *ast.Variable:
			if x, ok := vars[v.Name.Value]; ok {
				switch x := x.(type) {
				case float64:
					return int(x), true
				case int:
					return x, true
				}
			}
		}
	}
	if d, ok := decl.DefaultValue.(int); ok {
		return d, true
	}
	return 0, false
}

// argValue is a field argument's value: a literal, or the value of the
// variable it names (as the request's JSON gave it); nil when absent.
func argValue(f *ast.Field, name string, vars map[string]any) any {
	for _, a := range f.Arguments {
		if a.Name != nil && a.Name.Value == name {
			return astValue(a.Value, vars)
		}
	}
	return nil
}

func astValue(v ast.Value, vars map[string]any) any {
	switch v := v.(type) {
	case *ast.Variable:
		return vars[v.Name.Value]
	case *ast.StringValue:
		return v.Value
	case *ast.EnumValue:
		return v.Value
	case *ast.IntValue:
		n, _ := strconv.Atoi(v.Value)
		return n
	case *ast.FloatValue:
		x, _ := strconv.ParseFloat(v.Value, 64)
		return x
	case *ast.BooleanValue:
		return v.Value
	case *ast.ListValue:
		out := make([]any, len(v.Values))
		for i, x := range v.Values {
			out[i] = astValue(x, vars)
		}
		return out
	case *ast.ObjectValue:
		out := make(map[string]any, len(v.Fields))
		for _, f := range v.Fields {
			if f.Name != nil {
				out[f.Name.Value] = astValue(f.Value, vars)
			}
		}
		return out
	}
	return nil
}
