package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/researchkg/kg/store"
)

func cmdVerify(ctx context.Context, args []string, std stdio) error {
	var c commonFlags
	fs := newFlagSet("verify", `kg verify [--data DIR]

Reads every file of the store (each table block and each log entry) and
checks its checksum. Damaged files are listed with what they hold, and the
exit status is 1: restore the store from a kg backup (kg restore), or
re-ingest its sources into a new folder. Works on a store another process
serves (it reads the files only) and on one that will not open.`, std.err, &c)
	log, err := parseFlags(fs, args, &c, std.err)
	if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageExit(fs)
	}
	if _, err := os.Stat(c.data); err != nil {
		return fmt.Errorf("data folder %s: %w", c.data, err)
	}
	start := time.Now()
	rep, err := store.Verify(c.data, func(file string) { log.Debug().Str("file", file).Msg("verifying") })
	if err != nil {
		return err
	}
	took := time.Since(start).Round(time.Millisecond)
	fmt.Fprintf(std.out, "read %d tables and %d logs: %d entries, %d MB in %s\n",
		rep.Tables, rep.Logs, rep.Entries, rep.Bytes>>20, took)
	if len(rep.Damaged) == 0 {
		fmt.Fprintln(std.out, "no damage found")
		return nil
	}
	for _, d := range rep.Damaged {
		fmt.Fprintf(std.out, "DAMAGED %s\n", d)
	}
	err = store.DamageError(c.data, rep.Damaged)
	fmt.Fprintln(std.err, "kg verify:", err)
	if errors.Is(err, store.ErrDamaged) {
		return exitError{1}
	}
	return err
}
