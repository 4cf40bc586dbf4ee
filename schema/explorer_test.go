package schema_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/researchkg/kg/graph"
	"github.com/researchkg/kg/schema"
	"github.com/researchkg/kg/store"
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
// browser is a headless Chromium driven through the DevTools protocol,
// with no way off this machine, and what its console said.
type browser struct {
	t        *testing.T
	ctx      context.Context
	mu       sync.Mutex
	problems []string
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the browser test is skipped")
	}
	bin := chromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.WindowSize(1280, 800),
		// a request for anything but this machine (loopback bypasses a proxy) fails
		chromedp.ProxyServer("http://127.0.0.1:9"))...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	b := &browser{t: t, ctx: bctx}
	b.do("start the browser", chromedp.Navigate("about:blank"))
	go func() {
		for m, err := range chromedp.Console(bctx) {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				b.mu.Lock()
				b.problems = append(b.problems, string(m.Type)+": "+m.Text+" ("+m.URL+")")
				b.mu.Unlock()
			}
		}
	}()
	return b
}

func (b *browser) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

func (b *browser) eval(what, js string, into any) {
	b.t.Helper()
	raw, err := chromedp.Run(b.ctx, chromedp.Evaluate[json.RawMessage](js))
	if err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
	if err := json.Unmarshal(raw, into); err != nil {
		b.t.Fatalf("%s: %v: %s", what, err, raw)
	}
}

func (b *browser) poll(what, js string) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		b.t.Fatalf("waiting for %s (%s): %v", what, js, err)
	}
}

// shot saves a screenshot (whole: the whole page) in $KG_SCREENSHOTS, else
// in the test's temporary folder.
func (b *browser) shot(name string, whole bool) {
	b.t.Helper()
	capture := chromedp.CaptureScreenshot()
	if whole {
		capture = chromedp.FullScreenshot(100)
	}
	png, err := chromedp.Run(b.ctx, capture)
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	dir := os.Getenv("KG_SCREENSHOTS")
	if dir == "" {
		dir = b.t.TempDir()
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", p)
}

// quiet fails the test if the console had errors.
func (b *browser) quiet() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.problems) > 0 {
		b.t.Errorf("the console has errors:\n%s", strings.Join(b.problems, "\n"))
	}
}

// checkHome waits for the corpus at a glance that / opens on and holds it
// to what the server answers: papers per month, the top concepts and
// subjects, the emerging concepts and the people, each a click from its
// papers.
func checkHome(t *testing.T, b *browser, srvURL string) {
	t.Helper()
	b.poll("the corpus at a glance", `window.kg.home > 0 && Chart.getChart("home-months") && Chart.getChart("home-months").data.datasets[0].data.length > 0 &&
		Chart.getChart("home-concepts").data.labels.length > 0 && Chart.getChart("home-subjects").data.labels.length > 0 &&
		document.querySelectorAll("#home-people li button").length > 0 && document.querySelectorAll("#home-emerging li").length > 0`)
	var home struct {
		Concepts, Subjects, People []string
		Months                     int
	}
	b.eval("the glance", `({concepts: Chart.getChart("home-concepts").data.labels, subjects: Chart.getChart("home-subjects").data.labels,
		people: [...document.querySelectorAll("#home-people li button")].map(b => b.textContent),
		months: Chart.getChart("home-months").data.datasets[0].data.reduce((a, b) => a + b, 0)})`, &home)
	var want struct {
		Data struct {
			Top      []struct{ Node struct{ Label string } } `json:"top"`
			Subjects []struct{ Node struct{ Code string } }  `json:"subjects"`
			People   []struct{ Node struct{ Label string } } `json:"people"`
		}
	}
	postJSON(t, srvURL+"/graphql", `{"query":"{ top(kind: CONCEPT, first: 15) { node { label } } subjects: top(kind: SUBJECT, first: 10) { node { ... on Subject { code } } } people: top(kind: AUTHOR, first: 12) { node { label } } }"}`, &want)
	if len(want.Data.Top) == 0 || len(home.Concepts) != len(want.Data.Top) || home.Concepts[0] != want.Data.Top[0].Node.Label {
		t.Errorf("top concepts on the page %q, the server's %v", home.Concepts, want.Data.Top)
	}
	if len(home.Subjects) != len(want.Data.Subjects) || home.Subjects[0] != want.Data.Subjects[0].Node.Code {
		t.Errorf("top subjects on the page %q, the server's %v", home.Subjects, want.Data.Subjects)
	}
	if len(home.People) != len(want.Data.People) || home.People[0] != want.Data.People[0].Node.Label {
		t.Errorf("people on the page %q, the server's %v", home.People, want.Data.People)
	}
	if home.Months == 0 {
		t.Error("no papers in the months chart")
	}
}

// checkLabels holds the drawn graph's labels to what fits: no two shown
// labels overlap, and a label left to hover shows when the pointer is on
// its node.
func checkLabels(t *testing.T, b *browser) (nodes, shown int) {
	t.Helper()
	var g struct{ Nodes, Shown, Overlaps, Hidden int }
	b.eval("the labels", `(() => {
		const boxes = kg.cy.nodes().filter(n => !n.hasClass("hidden") && !n.hasClass("nolabel"))
			.map(n => n.renderedBoundingBox({includeNodes: false, includeEdges: false, includeLabels: true}));
		let overlaps = 0;
		for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
			const a = boxes[i], b = boxes[j];
			if (a.x1 < b.x2 - 0.5 && b.x1 < a.x2 - 0.5 && a.y1 < b.y2 - 0.5 && b.y1 < a.y2 - 0.5) overlaps++;
		}
		const hidden = kg.cy.nodes(".nolabel");
		if (hidden.nonempty()) hidden[0].emit("mouseover");
		const hovered = hidden.filter(n => n.hasClass("hover")).length;
		if (hidden.nonempty()) hidden[0].emit("mouseout");
		return {nodes: kg.cy.nodes().length, shown: boxes.length, overlaps, hidden: hovered};
	})()`, &g)
	if g.Overlaps > 0 || g.Shown == 0 {
		t.Errorf("%d nodes, %d labels shown, %d pairs of them overlap", g.Nodes, g.Shown, g.Overlaps)
	}
	if g.Shown < g.Nodes && g.Hidden != 1 {
		t.Errorf("a node whose label is left to hover shows none under the pointer")
	}
	return g.Nodes, g.Shown
}

// postJSON posts a GraphQL request and decodes the answer.
func postJSON(t *testing.T, url, body string, into any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(into); err != nil {
		t.Fatal(err)
	}
}

func TestExplorerInBrowser(t *testing.T) {
	b := newBrowser(t)
	srv := newServer(t)
	host := strings.TrimPrefix(srv.URL, "http://")
	do, eval, poll, shot := b.do, b.eval, b.poll, b.shot

	// / opens on the corpus at a glance
	do("open the explorer", chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.ID("#q")))
	checkHome(t, b, srv.URL)
	shot("explorer-home-1280.png", false)
	do("a person of the glance", chromedp.Click(chromedp.CSS("#home-people li button")))
	poll("their graph", `window.kg.drawn > 0 && kg.cy.nodes().length > 1 && kg.state.node.startsWith("author:") && document.getElementById("home").hidden`)
	do("back to an empty page", chromedp.Navigate("about:blank"))

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
	if n, shown := checkLabels(t, b); shown < n {
		t.Logf("%d of %d labels fit; the rest show on hover", shown, n)
	}
	list, err := chromedp.Run(b.ctx, chromedp.TextContent(chromedp.ID("#neighbours")))
	if err != nil || !strings.Contains(list, "Guanjun Jiang ×7") {
		t.Errorf("the list under the graph: %q, %v; want Guanjun Jiang ×7", list, err)
	}

	// a click on the paper's dot on the canvas opens its details
	do("click a paper", chromedp.MouseClickXY(g.Paper.X, g.Paper.Y))
	poll("the paper's details", `document.querySelector("#details h2") && document.querySelector("#details h2").textContent === `+jsString(g.Paper.Label)+` && document.querySelector("#details").textContent.includes("Abstract")`)
	details, _ := chromedp.Run(b.ctx, chromedp.TextContent(chromedp.ID("#details")))
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
	// the dashboard's charts come after the graph and take the window's
	// width once drawn
	poll("the dashboard at 400 px", `!document.getElementById("dash").hidden && Chart.getChart("months") && document.documentElement.scrollWidth <= 400`)
	var narrow struct{ Scroll, Graph, Details float64 }
	eval("the narrow layout", `({scroll: document.documentElement.scrollWidth, graph: document.getElementById("graph").getBoundingClientRect().width,
		details: document.getElementById("details").getBoundingClientRect().width})`, &narrow)
	if narrow.Scroll > 400 {
		var wide []string
		eval("the wide elements", `[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > 401).slice(0, 8).map(e => e.tagName + "#" + e.id + "." + e.className + " " + Math.round(e.getBoundingClientRect().right))`, &wide)
		t.Logf("wider than the window: %v", wide)
	}
	if narrow.Scroll > 400 || narrow.Graph > 400 || narrow.Graph < 300 || narrow.Details < 300 {
		t.Errorf("at 400 px: page %g px wide, graph %g, details %g", narrow.Scroll, narrow.Graph, narrow.Details)
	}
	shot("explorer-400.png", false)

	// GraphiQL runs its first query against the server
	do("GraphiQL", chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/graphql"),
		chromedp.WaitVisible(chromedp.CSS(".graphiql-container")), chromedp.Click(chromedp.CSS(".graphiql-execute-button")))
	poll("GraphiQL's answer", `document.querySelector(".graphiql-response") && document.querySelector(".graphiql-response").textContent.includes('"search"') && document.querySelector(".graphiql-response").textContent.includes('reward model')`)
	shot("graphiql.png", false)
	b.quiet()
}

// The explorer on a store the arXiv file was ingested into (KG_BENCH_DATA,
// as TestConceptCoverageOnStore): the corpus at a glance, and a prolific
// person's graph of sixty and more nodes with the labels that fit. The
// screenshots go to $KG_SCREENSHOTS.
func TestExplorerOnStore(t *testing.T) {
	dir := os.Getenv("KG_BENCH_DATA")
	if dir == "" {
		t.Skip("KG_BENCH_DATA not set: a store the arXiv file was ingested into")
	}
	b := newBrowser(t)
	db, err := store.Open(store.DefaultOptions(dir).WithReadOnly(true))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeStore(t, db) })
	h, err := schema.NewHandler(graph.NewService(db, nil), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	b.do("open the explorer", chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.ID("#q")))
	checkHome(t, b, srv.URL)
	b.shot("explorer-home-arxiv.png", false)
	b.shot("explorer-home-arxiv-page.png", true)
	b.do("the most published person", chromedp.Click(chromedp.CSS("#home-people li button")))
	b.poll("their graph and details", `window.kg.drawn > 0 && kg.cy.nodes().length > 1 && kg.state.node.startsWith("author:") &&
		document.querySelector("#details h2").textContent !== "The corpus"`)
	n, shown := checkLabels(t, b)
	t.Logf("%d nodes, %d labels fit, the rest show on hover", n, shown)
	if n < 60 {
		t.Errorf("the graph has %d nodes, want 60 or more to test labels that do not fit", n)
	}
	b.shot("explorer-graph-arxiv.png", false)
	b.quiet()
}

func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }

func jsNumber(n int) string { b, _ := json.Marshal(n); return string(b) }
