// Command kg is a knowledge-graph service for research publications: it
// ingests publication pages into a Badger store and serves them over GraphQL.
// Its commands (serve, ingest, stats, terms, recompute, authors, backup,
// restore, verify, migrate, export, soak, bench) are listed in usage below and each has a file of its own;
// "kg help" prints the list, "kg COMMAND --help" a command's flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"
)

const usage = `kg — a knowledge graph of research publications (papers, authors, arXiv
subjects, key terms, code repositories), stored in Badger, served over GraphQL.

Usage:
  kg serve  [--data DIR] [--addr HOST:PORT]   serve GraphQL at http://ADDR/graphql
  kg ingest [--data DIR] PATH...              read files or folders into the graph
  kg stats  [--data DIR]                      print the graph's counts
  kg terms  [--top N] [--data DIR] [FILE]     key terms of JSON lines {"id", "text"}
  kg recompute [--data DIR]                   re-extract the concepts of every stored paper
  kg authors [--data DIR] NAME | --corrections | --recluster
                                              people who share a name; manual corrections
  kg backup  [--data DIR] FILE                write a backup of the store (Badger's stream)
  kg restore [--data DIR] FILE                load a backup into an empty data folder
  kg verify  [--data DIR]                     check every file of the store for damage
  kg migrate [--data DIR]                     convert a store of an earlier kg's layout in place
  kg export  [--data DIR] --format F --all    the graph (or --root ID, --filter JSON) as GraphML,
                                              GEXF, VOSviewer, RDF N-Quads or Neo4j CSV
  kg soak   [--addr HOST:PORT] [--variant V]  load-test a kg serve on this machine
  kg bench  [--data DIR] [--secs S]           each dashboard question: kg over HTTP, in process, PostgreSQL

Run "kg COMMAND --help" for a command's flags. Every flag can also be set
from the environment: KG_DATA, KG_ADDR, KG_LOG_LEVEL, KG_WRITE_TOKEN,
KG_CORS_ORIGINS.
`

func main() {
	// SIGINT/SIGTERM cancel ctx: ingest stops between documents (each is
	// atomic), serve shuts down gracefully; deferred Closes then run.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr})
	stop()
	os.Exit(code)
}

// stdio are the streams a command reads and writes: the process's in main,
// buffers in tests. Commands use nothing else.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// commands maps a command's name to its function.
var commands = map[string]func(ctx context.Context, args []string, std stdio) error{
	"bench":     cmdBench,
	"export":    cmdExport,
	"serve":     cmdServe,
	"ingest":    cmdIngest,
	"stats":     cmdStats,
	"terms":     cmdTerms,
	"recompute": cmdRecompute,
	"authors":   cmdAuthors,
	"backup":    cmdBackup,
	"restore":   cmdRestore,
	"soak":      cmdSoak,
	"verify":    cmdVerify,
	"migrate":   cmdMigrate,
}

// run is main without the exit and the signals, so tests can call it.
func run(ctx context.Context, args []string, std stdio) int {
	if len(args) == 0 {
		fmt.Fprint(std.err, usage)
		return 2
	}
	cmd, ok := commands[args[0]]
	switch {
	case ok:
	case args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help":
		fmt.Fprint(std.out, usage)
		return 0
	default:
		fmt.Fprintf(std.err, "kg: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	err := cmd(ctx, args[1:], std)
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ee):
		return ee.code
	default:
		fmt.Fprintf(std.err, "kg %s: %v\n", args[0], err)
		return 1
	}
}

// usageExit prints a command's synopsis and flags for arguments it cannot
// take, and exits 2.
func usageExit(fs *flag.FlagSet) error {
	fs.Usage()
	return exitError{2}
}

// exitError carries an exit status for failures already reported.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// commonFlags are the flags every command has.
type commonFlags struct {
	data       string
	logLevel   string
	cpuprofile *string // set by profileFlag on the commands that offer --cpuprofile
	stop       func()  // stops the CPU profile parseFlags started
}

// profileFlag offers --cpuprofile FILE: parseFlags starts the profile, and
// the command defers c.stopProfile().
func (c *commonFlags) profileFlag(fs *flag.FlagSet, desc string) {
	c.cpuprofile = fs.String("cpuprofile", "", desc)
}

// stopProfile stops and writes the CPU profile, if one was started.
func (c *commonFlags) stopProfile() {
	if c.stop != nil {
		c.stop()
	}
}

func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

func newFlagSet(name, synopsis string, stderr io.Writer, c *commonFlags) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "%s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	fs.StringVar(&c.data, "data", envOr("KG_DATA", "./kg-data"), "data folder of the Badger store (env KG_DATA)")
	fs.StringVar(&c.logLevel, "log-level", envOr("KG_LOG_LEVEL", "info"), "log level: debug, info, warn, error (env KG_LOG_LEVEL)")
	return fs
}

// parseFlags parses a command's flags, then builds its logger from them.
func parseFlags(fs *flag.FlagSet, args []string, c *commonFlags, stderr io.Writer) (zerolog.Logger, error) {
	if err := fs.Parse(args); err != nil {
		return zerolog.Nop(), err
	}
	log, err := newLogger(stderr, c.logLevel)
	if err == nil && c.cpuprofile != nil {
		if c.stop, err = startCPUProfile(*c.cpuprofile); err != nil {
			err = fmt.Errorf("--cpuprofile: %w", err)
		}
	}
	return log, err
}

// newLogger logs JSON lines to w, or a console format when w is a terminal.
func newLogger(w io.Writer, level string) (zerolog.Logger, error) {
	lvl, err := zerolog.ParseLevel(level)
	if err != nil || level == "" {
		return zerolog.Nop(), fmt.Errorf("--log-level %q: want debug, info, warn or error", level)
	}
	if f, ok := w.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		w = zerolog.ConsoleWriter{Out: w, TimeFormat: "15:04:05"}
	}
	// Lines come from several goroutines (the reader, the pipeline's
	// writer, Badger): one write at a time.
	return zerolog.New(zerolog.SyncWriter(w)).Level(lvl).With().Timestamp().Logger(), nil
}

// flagSet reports whether the command line set the flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
