package schema

import (
	"net/http"

	"github.com/researchkg/kg/graph"
)

// Code is the extensions.code of an error kg answers with. The domain's
// codes come from graph (a resolver's error keeps its graph.Code); the
// protocol's are defined here. Every code is in codes, with its status.
type Code = graph.Code

// The error codes, in the order the README lists them.
const (
	// A field's error, in an answer that ran (HTTP 200, with data).
	CodeInvalid              = graph.Invalid     // an argument is wrong: "first must be between 0 and 100"
	CodeNotFound             = graph.NotFound    // an id or name that names nothing (most fields answer null instead)
	CodeConflict             = graph.Conflict    // the store needs a command first (kg recompute, kg authors --recluster)
	CodeInternal             = graph.Internal    // a fault of kg or its store; logged with the request id
	CodeTimeout         Code = "TIMEOUT"         // the request's deadline passed (--timeout)
	CodeUnauthenticated Code = "UNAUTHENTICATED" // a mutation without the write token
	CodeWritesDisabled  Code = "WRITES_DISABLED" // a mutation on a server that takes none (--read-only, no --write-token)
	CodeDiskFull             = graph.DiskFull    // a write refused before it starts: the store's disk is nearly full

	// A query refused before it runs (no data).
	CodeParseError          Code = "PARSE_ERROR"
	CodeValidationFailed    Code = "GRAPHQL_VALIDATION_FAILED"
	CodeFragmentCycle       Code = "FRAGMENT_CYCLE"
	CodeQueryTooLarge       Code = "QUERY_TOO_LARGE"
	CodeTooDeep             Code = "TOO_DEEP"
	CodeTooManyFields       Code = "TOO_MANY_FIELDS"
	CodeTooManyAliases      Code = "TOO_MANY_ALIASES"
	CodeTooManyFragments    Code = "TOO_MANY_FRAGMENTS"
	CodeTooCostly           Code = "TOO_COSTLY"
	CodePersistedNotFound   Code = "PERSISTED_QUERY_NOT_FOUND"
	CodePersistedNotSupport Code = "PERSISTED_QUERY_NOT_SUPPORTED"

	// A request refused before GraphQL reads it.
	CodeBadRequest       Code = "BAD_REQUEST"
	CodeBodyTooLarge     Code = "BODY_TOO_LARGE"
	CodeMethodNotAllowed Code = "METHOD_NOT_ALLOWED"
	CodeNotAcceptable    Code = "NOT_ACCEPTABLE"
	CodeUnsupportedMedia Code = "UNSUPPORTED_MEDIA_TYPE"
)

// codes lists every code with the HTTP status of an answer that fails
// with it: a field's error comes in an answer that ran (200); a query
// refused before it runs gets 400 when the client accepts
// application/graphql-response+json and 200 under application/json (the
// GraphQL-over-HTTP draft's rule; serveGraphQL applies it); a request
// refused before GraphQL reads it gets its own status.
var codes = []struct {
	Code   Code
	Status int
}{
	{CodeInvalid, http.StatusOK},
	{CodeNotFound, http.StatusOK},
	{CodeConflict, http.StatusOK},
	{CodeInternal, http.StatusInternalServerError},
	{CodeTimeout, http.StatusOK},
	{CodeUnauthenticated, http.StatusOK},
	{CodeWritesDisabled, http.StatusOK},
	{CodeDiskFull, http.StatusOK},

	{CodeParseError, http.StatusBadRequest},
	{CodeValidationFailed, http.StatusBadRequest},
	{CodeFragmentCycle, http.StatusBadRequest},
	{CodeQueryTooLarge, http.StatusBadRequest},
	{CodeTooDeep, http.StatusBadRequest},
	{CodeTooManyFields, http.StatusBadRequest},
	{CodeTooManyAliases, http.StatusBadRequest},
	{CodeTooManyFragments, http.StatusBadRequest},
	{CodeTooCostly, http.StatusBadRequest},
	{CodePersistedNotFound, http.StatusBadRequest},
	{CodePersistedNotSupport, http.StatusBadRequest},

	{CodeBadRequest, http.StatusBadRequest},
	{CodeBodyTooLarge, http.StatusRequestEntityTooLarge},
	{CodeMethodNotAllowed, http.StatusMethodNotAllowed},
	{CodeNotAcceptable, http.StatusNotAcceptable},
	{CodeUnsupportedMedia, http.StatusUnsupportedMediaType},
}

// codeStatus is codes as a map.
var codeStatus = func() map[Code]int {
	m := make(map[Code]int, len(codes))
	for _, c := range codes {
		m[c.Code] = c.Status
	}
	return m
}()

// Codes returns every error code, in the README's order.
func Codes() []Code {
	out := make([]Code, len(codes))
	for i, c := range codes {
		out[i] = c.Code
	}
	return out
}

// HTTPStatus is the status of an answer that fails with code alone (see
// codes); 500 for a code kg does not define.
func HTTPStatus(code Code) int {
	if s, ok := codeStatus[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}
