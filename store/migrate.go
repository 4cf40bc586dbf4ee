package store

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/dgraph-io/badger/v4"
	"github.com/rs/zerolog"

	"github.com/researchkg/kg/graph"
)

// ErrOldLayout is wrapped by Open's error for a store of an earlier layout
// that Migrate converts.
var ErrOldLayout = errors.New("store of an earlier layout")

// oldLayoutError is Open's refusal of a store Migrate can convert.
func oldLayoutError(dir string, v uint64) error {
	return graph.Errorf(graph.Conflict, "%w", oldLayout{dir, v})
}

type oldLayout struct {
	dir string
	v   uint64
}

func (e oldLayout) Error() string {
	return fmt.Sprintf("store %s has layout %d and this kg reads layout %d (pair counts kept as rows): run kg migrate --data %s to convert it in place (every fact is kept; kg backup first if you want a copy), or use the kg that wrote it",
		e.dir, e.v, layoutVersion, e.dir)
}

func (e oldLayout) Is(target error) bool { return target == ErrOldLayout }

// StoreLayout reports the layout version a store's folder holds (0: none
// yet), without opening it for use.
func StoreLayout(dir string) (uint64, error) {
	bdb, err := badger.Open(badger.DefaultOptions(dir).WithReadOnly(true).WithLogger(nil))
	if err != nil {
		return 0, fmt.Errorf("open store %s: %w", dir, err)
	}
	defer bdb.Close()
	return readLayout(bdb)
}

func readLayout(bdb *badger.DB) (uint64, error) {
	var v uint64
	err := bdb.View(func(txn *badger.Txn) error {
		item, err := txn.Get(versionKey)
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return item.Value(func(b []byte) error {
			if len(b) != 8 {
				return fmt.Errorf("layout version of %d bytes", len(b))
			}
			v = binary.BigEndian.Uint64(b)
			return nil
		})
	})
	return v, err
}

// MigrateResult says what Migrate did.
type MigrateResult struct {
	From, To uint64
	Rows     int   // pair rows written
	Pairs    int64 // pair keys of layout 1 read
}

// Migrate converts the store in dir to this kg's layout, in place.
//
// Layout 1 → 2: the pair keys (one per pair and direction) are read in key
// order, which is row order, and each node's counts are written as its row
// (pairrow.go) in batches; then the old keys are dropped and the version
// set, in that order. A crash or an interrupt at any point leaves a store
// that Migrate finishes when run again: until the version is set the old
// keys are the truth and the rows are rebuilt from them whole.
func Migrate(dir string, log zerolog.Logger) (MigrateResult, error) {
	bdb, err := badger.Open(badger.DefaultOptions(dir).
		WithNumCompactors(2).WithMemTableSize(memTableSize).WithNumMemtables(numMemtables).
		WithLogger(badgerLogger{log.With().Str("component", "badger").Logger()}))
	if err != nil {
		if isLocked(err) {
			return MigrateResult{}, fmt.Errorf("open store %s: another kg process holds it: stop it first: %w", dir, err)
		}
		return MigrateResult{}, fmt.Errorf("open store %s: %w", dir, err)
	}
	res, err := migrate(bdb, log)
	if cerr := bdb.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return res, fmt.Errorf("migrate %s: %w", dir, err)
	}
	return res, nil
}

func migrate(bdb *badger.DB, log zerolog.Logger) (MigrateResult, error) {
	v, err := readLayout(bdb)
	if err != nil {
		return MigrateResult{}, err
	}
	res := MigrateResult{From: v, To: layoutVersion}
	switch {
	case v == layoutVersion:
		return res, nil
	case v == 0:
		return res, fmt.Errorf("the folder holds no kg store (no layout version)")
	case v > layoutVersion:
		return res, fmt.Errorf("the store has layout %d, newer than this kg's %d: use a newer kg", v, layoutVersion)
	}
	// v == 1
	wb := bdb.NewWriteBatch()
	defer wb.Cancel()
	var cur rowID
	var es []pairEntry
	flush := func() error {
		if len(es) == 0 {
			return nil
		}
		for _, w := range rowWrites(cur.t, cur.a, &pairRow{delta: deltaOf(es)}) {
			if w.v == nil {
				continue // a new row has nothing to delete
			}
			if err := wb.Set(w.k, w.v); err != nil {
				return err
			}
		}
		res.Rows++
		if res.Rows%100000 == 0 {
			log.Info().Int("rows", res.Rows).Int64("pairs", res.Pairs).Msg("migrating pair counts")
		}
		es = es[:0]
		return nil
	}
	err = bdb.View(func(txn *badger.Txn) error {
		it := iterator(txn, []byte{pPair}, true)
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			k := item.Key()
			if len(k) != 18 {
				return fmt.Errorf("pair key %x: %w", k, errBadKey)
			}
			id := rowID{graph.EdgeType(k[1]), graph.NodeID(binary.BigEndian.Uint64(k[2:10]))}
			if id != cur {
				if err := flush(); err != nil {
					return err
				}
				cur = id
			}
			var n int64
			if err := item.Value(func(v []byte) error { n = decodeInt(v); return nil }); err != nil {
				return err
			}
			res.Pairs++
			if n > 0 {
				es = append(es, pairEntry{binary.BigEndian.Uint64(k[10:]), n})
			}
		}
		return flush()
	})
	if err == nil {
		err = wb.Flush()
	}
	if err != nil {
		return res, err
	}
	if err := bdb.DropPrefix([]byte{pPair}); err != nil {
		return res, err
	}
	return res, bdb.Update(func(txn *badger.Txn) error {
		return txn.Set(versionKey, binary.BigEndian.AppendUint64(nil, layoutVersion))
	})
}

// deltaOf is a row built from nothing: every entry a change.
func deltaOf(es []pairEntry) map[uint64]int64 {
	m := make(map[uint64]int64, len(es))
	for _, e := range es {
		m[e.id] = e.n
	}
	return m
}
