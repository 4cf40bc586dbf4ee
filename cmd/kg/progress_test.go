package main

import (
	"strings"
	"testing"
	"time"
)

func TestFormatProgress(t *testing.T) {
	got := formatProgress(5000, 4990, 2, 250, 1000, 10*time.Second)
	for _, want := range []string{"5000 records", "500/s", "[#####...............]  25%", "ETA 30s", "added 4990", "failed 2"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	if got := formatProgress(0, 0, 0, 0, 0, 0); !strings.Contains(got, "0 records") || strings.Contains(got, "ETA") {
		t.Errorf("empty progress: %q", got)
	}
}
