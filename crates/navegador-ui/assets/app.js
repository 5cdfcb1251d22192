// navegador's graph explorer: one page, routed by the address's #fragment. Data comes from
// the JSON API beside this file (api/...), which answers with the MCP tools' answers.
'use strict';

const main = document.getElementById('main');
const timing = (window.navegadorTiming = {});

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const k of kids.flat(Infinity)) if (k !== undefined && k !== null && k !== false) e.append(k instanceof Node ? k : String(k));
  return e;
}

async function api(path, init) {
  const r = await fetch('api/' + path, init);
  let body;
  try { body = await r.json(); } catch (e) { body = { error: `the server answered ${r.status} without JSON` }; }
  if (!r.ok || (body && body.status === 'error')) {
    const msg = body.error || (body.errors || []).map((x) => x.message).join('; ') || body.summary || `error ${r.status}`;
    const err = new Error(msg); err.body = body; throw err;
  }
  return body;
}

function qs(o) {
  return Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== '').map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

function symbolHref(n) {
  return '#/symbol?' + qs({ name: n.qualified_name || n.name, file: n.file_path, line: n.line_start, type: n.type });
}

function fileHref(path) { return '#/file?' + qs({ path }); }

function where(n) {
  if (!n.file_path) return '';
  return n.file_path + (n.line_start ? ':' + n.line_start : '');
}

function fill(box, ...kids) { box.replaceChildren(...kids.flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false)); }

function show(...kids) { fill(main, ...kids); }

function failure(e) { return el('p', { class: 'error', role: 'alert' }, e.message || String(e)); }

function kind(n) { return el('span', { class: 'kind' }, n.type || n.kind || '?'); }

// ---------------------------------------------------------------- search as you type

const q = document.getElementById('q');
const results = document.getElementById('results');
let searchSeq = 0, active = -1, options = [];

function closeResults() { results.hidden = true; q.setAttribute('aria-expanded', 'false'); q.removeAttribute('aria-activedescendant'); active = -1; }

function setActive(i) {
  options.forEach((o, j) => o.setAttribute('aria-selected', j === i ? 'true' : 'false'));
  active = i;
  if (i >= 0 && options[i]) { q.setAttribute('aria-activedescendant', options[i].id); options[i].scrollIntoView({ block: 'nearest' }); }
}

async function runSearch() {
  const text = q.value.trim();
  const seq = ++searchSeq;
  if (!text) { closeResults(); return; }
  const t0 = performance.now();
  let r;
  try { r = await api('search?' + qs({ q: text, limit: 30 })); } catch (e) { if (seq === searchSeq) { results.replaceChildren(el('li', { class: 'group' }, e.message)); results.hidden = false; } return; }
  if (seq !== searchSeq) return;
  timing.search = performance.now() - t0;
  const groups = new Map();
  for (const it of r.items) { const k = it.type || 'other'; if (!groups.has(k)) groups.set(k, []); groups.get(k).push(it); }
  options = [];
  const kids = [];
  for (const [k, items] of groups) {
    const gid = 'g-' + k;
    kids.push(el('li', { class: 'group', id: gid, role: 'presentation' }, k));
    for (const it of items) {
      const o = el('li', { role: 'option', id: 'opt-' + options.length, 'aria-selected': 'false', 'aria-describedby': gid, 'data-href': it.type === 'File' ? fileHref(it.file_path || it.name) : symbolHref(it) },
        el('span', {}, it.qualified_name || it.name), el('span', { class: 'where' }, where(it)));
      o.addEventListener('mousedown', (ev) => { ev.preventDefault(); go(o.dataset.href); });
      options.push(o); kids.push(o);
    }
  }
  if (!options.length) kids.push(el('li', { class: 'group' }, `nothing matches “${text}”`));
  fill(results, kids);
  results.hidden = false; q.setAttribute('aria-expanded', 'true');
  setActive(options.length ? 0 : -1);
}

let debounce;
q.addEventListener('input', () => { clearTimeout(debounce); debounce = setTimeout(runSearch, 60); });
q.addEventListener('keydown', (ev) => {
  if (ev.key === 'ArrowDown') { ev.preventDefault(); if (results.hidden) runSearch(); else setActive(Math.min(active + 1, options.length - 1)); }
  else if (ev.key === 'ArrowUp') { ev.preventDefault(); setActive(Math.max(active - 1, 0)); }
  else if (ev.key === 'Enter') { ev.preventDefault(); if (options[active]) go(options[active].dataset.href); }
  else if (ev.key === 'Escape') { closeResults(); }
});
q.addEventListener('blur', () => setTimeout(closeResults, 150));
document.addEventListener('keydown', (ev) => {
  if (ev.key === '/' && document.activeElement !== q && !/^(INPUT|TEXTAREA)$/.test(document.activeElement.tagName)) { ev.preventDefault(); q.focus(); }
});

function go(href) { closeResults(); q.blur(); location.hash = href.replace(/^#/, ''); }

// ---------------------------------------------------------------- source with line numbers

function sourceBlock(src, language) {
  if (!src || src.unavailable) return el('p', { class: 'muted' }, src ? 'source unavailable: ' + src.unavailable : 'no source');
  const lines = src.text.replace(/\n$/, '').split('\n');
  const nums = lines.map((_, i) => src.line_start + i).join('\n');
  const code = el('code', { class: language ? 'language-' + language : '' }, src.text.replace(/\n$/, ''));
  if (window.hljs && language && hljs.getLanguage(language)) { code.innerHTML = hljs.highlight(src.text.replace(/\n$/, ''), { language, ignoreIllegals: true }).value; code.classList.add('hljs'); }
  const pre = el('pre', { class: 'source', 'aria-label': `source of ${src.file_path}, lines ${src.line_start} to ${src.line_end}` }, el('span', { class: 'ln', 'aria-hidden': 'true' }, nums), code);
  return [pre, src.truncated ? el('p', { class: 'muted' }, `shown: lines ${src.line_start}-${src.line_end} (the symbol is longer)`) : null];
}

// ---------------------------------------------------------------- the neighbourhood graph

const RELATION_COLOR = { caller: '#8250df', callee: '#1a7f37', base: '#bf3989', subclass: '#bf3989', member: '#59636e', parent: '#59636e', reference: '#9a6700', interface: '#bf3989', implementation: '#bf3989', imports: '#0969da', imported_by: '#0969da' };

function graphElements(bundle, seen) {
  const els = [];
  const add = (n, center) => {
    const id = String(n.id);
    if (seen.has(id)) return;
    seen.add(id);
    els.push({ data: { id, label: n.name, full: n.qualified_name || n.name, type: n.type, file: n.file_path, line: n.line_start, relation: n.relation || '', color: center ? '#cf222e' : RELATION_COLOR[n.relation] || '#57606a' } });
  };
  add(bundle.target, true);
  for (const n of bundle.nodes || []) add(n, false);
  for (const e of bundle.edges || []) {
    for (const [id, name] of [[e.source, e.source_name], [e.target, e.target_name]]) if (!seen.has(String(id)) && name) add({ id, name: name.split(/[.:/]/).pop(), qualified_name: name }, false);
    const id = `e${e.source}-${e.type}-${e.target}`;
    if (seen.has(id) || !seen.has(String(e.source)) || !seen.has(String(e.target))) continue;
    seen.add(id);
    els.push({ data: { id, source: String(e.source), target: String(e.target), label: e.type, resolution: e.resolution || 'fact' } });
  }
  // A listed node no edge reaches (a parent, a member) is joined to the target by its relation.
  const touched = new Set(els.filter((x) => x.data.source).flatMap((x) => [x.data.source, x.data.target]));
  for (const n of bundle.nodes || []) {
    const id = String(n.id), eid = `r${bundle.target.id}-${id}`;
    if (touched.has(id) || seen.has(eid) || id === String(bundle.target.id)) continue;
    seen.add(eid);
    els.push({ data: { id: eid, source: String(bundle.target.id), target: id, label: n.relation || 'related', resolution: n.resolution || 'fact' } });
  }
  return els;
}

function layoutFor(cy) {
  // A force layout reads best but costs O(n^2) per iteration: past 60 nodes, rings around
  // the expanded nodes (by degree) stay readable for a few hundred nodes and take milliseconds.
  return cy.nodes().length > 60
    ? { name: 'concentric', animate: false, minNodeSpacing: 6, concentric: (n) => (n.hasClass('expanded') ? 1000 : n.degree()), levelWidth: () => 2 }
    : { name: 'cose', animate: false, nodeRepulsion: 12000, idealEdgeLength: 80, randomize: true, padding: 20, numIter: 600 };
}

function neighbourhood(container, bundle, state) {
  const seen = new Set();
  const cy = cytoscape({
    container,
    elements: graphElements(bundle, seen),
    style: [
      { selector: 'node', style: { label: 'data(label)', 'background-color': 'data(color)', 'font-size': 11, width: 14, height: 14, color: '#1f2328', 'text-valign': 'bottom', 'text-margin-y': 3 } },
      { selector: 'node.expanded', style: { 'border-width': 2, 'border-color': '#1f2328' } },
      { selector: 'edge', style: { width: 1.4, 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', 'arrow-scale': 0.8, 'line-color': '#8c959f', 'target-arrow-color': '#8c959f' } },
      { selector: 'edge[resolution = "inferred"]', style: { 'line-style': 'dashed' } },
      { selector: 'edge[resolution = "ambiguous"]', style: { 'line-style': 'dotted', 'line-color': '#d4a72c', 'target-arrow-color': '#d4a72c' } },
    ],
    layout: { name: 'preset' },
  });
  cy.getElementById(String(bundle.target.id)).addClass('expanded');
  const t0 = performance.now();
  cy.layout(layoutFor(cy)).run();
  timing.layout = performance.now() - t0;
  cy.on('tap', 'node', async (ev) => {
    const n = ev.target;
    if (n.hasClass('expanded') || !n.data('file')) return;
    n.addClass('expanded');
    try {
      const b = await api('neighbourhood?' + qs({ name: n.data('full'), file: n.data('file'), line: n.data('line'), type: n.data('type'), ambiguous: state.ambiguous ? 1 : '' }));
      cy.add(graphElements(b, seen));
      cy.layout(layoutFor(cy)).run();
      state.onchange(cy);
    } catch (e) { state.onerror(e); }
  });
  cy.on('dbltap', 'node', (ev) => { const d = ev.target.data(); if (d.file) go(symbolHref({ qualified_name: d.full, file_path: d.file, line_start: d.line, type: d.type })); });
  return cy;
}

// ---------------------------------------------------------------- pages

const LANGS = { python: 'python', typescript: 'typescript', javascript: 'javascript', java: 'java', go: 'go', rust: 'rust', c: 'c', cpp: 'cpp', csharp: 'csharp', kotlin: 'kotlin', swift: 'swift', php: 'php', ruby: 'ruby', scala: 'scala', lua: 'lua', bash: 'bash' };

async function symbolPage(p) {
  show(el('p', { class: 'muted' }, 'loading…'));
  const t0 = performance.now();
  let r;
  try { r = await api('symbol?' + qs({ name: p.get('name'), file: p.get('file'), line: p.get('line'), type: p.get('type') })); } catch (e) { return show(el('h1', {}, p.get('name') || ''), failure(e), candidates(e)); }
  timing.symbolData = performance.now() - t0;
  const b = r.node, t = b.target;
  const rels = new Map();
  for (const n of b.nodes || []) { const k = n.relation || 'related'; if (!rels.has(k)) rels.set(k, []); rels.get(k).push(n); }
  const state = { ambiguous: false };
  const graphBox = el('div', { id: 'graph', role: 'img', 'aria-label': `neighbourhood graph of ${t.qualified_name || t.name}: click a node to expand it, double-click to open it` });
  const count = el('span', { class: 'muted', id: 'graph-count' });
  const status = el('span', { class: 'muted', role: 'status' });
  const toggle = el('input', { type: 'checkbox', id: 'show-ambiguous' });
  const totals = b.metadata && b.metadata.totals ? Object.entries(b.metadata.totals).map(([k, v]) => `${k} ${v}`).join(' · ') : '';
  const owners = r.owners && r.owners.items ? r.owners.items : [];
  const rules = r.rationale && r.rationale.items ? r.rationale.items : [];
  show(
    el('h1', {}, kind(t), t.qualified_name || t.name),
    el('p', { class: 'muted' }, t.file_path ? el('a', { href: fileHref(t.file_path) }, where(t)) : '', t.language ? ' · ' + t.language : ''),
    t.signature ? el('pre', { 'aria-label': 'signature' }, t.signature) : null,
    t.docstring ? el('p', { class: 'doc' }, t.docstring) : null,
    el('div', { class: 'grid2' },
      el('section', { 'aria-labelledby': 'h-owners' }, el('h2', { id: 'h-owners' }, 'Owners'),
        owners.length ? el('ul', { class: 'plain' }, owners.map((o) => el('li', {}, kind(o), o.name, el('span', { class: 'muted' }, ` (${o.source}, ${o.via})`)))) : el('p', { class: 'muted' }, r.owners && r.owners.error ? r.owners.error : 'no owner recorded')),
      el('section', { 'aria-labelledby': 'h-rules' }, el('h2', { id: 'h-rules' }, 'Rules and decisions'),
        rules.length ? el('ul', { class: 'plain' }, rules.map((x) => el('li', {}, kind(x), el('a', { href: symbolHref(x) }, x.name), x.status ? el('span', { class: 'muted' }, ' ' + x.status) : '', el('span', { class: 'muted' }, ` (${x.relationship}, ${x.via})`)))) : el('p', { class: 'muted' }, 'none govern it'))),
    el('h2', { id: 'h-graph' }, 'Neighbourhood'),
    el('div', { class: 'toolbar' },
      el('label', { for: 'show-ambiguous' }, toggle, ' show ambiguous edges'),
      el('span', { class: 'legend' }, el('span', {}, '— exact'), el('span', {}, '- - inferred'), el('span', {}, '··· ambiguous')),
      count, status),
    graphBox,
    el('p', { class: 'muted' }, totals),
    el('h2', {}, 'Source'),
    sourceBlock(b.source, LANGS[t.language]),
    el('h2', {}, 'Relations'),
    rels.size ? [...rels].map(([k, ns]) => el('section', {}, el('h3', {}, `${k} (${(b.metadata.totals || {})[k] ?? ns.length})`),
      el('ul', { class: 'plain' }, ns.map((n) => el('li', {}, kind(n), el('a', { href: symbolHref(n) }, n.qualified_name || n.name), ' ', el('span', { class: 'muted' }, where(n), n.resolution ? ' · ' + n.resolution : '')))))) : el('p', { class: 'muted' }, 'no relations listed'),
    b.metadata && b.metadata.notes && b.metadata.notes.length ? el('ul', { class: 'muted' }, b.metadata.notes.map((n) => el('li', {}, n))) : null,
  );
  state.onchange = (cy) => { count.textContent = `${cy.nodes().length} nodes, ${cy.edges().length} edges`; };
  state.onerror = (e) => { status.textContent = e.message; };
  const draw = (bundle) => {
    const t1 = performance.now();
    const cy = neighbourhood(graphBox, bundle, state);
    state.onchange(cy);
    timing.symbolPage = performance.now() - t0;
    timing.graph = performance.now() - t1;
    window.navegadorGraph = cy;
  };
  if (window.cytoscape) draw(b); else graphBox.replaceChildren(el('p', { class: 'muted' }, 'graph renderer missing'));
  toggle.addEventListener('change', async () => {
    state.ambiguous = toggle.checked;
    try { draw(await api('neighbourhood?' + qs({ name: t.qualified_name || t.name, file: t.file_path, line: t.line_start, type: t.type, ambiguous: toggle.checked ? 1 : '' }))); } catch (e) { status.textContent = e.message; }
  });
  document.title = (t.qualified_name || t.name) + ' · navegador';
}

function candidates(e) {
  const c = e.body && e.body.candidates;
  if (!c) return null;
  return el('ul', { class: 'plain' }, c.map((n) => el('li', {}, kind(n), el('a', { href: symbolHref(n) }, n.qualified_name || n.name), ' ', el('span', { class: 'muted' }, where(n)))));
}

async function filesPage(p) {
  const root = el('div', { class: 'tree' });
  show(el('h1', {}, 'Files'), root);
  await treeInto(root, p.get('path') || '');
}

async function treeInto(box, path) {
  let r;
  try { r = await api('tree?' + qs({ path, depth: 1 })); } catch (e) { box.append(failure(e)); return; }
  const entries = (r.data && (r.data.entries || r.data.items)) || [];
  const base = path ? path.replace(/\/$/, '') + '/' : '';
  const counts = (r.counts && r.counts.indexed_files) || {};
  const ul = el('ul', {});
  for (const en of entries) {
    const rel = en.path || base + en.name;
    const name = rel.slice(base.length) || rel;
    if (rel === path || rel === '.' || !name) continue;
    if (en.type === 'directory' || en.kind === 'directory' || en.is_dir) {
      const li = el('li', {});
      const btn = el('button', { class: 'dir', 'aria-expanded': 'false' }, '▸ ' + name + '/');
      btn.addEventListener('click', async () => {
        const open = btn.getAttribute('aria-expanded') === 'true';
        btn.setAttribute('aria-expanded', open ? 'false' : 'true');
        btn.textContent = (open ? '▸ ' : '▾ ') + name + '/';
        if (open) { li.querySelector('div')?.remove(); return; }
        const sub = el('div', {}); li.append(sub); await treeInto(sub, rel);
      });
      li.append(btn);
      const n = counts[name] || 0;
      li.append(el('span', { class: 'muted count', title: 'files in the graph under this folder' }, ` ${n} indexed file${n === 1 ? '' : 's'}`));
      ul.append(li);
    } else {
      ul.append(el('li', {}, el('a', { href: fileHref(rel) }, name)));
    }
  }
  if (r.data && r.data.truncated) ul.append(el('li', { class: 'muted' }, 'more entries not shown'));
  box.append(ul);
}

async function filePage(p) {
  const path = p.get('path');
  show(el('p', { class: 'muted' }, 'loading…'));
  let b;
  try { b = await api('file?' + qs({ path })); } catch (e) { return show(el('h1', {}, path), failure(e)); }
  const groups = new Map();
  for (const n of b.nodes || []) { const k = n.relation || 'related'; if (!groups.has(k)) groups.set(k, []); groups.get(k).push(n); }
  show(
    el('h1', {}, kind(b.target), path),
    el('p', { class: 'muted' }, b.target.language || ''),
    el('h2', {}, 'Symbols'),
    b.outline && b.outline.length ? el('pre', { 'aria-label': 'outline' }, b.outline.join('\n')) : el('p', { class: 'muted' }, 'no symbols'),
    [...groups].map(([k, ns]) => el('section', {}, el('h2', {}, `${k} (${(b.metadata.totals || {})[k] ?? ns.length})`),
      el('ul', { class: 'plain' }, ns.map((n) => el('li', {}, kind(n), n.type === 'File' ? el('a', { href: fileHref(n.file_path || n.name) }, n.file_path || n.name) : el('a', { href: symbolHref(n) }, n.qualified_name || n.name), ' ', el('span', { class: 'muted' }, where(n))))))),
  );
}

function table(columns, rows, cell) {
  return el('div', { class: 'scroll' }, el('table', {}, el('thead', {}, el('tr', {}, columns.map((c) => el('th', { scope: 'col' }, c)))),
    el('tbody', {}, rows.map((r) => el('tr', {}, columns.map((c) => el('td', {}, cell(r, c))))))));
}

function text(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

async function endpointsPage() {
  show(el('p', { class: 'muted' }, 'loading…'));
  let r;
  try { r = await api('endpoints?limit=200'); } catch (e) { return show(el('h1', {}, 'Endpoints'), failure(e)); }
  const items = (r.data && (r.data.endpoints || r.data.items)) || [];
  const cols = ['method', 'path', 'handler', 'framework', 'consumers', 'file'];
  const pick = (x, c) => {
    if (c === 'handler') { const h = x.handler || x.handler_name || x.symbol; return h && x.file ? el('a', { href: symbolHref({ name: typeof h === 'object' ? h.name : h, file_path: x.file, line_start: x.line }) }, typeof h === 'object' ? h.name : h) : text(h); }
    if (c === 'file') return x.file ? el('a', { href: fileHref(x.file) }, x.file + (x.line ? ':' + x.line : '')) : '';
    if (c === 'consumers') {
      const k = x.consumers;
      if (!k || !k.count) return '';
      return el('span', { class: 'consumers' }, `${k.count}: `, (k.items || []).map((u, i) => [i ? ', ' : '', u.symbol ? el('a', { href: symbolHref({ name: u.symbol, file_path: u.file, line_start: u.line }) }, u.symbol) : '', ' ', el('a', { class: 'muted', href: fileHref(u.file) }, `${u.file}:${u.line}`)]), k.count > (k.items || []).length ? ` and ${k.count - k.items.length} more` : '');
    }
    if (c === 'path') return text(x.path || x.full_path || x.route);
    return text(x[c]);
  };
  show(el('h1', {}, 'Endpoints'), el('p', { class: 'muted' }, `${items.length} shown` + (r.data && r.data.total !== undefined ? ` of ${r.data.total}` : '')),
    items.length ? table(cols, items, pick) : el('p', { class: 'muted' }, 'no endpoints in this graph'));
}

async function knowledgePage() {
  show(el('p', { class: 'muted' }, 'loading…'));
  let r;
  try { r = await api('knowledge'); } catch (e) { return show(el('h1', {}, 'Knowledge'), failure(e)); }
  const kinds = new Map();
  const checks = new Map(((r.checks && r.checks.items) || []).map((c) => [c.rule, c]));
  for (const row of r.items) {
    if (row.kind === 'Rule') row.check = checks.get(row.name) || null;
    if (!kinds.has(row.kind)) kinds.set(row.kind, []); kinds.get(row.kind).push(row);
  }
  const cols = ['name', 'status', 'check', 'description', 'domain', 'severity', 'date'];
  show(el('h1', {}, 'Knowledge'),
    kinds.size ? [...kinds].map(([k, rows]) => el('section', {}, el('h2', {}, `${k} (${rows.length})`),
      table(cols.filter((c) => rows.some((x) => x[c] !== null && x[c] !== undefined)), rows, (x, c) => c === 'name' ? el('a', { href: symbolHref({ name: x.name }) }, x.name) : c === 'check' ? checkCell(x.check) : text(x[c])))) : el('p', { class: 'muted' }, 'no decisions, rules, concepts, domains or people recorded'),
    r.checks && r.checks.checked_at ? el('p', { class: 'muted' }, `rules checked at ${r.checks.checked_at} (each constraint run read-only, as navegador check does)`) : null,
    r.truncated ? el('p', { class: 'muted' }, 'more rows than shown') : null);
}

function checkCell(c) {
  if (!c) return '';
  if (c.status === 'error') return el('span', { class: 'check error', title: text(c.error) }, 'error: ' + text(c.error));
  if (c.status === 'pass') return el('span', { class: 'check pass' }, 'pass');
  return el('span', { class: 'check violated', title: (c.names || []).join(', ') }, `violated: ${c.violations}${c.truncated ? '+' : ''} violation${c.violations === 1 ? '' : 's'}`);
}

function rulesSection(checks, extra) {
  const items = (checks && checks.items) || [];
  if (!items.length) return el('section', {}, el('h2', {}, 'Rules'), el('p', { class: 'muted' }, checks && checks.error ? checks.error : 'no rules with a constraint'));
  const cols = ['rule', 'severity', 'check', ...extra];
  return el('section', {}, el('h2', {}, `Rules (${items.length})`),
    table(cols, items, (x, c) => c === 'check' ? checkCell(x) : c === 'rule' ? el('a', { href: symbolHref({ name: x.rule }) }, x.rule) : typeof x[c] === 'boolean' ? (x[c] ? 'yes' : 'no') : text(x[c])),
    checks.checked_at ? el('p', { class: 'muted' }, `checked at ${checks.checked_at}`) : null);
}

async function impactPage(p) {
  const input = el('input', { id: 'impact-name', type: 'text', value: p.get('name') || '', placeholder: 'a symbol name (qualified, or with file)' });
  const out = el('div', {});
  const form = el('form', { class: 'toolbar', role: 'search', 'aria-label': 'impact of a symbol' },
    el('label', { for: 'impact-name' }, 'Symbol'), input, el('button', { type: 'submit' }, 'Show impact'),
    el('button', { type: 'button', onclick: () => { location.hash = '/impact?changes=1'; } }, 'Working tree changes'));
  form.addEventListener('submit', (ev) => { ev.preventDefault(); location.hash = '/impact?' + qs({ name: input.value.trim() }); });
  show(el('h1', {}, 'Impact'), form, out);
  if (!p.get('name') && !p.get('changes')) return;
  out.append(el('p', { class: 'muted' }, 'loading…'));
  let r;
  try { r = await api('impact?' + qs({ name: p.get('name'), file: p.get('file'), line: p.get('line'), changes: p.get('changes') })); } catch (e) { return fill(out, failure(e), candidates(e)); }
  if (p.get('changes')) {
    const rules = r.rules || [];
    fill(out, el('p', {}, `${r.compared}: risk ${r.risk}, ${r.symbols_total} changed symbols`),
      el('section', {}, el('h2', {}, `Rules on the change (${rules.length})`),
        rules.length ? table(['rule', 'severity', 'status', 'introduced_total', 'existing_total', 'fixed_total', 'elsewhere'], rules, (x, c) => c === 'status' ? el('span', { class: 'check ' + x.status }, x.status) : text(x[c]))
          : el('p', { class: 'muted' }, 'no rules with a constraint')),
      el('pre', {}, JSON.stringify(r, null, 1)));
    return;
  }
  const byDist = new Map();
  for (const d of r.items) { const k = d.distance || 1; if (!byDist.has(k)) byDist.set(k, []); byDist.get(k).push(d); }
  fill(out, 
    el('p', {}, el('a', { href: symbolHref(r.target) }, r.target.qualified_name || r.target.name), ` — ${r.total} dependents` + (r.truncated ? ' (at least)' : '') + `, ${r.tests_total} test files, depth ${r.depth}`),
    r.owners.length ? el('p', {}, 'Owners affected: ', r.owners.map((o) => `${o.name} (${o.dependents})`).join(', ')) : null,
    el('ul', { class: 'plain' }, r.groups.map((g) => el('li', { class: 'muted' }, `distance ${g.distance}: ${g.count} ${g.relation}`))),
    [...byDist].map(([d, ds]) => el('section', {}, el('h2', {}, `Distance ${d}`),
      table(['dependent', 'relation', 'via', 'owners'], ds, (x, c) => c === 'dependent' ? el('a', { href: symbolHref(x) }, x.qualified_name || x.name) : c === 'via' ? `${x.depends_on.name}${x.depends_on.resolution ? ' (' + x.depends_on.resolution + ')' : ''}` : c === 'owners' ? (x.owners || []).join(', ') : text(x[c])))),
    rulesSection(r.rules, ['governs', 'touches']),
    r.notes.length ? el('ul', { class: 'muted' }, r.notes.map((n) => el('li', {}, n))) : null);
}

function cypherPage(p) {
  const ta = el('textarea', { id: 'cypher', spellcheck: 'false' }, p.get('q') || 'MATCH (f:Function)-[c:CALLS]->(g) RETURN f, c, g LIMIT 25');
  const out = el('div', { id: 'cypher-out' });
  const asGraph = el('input', { type: 'checkbox', id: 'as-graph' });
  const run = el('button', { type: 'submit', id: 'run-cypher' }, 'Run');
  const form = el('form', { 'aria-label': 'Cypher console' }, el('label', { for: 'cypher' }, 'Cypher query (Ctrl+Enter runs it)'), ta,
    el('div', { class: 'toolbar' }, run, el('label', { for: 'as-graph' }, asGraph, ' show as a graph')));
  const exec = async () => {
    fill(out, el('p', { class: 'muted' }, 'running…'));
    const t0 = performance.now();
    let r;
    try { r = await api('cypher', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ cypher: ta.value }) }); } catch (e) { return fill(out, failure(e)); }
    const ms = Math.round(performance.now() - t0);
    const head = el('p', { class: 'muted', role: 'status' }, `${r.count} rows in ${ms} ms` + (r.truncated ? ' (truncated)' : ''));
    if (asGraph.checked) { const box = el('div', { id: 'graph', role: 'img', 'aria-label': 'query result as a graph' }); fill(out, head, box); resultGraph(box, r); }
    else fill(out, head, table(r.columns, r.items, (row, c) => text(row[c])));
  };
  form.addEventListener('submit', (ev) => { ev.preventDefault(); exec(); });
  ta.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); exec(); } });
  show(el('h1', {}, 'Cypher'), form, out);
}

function resultGraph(box, r) {
  const els = [], seen = new Set();
  const visit = (v) => {
    if (!v || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.forEach(visit);
    if (v.labels && v.id !== undefined && !seen.has('n' + v.id)) { seen.add('n' + v.id); els.push({ data: { id: 'n' + v.id, label: (v.properties && v.properties.name) || v.labels[0] } }); }
    else if (v.type && v.start !== undefined && v.end !== undefined && !seen.has('r' + v.id)) { seen.add('r' + v.id); els.push({ data: { id: 'r' + v.id, source: 'n' + v.start, target: 'n' + v.end, label: v.type, resolution: (v.properties && v.properties.resolution) || 'fact' } }); }
    else Object.values(v).forEach(visit);
  };
  r.items.forEach(visit);
  const ok = els.filter((e) => !e.data.source || (seen.has(e.data.source) && seen.has(e.data.target)));
  const cy = cytoscape({ container: box, elements: ok, style: [
    { selector: 'node', style: { label: 'data(label)', 'font-size': 11, width: 14, height: 14, 'background-color': '#0969da', 'text-valign': 'bottom' } },
    { selector: 'edge', style: { width: 1.3, 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', 'line-color': '#8c959f', 'target-arrow-color': '#8c959f' } },
    { selector: 'edge[resolution = "inferred"]', style: { 'line-style': 'dashed' } },
    { selector: 'edge[resolution = "ambiguous"]', style: { 'line-style': 'dotted' } }], layout: { name: 'preset' } });
  cy.layout(layoutFor(cy)).run();
  window.navegadorGraph = cy;
}

function homePage() {
  show(el('h1', {}, 'navegador'), el('p', {}, 'Type in the search box (or press ', el('kbd', {}, '/'), ') to find a symbol; ↑ ↓ choose, Enter opens it.'),
    el('ul', {}, el('li', {}, el('a', { href: '#/files' }, 'Files and folders')), el('li', {}, el('a', { href: '#/endpoints' }, 'Endpoints')),
      el('li', {}, el('a', { href: '#/knowledge' }, 'Decisions, rules, concepts, domains, people')), el('li', {}, el('a', { href: '#/impact' }, 'Impact of a change')),
      el('li', {}, el('a', { href: '#/cypher' }, 'Cypher console'))));
}

const PAGES = { '': homePage, symbol: symbolPage, files: filesPage, file: filePage, endpoints: endpointsPage, knowledge: knowledgePage, impact: impactPage, cypher: cypherPage };

function route() {
  const h = location.hash.replace(/^#\/?/, '');
  const [page, query] = h.split('?');
  const params = new URLSearchParams(query || '');
  const f = PAGES[page] || homePage;
  document.title = (page ? page[0].toUpperCase() + page.slice(1) + ' · ' : '') + 'navegador';
  Promise.resolve(f(params)).catch((e) => show(failure(e)));
  main.focus({ preventScroll: true });
}

window.addEventListener('hashchange', route);
api('info').then((i) => { document.getElementById('version').textContent = i.version + (i.read_only ? ' · read-only' : ''); }).catch(() => {});
route();
