// Package store keeps the graph in Badger (graph.Store).
//
// Key layout (`store/keys.go`): the first byte says what a key is; ids are big-endian uint64 with
// the node kind in the top byte.
//
// | prefix | key | value |
// |---|---|---|
// | `0x02` | node id | node JSON |
// | `0x03` | index namespace, key (title key, name, code, alias…) | id |
// | `0x04` / `0x05` | src, type, dst / dst, type, src (out / in edge) | weight |
// | `0x06` | owner, type, sort key (year desc, title, id) | — (ordered paper lists: pages are seeks) |
// | `0x07` | type, a, b | count (co-author / co-occurrence pairs) |
// | `0x08` | counter name | int64 (node counts, list sizes) |
// | `0x09` | namespace, term, 0, id | — (search tokens; concept tails for the hierarchy) |
//
// Idempotent weights. Counters move only together with the fact they count, inside the same
// transaction: a co-author pair gains one when an authorship edge is *created*; a paper's
// co-occurrence pairs (among its 10 best concepts) are counted when its concepts have settled, at the
// end of an ingest, by the difference between the set last counted for it (kept on the paper, in the
// same transaction) and its set now; a large ingest recounts every pair instead and sets it. A settle
// stopped between any two transactions is completed exactly by the next run (tested at every stop). Papers with more than 100 authors (k authors make k(k−1)/2 pairs: 37,000 for one arXiv paper
// of 274 authors, more than a transaction holds) are listed under each author instead and added in
// when co-authors are read, so weights stay exact. Write transactions run one at a time: Badger
// detects conflicts on keys read, not on ranges scanned. Re-ingesting the
// same files leaves the store byte-identical (tested with a checksum over every key and value), and
// ingest order does not change counts or weights (tested).
package store
