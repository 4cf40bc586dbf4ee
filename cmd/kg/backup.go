package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/researchkg/kg/store"
)

func cmdBackup(ctx context.Context, args []string, std stdio) (err error) {
	var c commonFlags
	fs := newFlagSet("backup", `kg backup [--data DIR] FILE

Writes a full backup of the store to FILE ("-": standard output) in Badger's
backup stream format. The store is opened read-only: stop kg serve first
(Badger allows one process per data folder), or back up a copy served with
--read-only. Restore with kg restore.`, std.err, &c)
	log, err := parseFlags(fs, args, &c, std.err)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageExit(fs)
	}
	db, err := openStore(c.data, true, false, log)
	if err != nil {
		return err
	}
	defer closeStore(db, &err)
	name := fs.Arg(0)
	var w io.Writer = std.out
	var f *atomicFile
	if name != "-" {
		// never a half-written backup under the final name
		if f, err = createAtomic(name); err != nil {
			return fmt.Errorf("create backup: %w", err)
		}
		defer f.discard()
		w = f
	}
	cw := &countingWriter{w: w}
	start := time.Now()
	version, err := db.Backup(cw)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if f != nil {
		// private, as the store itself: a backup holds all of it
		if err := f.sync(0o600); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
		if err := f.rename(); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
	}
	log.Info().Str("file", name).Int64("bytes", cw.n).Uint64("version", version).Dur("took", time.Since(start)).Msg("backup written")
	return nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func cmdRestore(ctx context.Context, args []string, std stdio) (err error) {
	var c commonFlags
	fs := newFlagSet("restore", `kg restore [--data DIR] FILE

Loads a backup written by kg backup (FILE, or "-" for standard input) into
DIR, which must be empty or absent. Serve the result as usual, or with
kg serve --read-only for a read replica.`, std.err, &c)
	log, err := parseFlags(fs, args, &c, std.err)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageExit(fs)
	}
	r := std.in
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	start := time.Now()
	if err := store.Restore(c.data, r, log); err != nil {
		return err
	}
	log.Info().Str("data", c.data).Dur("took", time.Since(start)).Msg("backup restored")
	return nil
}
