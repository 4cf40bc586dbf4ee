// Free disk space. Badger writes its log and its tables through mmap: when
// the disk fills under it, the process dies of SIGBUS inside Badger, with no
// word of why and a goroutine dump. So every write transaction first checks
// the free space of the data folder against a reserve that covers what
// Badger may still write on its own after the check: the memtables' logs
// and the table a flush writes, a compaction's new tables before the old
// are deleted, and a tenth of the store for growth. A write that would
// start below it is refused with DISK_FULL, before anything is written.

package store

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/researchkg/kg/graph"
)

// Badger's memtables as Open sets them (see DefaultOptions for why).
const (
	memTableSize = 32 << 20
	numMemtables = 3
)

// compactionReserve is the headroom left for compactions, which write their
// new tables before deleting the old ones (tables of 2 MB; an L0 compaction
// rewrites a few memtables' worth).
const compactionReserve = 64 << 20

// ErrDiskFull is in the chain of the error a write gets when the disk is
// nearly full (its graph.Code is graph.DiskFull).
var ErrDiskFull = errors.New("disk nearly full")

// DiskSpace is the free space of a store's folder and the reserve writes
// leave free.
type DiskSpace struct {
	Dir  string
	Free uint64 // bytes an unprivileged process may still write
	Need uint64 // the reserve: writes are refused below it
}

// Short reports whether writes are refused.
func (s DiskSpace) Short() bool { return s.Free < s.Need }

func (s DiskSpace) String() string {
	return fmt.Sprintf("%s free in %s, writes need about %s", megabytes(s.Free), s.Dir, megabytesUp(s.Need))
}

func megabytes(b uint64) string { return fmt.Sprintf("%d MB", b>>20) }

// megabytesUp rounds up: a need never reads as less than it is.
func megabytesUp(b uint64) string { return fmt.Sprintf("%d MB", (b+(1<<20)-1)>>20) }

// reserve is the free space writes leave for a store of lsm bytes.
func reserve(lsm int64) uint64 {
	return (numMemtables+1)*memTableSize + compactionReserve + uint64(max(lsm, 0))/10
}

// freeBytes is the space an unprivileged process may write in dir.
func freeBytes(dir string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, fmt.Errorf("free space of %s: %w", dir, err)
	}
	return st.Bavail * uint64(st.Bsize), nil
}

// DiskSpace reports the data folder's free space and the reserve. An
// in-memory store has no folder: it reports nothing short.
func (db *DB) DiskSpace() (DiskSpace, error) {
	if db.dir == "" {
		return DiskSpace{}, nil
	}
	free, err := freeBytes(db.dir)
	if err != nil {
		return DiskSpace{Dir: db.dir}, err
	}
	lsm, _ := db.bdb.Size()
	return DiskSpace{Dir: db.dir, Free: free, Need: max(reserve(lsm), db.reserveMin)}, nil
}

// checkSpace refuses a write when the disk is nearly full. A folder whose
// free space cannot be read is not refused (the write then fails, or not,
// on its own).
func (db *DB) checkSpace() error {
	sp, err := db.DiskSpace()
	if err != nil || !sp.Short() {
		return nil
	}
	return diskFull(sp)
}

func diskFull(sp DiskSpace) error {
	return &graph.Error{Code: graph.DiskFull, Err: ErrDiskFull,
		Msg: fmt.Sprintf("disk nearly full: %s free in %s, need about %s", megabytes(sp.Free), sp.Dir, megabytesUp(sp.Need))}
}
