package schema_test

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds a Chromium or Chrome to drive.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium found: install it (Debian: apt-get install chromium) to test the explorer in a browser")
	return ""
}

// The explorer in a real browser (headless Chromium through the DevTools
// protocol) against a server holding the seed graph: search Xiaoxi Jiang,
// see Guanjun Jiang drawn with weight 7 and the papers, click a paper on
// the canvas and read its details, the dashboard's plots, the URL that
// reproduces the view in a 400 px window, GraphiQL running a query; no
// request leaves the server and the console stays free of errors. Logs
// the page weight and the time to the first graph; screenshots go to the
// test's temporary folder.
func TestExplorerInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser test is skipped")
	}
	bin := chromium(t)
	srv := newServer(t)
	host := strings.TrimPrefix(srv.URL, "http://")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	actx, acancel := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.WindowSize(1280, 800),
		// a request for anything but this machine (loopback bypasses a proxy) fails
		chromedp.ProxyServer("http://127.0.0.1:9"))...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	do := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(bctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	eval := func(what, js string, into any) {
		t.Helper()
		raw, err := chromedp.Run(bctx, chromedp.Evaluate[json.RawMessage](js))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if err := json.Unmarshal(raw, into); err != nil {
			t.Fatalf("%s: %v: %s", what, err, raw)
		}
	}
	poll := func(what, js string) {
		t.Helper()
		if _, err := chromedp.Run(bctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			t.Fatalf("waiting for %s (%s): %v", what, js, err)
		}
	}
	shot := func(name string, whole bool) {
		t.Helper()
		capture := chromedp.CaptureScreenshot()
		if whole {
			capture = chromedp.FullScreenshot(100)
		}
		png, err := chromedp.Run(bctx, capture)
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		dir := os.Getenv("KG_SCREENSHOTS") // to keep them; else the test's folder
		if dir == "" {
			dir = t.TempDir()
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", p)
	}
	do("start the browser", chromedp.Navigate("about:blank"))
	var mu sync.Mutex
	var problems []string
	go func() {
		for m, err := range chromedp.Console(bctx) {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				mu.Lock()
				problems = append(problems, string(m.Type)+": "+m.Text+" ("+m.URL+")")
				mu.Unlock()
			}
		}
	}()

	start := time.Now()
	do("open the explorer", chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.ID("#q")))
	loaded := time.Since(start)
	do("search", chromedp.SendKeys(chromedp.ID("#q"), "Xiaoxi Jiang"), chromedp.Click(chromedp.CSS("#search button")),
		chromedp.WaitVisible(chromedp.Search(`//ul[@id="hits"]//button[text()="Xiaoxi Jiang"]`)),
		chromedp.Click(chromedp.Search(`//ul[@id="hits"]//button[text()="Xiaoxi Jiang"]`)))
	poll("the graph", `window.kg.drawn > 0 && kg.cy.nodes().length > 1`)
	firstGraph := time.Since(start)

	var g struct {
		Root   string
		Nodes  []struct{ ID, Kind, Label string }
		Weight float64
		Paper  struct {
			ID, Label string
			X, Y      float64
		}
	}
	eval("the graph's nodes", `(() => {
		const root = kg.state.node, nodes = kg.cy.nodes().map(n => ({id: n.id(), kind: n.data("kind"), label: n.data("label")}));
		const g = kg.cy.nodes().filter(n => n.data("label") === "Guanjun Jiang");
		const e = g.nonempty() ? kg.cy.edges().filter(e => e.data("type") === "CO_AUTHOR" && e.connectedNodes().contains(g) && e.connectedNodes().contains(kg.cy.getElementById(root))) : null;
		const p = kg.cy.nodes().filter(n => n.data("kind") === "PAPER" && !n.hasClass("hidden"))[0];
		const box = document.getElementById("graph").getBoundingClientRect(), pos = p.renderedPosition();
		return {root, nodes, weight: e && e.nonempty() ? e[0].data("weight") : 0,
			paper: {id: p.id(), label: p.data("label"), x: box.left + pos.x, y: box.top + pos.y}};
	})()`, &g)
	papers := 0
	for _, n := range g.Nodes {
		if n.Kind == "PAPER" {
			papers++
		}
	}
	if g.Weight != 7 || papers == 0 || !strings.HasPrefix(g.Root, "author:") {
		t.Errorf("graph around %s: Guanjun Jiang weighs %g (want 7), %d papers of %d nodes", g.Root, g.Weight, papers, len(g.Nodes))
	}
	list, err := chromedp.Run(bctx, chromedp.TextContent(chromedp.ID("#neighbours")))
	if err != nil || !strings.Contains(list, "Guanjun Jiang ×7") {
		t.Errorf("the list under the graph: %q, %v; want Guanjun Jiang ×7", list, err)
	}

	// a click on the paper's dot on the canvas opens its details
	do("click a paper", chromedp.MouseClickXY(g.Paper.X, g.Paper.Y))
	poll("the paper's details", `document.querySelector("#details h2") && document.querySelector("#details h2").textContent === `+jsString(g.Paper.Label)+` && document.querySelector("#details").textContent.includes("Abstract")`)
	details, _ := chromedp.Run(bctx, chromedp.TextContent(chromedp.ID("#details")))
	if !strings.Contains(details, "Xiaoxi Jiang") || !strings.Contains(details, "Concepts") {
		t.Errorf("details of %s lack its authors or concepts: %.300s", g.Paper.Label, details)
	}
	poll("the dashboard's plots", `!document.getElementById("dash").hidden && Chart.getChart("months") && Chart.getChart("months").data.datasets[0].data.length > 0 && Chart.getChart("top").data.labels.length > 0`)
	shot("explorer-1280.png", false)
	shot("explorer-1280-page.png", true)

	var page struct {
		Bytes, Decoded int
		Hosts          []string
		Hash           string
	}
	eval("the page's resources", `(() => {
		const es = performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource"));
		return {bytes: es.reduce((s, e) => s + (e.encodedBodySize || 0), 0), decoded: es.reduce((s, e) => s + (e.decodedBodySize || 0), 0),
			hosts: [...new Set(es.map(e => new URL(e.name).host))], hash: location.hash};
	})()`, &page)
	for _, h := range page.Hosts {
		if h != host {
			t.Errorf("a request went to %s", h)
		}
	}
	if !strings.Contains(page.Hash, "node="+url.QueryEscape(g.Root)) || !strings.Contains(page.Hash, "sel="+url.QueryEscape(g.Paper.ID)) {
		t.Errorf("the URL does not hold the view: %q", page.Hash)
	}
	t.Logf("page weight %d KB transferred (%d KB unpacked), queries included; DOM ready %v, first graph %v after navigation (search and click included)",
		page.Bytes/1024, page.Decoded/1024, loaded.Round(time.Millisecond), firstGraph.Round(time.Millisecond))

	// the link reproduces the view, in a 400 px window too
	do("a narrow window", chromedp.EmulateViewport(400, 800), chromedp.Navigate(srv.URL+"/"+page.Hash))
	poll("the graph from the link", `window.kg.drawn > 0 && kg.cy.nodes().length === `+jsNumber(len(g.Nodes))+` && document.querySelector("#details h2") && document.querySelector("#details h2").textContent === `+jsString(g.Paper.Label))
	var narrow struct{ Scroll, Graph, Details float64 }
	eval("the narrow layout", `({scroll: document.documentElement.scrollWidth, graph: document.getElementById("graph").getBoundingClientRect().width,
		details: document.getElementById("details").getBoundingClientRect().width})`, &narrow)
	if narrow.Scroll > 400 || narrow.Graph > 400 || narrow.Graph < 300 || narrow.Details < 300 {
		t.Errorf("at 400 px: page %g px wide, graph %g, details %g", narrow.Scroll, narrow.Graph, narrow.Details)
	}
	shot("explorer-400.png", false)

	// GraphiQL runs its first query against the server
	do("GraphiQL", chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/graphql"),
		chromedp.WaitVisible(chromedp.CSS(".graphiql-container")), chromedp.Click(chromedp.CSS(".graphiql-execute-button")))
	poll("GraphiQL's answer", `document.querySelector(".graphiql-response") && document.querySelector(".graphiql-response").textContent.includes('"search"') && document.querySelector(".graphiql-response").textContent.includes('reward model')`)
	shot("graphiql.png", false)
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("the console has errors:\n%s", strings.Join(problems, "\n"))
	}
}

func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }

func jsNumber(n int) string { b, _ := json.Marshal(n); return string(b) }
