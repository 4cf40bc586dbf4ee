// A query's text and shape, checked before graphql-go validates it: size,
// brace depth, fragment cycles (which crash graphql-go v0.8.1), depth,
// fields, aliases, fragments and introspection; and the cache of parsed and
// validated documents.

package schema

import (
	_ "embed"
	"fmt"
	"sync"

	"github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/gqlerrors"
	"github.com/graphql-go/graphql/language/ast"
	"github.com/graphql-go/graphql/language/parser"
	"github.com/graphql-go/graphql/language/source"
)

// document parses, checks and validates a query, caching the result by text.
func (h *Handler) document(q string) (*ast.Document, []gqlerrors.FormattedError) {
	if d, ok := h.docs.get(q); ok {
		return d, nil
	}
	if n := maxBraceDepth(q); n > 4*h.opts.MaxDepth+8 {
		// reject before parsing: the parser recurses per level
		return nil, []gqlerrors.FormattedError{codedError(CodeTooDeep, fmt.Sprintf("query nests %d levels; at most %d", n, h.opts.MaxDepth))}
	}
	doc, err := parser.Parse(parser.ParseParams{Source: source.NewSource(&source.Source{Body: []byte(q), Name: "query"})})
	if err != nil {
		fe := gqlerrors.FormatError(err)
		fe.Extensions = map[string]any{"code": string(CodeParseError)}
		return nil, []gqlerrors.FormattedError{fe}
	}
	if vr := graphql.ValidateDocument(&h.schema, doc, []graphql.ValidationRuleFn{graphql.NoFragmentCyclesRule}); !vr.IsValid {
		return nil, withCode(vr.Errors, CodeFragmentCycle)
	}
	if e := checkShape(doc, h.opts); e != nil {
		return nil, []gqlerrors.FormattedError{*e}
	}
	if vr := graphql.ValidateDocument(&h.schema, doc, nil); !vr.IsValid {
		return nil, withCode(vr.Errors, CodeValidationFailed)
	}
	h.docs.put(q, doc)
	return doc, nil
}

func withCode(errs []gqlerrors.FormattedError, code Code) []gqlerrors.FormattedError {
	for i := range errs {
		errs[i].Extensions = map[string]any{"code": string(code)}
	}
	return errs
}

// maxBraceDepth is the deepest nesting of { and ( outside strings.
func maxBraceDepth(q string) int {
	depth, most := 0, 0
	inStr := false
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{' || c == '(' || c == '[':
			depth++
			most = max(most, depth)
		case c == '}' || c == ')' || c == ']':
			depth--
		}
	}
	return most
}

// Introspection has its own bounds. Its nesting is the schema's, not the
// data's: the standard query (graphql-js getIntrospectionQuery) reads a
// type reference through seven or more ofType levels under types, fields
// and args, deeper than MaxDepth, and every GraphQL tool sends it first.
// What makes introspection costly is lists inside lists (every type's
// fields' args' ...): the standard query nests three; a query that nests
// more (__type { fields { type { fields { type { fields ... ) or
// introspects again and again under aliases is refused.
const (
	maxIntrospectionDepth = 20 // levels below __schema or __type
	maxIntrospectionLists = 3
	maxIntrospections     = 3 // __schema and __type fields in a query
)

// introspectionLists are the list fields of the introspection types.
var introspectionLists = map[string]bool{
	"types": true, "fields": true, "args": true, "inputFields": true, "interfaces": true,
	"enumValues": true, "possibleTypes": true, "directives": true,
}

// introspection is where a walk is below __schema or __type.
type introspection struct{ depth, lists int }

// checkShape bounds depth, field count and aliases with fragments expanded
// (the document has no fragment cycles by now). Counting stops at the limit,
// so a fragment "bomb" costs no more than the limit.
func checkShape(doc *ast.Document, o Options) *gqlerrors.FormattedError {
	frags := map[string]*ast.FragmentDefinition{}
	var ops []*ast.OperationDefinition
	for _, d := range doc.Definitions {
		switch d := d.(type) {
		case *ast.FragmentDefinition:
			frags[d.Name.Value] = d
		case *ast.OperationDefinition:
			ops = append(ops, d)
		}
	}
	fields, aliases, fragments := 0, 0, 0
	tooManyFragments := func() *gqlerrors.FormattedError {
		if fragments++; fragments > o.MaxFragments {
			e := codedError(CodeTooManyFragments, fmt.Sprintf("query expands more than %d fragments", o.MaxFragments))
			return &e
		}
		return nil
	}
	introspections := 0
	var walk func(ss *ast.SelectionSet, depth int, in *introspection) *gqlerrors.FormattedError
	walk = func(ss *ast.SelectionSet, depth int, in *introspection) *gqlerrors.FormattedError {
		if ss == nil {
			return nil
		}
		if in == nil && depth > o.MaxDepth {
			e := codedError(CodeTooDeep, fmt.Sprintf("query nests deeper than %d levels", o.MaxDepth))
			return &e
		}
		if in != nil && in.depth > maxIntrospectionDepth {
			e := codedError(CodeTooDeep, fmt.Sprintf("introspection nests deeper than %d levels", maxIntrospectionDepth))
			return &e
		}
		for _, sel := range ss.Selections {
			switch s := sel.(type) {
			case *ast.Field:
				fields++
				if s.Alias != nil {
					aliases++
				}
				if in == nil && (s.Name.Value == "__schema" || s.Name.Value == "__type") {
					if introspections++; introspections > maxIntrospections {
						e := codedError(CodeTooManyFields, fmt.Sprintf("query introspects more than %d times (__schema, __type)", maxIntrospections))
						return &e
					}
					if fields > o.MaxFields {
						e := codedError(CodeTooManyFields, fmt.Sprintf("query selects more than %d fields (fragments expanded)", o.MaxFields))
						return &e
					}
					if err := walk(s.SelectionSet, depth+1, &introspection{depth: 1}); err != nil {
						return err
					}
					continue
				}
				next := in
				if in != nil {
					next = &introspection{depth: in.depth + 1, lists: in.lists}
					if introspectionLists[s.Name.Value] {
						if next.lists++; next.lists > maxIntrospectionLists {
							e := codedError(CodeTooDeep, fmt.Sprintf("introspection nests more than %d lists (types, fields, args …)", maxIntrospectionLists))
							return &e
						}
					}
				}
				if fields > o.MaxFields {
					e := codedError(CodeTooManyFields, fmt.Sprintf("query selects more than %d fields (fragments expanded)", o.MaxFields))
					return &e
				}
				if aliases > o.MaxAliases {
					e := codedError(CodeTooManyAliases, fmt.Sprintf("query uses more than %d aliases", o.MaxAliases))
					return &e
				}
				if err := walk(s.SelectionSet, depth+1, next); err != nil {
					return err
				}
			case *ast.InlineFragment:
				if err := tooManyFragments(); err != nil {
					return err
				}
				if err := walk(s.SelectionSet, depth, in); err != nil {
					return err
				}
			case *ast.FragmentSpread:
				if err := tooManyFragments(); err != nil {
					return err
				}
				if f := frags[s.Name.Value]; f != nil {
					if err := walk(f.SelectionSet, depth, in); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	for _, op := range ops {
		if err := walk(op.SelectionSet, 1, nil); err != nil {
			return err
		}
	}
	return nil
}

// docCache keeps validated documents by query text. When full it starts
// over: dashboards send a few distinct queries many times.
type docCache struct {
	mu  sync.Mutex
	m   map[string]*ast.Document
	max int
}

func (c *docCache) get(q string) (*ast.Document, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.m[q]
	return d, ok
}

func (c *docCache) put(q string, d *ast.Document) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= c.max {
		c.m = make(map[string]*ast.Document, c.max)
	}
	c.m[q] = d
}
