// Package burst finds bursts in series of counts: Kleinberg's two-state
// automaton (2002, "Bursty and hierarchical structure in streams", the
// batched form), as CiteSpace runs it on keyword frequencies by period.
//
// A series is a concept's papers r[t] among all papers d[t] of each
// period. The concept is in its base state, used by a share p0 of the
// period's papers, or in a burst, at s·p0 with s = Rate = 2; a period's
// cost in a state is −ln of the binomial likelihood of its uses at that
// rate; entering a burst costs γ·ln n (γ = Gamma = 1, n the periods with
// papers), leaving one is free. The optimal sequence of states is found
// exactly (Viterbi). Last returns the burst the series ends in; its weight
// is Σ over its periods of cost(base) − cost(burst): how much better a
// doubled rate explains them.
//
// Rates, not counts: a period with more papers overall is no burst for
// every concept. And rates within subjects (Mix, LastExpected): p0 of a
// period is what the concept's rate in each subject gives for that
// period's mix of subjects, so a month that holds more of a field's papers
// is no burst of that field's vocabulary.
//
// The package is pure arithmetic over slices: it imports nothing but the
// standard library, and nothing of kg. graph/paperindex builds the series
// from the paper index (its Emerging).
package burst
