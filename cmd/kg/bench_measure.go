package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// question is one kind of question with the inputs drawn for it; every
// system answers input i of a question the same way.
type question struct {
	Name   string
	inputs []input
}

// input holds what a question is asked about: ids (kg's, which the
// PostgreSQL tables share), a name or words.
type input struct {
	a, b int64  // a node id's number; b: the second person of a path
	kind string // "author", "paper", "concept", "subject"
	text string // a concept name, a subject code, search words
}

// asker answers input i of a question; an error is counted, not fatal.
type asker func(q *question, in input) error

type runConfig struct {
	d       time.Duration
	clients []int
}

// benchRun is one question on one system at one concurrency.
type benchRun struct {
	System   string  `json:"system"`
	Question string  `json:"question"`
	Clients  int     `json:"clients"`
	Requests int     `json:"requests"`
	Errors   int64   `json:"errors"`
	Seconds  float64 `json:"seconds"`
	PerSec   float64 `json:"perSecond"`
	P50ms    float64 `json:"p50ms"`
	P95ms    float64 `json:"p95ms"`
	P99ms    float64 `json:"p99ms"`
}

// measure runs every question at every concurrency on one system. Each
// client draws inputs at random (seeded by client), so the same run asks
// the same questions in the same order of each system.
func measure(std stdio, system string, qs []*question, cfg runConfig, ask asker) []benchRun {
	var out []benchRun
	for _, q := range qs {
		// warm: every input once
		for _, in := range q.inputs {
			if err := ask(q, in); err != nil {
				fmt.Fprintf(std.err, "%s %s %+v: %v\n", system, q.Name, in, err)
				break
			}
		}
		for _, c := range cfg.clients {
			lat := make([][]time.Duration, c)
			var errs atomic.Int64
			var wg sync.WaitGroup
			start := time.Now()
			deadline := start.Add(cfg.d)
			for i := range c {
				wg.Add(1)
				go func() {
					defer wg.Done()
					rng := rand.New(rand.NewPCG(uint64(i), 7))
					for time.Now().Before(deadline) {
						in := q.inputs[rng.IntN(len(q.inputs))]
						t := time.Now()
						if err := ask(q, in); err != nil {
							if errs.Add(1) == 1 {
								fmt.Fprintf(std.err, "%s %s: %v\n", system, q.Name, err)
							}
						}
						lat[i] = append(lat[i], time.Since(t))
					}
				}()
			}
			wg.Wait()
			el := time.Since(start).Seconds()
			all := slices.Concat(lat...)
			slices.Sort(all)
			r := benchRun{System: system, Question: q.Name, Clients: c, Requests: len(all), Errors: errs.Load(), Seconds: el, PerSec: float64(len(all)) / el,
				P50ms: pct(all, 0.50), P95ms: pct(all, 0.95), P99ms: pct(all, 0.99)}
			fmt.Fprintf(std.err, "%-9s %-15s %3d clients: %8.0f/s  p50 %7.2f  p95 %7.2f  p99 %7.2f ms  (%d errors)\n",
				system, q.Name, c, r.PerSec, r.P50ms, r.P95ms, r.P99ms, r.Errors)
			out = append(out, r)
		}
	}
	return out
}

func pct(sorted []time.Duration, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := min(len(sorted)-1, int(p*float64(len(sorted))))
	return float64(sorted[i].Microseconds()) / 1000
}

// report prints a table: per question and concurrency, each system's
// throughput and p99, and kg's ratios to PostgreSQL.
func report(w io.Writer, runs []benchRun, qs []*question, clients []int) {
	by := map[string]benchRun{}
	systems := map[string]bool{}
	for _, r := range runs {
		by[fmt.Sprint(r.System, r.Question, r.Clients)] = r
		systems[r.System] = true
	}
	var names []string
	for _, s := range []string{"kg-http", "kg-floor", "postgres", "kuzu"} {
		if systems[s] {
			names = append(names, s)
		}
	}
	fmt.Fprintf(w, "%-15s %7s", "question", "clients")
	for _, s := range names {
		fmt.Fprintf(w, " | %-22s", s+" req/s, p99 ms")
	}
	if systems["postgres"] && systems["kg-http"] {
		fmt.Fprintf(w, " | http/pg")
	}
	if systems["kuzu"] && systems["kg-floor"] {
		fmt.Fprintf(w, " | floor/kuzu")
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, strings.Repeat("-", 24+25*len(names)+21))
	for _, q := range qs {
		for _, c := range clients {
			fmt.Fprintf(w, "%-15s %7d", q.Name, c)
			for _, s := range names {
				r, ok := by[fmt.Sprint(s, q.Name, c)]
				if !ok {
					fmt.Fprintf(w, " | %-22s", "-")
					continue
				}
				fmt.Fprintf(w, " | %9.0f %12.2f", r.PerSec, r.P99ms)
			}
			for _, pair := range [][2]string{{"kg-http", "postgres"}, {"kg-floor", "kuzu"}} {
				if !systems[pair[0]] || !systems[pair[1]] {
					continue
				}
				k, ok1 := by[fmt.Sprint(pair[0], q.Name, c)]
				p, ok2 := by[fmt.Sprint(pair[1], q.Name, c)]
				if ok1 && ok2 && p.PerSec > 0 {
					fmt.Fprintf(w, " | %9.2fx", k.PerSec/p.PerSec)
				} else {
					fmt.Fprintf(w, " | %10s", "-")
				}
			}
			fmt.Fprintln(w)
		}
	}
}
