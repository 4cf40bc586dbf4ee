package schema

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/graphql-go/graphql"
	"github.com/rs/zerolog"
)

// A panicking resolver becomes an INTERNAL error for that field, logged
// with its stack; a cancelled request stops resolvers before they run.
func TestSafeRecoversAndStops(t *testing.T) {
	var logs bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	st := &reqState{ctx: ctx, log: zerolog.New(&logs)}
	p := graphql.ResolveParams{Context: context.WithValue(context.Background(), ctxKey{}, st)}
	p.Info.FieldName = "boom"
	v, err := safe(func(graphql.ResolveParams) (any, error) { panic("kaboom") })(p)
	e, ok := err.(*Error)
	if v != nil || !ok || e.Code != "INTERNAL" {
		t.Fatalf("got %v, %v", v, err)
	}
	if !strings.Contains(logs.String(), "resolver panicked") || !strings.Contains(logs.String(), "safe_test.go") {
		t.Errorf("log lacks the panic and its stack: %s", logs.String())
	}
	cancel()
	ran := false
	_, err = safe(func(graphql.ResolveParams) (any, error) { ran = true; return 1, nil })(p)
	if ran || err == nil {
		t.Errorf("resolver ran after the request was cancelled (err %v)", err)
	}
}
