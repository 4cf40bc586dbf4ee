// Package schema is kg's GraphQL layer: the schema (graphql-go), resolvers
// over a per-request graph.View, query limits, and the HTTP handler with its
// in-browser console.
package schema

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/graphql-go/graphql"
	"github.com/rs/zerolog"

	"github.com/researchkg/kg/graph"
)

// reqState is what resolvers of one request share: the service and a lazily
// opened read snapshot, closed when the request ends.
type reqState struct {
	// ctx is the request's context. Resolvers read it, not p.Context:
	// graphql-go v0.8.1 returns from Execute as soon as p.Context is done
	// and leaves its executor goroutine running, which would then use the
	// snapshot after the request closed it. Execute gets a context that is
	// never cancelled; resolvers stop on this one, so execution still ends
	// promptly, and the snapshot is closed after the last resolver.
	ctx    context.Context
	svc    *graph.Service
	log    zerolog.Logger
	view   *graph.View
	err    error
	writer bool   // the request bears the write token
	writes string // why mutations are refused ("": allowed to writers)
	// queues hold the nodes whose edges batched resolvers will read
	// together (one resolver goroutine: graphql-go runs them in turn).
	queues map[edgeQueueKey]*edgeQueue
}

type edgeQueueKey struct {
	t   graph.EdgeType
	dir graph.Direction
}

type edgeQueue struct{ ids []graph.NodeID }

func (s *reqState) queue(t graph.EdgeType, dir graph.Direction) *edgeQueue {
	k := edgeQueueKey{t, dir}
	q := s.queues[k]
	if q == nil {
		if s.queues == nil {
			s.queues = map[edgeQueueKey]*edgeQueue{}
		}
		q = &edgeQueue{}
		s.queues[k] = q
	}
	return q
}

type ctxKey struct{}

func state(ctx context.Context) *reqState {
	s, _ := ctx.Value(ctxKey{}).(*reqState)
	return s
}

// viewOf returns the request's snapshot, opening it on first use.
func viewOf(p graphql.ResolveParams) (*graph.View, error) {
	s := state(p.Context)
	if s == nil {
		return nil, errors.New("schema: no request state")
	}
	return viewOfState(s)
}

func viewOfState(s *reqState) (*graph.View, error) {
	if err := s.ctx.Err(); err != nil {
		return nil, gqlErr(graph.Errorf(graph.Internal, "request cancelled: %w", err))
	}
	if s.view == nil && s.err == nil {
		s.view, s.err = s.svc.View(s.ctx)
	}
	return s.view, s.err
}

func (s *reqState) close() {
	if s.view != nil {
		s.view.Close()
		s.view = nil
	}
}

// Error is a GraphQL error with a code in its extensions.
type Error struct {
	Code Code
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Extensions implements gqlerrors.ExtendedError.
func (e *Error) Extensions() map[string]any { return map[string]any{"code": string(e.Code)} }

// gqlErr maps a graph error to a GraphQL error with its code.
func gqlErr(err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	code := graph.ErrorCode(err)
	msg := err.Error()
	if code == graph.Internal {
		msg = "internal error"
		if errors.Is(err, context.DeadlineExceeded) {
			code, msg = CodeTimeout, "request timed out"
		}
	}
	return &Error{Code: code, Msg: msg}
}

// safe wraps a resolver: a panic becomes an error for that field only and is
// logged with its stack; errors get codes.
func safe(fn graphql.FieldResolveFn) graphql.FieldResolveFn {
	return func(p graphql.ResolveParams) (v any, err error) {
		defer func() {
			if r := recover(); r != nil {
				if s := state(p.Context); s != nil {
					s.log.Error().Str("field", p.Info.FieldName).Interface("panic", r).
						Str("stack", string(debug.Stack())).Msg("resolver panicked")
				}
				v, err = nil, &Error{Code: CodeInternal, Msg: "internal error"}
			}
		}()
		if s := state(p.Context); s != nil {
			if err := s.ctx.Err(); err != nil {
				return nil, gqlErr(err)
			}
		}
		v, err = fn(p)
		if err != nil {
			ge := gqlErr(err)
			if e, ok := ge.(*Error); ok && e.Code == CodeInternal {
				if s := state(p.Context); s != nil { // the client's own errors are not logged as ours
					s.log.Error().Err(err).Str("field", p.Info.FieldName).Msg("resolver failed")
				}
			}
			return nil, ge
		}
		return v, nil
	}
}

var (
	buildOnce sync.Once
	built     graphql.Schema
	buildErr  error
)

// Schema returns kg's GraphQL schema, built once per process (concurrent
// builds race in graphql-go).
func Schema() (graphql.Schema, error) {
	buildOnce.Do(func() {
		if built, buildErr = build(); buildErr == nil {
			buildErr = describe(built)
		}
	})
	return built, buildErr
}

// firstArg reads a "first" argument: def when absent, an error when outside
// [0, max].
func firstArg(p graphql.ResolveParams, def, maxN int) (int, error) {
	v, ok := p.Args["first"].(int)
	if !ok {
		return def, nil
	}
	if v < 0 || v > maxN {
		return 0, &Error{Code: CodeInvalid, Msg: fmt.Sprintf("first must be between 0 and %d, got %d", maxN, v)}
	}
	return v, nil
}

func strArg(p graphql.ResolveParams, name string) (string, bool) {
	s, ok := p.Args[name].(string)
	return s, ok
}

func node(p graphql.ResolveParams) *graph.Node {
	n, _ := p.Source.(*graph.Node)
	return n
}

// nullIfMissing turns a not-found lookup into a null result.
func nullIfMissing(n *graph.Node, err error) (any, error) {
	if graph.ErrorCode(err) == graph.NotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return n, nil
}
