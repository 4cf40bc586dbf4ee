package schema_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/researchkg/kg/schema"
)

// A request whose client has gone stops its work: the resolvers still to
// run are not run. A query of 200 related-work fields takes the handler
// a long time when the client waits; when the client gives up after a few
// milliseconds, the handler returns soon after.
func TestRequestStopsWhenClientGoes(t *testing.T) {
	h, err := newHandlerWith(t, schema.Options{CostBudget: 1 << 30, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan time.Duration, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		h.ServeHTTP(w, r)
		done <- time.Since(start)
	}))
	t.Cleanup(srv.Close)
	var q strings.Builder
	q.WriteString("{")
	for i := range 200 {
		fmt.Fprintf(&q, ` r%d: relatedWork(text: "reinforcement learning from human feedback with reward models for agents %d", first: 20) { why }`, i, i)
	}
	q.WriteString(" }")
	body := fmt.Sprintf(`{"query": %q}`, q.String())
	var answer string
	ask := func(ctx context.Context) error {
		req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/graphql", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		answer = string(b)
		return err
	}
	if err := ask(context.Background()); err != nil {
		t.Fatal(err)
	}
	if strings.Count(answer, `"why"`) < 200 {
		t.Fatalf("the query was not answered whole: %.300s", answer)
	}
	whole := <-done
	ctx, cancel := context.WithTimeout(context.Background(), whole/20)
	defer cancel()
	if err := ask(ctx); err == nil {
		t.Skipf("the whole query took %v: too quick to give up on", whole)
	}
	select {
	case cut := <-done:
		t.Logf("whole query %v; client gave up at %v; handler returned after %v", whole, whole/20, cut)
		if cut > whole/20+whole/5 {
			t.Errorf("the handler worked %v after its client gave up at %v (the whole query: %v)", cut, whole/20, whole)
		}
	case <-time.After(2 * whole):
		t.Fatal("the handler did not return")
	}
}
