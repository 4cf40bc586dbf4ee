package store

// The marker of a bulk load (bulk.go): a file in the store's folder while
// the load runs, which Open reports for a load that did not end.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/researchkg/kg/graph"
)

// ErrBulkInterrupted is in the chain of Open's error for a store whose
// bulk load did not finish.
var ErrBulkInterrupted = errors.New("unfinished bulk load")

// bulkMarkerError is Open's refusal of a store with the marker, saying
// what the marker says: when the load began and, when it stopped on an
// error rather than being killed, why.
func bulkMarkerError(dir string) error {
	why := "the process was killed before it ended"
	if b, err := os.ReadFile(filepath.Join(dir, BulkMarker)); err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if rest, ok := strings.CutPrefix(line, "stopped "); ok {
				why = "it stopped " + rest
			}
		}
	}
	since := ""
	if fi, err := os.Stat(filepath.Join(dir, BulkMarker)); err == nil {
		since = ", started " + fi.ModTime().UTC().Format(time.RFC3339)
	}
	return &graph.Error{Code: graph.Conflict, Err: ErrBulkInterrupted, Msg: fmt.Sprintf(
		"store %s holds an unfinished first ingest (%s%s; %s is its marker): the graph in it is partial. "+
			"Run the same kg ingest again: it starts that ingest over, replacing what the folder holds", dir, why, since, BulkMarker)}
}

func writeMarker(dir string) error {
	p := filepath.Join(dir, BulkMarker)
	f, err := os.Create(p)
	if err != nil {
		return fmt.Errorf("bulk load: write its marker: %w", err)
	}
	_, err = fmt.Fprintf(f, "kg: a first ingest written in bulk, started %s by process %d.\n"+
		"While this file exists the store is partial: running the same kg ingest again starts it over.\n",
		time.Now().UTC().Format(time.RFC3339), os.Getpid())
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		return fmt.Errorf("bulk load: write its marker: %w", err)
	}
	return nil
}

func removeMarker(dir string) error {
	if err := os.Remove(filepath.Join(dir, BulkMarker)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("bulk load: remove its marker: %w", err)
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
