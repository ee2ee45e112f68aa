// The method × framework matrix: rows are methods, columns frameworks, drawn from GET /matrix.
"use strict";

const MARKS = { agree: ["✓", "agree"], "evidence only": ["E", "evidence-only"], "claim only": ["C", "claim-only"] };
let shown = 0; // the newest request; an older answer arriving late is dropped, never drawn

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

function cell(c) {
  if (!c) return el("td", { class: "empty" });
  const [mark, cls] = MARKS[c.agreement];
  const td = el("td", { "data-agreement": c.agreement });
  td.append(el("span", { class: `mark ${cls}`, title: c.agreement }, mark), " ");
  if (!c.implemented) return td;
  const date = c.url ? el("a", { href: c.url, target: "_blank", rel: "noopener" }, c.commit_date) : c.commit_date;
  td.append(date);
  if (c.release) td.append(" ", el("span", { class: "release" }, c.release));
  if (c.identifier) td.append(el("code", { title: `${c.identifier} (${c.evidence || "?"})` }, c.identifier));
  if (c.commits > 1) td.append(el("span", { class: "more" }, `+${c.commits - 1} more commit${c.commits > 2 ? "s" : ""}`));
  return td;
}

function fillOptions(select, values) {
  if (select.options.length > 1) return;
  for (const v of values) select.append(el("option", { value: v }, v));
}

async function draw() {
  const form = new FormData(document.getElementById("filters"));
  const query = new URLSearchParams({ family: form.get("family") || "", change: form.get("change") || "" });
  const ticket = ++shown;
  const body = await (await fetch(`/matrix?${query}`)).json();
  if (ticket !== shown) return;
  if (!query.get("family") && !query.get("change")) {
    fillOptions(document.getElementById("family"), [...new Set(body.methods.map((m) => m.family).filter(Boolean))].sort());
    fillOptions(document.getElementById("change"), [...new Set(body.methods.map((m) => m.change).filter(Boolean))].sort());
  }
  const byPair = new Map(body.cells.map((c) => [`${c.method}|${c.framework}`, c]));
  const head = el("tr", {}, el("th", { class: "method", scope: "col" }, "method"));
  for (const f of body.frameworks) head.append(el("th", { scope: "col" }, f));
  const rows = body.methods.map((m) => {
    const tr = el("tr", { "data-method": m.slug }, el("th", { class: "method", scope: "row", title: m.family || "" }, m.name || m.slug));
    for (const f of body.frameworks) tr.append(cell(byPair.get(`${m.slug}|${f}`)));
    return tr;
  });
  document.querySelector("#matrix thead").replaceChildren(head);
  document.querySelector("#matrix tbody").replaceChildren(...rows);
  document.getElementById("summary").textContent =
    `${body.methods.length} methods, ${body.frameworks.length} frameworks: ${body.implemented} implemented with evidence, ` +
    `${body.count - body.implemented} claimed by the catalog without evidence`;
}

document.getElementById("filters").addEventListener("change", draw);
draw();
