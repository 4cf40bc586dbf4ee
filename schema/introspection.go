package schema

import (
	"github.com/graphql-go/graphql"
)

// graphql-go v0.8.1 answers the introspection of the 2018 spec. The
// standard query of graphql-js 16 (getIntrospectionQuery) may also ask,
// by option, for a schema's description, a scalar's specifiedByURL, an
// input object's isOneOf, a directive's isRepeatable, and deprecated
// arguments and input fields (includeDeprecated, isDeprecated,
// deprecationReason): fields graphql-go lacks, so such a query failed
// validation and GraphQL tools could not load the schema. They are added
// here to graphql-go's introspection types (package variables, changed
// once, before any schema is built), with the answers our schema has:
// no description, no specifiedByURL, no oneOf input, no repeatable
// directive, nothing deprecated.
func init() {
	graphql.SchemaType.AddFieldConfig("description", &graphql.Field{
		Type:    graphql.String,
		Resolve: func(graphql.ResolveParams) (any, error) { return nil, nil },
	})
	graphql.TypeType.AddFieldConfig("specifiedByURL", &graphql.Field{
		Type:    graphql.String,
		Resolve: func(graphql.ResolveParams) (any, error) { return nil, nil },
	})
	graphql.TypeType.AddFieldConfig("isOneOf", &graphql.Field{
		Type: graphql.Boolean,
		Resolve: func(p graphql.ResolveParams) (any, error) {
			if _, ok := p.Source.(*graphql.InputObject); ok {
				return false, nil
			}
			return nil, nil
		},
	})
	graphql.DirectiveType.AddFieldConfig("isRepeatable", &graphql.Field{
		Type:    graphql.NewNonNull(graphql.Boolean),
		Resolve: func(graphql.ResolveParams) (any, error) { return false, nil },
	})
	graphql.InputValueType.AddFieldConfig("isDeprecated", &graphql.Field{
		Type:    graphql.NewNonNull(graphql.Boolean),
		Resolve: func(graphql.ResolveParams) (any, error) { return false, nil },
	})
	graphql.InputValueType.AddFieldConfig("deprecationReason", &graphql.Field{
		Type:    graphql.String,
		Resolve: func(graphql.ResolveParams) (any, error) { return nil, nil },
	})
	// graphql-go prints an enum argument's default as a string
	// ("\"NEWEST\"", astFromValue is given the argument, not its type),
	// which graphql-js then drops: print defaults as the SDL does
	graphql.InputValueType.AddFieldConfig("defaultValue", &graphql.Field{
		Type:        graphql.String,
		Description: "A GraphQL-formatted string representing the default value for this input value.",
		Resolve: func(p graphql.ResolveParams) (any, error) {
			switch v := p.Source.(type) {
			case *graphql.Argument:
				if v.DefaultValue != nil {
					return sdlValue(v.DefaultValue, v.Type), nil
				}
			case *graphql.InputObjectField:
				if v.DefaultValue != nil {
					return sdlValue(v.DefaultValue, v.Type), nil
				}
			}
			return nil, nil
		},
	})
	// args and inputFields take includeDeprecated; nothing is deprecated,
	// so it changes nothing
	withIncludeDeprecated(graphql.TypeType, "inputFields")
	withIncludeDeprecated(graphql.FieldType, "args")
	graphql.DirectiveType.AddFieldConfig("args", &graphql.Field{
		Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(graphql.InputValueType))),
		Args: includeDeprecatedArg(),
		Resolve: func(p graphql.ResolveParams) (any, error) {
			if d, ok := p.Source.(*graphql.Directive); ok {
				return d.Args, nil
			}
			return []any{}, nil
		},
	})
}

func includeDeprecatedArg() graphql.FieldConfigArgument {
	return graphql.FieldConfigArgument{
		"includeDeprecated": &graphql.ArgumentConfig{Type: graphql.Boolean, DefaultValue: false},
	}
}

// withIncludeDeprecated gives an introspection list field the
// includeDeprecated argument, keeping its type and resolver.
func withIncludeDeprecated(o *graphql.Object, name string) {
	f := o.Fields()[name]
	o.AddFieldConfig(name, &graphql.Field{
		Type:        f.Type,
		Args:        includeDeprecatedArg(),
		Resolve:     f.Resolve,
		Description: f.Description,
	})
}
