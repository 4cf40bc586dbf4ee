package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/researchkg/kg/graph"
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

// The settle's log: a line when a stage starts and when it ends, the
// count at most once an interval between, nothing for "settled".
func TestSettleLoggerThrottles(t *testing.T) {
	var buf bytes.Buffer
	fn := settleLogger(zerolog.New(&buf), time.Hour)
	fn(graph.StagePeople, 100, 1000)  // starts: logged
	fn(graph.StagePeople, 200, 1000)  // within the hour: not
	fn(graph.StagePeople, 1000, 1000) // ends: logged
	fn(graph.StageLink, 5, 0)         // a new stage, total unknown: logged without "of"
	fn(graph.StageLink, 9, 0)         // not
	fn(graph.StageSettleDone, 0, 0)   // not
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := []string{`"done":100,"of":1000`, `"done":1000,"of":1000`, `"done":5,"message"`}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), buf.String())
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) || !strings.Contains(lines[i], `"message":"settling"`) {
			t.Errorf("line %d %s, want %s", i, lines[i], w)
		}
	}
}
