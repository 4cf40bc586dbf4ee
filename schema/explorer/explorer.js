// kg explorer: the corpus at a glance (papers per month, the top and the
// emerging concepts, the top subjects and people), search, a node's
// neighbourhood drawn with Cytoscape, its details, a dashboard of its
// papers drawn with Chart.js, and exports.
// Everything it asks goes to this server's /graphql; the view lives in
// the URL's hash (#node=author:2&depth=1&hide=concept&from=2020&to=2026&sel=paper:5).
"use strict";

const KINDS = {
  PAPER: { label: "papers", color: "#4285f4" },
  AUTHOR: { label: "people", color: "#db4437" },
  SUBJECT: { label: "subjects", color: "#0f9d58" },
  CONCEPT: { label: "concepts", color: "#f4a000" },
  REPOSITORY: { label: "code", color: "#785ef0" },
  ORGANIZATION: { label: "organisations", color: "#607d8b" },
};

// VIEW is how many nodes a view holds.
const VIEW = 80;

const $ = (id) => document.getElementById(id);
const state = { node: "", depth: 1, hide: new Set(), from: "", to: "", sel: "" };
let cy = null;
let charts = [];

async function gql(query, variables) {
  const r = await fetch("/graphql", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const body = await r.json();
  if (body.errors && body.errors.length) throw new Error(body.errors.map((e) => e.message).join("; "));
  return body.data;
}

function status(msg) { $("status").textContent = msg || ""; }

// el builds an element: el("li", {class: "x"}, "text", child, …).
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
}

function nodeLink(id, label, open) {
  return el("button", { class: "link", type: "button", "data-id": id, onclick: () => (open ? openNode(id, true) : select(id)) }, label);
}

// ---- the URL holds the view ----

function readHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  state.node = p.get("node") || "";
  state.depth = Number(p.get("depth")) === 2 ? 2 : 1;
  state.hide = new Set((p.get("hide") || "").split(",").filter((k) => KINDS[k.toUpperCase()]).map((k) => k.toUpperCase()));
  state.from = p.get("from") || "";
  state.to = p.get("to") || "";
  state.sel = p.get("sel") || "";
}

function writeHash() {
  const p = new URLSearchParams();
  if (state.node) p.set("node", state.node);
  if (state.depth !== 1) p.set("depth", state.depth);
  if (state.hide.size) p.set("hide", [...state.hide].map((k) => k.toLowerCase()).join(","));
  if (state.from) p.set("from", state.from);
  if (state.to) p.set("to", state.to);
  if (state.sel) p.set("sel", state.sel);
  history.replaceState(null, "", "#" + p.toString());
}

// ---- search ----

async function search(text) {
  const hits = $("hits");
  hits.replaceChildren();
  hits.hidden = false;
  status("Searching…");
  try {
    const d = await gql("query($t: String!) { search(text: $t, first: 10) { node { id kind label } } }", { t: text });
    status("");
    if (!d.search.length) hits.append(el("li", {}, "Nothing found for “" + text + "”."));
    for (const h of d.search) {
      const k = KINDS[h.node.kind];
      hits.append(el("li", {}, el("span", { class: "swatch", style: "background:" + k.color }), nodeLink(h.node.id, h.node.label, true),
        el("span", { class: "weight" }, " " + h.node.kind.toLowerCase())));
    }
  } catch (e) {
    status("Search failed: " + e.message);
  }
}

// ---- the graph ----

const NEIGHBOURHOOD = `query($id: ID!, $depth: Int!, $kinds: [Kind!]) {
  neighborhood(id: $id, depth: $depth, kinds: $kinds, first: ${VIEW}) {
    nodes { id kind label ... on Paper { year } }
    edges { source target type weight }
  }
}`;

// shownKinds are the kinds the graph asks for: the 80 places of a view go
// to what is shown.
function shownKinds() { return Object.keys(KINDS).filter((k) => !state.hide.has(k)); }

async function openNode(id, fromSearch) {
  $("hits").hidden = true;
  leaveHome();
  // A concept opened from the search shows its concept map first: its
  // papers, most relevant first, are in the details (in the graph they
  // would come in the order they were stored). A person with more papers
  // than half the view shows their co-authors, closest first, instead of
  // a wall of papers. The box brings the papers back.
  if (fromSearch && id.startsWith("concept:")) state.hide.add("PAPER");
  if (fromSearch && id.startsWith("author:")) {
    const d = await gql("query($id: ID!) { node(id: $id) { ... on Author { papers { totalCount } } } }", { id }).catch(() => null);
    if (d && d.node && d.node.papers.totalCount > VIEW / 2) state.hide.add("PAPER");
    else state.hide.delete("PAPER");
  }
  syncKinds();
  state.node = id;
  state.sel = id;
  writeHash();
  await draw();
  await select(id);
  dashboard(id);
}

async function draw() {
  status("Loading the graph…");
  let d;
  try {
    d = await gql(NEIGHBOURHOOD, { id: state.node, depth: state.depth, kinds: shownKinds() });
  } catch (e) {
    status("Could not load " + state.node + ": " + e.message);
    return;
  }
  status("");
  const g = d.neighborhood;
  // people sized by how often they wrote with the centre
  const weight = {};
  for (const e of g.edges) {
    if (e.type === "CO_AUTHOR" && (e.source === state.node || e.target === state.node)) {
      weight[e.source === state.node ? e.target : e.source] = e.weight;
    }
  }
  const elements = [];
  // a crowded view draws smaller dots and leaves the weights to the list
  const scale = Math.min(1, 12 / Math.max(g.nodes.length, 1));
  const crowded = g.edges.length > 40;
  for (const n of g.nodes) {
    const w = weight[n.id] || 0;
    elements.push({ group: "nodes", data: { id: n.id, kind: n.kind, label: n.label, year: n.year || 0, weight: w,
      size: n.id === state.node ? 34 : n.kind === "AUTHOR" ? 8 + scale * (8 + 4 * Math.min(w, 12)) : 8 + 8 * scale } });
  }
  for (const e of g.edges) {
    elements.push({ group: "edges", data: { id: e.type + " " + e.source + " " + e.target, source: e.source, target: e.target, type: e.type,
      weight: e.weight, label: e.type === "CO_AUTHOR" && !crowded ? String(e.weight) : "" } });
  }
  const box = $("graph");
  box.replaceChildren();
  if (cy) cy.destroy();
  cy = cytoscape({
    container: box,
    elements,
    style: [
      { selector: "node", style: { "background-color": (n) => KINDS[n.data("kind")].color, label: "data(label)", width: "data(size)", height: "data(size)",
        "font-size": 9, "text-wrap": "ellipsis", "text-max-width": 140, "text-valign": "bottom", "text-margin-y": 2, color: "#333" } },
      { selector: "node.nolabel", style: { label: "" } },
      { selector: "node:selected", style: { "border-width": 3, "border-color": "#111", label: "data(label)" } },
      { selector: "node.hover", style: { label: "data(label)", "z-index": 10, "text-background-color": "#fff", "text-background-opacity": 0.9, "text-background-padding": 2 } },
      { selector: "edge", style: { width: (e) => (e.data("type") === "CO_AUTHOR" ? 1 + Math.min(e.data("weight"), 8) : 1), "line-color": "#bbb",
        "curve-style": "haystack", label: "data(label)", "font-size": 9, color: "#444", opacity: 0.8 } },
      { selector: ".hidden", style: { display: "none" } },
    ],
    // a crowded view spreads further: a clique of co-authors otherwise
    // packs into a ball
    // a crowded view (a prolific person's co-authors, who wrote with each
    // other too) is laid out by the ties to the centre alone, closer the
    // stronger: all of its edges pack a clique into a ball
    layout: { name: "cose", animate: false, randomize: false, fit: true, padding: 20, nodeOverlap: 20,
      nodeRepulsion: () => (crowded ? 30000 : 9000),
      edgeElasticity: (e) => (!crowded || e.source().id() === state.node || e.target().id() === state.node ? 32 : 1e6),
      idealEdgeLength: (e) => (crowded ? 60 + 240 / (1 + (e.data("weight") || 0)) : 70) },
    wheelSensitivity: 0.3,
  });
  cy.on("tap", "node", (ev) => select(ev.target.id()));
  cy.on("dbltap", "node", (ev) => openNode(ev.target.id()));
  cy.on("mouseover", "node", (ev) => ev.target.addClass("hover"));
  cy.on("mouseout", "node", (ev) => ev.target.removeClass("hover"));
  let fitting = 0;
  cy.on("viewport", () => { clearTimeout(fitting); fitting = setTimeout(fitLabels, 60); });
  applyFilters();
  $("export").disabled = false;
  window.kg.drawn = (window.kg.drawn || 0) + 1;
}

// fitLabels shows the labels that fit, most important first (the centre,
// then the people who wrote most with it, then the best-connected): a
// label that would cover one already shown is left to hover. Sixty
// labels drawn at once cover each other and say nothing.
function fitLabels() {
  if (!cy) return;
  const nodes = cy.nodes().filter((n) => !n.hasClass("hidden")).toArray();
  const centre = (n) => (n.id() === state.node ? 1 : 0);
  nodes.sort((a, b) => centre(b) - centre(a) || b.data("weight") - a.data("weight") || b.degree() - a.degree() ||
    a.data("label").localeCompare(b.data("label")));
  // dots and labels keep their size on screen whatever the zoom (a view of
  // few nodes is zoomed in to fill the box): which labels fit depends on it
  const z = cy.zoom();
  cy.style().selector("node").style({ "font-size": 9 / z, "text-max-width": 140 / z, "text-margin-y": 2 / z,
    width: (n) => n.data("size") / z, height: (n) => n.data("size") / z }).update();
  cy.nodes().removeClass("nolabel");
  const meets = (a, b) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
  // nor may a label cover another node's dot
  const dots = nodes.map((n) => ({ n, b: n.renderedBoundingBox({ includeLabels: false }) }));
  const kept = [];
  for (const n of nodes) {
    const b = n.renderedBoundingBox({ includeNodes: false, includeEdges: false, includeLabels: true });
    const free = b.w > 0 && (centre(n) || !kept.some((k) => meets(k, b)) && !dots.some((d) => d.n !== n && meets(d.b, b)));
    if (free) kept.push(b);
    else n.addClass("nolabel");
  }
  window.kg.labels = kept.length;
}

function syncKinds() {
  document.querySelectorAll("#kinds input").forEach((b) => { b.checked = !state.hide.has(b.dataset.kind); });
}

function applyFilters() {
  if (!cy) return;
  const from = Number(state.from) || 0, to = Number(state.to) || 9999;
  cy.nodes().forEach((n) => {
    const y = n.data("year");
    const out = n.data("kind") === "PAPER" && y && (y < from || y > to);
    n.toggleClass("hidden", out && n.id() !== state.node);
  });
  fitLabels();
  neighbours();
}

// neighbours lists the visible nodes under the graph: what it shows, in
// words, and a way to reach each without a pointer.
function neighbours() {
  const list = $("neighbours");
  list.replaceChildren();
  const nodes = cy.nodes().filter((n) => !n.hasClass("hidden") && n.id() !== state.node).toArray();
  nodes.sort((a, b) => b.data("weight") - a.data("weight") || a.data("kind").localeCompare(b.data("kind")) || a.data("label").localeCompare(b.data("label")));
  for (const n of nodes) {
    const w = n.data("weight");
    list.append(el("li", { "data-kind": n.data("kind") }, el("span", { class: "swatch", style: "background:" + KINDS[n.data("kind")].color }),
      nodeLink(n.id(), n.data("label")), w ? el("span", { class: "weight" }, " ×" + w) : null));
  }
}

// ---- details ----

const DETAILS = `query($id: ID!) { node(id: $id) { id kind label
  ... on Paper { title year date arxivId doi venue abstract authors { id label } subjects { id code }
    concepts(first: 10) { weight concept { id name } } related(first: 5) { why paper { id title } } }
  ... on Author { name disambiguation coauthors(first: 10) { weight author { id label } sharedPapers { id title } }
    concepts(first: 10) { weight concept { id name } } papers(first: 10) { totalCount nodes { id title year } } }
  ... on Concept { name aliases related(first: 8) { weight concept { id name } } papers(first: 10) { totalCount nodes { id title year } } }
  ... on Subject { code name papers(first: 10) { totalCount nodes { id title year } } }
} }`;

async function select(id) {
  state.sel = id;
  writeHash();
  if (cy) {
    cy.nodes().unselect();
    const n = cy.getElementById(id);
    if (n.nonempty()) n.select();
  }
  const box = $("details");
  let d;
  try {
    d = await gql(DETAILS, { id });
  } catch (e) {
    box.replaceChildren(el("p", {}, "Could not load " + id + ": " + e.message));
    return;
  }
  const n = d.node;
  if (!n) {
    box.replaceChildren(el("p", {}, "No node " + id + "."));
    return;
  }
  const parts = [el("h2", {}, n.label), el("p", { class: "weight" }, n.kind.toLowerCase() + " · " + n.id + " "),
    id !== state.node ? el("button", { type: "button", onclick: () => openNode(id) }, "Expand: show its neighbourhood") : null];
  const list = (title, items, render) => {
    if (!items || !items.length) return;
    parts.push(el("h3", {}, title), el("ul", {}, ...items.map((x) => el("li", {}, ...render(x)))));
  };
  switch (n.kind) {
    case "PAPER":
      parts.push(el("p", {}, [n.date || n.year, n.venue, n.arxivId && "arXiv:" + n.arxivId, n.doi && "doi:" + n.doi].filter(Boolean).join(" · ")));
      list("Authors", n.authors, (a) => [nodeLink(a.id, a.label)]);
      list("Subjects", n.subjects, (s) => [nodeLink(s.id, s.code)]);
      list("Concepts", n.concepts, (c) => [nodeLink(c.concept.id, c.concept.name), el("span", { class: "weight" }, " " + c.weight.toFixed(2))]);
      if (n.abstract) parts.push(el("h3", {}, "Abstract"), el("p", { class: "abstract" }, n.abstract));
      list("Related papers", n.related, (r) => [nodeLink(r.paper.id, r.paper.title), el("br"), el("span", { class: "weight" }, r.why)]);
      break;
    case "AUTHOR":
      if (n.disambiguation) parts.push(el("p", {}, n.disambiguation));
      list("Co-authors", n.coauthors, (c) => [nodeLink(c.author.id, c.author.label), el("span", { class: "weight" }, " ×" + c.weight + ": "),
        el("span", { class: "weight" }, c.sharedPapers.map((p) => p.title).join("; "))]);
      list("Concepts", n.concepts, (c) => [nodeLink(c.concept.id, c.concept.name), el("span", { class: "weight" }, " " + c.weight.toFixed(2))]);
      list("Papers (" + n.papers.totalCount + ")", n.papers.nodes, (p) => [nodeLink(p.id, p.title), el("span", { class: "weight" }, " " + (p.year || ""))]);
      break;
    case "CONCEPT":
      if (n.aliases.length) parts.push(el("p", {}, "Also: " + n.aliases.join(", ")));
      list("Related concepts", n.related, (c) => [nodeLink(c.concept.id, c.concept.name), el("span", { class: "weight" }, " " + c.weight.toFixed(2))]);
      list("Papers (" + n.papers.totalCount + ")", n.papers.nodes, (p) => [nodeLink(p.id, p.title), el("span", { class: "weight" }, " " + (p.year || ""))]);
      break;
    case "SUBJECT":
      parts.push(el("p", {}, n.name));
      list("Papers (" + n.papers.totalCount + ")", n.papers.nodes, (p) => [nodeLink(p.id, p.title), el("span", { class: "weight" }, " " + (p.year || ""))]);
      break;
  }
  box.replaceChildren(...parts.filter(Boolean));
}

// ---- the dashboard: papers per month and the top of the centre's papers ----

async function dashboard(id) {
  const kind = id.split(":")[0];
  let filter, topKind = "CONCEPT";
  if (kind === "author") filter = { authors: [id] };
  else if (kind === "subject" || kind === "concept") {
    const d = await gql("query($id: ID!) { node(id: $id) { ... on Subject { code } ... on Concept { name } } }", { id }).catch(() => null);
    if (!d || !d.node) return;
    filter = kind === "subject" ? { subjects: [d.node.code] } : { concepts: [d.node.name] };
    if (kind === "concept") topKind = "AUTHOR";
  } else {
    $("dash").hidden = true;
    return;
  }
  let d;
  try {
    d = await gql(`query($f: PaperFilter!, $k: Kind!) { months: facets(by: MONTH, filter: $f) { total buckets { key count } }
      years: facets(by: YEAR, filter: $f) { total buckets { key count } } top(kind: $k, filter: $f, first: 10) { count node { id label } } }`, { f: filter, k: topKind });
  } catch (e) {
    status("Dashboard: " + e.message);
    return;
  }
  $("dash").hidden = false;
  charts.forEach((c) => c.destroy());
  // months where the sources date the papers (arXiv), else years (a profile page)
  const byMonth = d.months.buckets.length > 0;
  const months = byMonth ? d.months.buckets : d.years.buckets;
  $("months-title").textContent = (byMonth ? "Papers per month" : "Papers per year") + " (" + d.years.total + ")";
  $("top-title").textContent = topKind === "AUTHOR" ? "Who publishes most on it" : "Top concepts of these papers";
  charts = [
    new Chart($("months"), { type: "bar", data: { labels: months.map((b) => b.key), datasets: [{ label: "papers", data: months.map((b) => b.count), backgroundColor: "#4285f4" }] },
      options: { maintainAspectRatio: false, animation: false, plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } } }),
    new Chart($("top"), { type: "bar", data: { labels: d.top.map((r) => r.node.label), datasets: [{ label: "papers", data: d.top.map((r) => r.count), backgroundColor: topKind === "AUTHOR" ? "#db4437" : "#f4a000" }] },
      options: { indexAxis: "y", maintainAspectRatio: false, animation: false, plugins: { legend: { display: false } }, scales: { x: { beginAtZero: true, ticks: { precision: 0 } } },
        onClick: (_, els) => { if (els.length) openNode(d.top[els[0].index].node.id); } } }),
  ];
}

// ---- the corpus at a glance: what / shows before anything is chosen ----

const HOME = `{ stats { papers authors concepts }
  months: facets(by: MONTH) { total buckets { key label count } }
  years: facets(by: YEAR) { total buckets { key label count } }
  concepts: top(kind: CONCEPT, first: 15) { count node { id label } }
  emerging: emerging(first: 12) { count since node { id label } }
  subjects: top(kind: SUBJECT, first: 10) { count node { id label ... on Subject { code } } }
  people: top(kind: AUTHOR, first: 12) { count node { id label } } }`;

let homeCharts = [];

function leaveHome() {
  document.querySelector("main").classList.remove("home");
  $("home").hidden = true;
  homeCharts.forEach((c) => c.destroy());
  homeCharts = [];
}

// short cuts a long label for an axis; the tooltip has it whole.
const short = (s) => (s.length > 30 ? s.slice(0, 29) + "…" : s);

function barChart(canvas, labels, counts, color, onPick, horizontal) {
  const names = horizontal ? { y: { ticks: { autoSkip: false, callback: (_, i) => short(labels[i]) } } } : {};
  return new Chart(canvas, { type: "bar", data: { labels, datasets: [{ label: "papers", data: counts, backgroundColor: color }] },
    options: { indexAxis: horizontal ? "y" : "x", maintainAspectRatio: false, animation: false, plugins: { legend: { display: false } },
      scales: { [horizontal ? "x" : "y"]: { beginAtZero: true, ticks: { precision: 0 } }, ...names },
      onClick: (_, els) => { if (els.length) onPick(els[0].index); },
      onHover: (ev, els) => { ev.native.target.style.cursor = els.length ? "pointer" : "default"; } } });
}

function rankedList(box, rows, render) {
  box.replaceChildren(...rows.map((r) => el("li", {}, ...render(r))));
  if (!rows.length) box.replaceChildren(el("li", { class: "weight none" }, "None in the last months."));
}

async function home() {
  document.querySelector("main").classList.add("home");
  $("home").hidden = false;
  $("dash").hidden = true;
  status("Loading the corpus…");
  let d;
  try {
    d = await gql(HOME);
  } catch (e) {
    status("Could not load the corpus: " + e.message);
    return;
  }
  status("");
  const s = d.stats;
  $("home-stats").textContent = `${s.papers.toLocaleString("en")} papers, ${s.authors.toLocaleString("en")} people, ${s.concepts.toLocaleString("en")} concepts. ` +
    "Click a bar or a name for its papers; search for anything.";
  const byMonth = d.months.buckets.length > 0;
  const periods = byMonth ? d.months.buckets : d.years.buckets;
  $("home-months-title").textContent = (byMonth ? "Papers per month" : "Papers per year") + " (" + d.years.total.toLocaleString("en") + " dated)";
  homeCharts.forEach((c) => c.destroy());
  homeCharts = [
    barChart($("home-months"), periods.map((b) => b.key), periods.map((b) => b.count), "#4285f4", (i) => periodPapers(periods[i], byMonth)),
    barChart($("home-concepts"), d.concepts.map((r) => r.node.label), d.concepts.map((r) => r.count), KINDS.CONCEPT.color,
      (i) => openNode(d.concepts[i].node.id, true), true),
    barChart($("home-subjects"), d.subjects.map((r) => r.node.code || r.node.label), d.subjects.map((r) => r.count), KINDS.SUBJECT.color,
      (i) => openNode(d.subjects[i].node.id, true), true),
  ];
  rankedList($("home-emerging"), d.emerging, (r) => [nodeLink(r.node.id, r.node.label, true),
    el("span", { class: "weight" }, ` ${r.count} papers since ${r.since}`)]);
  rankedList($("home-people"), d.people, (r) => [nodeLink(r.node.id, r.node.label, true), el("span", { class: "weight" }, ` ${r.count} papers`)]);
  $("details").replaceChildren(el("h2", {}, "The corpus"),
    el("p", {}, "The months, concepts and subjects are bars: click one. The emerging concepts are those whose papers are in a burst at the end of the corpus's months (Kleinberg's burst detection)."));
  window.kg.home = (window.kg.home || 0) + 1;
}

// periodPapers lists a month's (or a year's) papers in the details.
async function periodPapers(b, byMonth) {
  const f = byMonth ? { monthFrom: b.key, monthTo: b.key } : { yearFrom: Number(b.key), yearTo: Number(b.key) };
  let d;
  try {
    d = await gql("query($f: PaperFilter!) { papers(filter: $f, first: 20) { totalCount nodes { id title date } } }", { f });
  } catch (e) {
    status("Papers of " + b.label + ": " + e.message);
    return;
  }
  const p = d.papers;
  $("details").replaceChildren(el("h2", {}, b.label), el("p", { class: "weight" }, p.totalCount.toLocaleString("en") + " papers, newest first"),
    el("ul", {}, ...p.nodes.map((n) => el("li", {}, nodeLink(n.id, n.title, true), el("span", { class: "weight" }, " " + (n.date || ""))))));
}

// ---- export this view ----

async function exportView() {
  const format = $("format").value;
  status("Exporting…");
  try {
    const d = await gql("query($id: ID!, $depth: Int!, $kinds: [Kind!], $f: ExportFormat!) { export(id: $id, depth: $depth, kinds: $kinds, first: " + VIEW + ", format: $f) }",
      { id: state.node, depth: state.depth, kinds: shownKinds(), f: format });
    const ext = { GEXF: "gexf", GRAPHML: "graphml", NQUADS: "nq", CSV_NODES: "nodes.csv", CSV_EDGES: "edges.csv" }[format] || "json";
    const a = el("a", { href: URL.createObjectURL(new Blob([d.export])), download: state.node.replace(":", "-") + "." + ext });
    document.body.append(a);
    a.click();
    a.remove();
    status("");
  } catch (e) {
    status("Export failed: " + e.message);
  }
}

// ---- start ----

function init() {
  for (const [k, v] of Object.entries(KINDS)) {
    $("legend").append(el("li", {}, el("span", { class: "swatch", style: "background:" + v.color }), v.label));
    const box = el("input", { type: "checkbox", "data-kind": k, onchange: (ev) => {
      if (ev.target.checked) state.hide.delete(k); else state.hide.add(k);
      writeHash();
      if (state.node) draw();
    } });
    $("kinds").append(el("label", {}, box, " " + v.label));
  }
  $("search").addEventListener("submit", (ev) => { ev.preventDefault(); if ($("q").value.trim()) search($("q").value.trim()); });
  for (const f of ["from", "to"]) $(f).addEventListener("change", () => { state[f] = $(f).value; writeHash(); applyFilters(); });
  $("depth").addEventListener("change", () => { state.depth = Number($("depth").value); writeHash(); if (state.node) draw(); });
  $("export").addEventListener("click", exportView);
  readHash();
  syncKinds();
  $("from").value = state.from;
  $("to").value = state.to;
  $("depth").value = String(state.depth);
  if (state.node) {
    const sel = state.sel;
    draw().then(() => select(sel || state.node)).then(() => dashboard(state.node));
  } else {
    home();
  }
}

// the graph follows its box (a narrower window, a scrollbar that appears)
new ResizeObserver(() => { if (cy) { cy.resize(); cy.fit(undefined, 20); fitLabels(); } }).observe($("graph"));

window.kg = { get cy() { return cy; }, state, drawn: 0 };
init();
