package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/rs/zerolog"

	"github.com/researchkg/kg/store"
)

// openStore opens the data folder. bulk is for commands that write much
// (ingest, recompute): their write transactions get the absent-key filter.
func openStore(dir string, readOnly, bulk bool, log zerolog.Logger) (*store.DB, error) {
	return openStoreWith(storeOptions(dir, readOnly, bulk, log))
}

// openStoreWith opens the data folder with opts (created for a writer).
func openStoreWith(opts store.Options) (*store.DB, error) {
	dir, readOnly := opts.Dir, opts.ReadOnly
	if !readOnly {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("create data folder: %w", err)
		}
	} else if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("data folder %s: %w (run kg ingest or kg serve first)", dir, err)
	}
	return store.Open(opts)
}

func storeOptions(dir string, readOnly, bulk bool, log zerolog.Logger) store.Options {
	return store.DefaultOptions(dir).WithReadOnly(readOnly).WithKeyFilter(bulk && !readOnly).WithLogger(log)
}

// startCPUProfile writes a CPU profile to path (none when path is "")
// until the returned function is called.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// closeStore closes db and, when the command has not failed already, makes
// Close's error the command's: it carries the last background commit's
// outcome and Badger's final flush, which a command must not drop.
func closeStore(db *store.DB, err *error) {
	if cerr := db.Close(); cerr != nil && *err == nil {
		*err = fmt.Errorf("close the store: %w", cerr)
	}
}
