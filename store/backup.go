package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"

	"github.com/dgraph-io/badger/v4"
	"github.com/rs/zerolog"
)

// Checksum hashes every key and value of the graph (not the id sequence or
// layout metadata), so two stores holding the same graph with the same ids
// have the same checksum. Used by tests; replicas compare graph.Digest
// (`kg stats --digest`), which does not depend on ids.
func (db *DB) Checksum() (uint64, error) {
	h := fnv.New64a()
	err := db.bdb.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.DefaultIteratorOptions)
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			k := item.Key()
			if len(k) > 0 && k[0] == pMeta {
				continue
			}
			h.Write(k)
			h.Write([]byte{0xff})
			if err := item.Value(func(v []byte) error { h.Write(v); return nil }); err != nil {
				return err
			}
			h.Write([]byte{0xfe})
		}
		return nil
	})
	return h.Sum64(), err
}

// Backup writes a full backup of the store to w in Badger's backup stream
// format (every key's latest version) and returns its version.
func (db *DB) Backup(w io.Writer) (uint64, error) {
	return db.bdb.Backup(w, 0)
}

// Restore loads a backup stream (from Backup) into the store folder dir,
// which must be empty or absent. The store is not opened through Open: an
// open store holds a lease on the id sequence, and releasing it would
// overwrite the restored sequence (and later ids would collide).
func Restore(dir string, r io.Reader, log zerolog.Logger) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("restore into %s: the folder is not empty (restore into a new folder)", dir)
	}
	_, statErr := os.Stat(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("restore into %s: %w", dir, err)
	}
	// a restore that fails leaves the folder as it found it, so the same
	// command can run again
	clean := func() {
		if os.IsNotExist(statErr) {
			os.RemoveAll(dir)
			return
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
	// the disk is checked before each chunk (a few MB): Badger writes
	// through mmap, and a disk that fills under it kills the process
	var restored int64
	space := func(n uint64) error {
		restored += int64(n)
		free, err := freeBytes(dir)
		if need := reserve(restored); err == nil && free < need {
			return diskFull(DiskSpace{Dir: dir, Free: free, Need: need})
		}
		return nil
	}
	if err := space(0); err != nil {
		clean()
		return fmt.Errorf("restore into %s: %w", dir, err)
	}
	bdb, err := badger.Open(badger.DefaultOptions(dir).WithNumCompactors(2).
		WithMemTableSize(memTableSize).WithNumMemtables(numMemtables).
		WithLogger(badgerLogger{log.With().Str("component", "badger").Logger()}))
	if err != nil {
		clean()
		return fmt.Errorf("restore into %s: %w", dir, err)
	}
	if err := load(bdb, &framedReader{r: r, chunk: space}); err != nil {
		bdb.Close()
		clean()
		return fmt.Errorf("restore into %s: reading the backup: %w", dir, err)
	}
	var ver []byte
	empty := false
	err = bdb.View(func(txn *badger.Txn) error {
		item, err := txn.Get(versionKey)
		if errors.Is(err, badger.ErrKeyNotFound) && emptyTxn(txn) {
			// a backup of a store that held nothing yet (one killed as it
			// was created): an empty store of this layout
			ver, empty = binary.BigEndian.AppendUint64(nil, layoutVersion), true
			return nil
		}
		if err != nil {
			return err
		}
		ver, err = item.ValueCopy(nil)
		return err
	})
	if err == nil && empty {
		err = bdb.Update(func(txn *badger.Txn) error { return txn.Set(versionKey, ver) })
	}
	if cerr := bdb.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if errors.Is(err, badger.ErrKeyNotFound) {
		clean()
		return fmt.Errorf("restore into %s: the backup holds no kg store (no layout version)", dir)
	}
	if err != nil {
		clean()
		return fmt.Errorf("restore into %s: %w", dir, err)
	}
	if len(ver) != 8 || binary.BigEndian.Uint64(ver) < 1 || binary.BigEndian.Uint64(ver) > layoutVersion { // an older layout: kg migrate
		clean()
		return fmt.Errorf("restore into %s: the backup has store layout %x, this kg reads %d", dir, ver, layoutVersion)
	}
	return nil
}

// load is Badger's Load, which panics on some garbage (a length prefix
// beyond memory): a bad file must be an error, not a crash.
func load(bdb *badger.DB, r io.Reader) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("not a kg backup (the stream is malformed: %v)", p)
		}
	}()
	return bdb.Load(r, 256)
}

// maxBackupChunk bounds one chunk of a backup stream (Badger writes chunks
// of a few MB); a larger length prefix means the file is not a backup.
const maxBackupChunk = 256 << 20

// framedReader passes a backup stream through, checking each chunk's
// length prefix (uint64 little-endian, then that many bytes) before Badger
// allocates for it.
type framedReader struct {
	r      io.Reader
	chunk  func(n uint64) error // called with each chunk's length before it is read (nil: none)
	hdr    [8]byte
	inHdr  int    // header bytes seen of the current chunk
	remain uint64 // body bytes left in the current chunk
}

func (f *framedReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	for i := 0; i < n; {
		if f.remain > 0 { // skip the body
			k := min(uint64(n-i), f.remain)
			f.remain -= k
			i += int(k)
			continue
		}
		f.hdr[f.inHdr] = p[i]
		i++
		if f.inHdr++; f.inHdr == 8 {
			f.inHdr = 0
			f.remain = binary.LittleEndian.Uint64(f.hdr[:])
			if f.remain > maxBackupChunk {
				return 0, fmt.Errorf("not a kg backup (a chunk of %d bytes)", f.remain)
			}
			if f.chunk != nil {
				if err := f.chunk(f.remain); err != nil {
					return 0, err
				}
			}
		}
	}
	return n, err
}

// emptyTxn reports whether a snapshot holds no key at all.
func emptyTxn(txn *badger.Txn) bool {
	it := txn.NewIterator(badger.IteratorOptions{})
	defer it.Close()
	it.Rewind()
	return !it.Valid()
}
