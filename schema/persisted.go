package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"

	"github.com/graphql-go/graphql/gqlerrors"
)

// Automatic persisted queries, as Apollo's clients speak them
// (apollo-link-persisted-queries, Apollo Client's createPersistedQueryLink,
// urql's persistedExchange): a request names its query by
// extensions.persistedQuery.sha256Hash (version 1) instead of sending it.
// A hash the server does not know gets PERSISTED_QUERY_NOT_FOUND; the
// client sends the query with its hash once, which registers it. A
// dashboard then sends a few dozen bytes each time, and over GET its
// requests (and the answers' ETags) can be cached.
//
// The store is bounded: at most max queries and maxBytes of query text (a
// query over the request's MaxQuery is refused by Execute and not kept).
// When full it starts over, like the document cache: clients register
// their queries again, one round trip each.
type persistedQueries struct {
	mu            sync.Mutex
	m             map[string]string // sha256 hex → query
	bytes         int
	max, maxBytes int
}

// resolve fills in the query of a request that names a persisted one, or
// registers the query a request sends with its hash. It returns the error
// to answer with, nil when the request can go on.
func (p *persistedQueries) resolve(req *Request, maxQuery int) *gqlerrors.FormattedError {
	pq, ok := req.Extensions["persistedQuery"].(map[string]any)
	if !ok {
		if _, present := req.Extensions["persistedQuery"]; present {
			e := codedError(CodeBadRequest, "extensions.persistedQuery must be an object {version, sha256Hash}")
			return &e
		}
		return nil
	}
	if v, _ := pq["version"].(float64); v != 1 {
		e := codedError(CodePersistedNotSupport, "persisted queries of version 1 only")
		return &e
	}
	hash, _ := pq["sha256Hash"].(string)
	hash = strings.ToLower(hash)
	if len(hash) != 64 || strings.Trim(hash, "0123456789abcdef") != "" {
		e := codedError(CodeBadRequest, "extensions.persistedQuery.sha256Hash must be 64 hex digits")
		return &e
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if req.Query == "" {
		q, ok := p.m[hash]
		if !ok {
			e := codedError(CodePersistedNotFound, "PersistedQueryNotFound")
			return &e
		}
		req.Query = q
		return nil
	}
	sum := sha256.Sum256([]byte(req.Query))
	if hex.EncodeToString(sum[:]) != hash {
		e := codedError(CodeBadRequest, "provided sha256Hash does not match the query")
		return &e
	}
	if len(req.Query) > maxQuery {
		return nil // Execute refuses it
	}
	if _, ok := p.m[hash]; ok {
		return nil
	}
	if p.m == nil || len(p.m) >= p.max || p.bytes+len(req.Query) > p.maxBytes {
		p.m, p.bytes = make(map[string]string, p.max), 0
	}
	p.m[hash] = req.Query
	p.bytes += len(req.Query)
	return nil
}
