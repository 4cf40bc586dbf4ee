package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// tierModel is what a tier must answer: each key's latest entry.
type tierModel map[string]tierEntry

func (m tierModel) scan(prefix, start []byte) []tierEntry {
	var out []tierEntry
	for _, k := range slices.Sorted(maps.Keys(m)) {
		kb := []byte(k)
		if bytes.HasPrefix(kb, prefix) && (start == nil || bytes.Compare(kb, start) >= 0) {
			out = append(out, m[k])
		}
	}
	return out
}

// tierOps applies a stream of operations decoded from data to a tier and
// to the model and compares every read and scan.
func tierOps(t *testing.T, data []byte, keep bool) {
	tr := newTier()
	m := tierModel{}
	next := func(n int) []byte {
		if len(data) < n {
			data = nil
			return nil
		}
		b := data[:n]
		data = data[n:]
		return b
	}
	for len(data) > 2 {
		op := next(1)[0]
		kl := int(next(1)[0]%24) + 1
		k := next(kl)
		if k == nil {
			return
		}
		k = slices.Clone(k)
		k[0] = []byte{pMeta, pOut, pCounter, pTerm}[k[0]%4] // a few families (counters rewrite in place), so keys share prefixes
		switch op % 4 {
		case 0, 1: // set
			v := slices.Clone(next(int(op) % 9))
			tr.mu.Lock()
			if err := tr.put(k, v, false, keep); err != nil {
				t.Fatal(err)
			}
			tr.mu.Unlock()
			m[string(k)] = tierEntry{key: k, val: v}
		case 2: // delete
			tr.mu.Lock()
			if err := tr.put(k, nil, true, keep); err != nil {
				t.Fatal(err)
			}
			tr.mu.Unlock()
			if _, had := m[string(k)]; had || keep {
				m[string(k)] = tierEntry{key: k, del: true}
			}
		case 3: // read, and scan from a prefix of k
			v, del, ok := tr.get(k)
			want, wok := m[string(k)]
			if ok != wok || del != want.del || !bytes.Equal(v, want.val) {
				t.Fatalf("get %x: %x %v %v, want %x %v %v", k, v, del, ok, want.val, want.del, wok)
			}
			prefix := k[:int(op/4)%len(k)]
			var start []byte
			if op&0x40 != 0 {
				start = k
			}
			var got []tierEntry
			tr.scan(prefix, start, func(e tierEntry) bool { got = append(got, e); return true })
			wantScan := m.scan(prefix, start)
			if len(got) != len(wantScan) {
				t.Fatalf("scan %x from %x: %d entries, want %d", prefix, start, len(got), len(wantScan))
			}
			for i := range got {
				if !bytes.Equal(got[i].key, wantScan[i].key) || !bytes.Equal(got[i].val, wantScan[i].val) || got[i].del != wantScan[i].del {
					t.Fatalf("scan %x from %x: entry %d is %x=%x (del %v), want %x=%x (del %v)", prefix, start, i,
						got[i].key, got[i].val, got[i].del, wantScan[i].key, wantScan[i].val, wantScan[i].del)
				}
			}
		}
	}
	if tr.keys() != len(m) {
		t.Fatalf("%d keys, want %d", tr.keys(), len(m))
	}
	// a flush writes every key's latest entry in key order, a first
	// byte at a time (each of its families in turn)
	tr.freeze()
	var got []tierEntry
	for b := range 256 {
		tr.flushEach(byte(b), func(e tierEntry) bool { got = append(got, e); return true })
	}
	want := m.scan(nil, nil)
	if len(got) != len(want) {
		t.Fatalf("flush: %d entries, want %d", len(got), len(want))
	}
	for i := range got {
		if !bytes.Equal(got[i].key, want[i].key) || !bytes.Equal(got[i].val, want[i].val) || got[i].del != want[i].del {
			t.Fatalf("flush: entry %d is %x=%x (del %v), want %x=%x (del %v)", i, got[i].key, got[i].val, got[i].del, want[i].key, want[i].val, want[i].del)
		}
	}
}

// The tier answers every read and scan as a map of each key's latest
// entry does: random operations on few families, keys that share long
// prefixes (past the 16 bytes a tree item holds), rewrites, deletions.
func TestTierAsModel(t *testing.T) {
	for seed := range 20 {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		data := make([]byte, 40000)
		for i := range data {
			data[i] = byte(r.IntN(256))
			if i%5 == 2 && r.IntN(3) > 0 {
				data[i] = 'k' // shared prefixes
			}
		}
		tierOps(t, data, seed%2 == 0)
	}
}

// Scans that cross batches (more keys than one read lock collects) and
// keys longer than a tree item's inline bytes that differ only at the end.
func TestTierLongScans(t *testing.T) {
	tr := newTier()
	want := 3*scanBatch + 17
	tr.mu.Lock()
	for i := range want {
		k := append(bytes.Repeat([]byte{0x04}, 20), fmt.Sprintf("%06d", i)...)
		if err := tr.put(k, binary.BigEndian.AppendUint32(nil, uint32(i)), false, false); err != nil {
			t.Fatal(err)
		}
	}
	tr.mu.Unlock()
	n := 0
	tr.scan([]byte{0x04}, nil, func(e tierEntry) bool {
		if got := binary.BigEndian.Uint32(e.val); int(got) != n {
			t.Fatalf("entry %d holds %d", n, got)
		}
		n++
		return true
	})
	if n != want {
		t.Fatalf("scanned %d, want %d", n, want)
	}
	// from the middle, stopping early
	start := append(bytes.Repeat([]byte{0x04}, 20), "000300"...)
	n = 0
	tr.scan([]byte{0x04}, start, func(e tierEntry) bool {
		if n == 0 && !bytes.Equal(e.key, start) {
			t.Fatalf("first key %q, want %q", e.key, start)
		}
		n++
		return n < 100
	})
	if n != 100 {
		t.Fatalf("stopped after %d, want 100", n)
	}
}

// Readers and a writer at once (run under -race): values read stay what
// they were, since an entry is never rewritten in place.
func TestTierConcurrentReaders(t *testing.T) {
	tr := newTier()
	key := func(i int) []byte { return binary.BigEndian.AppendUint64([]byte{0x08}, uint64(i%500)) }
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if v, _, ok := tr.get(key(7)); ok && len(v) != 8 {
					t.Errorf("value of %d bytes", len(v))
				}
				tr.scan([]byte{0x08}, nil, func(e tierEntry) bool { return len(e.val) == 8 })
			}
		}()
	}
	for i := range 20000 {
		tr.mu.Lock()
		if err := tr.put(key(i), binary.BigEndian.AppendUint64(nil, uint64(i)), false, false); err != nil {
			t.Fatal(err)
		}
		tr.mu.Unlock()
	}
	close(stop)
	wg.Wait()
	if tr.keys() != 500 {
		t.Fatalf("%d keys, want 500", tr.keys())
	}
}

func FuzzTier(f *testing.F) {
	f.Add([]byte("\x00\x05kabcd\x01\x03kab\x03\x02ka\x02\x05kabcd\x03\x05kabcd"), true)
	f.Add(bytes.Repeat([]byte{0x41, 0x11, 'k'}, 50), false)
	f.Fuzz(func(t *testing.T, data []byte, keep bool) {
		tierOps(t, data, keep)
	})
}

// The table grows past its first size with every key still found, and a
// rewrite after the growth replaces the key's entry.
func TestTierGrows(t *testing.T) {
	tr := newTier()
	first := len(tr.slots)
	n := first // past 0.7 of the first table, so it grows at least once
	key := func(i int) []byte { return binary.BigEndian.AppendUint32([]byte{0x0B, 0x01}, uint32(i)) }
	tr.mu.Lock()
	for i := range n {
		if err := tr.put(key(i), []byte{byte(i)}, false, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := tr.put(key(5), []byte("five"), false, false); err != nil {
		t.Fatal(err)
	}
	tr.mu.Unlock()
	if len(tr.slots) <= first {
		t.Fatalf("%d slots for %d keys: the table did not grow", len(tr.slots), n)
	}
	for i := range n {
		v, _, ok := tr.get(key(i))
		want := []byte{byte(i)}
		if i == 5 {
			want = []byte("five")
		}
		if !ok || !bytes.Equal(v, want) {
			t.Fatalf("key %d: %x %v, want %x", i, v, ok, want)
		}
	}
	if tr.keys() != n {
		t.Fatalf("%d keys, want %d", tr.keys(), n)
	}
}

// Keys added in random order past the size at which a family's delta is
// merged into its array: scans from random points see every key in order,
// and counters rewritten in place read back their last value.
func TestTierMerges(t *testing.T) {
	for name, key := range map[string]func(int) []byte{
		"short keys": func(i int) []byte { return fmt.Appendf([]byte{pCounter}, "df/%07d", i) },
		// keys that share their first 16 bytes and more: every fence is equal
		"shared prefix": func(i int) []byte { return fmt.Appendf([]byte{pCounter}, "df/reinforcement learning %07d", i) },
	} {
		t.Run(name, func(t *testing.T) { tierMerges(t, key) })
	}
}

func tierMerges(t *testing.T, key func(int) []byte) {
	tr := newTier()
	r := rand.New(rand.NewPCG(3, 9))
	const n = 300_000
	perm := r.Perm(n)
	check := func(added map[int]bool) {
		for range 20 {
			from := r.IntN(n)
			want := from
			for want < n && !added[want] {
				want++
			}
			got := 0
			tr.scan([]byte{pCounter}, key(from), func(e tierEntry) bool {
				if want >= n {
					t.Fatalf("scan from %d found %q past the last key", from, e.key)
				}
				if !bytes.Equal(e.key, key(want)) {
					t.Fatalf("scan from %d: key %q, want %q", from, e.key, key(want))
				}
				if v := binary.BigEndian.Uint64(e.val); v != uint64(want)+1 {
					t.Fatalf("%q holds %d, want %d", e.key, v, want+1)
				}
				for want++; want < n && !added[want]; want++ {
				}
				got++
				return got < 600
			})
		}
	}
	added := map[int]bool{}
	for j, i := range perm {
		tr.mu.Lock()
		if err := tr.put(key(i), binary.BigEndian.AppendUint64(nil, 7), false, false); err != nil {
			t.Fatal(err)
		}
		// a rewrite in place, as a counter's
		if err := tr.put(key(i), binary.BigEndian.AppendUint64(nil, uint64(i)+1), false, false); err != nil {
			t.Fatal(err)
		}
		tr.mu.Unlock()
		added[i] = true
		if j%50_000 == 0 || j == n-1 {
			check(added)
		}
	}
	if f := tr.fams[famOf(key(0))]; len(f.base) == 0 {
		t.Fatal("the delta was never merged: the test tests no array")
	}
}

// BenchmarkTierPut writes new keys of three kinds in random order, as a
// load's writer does, and freezes the tier: the cost of keeping keys in
// order for scans that, for most kinds, never come.
//
//	go test -run '^$' -bench TierPut -count 6 ./store
func BenchmarkTierPut(b *testing.B) {
	const n = 1 << 20
	r := rand.New(rand.NewPCG(1, 2))
	keys := make([][]byte, n)
	for i, j := range r.Perm(n) {
		switch j % 3 {
		case 0:
			keys[i] = binary.BigEndian.AppendUint64([]byte{pOut}, uint64(j)*2654435761)
		case 1:
			keys[i] = fmt.Appendf([]byte{pCounter}, "df/term %d", j)
		default:
			keys[i] = binary.BigEndian.AppendUint64([]byte{pValue, 5}, uint64(j))
		}
	}
	v := make([]byte, 8)
	b.ReportAllocs()
	for b.Loop() {
		tr := newTier()
		tr.mu.Lock()
		for _, k := range keys {
			if err := tr.put(k, v, false, false); err != nil {
				b.Fatal(err)
			}
		}
		tr.mu.Unlock()
		tr.freeze()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/key")
}

// BenchmarkTierApply commits transactions of 16,000 writes (half updates
// of counters the tier holds, half new keys) into a tier of four million
// keys, as a bulk load's writer does: apply (windows warmed first) against
// the same writes put one after the other.
func BenchmarkTierApply(b *testing.B) {
	const held, batch = 1 << 22, 16_000
	r := rand.New(rand.NewPCG(3, 4))
	counter := func(j int) []byte { return fmt.Appendf([]byte{pCounter}, "df/term %d", j) }
	v := make([]byte, 8)
	for _, mode := range []string{"put", "apply"} {
		b.Run(mode, func(b *testing.B) {
			tr := newTier()
			tr.mu.Lock()
			for j := range held {
				if err := tr.put(counter(j), v, false, false); err != nil {
					b.Fatal(err)
				}
			}
			tr.mu.Unlock()
			next := held
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				o := newOverlay(nil, batch)
				for i := range batch {
					p := o.alloc()
					if i%2 == 0 {
						p.key = counter(r.IntN(held))
					} else {
						p.key = binary.BigEndian.AppendUint64([]byte{pOut}, uint64(next)*2654435761)
						next++
					}
					p.val = v
					if err := o.put(p); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				if mode == "apply" {
					if err := tr.apply(o, false); err != nil {
						b.Fatal(err)
					}
					continue
				}
				tr.mu.Lock()
				for _, p := range o.index {
					if err := tr.put(p.key, p.val, p.del, false); err != nil {
						b.Fatal(err)
					}
				}
				tr.mu.Unlock()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/write")
		})
	}
}
