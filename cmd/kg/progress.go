package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mattn/go-isatty"
)

// countingReader counts the bytes read through it, for progress by size.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// progressBar redraws one status line on a terminal: records, rate, share
// of the input's bytes read, ETA and counts. On anything else it is off and
// the log lines report progress instead.
type progressBar struct {
	w     io.Writer
	total int64
	read  *atomic.Int64
	start time.Time
	stats func() (records, added, failed int)
	stop  chan struct{}
	done  sync.WaitGroup
}

// startProgressBar starts a bar on w when w is a terminal; nil otherwise.
func startProgressBar(w io.Writer, total int64, read *atomic.Int64, stats func() (int, int, int)) *progressBar {
	f, ok := w.(*os.File)
	if !ok || !isatty.IsTerminal(f.Fd()) {
		return nil
	}
	b := &progressBar{w: w, total: total, read: read, start: time.Now(), stats: stats, stop: make(chan struct{})}
	b.done.Add(1)
	go func() {
		defer b.done.Done()
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-b.stop:
				fmt.Fprint(b.w, "\r\033[K")
				return
			case <-t.C:
				records, added, failed := b.stats()
				fmt.Fprint(b.w, "\r\033[K"+formatProgress(records, added, failed, b.read.Load(), b.total, time.Since(b.start)))
			}
		}
	}()
	return b
}

// Stop clears the line. Safe on a nil bar.
func (b *progressBar) Stop() {
	if b == nil {
		return
	}
	close(b.stop)
	b.done.Wait()
}

// formatProgress renders the status line.
func formatProgress(records, added, failed int, read, total int64, elapsed time.Duration) string {
	var s strings.Builder
	rate := float64(records) / max(elapsed.Seconds(), 0.001)
	fmt.Fprintf(&s, "ingest %d records  %.0f/s", records, rate)
	if total > 0 && read > 0 {
		frac := min(float64(read)/float64(total), 1)
		width := 20
		filled := int(frac * float64(width))
		fmt.Fprintf(&s, "  [%s%s] %3.0f%%", strings.Repeat("#", filled), strings.Repeat(".", width-filled), 100*frac)
		if frac > 0.01 && frac < 1 {
			eta := time.Duration(float64(elapsed) * (1 - frac) / frac).Round(time.Second)
			fmt.Fprintf(&s, "  ETA %s", eta)
		}
	}
	fmt.Fprintf(&s, "  added %d  failed %d", added, failed)
	return s.String()
}
