package source_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/graph/source"
)

// readAll reads data as the file name, collecting documents and failures.
func readAll(t *testing.T, name string, data []byte) ([]graph.Document, []error) {
	t.Helper()
	var docs []graph.Document
	var bad []error
	err := source.Read(name, bytes.NewReader(data), func(d graph.Document) error {
		docs = append(docs, d)
		return nil
	}, func(err error) { bad = append(bad, err) })
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return docs, bad
}

// fixtureRecords reads a fixture under testdata/ that must read without a
// failure, and returns its records.
func fixtureRecords(t *testing.T, path string) []graph.Record {
	t.Helper()
	data, err := os.ReadFile("../../testdata/" + path)
	if err != nil {
		t.Fatal(err)
	}
	docs, bad := readAll(t, path, data)
	for _, err := range bad {
		t.Error(err)
	}
	var recs []graph.Record
	for _, d := range docs {
		recs = append(recs, d.Records...)
	}
	return recs
}

// fuzzRead reads fuzz input named "fuzz": every document passes check, and
// every failure and error names the input.
func fuzzRead(t *testing.T, data []byte, check func(graph.Document)) {
	err := source.Read("fuzz", bytes.NewReader(data), func(d graph.Document) error {
		check(d)
		return nil
	}, func(err error) {
		if !strings.HasPrefix(err.Error(), "fuzz:") {
			t.Fatalf("failure without file name: %v", err)
		}
	})
	if err != nil && !strings.HasPrefix(err.Error(), "fuzz:") {
		t.Fatalf("error without file name: %v", err)
	}
}
