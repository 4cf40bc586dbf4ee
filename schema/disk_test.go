package schema_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/schema"
	"github.com/researchkg/kg/store"
)

// A server whose disk is nearly full keeps answering queries, says so in
// /healthz and /metrics, and turns the ingest mutation away with DISK_FULL
// before anything is written.
func TestServerOnANearlyFullDisk(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(store.DefaultOptions(dir).WithReserveMB(1 << 40)) // a reserve no disk has
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeStore(t, db) })
	svc := graph.NewService(db, nil)
	const token = "a-write-token-of-16+"
	h, err := schema.NewHandler(svc, schema.Options{WriteToken: token,
		DiskSpace: func() (uint64, uint64, error) { sp, err := db.DiskSpace(); return sp.Free, sp.Need, err }})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	res := postAs(t, srv, "Bearer "+token, `mutation { ingest(name: "p.txt", text: "Ann Author\nPublications\nA title\nAn abstract.\n") { papersAdded } }`, nil)
	if len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != "DISK_FULL" || !strings.Contains(res.Errors[0].Message, "disk nearly full") {
		t.Fatalf("ingest on a full disk: %+v", res.Errors)
	}
	if st, err := svc.Stats(context.Background()); err != nil || st.Papers != 0 {
		t.Errorf("after the refused ingest: %+v %v, want nothing written", st, err)
	}
	if res := post(t, srv, `{ stats { papers } }`, nil); len(res.Errors) != 0 {
		t.Errorf("a query on a full disk: %+v", res.Errors)
	}
	for path, want := range map[string][]string{
		"/healthz": {"ok; disk nearly full", "refused"},
		"/metrics": {"kg_disk_free_bytes ", "kg_disk_reserve_bytes 1152921504606846976"},
	} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, w := range want {
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), w) {
				t.Errorf("%s: %d, lacks %q:\n%.500s", path, resp.StatusCode, w, body)
			}
		}
	}
}
