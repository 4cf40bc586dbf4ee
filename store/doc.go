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
// Counters move only together with the fact they count, inside the same
// transaction: a co-author pair gains one when an authorship edge is
// created; a paper's co-occurrence pairs (among its 10 best concepts) are
// counted when its concepts have settled, at the end of an ingest, by the
// difference between the set last counted for it (kept on the paper, in
// the same transaction) and its set now; a large ingest recounts every pair
// instead and sets it. A settle stopped between any two transactions is
// completed exactly by the next run (tested at every stop). Papers with
// more than 100 authors (k authors make k(k−1)/2 pairs: 37,000 for one
// arXiv paper of 274 authors, more than a transaction holds) are listed
// under each author instead and added in when co-authors are read, so
// weights stay exact. Write transactions run one at a time: Badger detects
// conflicts on keys read, not on ranges scanned. Re-ingesting the same
// files leaves the store byte-identical (tested with Checksum over every
// key and value), and ingest order does not change counts or weights
// (tested).
package store
