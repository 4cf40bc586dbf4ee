package schema

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/source"
)

// maxReported bounds the failures and warnings a report lists.
const maxReported = 100

type ingestReport struct {
	graph.IngestResult
	Documents, Failed  int
	Failures, Warnings []string
}

// storeError marks a failure of the store (or the deadline), not of the
// text.
type storeError struct{ err error }

func (e storeError) Error() string { return e.err.Error() }
func (e storeError) Unwrap() error { return e.err }

func (r *ingestReport) note(list *[]string, msg string) {
	switch n := len(*list); {
	case n < maxReported:
		*list = append(*list, msg)
	case n == maxReported:
		*list = append(*list, "… (more not listed)")
	}
}

// ingestText ingests documents given as text, one transaction per
// document: a document that fails is listed and skipped, the rest land. A
// store failure or the request's deadline stops it (what was written
// stays, whole documents only).
func ingestText(ctx context.Context, s *reqState, name, text string) (ingestReport, error) {
	var rep ingestReport
	if strings.TrimSpace(name) == "" {
		name = "mutation"
	}
	if len(name) > 200 {
		name = name[:200]
	}
	err := source.Read(name, strings.NewReader(text), func(doc graph.Document) error {
		rep.Documents++
		res, err := s.svc.Ingest(ctx, doc)
		if err != nil {
			if graph.ErrorCode(err) != graph.Invalid {
				return storeError{err}
			}
			rep.Failed++
			rep.note(&rep.Failures, err.Error())
			return nil
		}
		rep.Add(res)
		for _, w := range res.Warnings {
			rep.note(&rep.Warnings, w)
		}
		return nil
	}, func(err error) {
		rep.Failed++
		rep.note(&rep.Failures, err.Error())
	})
	var se storeError
	if err != nil && !errors.As(err, &se) {
		// the text itself: no known format, or a reader gave up on it
		return rep, &Error{Code: CodeInvalid, Msg: err.Error()}
	}
	if err != nil {
		s.log.Error().Err(err).Int("documents", rep.Documents).Msg("ingest mutation stopped")
		return rep, fmt.Errorf("ingest stopped after %d documents: %w", rep.Documents, err)
	}
	s.log.Info().Str("name", name).Int("documents", rep.Documents).Int("failed", rep.Failed).
		Int("papersAdded", rep.PapersAdded).Msg("ingest mutation")
	return rep, nil
}
