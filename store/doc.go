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
//   - reader.go: snapshots (graph.Reader) and value codecs.
//   - hot.go, filter.go: the cache of hot committed values and the
//     absent-key filter of bulk writers.
//   - backup.go: checksum, backup stream, restore.
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
