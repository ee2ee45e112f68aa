// Uptake explorer: search, a method's family tree, paths, expanding neighbours.
// Plain JavaScript and SVG drawn here: a layered layout is enough for family trees and paths,
// and nothing has to be fetched from the internet.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const BOX_W = 190;
const GAP_X = 36;
const GAP_Y = 78;
const LINE_H = 15;
const MAX_IMPL_LINES = 4;

const state = { nodes: new Map(), rels: new Map(), focus: null, selected: null, styles: {}, expanded: new Set(), view: 0 };

// Each view and search takes a ticket; an answer that arrives after a newer one was asked for is
// dropped, so what is drawn is always what was asked for last.
function ticket() { return ++state.view; }
function stale(t) { return t !== state.view; }

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "onclick") node.addEventListener("click", v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  return node;
}

function status(text) { $("status").textContent = text; }

async function getJSON(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  const body = await response.json();
  if (!response.ok) throw new Error((body.error && body.error.message) || response.statusText);
  return body;
}

function styleOf(label) { return state.styles[label] || { color: "#dddddd", border: "#999999", text: "#111111" }; }

// -- search -----------------------------------------------------------------------------

async function runSearch(text) {
  if (!text.trim()) return;
  status(`Searching for “${text}”…`);
  const t = ticket();
  const body = await getJSON(`/explore/search?q=${encodeURIComponent(text)}`);
  if (stale(t)) return;
  const list = $("results");
  list.replaceChildren();
  $("results-section").hidden = false;
  $("start").hidden = true;  // the start panel may have answered while the search was on its way
  for (const r of body.results) {
    const s = styleOf(r.label);
    const kind = el("span", { class: "kind", style: `background:${s.color};color:${s.text}` }, r.label);
    const detail = r.detail ? ` — ${r.detail}` : "";
    const button = el("button", { type: "button", "data-id": r.id }, kind, `${r.caption}${detail}`);
    button.addEventListener("click", () => openResult(r));
    list.append(el("li", {}, button));
  }
  status(body.results.length ? `${body.results.length} results for “${text}”.` : `Nothing matches “${text}”.`);
  if (body.results.length) list.querySelector("button").focus();
}

function openResult(r) {
  if (r.label === "Method") location.hash = `lineage/${encodeURIComponent(r.key)}`;
  else if (r.label === "Paper") location.hash = `paper/${encodeURIComponent(r.key)}`;
  else location.hash = `neighbours/${r.label}/${encodeURIComponent(r.key)}`;
}

// -- views --------------------------------------------------------------------------------

function resetGraph(graph, title) {
  state.nodes.clear();
  state.rels.clear();
  state.expanded.clear();
  state.selected = null;
  state.focus = graph.focus;
  merge(graph);
  $("view-heading").textContent = title;
  $("view-help").hidden = false;
  draw();
  const focus = state.nodes.get(graph.focus);
  if (focus) showDetails(focus);
}

function merge(graph) {
  let added = 0;
  for (const n of graph.nodes) {
    const known = state.nodes.get(n.id);
    if (known) Object.assign(known.properties, n.properties), (known.url = known.url || n.url);
    else state.nodes.set(n.id, n), added++;
  }
  for (const r of graph.relationships) if (!state.rels.has(r.id)) state.rels.set(r.id, r);
  return added;
}

async function showLineage(slug) {
  status(`Loading the lineage of ${slug}…`);
  const t = ticket();
  const graph = await getJSON(`/explore/lineage/${encodeURIComponent(slug)}`);
  if (stale(t)) return;
  const name = (graph.nodes.find((n) => n.id === graph.focus) || {}).caption || slug;
  resetGraph(graph, `Lineage of ${name}`);
  status(`Lineage of ${name}: ${graph.nodes.length} methods, ${graph.relationships.length} steps.`);
}

async function showPaperPath(arxivId) {
  status(`Loading paper ${arxivId}…`);
  const t = ticket();
  const graph = await getJSON(`/explore/query/paper-proposal-implementation?arxiv_id=${encodeURIComponent(arxivId)}`);
  if (stale(t)) return;
  if (!graph.nodes.length) {
    const around = await getJSON(`/explore/neighbours?label=Paper&key=${encodeURIComponent(arxivId)}`);
    if (stale(t)) return;
    resetGraph(around, `Paper ${arxivId}`);
  } else resetGraph(graph, `Paper ${arxivId} → proposal → implementation`);
  status(`Paper ${arxivId}: ${state.nodes.size} nodes.`);
}

async function showFailures(params = "") {
  status("Loading failures and their fixes…");
  const t = ticket();
  const graph = await getJSON(`/explore/query/failure-fixes${params}`);
  if (stale(t)) return;
  resetGraph(graph, "Failures → fixing commits");
  status(`${[...state.nodes.values()].filter((n) => n.label === "FailureReport").length} failures with a fix.`);
}

async function showNeighbours(label, key) {
  const t = ticket();
  const graph = await getJSON(`/explore/neighbours?label=${encodeURIComponent(label)}&key=${encodeURIComponent(key)}`);
  if (stale(t)) return;
  if (!graph.nodes.length) graph.nodes.push({ id: `${label}:${key}`, label, key, caption: key, properties: {} });
  resetGraph(graph, `${label} ${key} and its neighbours`);
  state.expanded.add(graph.focus);
  status(`${label} ${key}: ${graph.nodes.length} nodes.`);
}

async function expand(node) {
  status(`Expanding ${node.caption}…`);
  const t = state.view; // expanding adds to this view: dropped if another view opened meanwhile
  const graph = await getJSON(`/explore/neighbours?label=${encodeURIComponent(node.label)}&key=${encodeURIComponent(node.key)}`);
  if (stale(t)) return;
  const added = merge(graph);
  state.expanded.add(node.id);
  draw();
  select(node.id);
  status(`${node.caption}: ${added} new neighbour${added === 1 ? "" : "s"}.`);
}

// -- layout -------------------------------------------------------------------------------

function subLines(node) {
  const lines = [node.label];
  const impls = node.properties.implementations;
  if (Array.isArray(impls)) {
    if (!impls.length) lines.push("not implemented yet");
    for (const i of impls.slice(0, MAX_IMPL_LINES)) lines.push(`${i.framework} · ${i.first_commit_date}`);
    if (impls.length > MAX_IMPL_LINES) lines.push(`+${impls.length - MAX_IMPL_LINES} more`);
  } else if (node.properties.framework) lines[0] += ` · ${node.properties.framework}`;
  const p = node.properties;
  if (node.label === "Commit" && p.commit_date) lines.push([p.commit_date, p.release].filter(Boolean).join(" · "));
  if (node.label === "Commit" && p.commits > 1) lines.push(`+${p.commits - 1} more commit${p.commits > 2 ? "s" : ""}`);
  if (node.label === "More") lines[0] = "folded: see details";
  return lines;
}

// Layers: a relationship's target sits one layer above its source (parents above children,
// methods above the commits implementing them), found breadth-first from the focus.
function layout() {
  const ids = [...state.nodes.keys()];
  const adj = new Map(ids.map((id) => [id, []]));
  for (const r of state.rels.values()) {
    if (!adj.has(r.source) || !adj.has(r.target)) continue;
    adj.get(r.source).push([r.target, -1]);
    adj.get(r.target).push([r.source, +1]);
  }
  const layer = new Map();
  const starts = [state.focus, ...ids].filter((id) => adj.has(id));
  for (const start of starts) {
    if (layer.has(start)) continue;
    layer.set(start, 0);
    const queue = [start];
    while (queue.length) {
      const id = queue.shift();
      for (const [next, step] of adj.get(id)) {
        if (!layer.has(next)) layer.set(next, layer.get(id) + step), queue.push(next);
      }
    }
  }
  const min = Math.min(...layer.values());
  const layers = [];
  for (const [id, l] of layer) (layers[l - min] = layers[l - min] || []).push(id);
  // A layer wider than the canvas wraps onto more rows: nothing scrolls sideways.
  const perRow = Math.max(1, Math.floor(($("canvas").clientWidth - GAP_X) / (BOX_W + GAP_X)));
  const rows = [];
  for (const row of layers) {
    if (!row) continue;
    row.sort((a, b) => state.nodes.get(a).caption.localeCompare(state.nodes.get(b).caption));
    for (let k = 0; k < row.length; k += perRow) rows.push(row.slice(k, k + perRow));
  }
  const pos = new Map();
  const heights = rows.map((row) => Math.max(...(row || []).map((id) => 26 + LINE_H * subLines(state.nodes.get(id)).length)));
  let y = 20;
  const width = Math.max(...rows.map((row) => row.length)) * (BOX_W + GAP_X) + GAP_X;
  rows.forEach((row, i) => {
    if (!row) return;
    const centre = (id) => {
      const xs = adj.get(id).map(([n]) => pos.get(n)).filter(Boolean).map((p) => p.x);
      return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Infinity;
    };
    row.sort((a, b) => centre(a) - centre(b) || state.nodes.get(a).caption.localeCompare(state.nodes.get(b).caption));
    const rowWidth = row.length * (BOX_W + GAP_X) - GAP_X;
    row.forEach((id, j) => {
      pos.set(id, { x: (width - rowWidth) / 2 + j * (BOX_W + GAP_X), y, h: heights[i], order: [i, j] });
    });
    y += heights[i] + GAP_Y;
  });
  return { pos, width, height: y - GAP_Y + 20 };
}

// -- drawing ------------------------------------------------------------------------------

function draw() {
  const { pos, width, height } = layout();
  // Rows wrap to the canvas (see layout), so text keeps its size; a tall graph scrolls down.
  const scale = Math.min(1, ($("canvas").clientWidth - 4) / width);
  const root = svg("svg", { width: width * scale, height: height * scale, viewBox: `0 0 ${width} ${height}`, role: "group", "aria-labelledby": "view-heading", id: "graph-svg" });
  const defs = svg("defs");
  const marker = svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" });
  marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#6e7781" }));
  defs.append(marker);
  root.append(defs);
  const edges = svg("g", { class: "edges" });
  for (const r of state.rels.values()) {
    const a = pos.get(r.source), b = pos.get(r.target);
    if (!a || !b) continue;
    const up = b.y < a.y;
    const x1 = a.x + BOX_W / 2, y1 = up ? a.y : a.y + a.h;
    const x2 = b.x + BOX_W / 2, y2 = up ? b.y + b.h : b.y;
    const my = (y1 + y2) / 2;
    const agreement = r.properties && r.properties.agreement;
    const disagree = agreement && agreement !== "agree" ? " disagree" : "";
    const g = svg("g", { class: `edge ${r.type}${disagree}`, "data-id": r.id, "data-type": r.type });
    g.append(svg("path", { d: `M${x1},${y1} C${x1},${my} ${x2},${my} ${x2},${y2}`, "marker-end": "url(#arrow)" }));
    const change = r.properties && r.properties.change;
    const text = svg("text", { x: (x1 + x2) / 2 + 4, y: my + 4, "text-anchor": "middle" });
    text.textContent = r.type === "EXTENDS" ? `${change || "extends"}` : edgeVerb(r);
    if (r.url) {
      const link = svg("a", { href: r.url, target: "_blank", rel: "noopener", class: "evidence" });
      link.setAttribute("aria-label", `${edgeSentence(r)} — evidence`);
      link.append(text);
      g.append(link);
    } else g.append(text);
    edges.append(g);
  }
  root.append(edges);
  const nodes = svg("g", { class: "nodes" });
  const ordered = [...pos.entries()].sort((p, q) => p[1].order[0] - q[1].order[0] || p[1].order[1] - q[1].order[1]);
  for (const [id, p] of ordered) nodes.append(drawNode(state.nodes.get(id), p));
  root.append(nodes);
  $("canvas").replaceChildren(root);
  // Keep the node being looked at in view when the graph is wider than the canvas.
  const centre = pos.get(state.selected) || pos.get(state.focus);
  if (centre) {
    $("canvas").scrollLeft = (centre.x + BOX_W / 2) * scale - $("canvas").clientWidth / 2;
    $("canvas").scrollTop = (centre.y + centre.h / 2) * scale - $("canvas").clientHeight / 2;
  }
  drawLegend();
  drawList();
}

function drawNode(node, p) {
  const s = styleOf(node.label);
  const lines = subLines(node);
  const g = svg("g", {
    class: `node ${node.label}${state.selected === node.id ? " selected" : ""}`,
    transform: `translate(${p.x},${p.y})`,
    tabindex: 0,
    role: "button",
    "data-id": node.id,
    "aria-label": `${node.label} ${node.caption}${lines.length > 1 ? ": " + lines.slice(1).join(", ") : ""}. Show details and expand.`,
  });
  g.append(svg("rect", { width: BOX_W, height: p.h, fill: s.color, stroke: s.border }));
  const title = svg("text", { x: 10, y: 19, class: "caption", fill: s.text });
  title.textContent = node.caption.length > 26 ? node.caption.slice(0, 25) + "…" : node.caption;
  const tip = svg("title");
  tip.textContent = node.name || node.caption;
  g.append(tip, title);
  lines.forEach((line, i) => {
    const t = svg("text", { x: 10, y: 37 + i * LINE_H, class: "sub", fill: s.text });
    t.textContent = line;
    g.append(t);
  });
  g.addEventListener("click", () => activate(node.id));
  g.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") event.preventDefault(), activate(node.id);
  });
  return g;
}

function drawLegend() {
  const labels = [...new Set([...state.nodes.values()].map((n) => n.label))];
  $("legend").replaceChildren(...labels.map((l) => {
    const s = styleOf(l);
    return el("span", { class: "kind", style: `background:${s.color};color:${s.text}` }, l);
  }));
}

// A framework's SUPPORTS is the catalog's claim and its IMPLEMENTS the mined commits; where only
// one of the two exists the edge says so ("supports (claim only)", "implements (evidence only)").
function edgeVerb(r) {
  const verb = r.type.toLowerCase().replace(/_/g, " ");
  const agreement = r.properties && r.properties.agreement;
  return agreement && agreement !== "agree" ? `${verb} (${agreement})` : verb;
}

function edgeSentence(r) {
  const a = state.nodes.get(r.source), b = state.nodes.get(r.target);
  const verb = r.type === "EXTENDS" ? `extends (changes ${(r.properties && r.properties.change) || "?"})` : r.type.toLowerCase().replace(/_/g, " ");
  const agreement = r.properties && r.properties.agreement;
  const note = agreement && agreement !== "agree" ? ` (${agreement})` : "";
  return `${a ? a.caption : r.source} ${verb} ${b ? b.caption : r.target}${note}`;
}

function drawList() {
  const items = [];
  for (const r of state.rels.values()) {
    const li = el("li", { "data-id": r.id }, edgeSentence(r));
    if (r.url) li.append(" — ", el("a", { href: r.url, target: "_blank", rel: "noopener" }, "evidence"));
    items.push(li);
  }
  for (const n of state.nodes.values()) {
    const linked = [...state.rels.values()].some((r) => r.source === n.id || r.target === n.id);
    if (!linked) items.push(el("li", { "data-id": n.id }, `${n.label} ${n.caption}`));
  }
  $("graph-list").replaceChildren(...items);
}

// -- details ------------------------------------------------------------------------------

function select(id) {
  state.selected = id;
  for (const g of document.querySelectorAll("svg .node")) g.classList.toggle("selected", g.dataset.id === id);
  const node = state.nodes.get(id);
  if (node) showDetails(node);
}

async function activate(id) {
  select(id);
  const node = state.nodes.get(id);
  if (node && !state.expanded.has(id)) {
    try { await expand(node); } catch (e) { status(`Could not expand ${node.caption}: ${e.message}`); }
    const again = document.querySelector(`svg .node[data-id="${CSS.escape(id)}"]`);
    if (again) again.focus();
  }
}

function showDetails(node) {
  const panel = $("details");
  const rows = [];
  const skip = new Set(["implementations", "_label"]);
  rows.push(el("dt", {}, "kind"), el("dd", {}, node.label), el("dt", {}, "key"), el("dd", {}, node.key));
  if (node.name && node.name !== node.caption) rows.push(el("dt", {}, "name"), el("dd", {}, node.name));
  for (const [k, v] of Object.entries(node.properties || {})) {
    if (skip.has(k) || v === null || v === "" || (Array.isArray(v) && !v.length)) continue;
    rows.push(el("dt", {}, k), el("dd", {}, Array.isArray(v) ? v.join(", ") : String(v)));
  }
  const children = [el("h2", { id: "details-heading" }, node.caption)];
  if (node.url) children.push(el("p", {}, el("a", { href: node.url, target: "_blank", rel: "noopener", class: "evidence" }, `Open the ${evidenceName(node.label)}`)));
  children.push(el("dl", {}, ...rows));
  const impls = node.properties.implementations;
  if (Array.isArray(impls) && impls.length) {
    children.push(el("h3", {}, "Implemented in"));
    children.push(el("ul", { class: "implementations" }, ...impls.map((i) => {
      const text = `${i.framework}: first commit ${i.first_commit.slice(0, 7)} on ${i.first_commit_date}` +
        (i.days_after_paper !== null && i.days_after_paper !== undefined ? `, ${i.days_after_paper} day${i.days_after_paper === 1 ? "" : "s"} after the paper` : "") +
        ` (${i.commits} commit${i.commits === 1 ? "" : "s"})`;
      return el("li", {}, i.url ? el("a", { href: i.url, target: "_blank", rel: "noopener" }, text) : text);
    })));
  }
  const actions = el("div", { class: "actions" });
  if (!state.expanded.has(node.id)) actions.append(el("button", { type: "button", onclick: () => activate(node.id) }, "Expand neighbours"));
  if (node.label === "Method") {
    actions.append(el("button", { type: "button", onclick: () => (location.hash = `lineage/${encodeURIComponent(node.key)}`) }, "Lineage"));
    actions.append(el("button", { type: "button", onclick: () => (location.hash = `failures/method/${encodeURIComponent(node.key)}`) }, "Failures and fixes"));
  }
  if (node.label === "Paper") actions.append(el("button", { type: "button", onclick: () => (location.hash = `paper/${encodeURIComponent(node.key)}`) }, "Paper → implementation"));
  if (node.label === "Framework") actions.append(el("button", { type: "button", onclick: () => (location.hash = `failures/framework/${encodeURIComponent(node.key)}`) }, "Failures and fixes"));
  children.push(actions);
  panel.replaceChildren(...children);
}

function evidenceName(label) {
  return { Paper: "paper on arXiv", ModelReport: "report on arXiv", Method: "method's paper", Commit: "commit",
    Issue: "issue", PullRequest: "pull request", Framework: "repository", Release: "release",
    FailureReport: "issue it was reported in" }[label] || "source";
}

// -- routing ------------------------------------------------------------------------------

async function showStart() {
  // The start panel takes no ticket: a search sent while it loads must keep its answer, and
  // the panel is shown only if nothing else was asked for meanwhile.
  const asked = state.view;
  const body = await getJSON("/explore/start");
  if (state.view !== asked || location.hash) return;
  const link = (hash, text) => el("li", {}, el("a", { href: `#${hash}` }, text));
  $("start-adopted").replaceChildren(...body.adopted.map((m) => link(`lineage/${encodeURIComponent(m.slug)}`, `${m.name} (${m.frameworks} frameworks)`)));
  $("start-newest").replaceChildren(...body.newest.map((c) => link(`lineage/${encodeURIComponent(c.slug)}`, `${c.name} in ${c.framework}, ${c.commit_date}`)));
  $("start-failures").replaceChildren(...(body.failures.length
    ? body.failures.map((f) => link(`neighbours/FailureReport/${encodeURIComponent(f.id)}`, `${f.symptom} (${f.framework}, ${f.reported_date || "?"})`))
    : [el("li", {}, "none recorded yet")]));
  $("start").hidden = false;
}

async function route() {
  const [view, ...rest] = location.hash.replace(/^#/, "").split("/");
  const args = rest.map(decodeURIComponent);
  $("start").hidden = true;
  try {
    if (!view && $("results-section").hidden) await showStart();
    else if (view === "lineage" && args[0]) await showLineage(args[0]);
    else if (view === "paper" && args[0]) await showPaperPath(args[0]);
    else if (view === "neighbours" && args[1]) await showNeighbours(args[0], args.slice(1).join("/"));
    else if (view === "failures") await showFailures(args[1] ? `?${args[0]}=${encodeURIComponent(args[1])}` : "");
  } catch (e) {
    status(`Error: ${e.message}`);
  }
}

async function start() {
  // Listeners first: a search typed while the styles load must not submit the form natively.
  $("search-form").addEventListener("submit", (event) => {
    event.preventDefault();
    runSearch($("search-input").value).catch((e) => status(`Error: ${e.message}`));
  });
  $("failures-button").addEventListener("click", () => (location.hash = "failures"));
  window.addEventListener("hashchange", route);
  try { state.styles = await getJSON("/explore/styles"); } catch (e) { status(`Error: ${e.message}`); }
  // `/?q=…` (a link, or a search sent before this script ran) opens with that search.
  const asked = new URLSearchParams(location.search).get("q");
  if (asked) {
    $("search-input").value = asked;
    await runSearch(asked).catch((e) => status(`Error: ${e.message}`));
  }
  await route();
}

start();
