package main

import (
	"slices"
	"strings"
	"testing"
)

// /proc/self/cgroup as the kernel writes it (Documentation/admin-guide/
// cgroup-v1/cgroups.rst, cgroup-v2.rst): v2 one line "0::PATH", v1 a
// line a hierarchy "ID:CONTROLLERS:PATH".
func TestCgroupLimitFiles(t *testing.T) {
	for _, c := range []struct {
		self string
		want []string
	}{
		{"0::/system.slice/kg.service\n", []string{
			"/sys/fs/cgroup/system.slice/kg.service/memory.max",
			"/sys/fs/cgroup/system.slice/memory.max",
			"/sys/fs/cgroup/memory.max"}},
		{"0::/\n", []string{"/sys/fs/cgroup/memory.max"}},
		{"12:cpuset:/\n11:memory:/docker/ab12\n10:cpu,cpuacct:/docker/ab12\n1:name=systemd:/docker/ab12\n", []string{
			"/sys/fs/cgroup/memory/docker/ab12/memory.limit_in_bytes",
			"/sys/fs/cgroup/memory/docker/memory.limit_in_bytes",
			"/sys/fs/cgroup/memory/memory.limit_in_bytes"}},
		{"4:cpu,memory:/kg1m2\n", []string{
			"/sys/fs/cgroup/memory/kg1m2/memory.limit_in_bytes",
			"/sys/fs/cgroup/memory/memory.limit_in_bytes"}},
		// a path climbing out stays under the mount
		{"0::/../../etc\n", []string{"/sys/fs/cgroup/etc/memory.max", "/sys/fs/cgroup/memory.max"}},
		{"11:memoryx:/a\n3:blkio:/b\nnonsense\n0::relative\n", nil},
	} {
		if got := cgroupLimitFiles(c.self); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.self, got, c.want)
		}
	}
}

func TestParseMemLimit(t *testing.T) {
	for s, want := range map[string]int64{
		"2147483648\n":          2 << 30,
		"max\n":                 0, // v2: none
		"9223372036854771712\n": 0, // v1: none (2^63 rounded to pages)
		"0\n":                   0,
		"-1":                    0,
		"1.5G":                  0,
		"":                      0,
	} {
		got, ok := parseMemLimit(s)
		if got != want || ok != (want > 0) {
			t.Errorf("%q: %d %v, want %d", s, got, ok, want)
		}
	}
}

func TestHeapLimitMB(t *testing.T) {
	const gib = 1 << 30
	for _, c := range []struct {
		mb        int64
		set       bool
		share     float64
		container int64
		want      int64
	}{
		{0, false, serveHeapShare, 0, 0},              // no limit anywhere: none
		{0, false, serveHeapShare, 2 * gib, 1536},     // serve in 2 GiB: 3/4 of it
		{1424, false, ingestHeapShare, 2 * gib, 1424}, // the bulk load's own limit fits
		{1424, false, ingestHeapShare, gib, 716},      // it does not: 0.7 of 1 GiB
		{1424, true, ingestHeapShare, gib, 1424},      // the flag wins
		{0, true, serveHeapShare, gib, 0},             // --mem-limit-mb 0: none
		{0, false, serveHeapShare, 1 << 20, 1},        // a tiny limit is not none
	} {
		if got := heapLimitMB(c.mb, c.set, c.share, c.container); got != c.want {
			t.Errorf("%+v: %d MiB, want %d", c, got, c.want)
		}
	}
}

func FuzzCgroupLimitFiles(f *testing.F) {
	f.Add("0::/system.slice/kg.service\n")
	f.Add("11:memory:/docker/ab12\n10:cpu,cpuacct:/docker/ab12\n")
	f.Fuzz(func(t *testing.T, self string) {
		for _, p := range cgroupLimitFiles(self) {
			if !strings.HasPrefix(p, "/sys/fs/cgroup/") || slices.Contains(strings.Split(p, "/"), "..") {
				t.Fatalf("%q names %q, outside the cgroup mount", self, p)
			}
		}
		parseMemLimit(self)
	})
}
