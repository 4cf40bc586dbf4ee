// Verifying a store's files. Badger does not check block checksums unless
// asked, answers a damaged block as "no such key" when it does, and its own
// DB.VerifyChecksum dereferences a nil block on the first damaged one
// (v4.9.6). So kg reads the files itself: every table (.sst) through
// Badger's table package, with block checksums on, counting its entries
// against the count its index records (a damaged block ends the iteration
// early); every log (.mem write-ahead logs, .vlog value logs) entry by
// entry, checking each entry's CRC-32. Each damaged file is named with what
// it holds.

package store

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/table"
	"github.com/dgraph-io/ristretto/v2/z"
)

// ErrDamaged is in the chain of errors that say a store's files are
// damaged.
var ErrDamaged = errors.New("the store is damaged")

// Damage is one damaged file of a store.
type Damage struct {
	File  string // base name, e.g. 000012.sst
	Holds string // what the file holds
	What  string // what is wrong
}

func (d Damage) String() string { return d.File + " (" + d.Holds + "): " + d.What }

// VerifyReport is what Verify read.
type VerifyReport struct {
	Tables, Logs int   // files read
	Entries      int64 // table entries and log entries read
	Bytes        int64
	Damaged      []Damage
}

// Verify reads every table and log of the store folder dir and checks
// their checksums. It reads the files without opening the store, so it
// works on a store another process serves, a copy, or one Badger refuses
// to open. progress, if not nil, is called before each file.
func Verify(dir string, progress func(file string)) (VerifyReport, error) {
	var rep VerifyReport
	entries, err := os.ReadDir(dir)
	if err != nil {
		return rep, err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	// files are read on every core; the report keeps the folder's order
	type result struct {
		d   *Damage
		rep VerifyReport
	}
	results := make([]result, len(names))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				path := filepath.Join(dir, names[i])
				r := &results[i]
				if filepath.Ext(names[i]) == ".sst" {
					r.rep.Tables++
					r.d = verifyTable(path, &r.rep)
				} else {
					r.rep.Logs++
					r.d = verifyLog(path, &r.rep)
				}
			}
		}()
	}
	for i, name := range names {
		switch filepath.Ext(name) {
		case ".sst", ".mem", ".vlog":
			if progress != nil {
				progress(name)
			}
			jobs <- i
		}
	}
	close(jobs)
	wg.Wait()
	for i, r := range results {
		rep.Tables += r.rep.Tables
		rep.Logs += r.rep.Logs
		rep.Entries += r.rep.Entries
		rep.Bytes += r.rep.Bytes
		if r.d != nil {
			r.d.File = names[i]
			rep.Damaged = append(rep.Damaged, *r.d)
		}
	}
	return rep, nil
}

// verifyTable reads every entry of one table with block checksums on.
func verifyTable(path string, rep *VerifyReport) (d *Damage) {
	defer func() {
		if p := recover(); p != nil { // Badger panics on some damage
			d = &Damage{Holds: "a table", What: fmt.Sprintf("unreadable (Badger: %v)", p)}
		}
	}()
	mf, err := z.OpenMmapFile(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // compacted away since the folder was listed
	}
	if err != nil && !errors.Is(err, z.NewFile) {
		return &Damage{Holds: "a table", What: err.Error()}
	}
	defer mf.Close(-1)
	// the store's table options; never DecrRef the table: at zero Badger
	// deletes its file
	t, err := table.OpenTable(mf, table.Options{BlockSize: 4 << 10, BloomFalsePositive: 0.01,
		Compression: options.Snappy, ChkMode: options.OnBlockRead})
	if err != nil {
		return &Damage{Holds: "a table", What: "its index is damaged: " + err.Error()}
	}
	holds := "table of " + keyRange(t.Smallest(), t.Biggest())
	rep.Bytes += t.Size()
	it := t.NewIterator(table.NOCACHE)
	defer it.Close()
	var n uint32
	var last []byte
	for it.Rewind(); it.Valid(); it.Next() {
		n++
		last = append(last[:0], it.Key()...)
	}
	rep.Entries += int64(n)
	if want := t.KeyCount(); n != want {
		after := "at its start"
		if last != nil {
			after = "after " + describeKey(last)
		}
		return &Damage{Holds: holds, What: fmt.Sprintf("a damaged block %s: %d of its %d entries readable", after, n, want)}
	}
	return nil
}

// verifyLog reads a write-ahead or value log entry by entry. A log is
// preallocated and written in order: an entry that does not check, with
// only zeros after where it ends, is the end of the log (or a write a
// crash cut short, which Badger drops); one with data after it is damage.
// Where it ends, not where it begins: an entry is copied into the log's
// mapped memory, and a kill -9 inside that copy can leave its tail written
// and a part before it not (the crash test found such a log, called
// damaged, once in many kills).
func verifyLog(path string, rep *VerifyReport) *Damage {
	holds := "write-ahead log of recent writes"
	if strings.HasSuffix(path, ".vlog") {
		holds = "value log of large values"
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // flushed and removed since the folder was listed
	}
	if err != nil {
		return &Damage{Holds: holds, What: err.Error()}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return &Damage{Holds: holds, What: err.Error()}
	}
	const header = 20 // Badger's log file header (encryption key id, IV)
	if st.Size() < header {
		return nil // created, never written
	}
	r := bufio.NewReaderSize(io.NewSectionReader(f, header, st.Size()-header), 1<<20)
	off := int64(header)
	for {
		n, ok, whole := logEntry(r)
		if ok {
			off += n
			rep.Entries++
			continue
		}
		if n == 0 || restIsZero(f, off, st.Size()) || whole && restIsZero(f, off+n, st.Size()) {
			rep.Bytes += off
			return nil
		}
		return &Damage{Holds: holds, What: fmt.Sprintf("an entry at byte %d does not match its checksum, and data follows", off)}
	}
}

// logEntry reads one log entry: its length, whether it matches its CRC-32
// (Castagnoli) over header, key and value, and whether the file held all
// of it (sane lengths, every byte read: then the length is where it
// ends). A zero length means a zero header: the end of the log.
func logEntry(r *bufio.Reader) (n int64, ok, whole bool) {
	h := crc32.New(crc32.MakeTable(crc32.Castagnoli))
	meta, err := r.Peek(2)
	if err != nil || meta[0] == 0 && meta[1] == 0 && zeroVarints(r) {
		return 0, false, false
	}
	var hdr []byte
	b, _ := r.ReadByte()
	hdr = append(hdr, b)
	b, _ = r.ReadByte()
	hdr = append(hdr, b)
	var lens [3]uint64
	for i := range lens {
		v, err := binary.ReadUvarint(byteRecorder{r, &hdr})
		if err != nil {
			return int64(len(hdr)), false, false
		}
		lens[i] = v
	}
	if lens[0] > 1<<16 || lens[1] > 1<<31 {
		return int64(len(hdr)), false, false
	}
	h.Write(hdr)
	kv := int64(lens[0] + lens[1])
	if n, err := io.CopyN(h, r, kv); err != nil { // streamed: a hostile length allocates nothing
		return int64(len(hdr)) + n, false, false
	}
	var sum [4]byte
	if _, err := io.ReadFull(r, sum[:]); err != nil {
		return int64(len(hdr)) + kv, false, false
	}
	return int64(len(hdr)) + kv + 4, binary.BigEndian.Uint32(sum[:]) == h.Sum32(), true
}

// zeroVarints reports whether the header after two zero meta bytes has
// zero lengths too (Peek only: nothing is consumed).
func zeroVarints(r *bufio.Reader) bool {
	b, err := r.Peek(5)
	return err != nil || b[2] == 0 && b[3] == 0 && b[4] == 0
}

type byteRecorder struct {
	r   *bufio.Reader
	out *[]byte
}

func (b byteRecorder) ReadByte() (byte, error) {
	c, err := b.r.ReadByte()
	if err == nil {
		*b.out = append(*b.out, c)
	}
	return c, err
}

// restIsZero reports whether the file holds only zero bytes from off on.
func restIsZero(f *os.File, off, size int64) bool {
	buf := make([]byte, 1<<16)
	for off < size {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		for _, c := range buf[:n] {
			if c != 0 {
				return false
			}
		}
		off += int64(n)
		if err != nil {
			return err == io.EOF
		}
	}
	return true
}

// keyKinds names what keys of each first byte hold (keys.go).
var keyKinds = map[byte]string{
	pMeta: "metadata", pNode: "nodes", pLookup: "name and id indexes", pOut: "edges",
	pIn: "edges", pList: "paper lists", pPair: "co-author and co-occurrence counts (layout 1)", pPairRow: "co-author and co-occurrence counts",
	pCounter: "counters", pTerm: "search terms", pText: "abstracts", pValue: "profiles and corrections",
}

// describeKey says what a table key (a store key and Badger's 8-byte
// version) is about.
func describeKey(k []byte) string {
	if len(k) > 8 {
		k = k[:len(k)-8]
	}
	if len(k) == 0 {
		return "an empty key"
	}
	if strings.HasPrefix(string(k), "!badger!") {
		return "Badger's own records"
	}
	if kind, ok := keyKinds[k[0]]; ok {
		return kind
	}
	return fmt.Sprintf("keys 0x%02x", k[0])
}

// keyRange says what a table holds from its smallest and biggest keys.
func keyRange(lo, hi []byte) string {
	a, b := describeKey(lo), describeKey(hi)
	if a == b {
		return a
	}
	return a + " to " + b
}

// DamageError is the error for a damaged store: it names the files.
func DamageError(dir string, damaged []Damage) error {
	var b strings.Builder
	fmt.Fprintf(&b, "the store in %s is damaged (%d file", dir, len(damaged))
	if len(damaged) != 1 {
		b.WriteString("s")
	}
	b.WriteString(": ")
	for i, d := range damaged {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(d.String())
	}
	b.WriteString("): restore it from a kg backup (kg restore), or re-ingest its sources into a new folder")
	return damageError(b.String())
}

// damageError is a message that is ErrDamaged to errors.Is.
type damageError string

func (e damageError) Error() string { return string(e) }
func (e damageError) Unwrap() error { return ErrDamaged }

// verifyLogs checks the write-ahead logs (.mem) of a folder.
func verifyLogs(dir string) []Damage {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.mem"))
	slices.Sort(paths)
	var out []Damage
	var rep VerifyReport
	for _, p := range paths {
		if d := verifyLog(p, &rep); d != nil {
			d.File = filepath.Base(p)
			out = append(out, *d)
		}
	}
	return out
}
