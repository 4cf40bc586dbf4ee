// kg explorer: search, a node's neighbourhood drawn with Cytoscape, its
// details, a dashboard of its papers drawn with Chart.js, and exports.
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
  for (const n of g.nodes) {
    const w = weight[n.id] || 0;
    elements.push({ group: "nodes", data: { id: n.id, kind: n.kind, label: n.label, year: n.year || 0, weight: w,
      size: n.id === state.node ? 34 : n.kind === "AUTHOR" ? 16 + 5 * Math.min(w, 12) : 16 } });
  }
  for (const e of g.edges) {
    elements.push({ group: "edges", data: { id: e.type + " " + e.source + " " + e.target, source: e.source, target: e.target, type: e.type,
      weight: e.weight, label: e.type === "CO_AUTHOR" ? String(e.weight) : "" } });
  }
  const box = $("graph");
  box.replaceChildren();
  if (cy) cy.destroy();
  cy = cytoscape({
    container: box,
    elements,
    style: [
      { selector: "node", style: { "background-color": (n) => KINDS[n.data("kind")].color, label: "data(label)", width: "data(size)", height: "data(size)",
        "font-size": 9, "min-zoomed-font-size": 7, "text-wrap": "ellipsis", "text-max-width": 140, "text-valign": "bottom", "text-margin-y": 2, color: "#333" } },
      { selector: "node:selected", style: { "border-width": 3, "border-color": "#111" } },
      { selector: "edge", style: { width: (e) => (e.data("type") === "CO_AUTHOR" ? 1 + Math.min(e.data("weight"), 8) : 1), "line-color": "#bbb",
        "curve-style": "haystack", label: "data(label)", "font-size": 9, color: "#444", opacity: 0.8 } },
      { selector: ".hidden", style: { display: "none" } },
    ],
    layout: { name: "cose", animate: false, randomize: false, nodeRepulsion: () => 9000, idealEdgeLength: () => 70, fit: true, padding: 20 },
    wheelSensitivity: 0.3,
  });
  cy.on("tap", "node", (ev) => select(ev.target.id()));
  cy.on("dbltap", "node", (ev) => openNode(ev.target.id()));
  applyFilters();
  $("export").disabled = false;
  window.kg.drawn = (window.kg.drawn || 0) + 1;
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
  }
}

// the graph follows its box (a narrower window, a scrollbar that appears)
new ResizeObserver(() => { if (cy) { cy.resize(); cy.fit(undefined, 20); } }).observe($("graph"));

window.kg = { get cy() { return cy; }, state, drawn: 0 };
init();
