//go:build !race

package graph_test

// raceDetector is true when the tests run with -race.
const raceDetector = false
