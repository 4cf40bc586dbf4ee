// Package store implements graph.Store on Badger.
//
// # Files
//
//   - keys.go: the key layout, one constant per key kind with its layout and
//     value beside it (the one statement of it: read it there). The first
//     byte says what a key is; ids are big-endian uint64 with the node kind
//     in the top byte, so key order is id order and a prefix scan reads one
//     node's entries; variable-length parts come last or end with 0x00.
//   - db.go: options (sized for a small machine), Open, Close, bulk drops,
//     value-log GC.
//   - commit.go: write transactions, one at a time, committed in the
//     background while the caller builds the next (graph.AsyncStore).
//   - overlay.go, tx.go: a write transaction's writes, held in memory until
//     commit (reads see them; Atomic undoes part of a transaction).
//   - pairrow.go: a node's pair counts of one type (co-authors,
//     co-occurring concepts) as one delta-varint row, split in parts past
//     4,096 entries; a transaction changes rows in memory and writes each
//     once at commit (layout 2).
//   - bulk.go, tier.go: the bulk load of a first ingest: commits land in a
//     memory tier (an append-only arena, a hash table, per kind of key a
//     sorted array) that reads see, and Badger's tables are written once,
//     sorted, by its StreamWriter when the load ends or the tier is full;
//     a marker file makes a killed load restart from nothing.
//   - migrate.go: the layout version; kg migrate converts a store of an
//     earlier layout in place (Open refuses one with CONFLICT).
//   - reader.go: snapshots (graph.Reader) and value codecs.
//   - hot.go, filter.go: the cache of hot committed values and the
//     absent-key filter of bulk writers.
//   - census.go: the count of committed writes by kind of key
//     (Options.Census, kg ingest --write-census).
//   - backup.go: checksum, backup stream, restore.
//   - space.go: the free-space check before every write (DISK_FULL).
//   - verify.go: reading every table and log to find damaged files.
//
// # Faults
//
// A crash of the process loses nothing committed (but in a bulk load,
// which commits to memory: the load starts over, bulk.go): a commit is in Badger's
// write-ahead log, a file mapped in memory, which the operating system
// writes back after the process dies. The next open replays the log; a
// read-only open does so by opening the store read-write once (Open,
// recoverLog), after checking the log's entries, since Badger's replay
// drops everything after the first entry that does not check.
//
// A power cut loses what the system had not written back: on Linux dirty
// pages are written within 30 s (vm.dirty_expire_centisecs), so about the
// last 30 s of commits, and at most the three memtables (96 MB of writes,
// about 10,000 arXiv records). Tables and the MANIFEST are synced by
// Badger when written. Options.Sync (kg ingest --sync, kg serve --sync)
// syncs the log at every commit instead: nothing committed is lost.
//
// A full disk: see space.go. Damaged files: see verify.go; kg serve opens
// its store with block checks on read and verifies it at startup and on a
// timer.
//
// # Exact counters
//
// Counters and pair counts (co-authors, co-occurrence) are kept exact by
// the graph package: each moves only in the transaction that changes the
// fact it counts (graph/doc.go, "Exact weights"). The store makes that
// possible by running write transactions one at a time (Badger detects
// conflicts on keys read, not on ranges scanned) and by committing a
// transaction whole or not at all.
package store
