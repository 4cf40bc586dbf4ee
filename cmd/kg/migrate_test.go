package main

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// A store of layout 1 (as an earlier kg wrote it: its version key and a
// co-author pair as two keys) is refused by every command with the one
// that converts it; kg migrate converts it, and then it opens.
func TestMigrateCommand(t *testing.T) {
	dir := t.TempDir()
	bdb, err := badger.Open(badger.DefaultOptions(dir).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	pair := func(a, b uint64) []byte {
		k := []byte{0x07, 0} // layout 1's pair prefix; the edge type's byte is not read here
		k = binary.BigEndian.AppendUint64(k, a)
		return binary.BigEndian.AppendUint64(k, b)
	}
	if err := bdb.Update(func(txn *badger.Txn) error {
		one := binary.BigEndian.AppendUint64(nil, 1)
		for _, kv := range [][2][]byte{{[]byte{0x01, 'v', 'e', 'r'}, one}, {pair(5, 9), one}, {pair(9, 5), one}} {
			if err := txn.Set(kv[0], kv[1]); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := bdb.Close(); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runKG(t, "stats", "--data", dir)
	if code != 1 || !strings.Contains(stderr, "has layout 1") || !strings.Contains(stderr, "kg migrate --data "+dir) {
		t.Fatalf("stats on a layout-1 store: exit %d, %q", code, stderr)
	}
	code, stdout, stderr := runKG(t, "migrate", "--data", dir)
	if code != 0 || !strings.Contains(stdout, "from layout 1 to 2: 2 pair keys into 2 rows") {
		t.Fatalf("migrate: exit %d, %q %q", code, stdout, stderr)
	}
	if code, _, stderr := runKG(t, "stats", "--data", dir); code != 0 {
		t.Fatalf("stats after migrate: exit %d, %q", code, stderr)
	}
	if code, stdout, _ := runKG(t, "migrate", "--data", dir); code != 0 || !strings.Contains(stdout, "already has layout 2") {
		t.Fatalf("second migrate: exit %d, %q", code, stdout)
	}
	if code, _, stderr := runKG(t, "migrate", "--data", dir+"/absent"); code != 1 || !strings.Contains(stderr, "absent") {
		t.Fatalf("migrate of a missing folder: exit %d, %q", code, stderr)
	}
}
