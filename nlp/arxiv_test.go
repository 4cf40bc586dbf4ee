package nlp

import (
	"bufio"
	"compress/gzip"
	"os"
	"testing"
)

// ArXivFile is the 47,919-record arXiv file of ../shared, beside the clone.
const ArXivFile = "../../shared/data/arxiv/arxiv-cs-2025-03_2026-02.jsonl.gz"

// ArXivLines returns a scanner over the lines of ArXivFile, closed when
// the test ends, or the error that it cannot be read (absent in a user's
// clone: the caller skips or logs, saying so).
func ArXivLines(tb testing.TB) (*bufio.Scanner, error) {
	tb.Helper()
	f, err := os.Open(ArXivFile)
	if err != nil {
		return nil, err
	}
	tb.Cleanup(func() { f.Close() })
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<26)
	return sc, nil
}
