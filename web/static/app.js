'use strict';
// Mallard dashboard: hash-routed views over the JSON API under api/, kept live by api/events.
(() => {
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const PALETTE = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2',
    '#db2777', '#65a30d', '#9333ea', '#ea580c', '#0d9488', '#4f46e5'];
  const LOSS_COLORS = { train: '#2563eb', test: '#ea580c' };
  const BASELINE_COLORS = ['#6b7280', '#059669', '#7c3aed', '#b45309', '#be123c', '#0e7490'];

  /* ---------------- DOM helpers ---------------- */

  // Returns a new element (SVG when ns is set) with attributes set, on* functions as listeners, kids appended.
  function make(ns, tag, attrs, kids) {
    const node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v == null || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const kid of kids.flat(Infinity)) if (kid != null && kid !== false) node.append(kid instanceof Node ? kid : String(kid));
    return node;
  }
  // Returns an HTML element (see make).
  const el = (tag, attrs, ...kids) => make(null, tag, attrs, kids);
  // Returns an SVG element (see make).
  const sv = (tag, attrs, ...kids) => make(SVG_NS, tag, attrs, kids);

  // Returns a card section with a heading row (title plus optional extra nodes) and a body.
  function card(title, body, extra, cls) {
    return el('section', { class: 'card' + (cls ? ' ' + cls : '') },
      el('div', { class: 'card-head' }, el('h2', null, title), extra || null), body);
  }

  // Returns a red error box showing msg (the hook tests look for div.error).
  const errorBox = (msg) => el('div', { class: 'error', role: 'alert' }, msg);

  /* ---------------- formatting ---------------- */

  // Returns a short readable string for a number; '—' for null/NaN; non-numbers stringified.
  function fmt(x, digits = 4) {
    if (x == null || (typeof x === 'number' && !Number.isFinite(x))) return '—';
    if (typeof x !== 'number') return String(x);
    const a = Math.abs(x);
    if (a !== 0 && (a < 1e-3 || a >= 1e7)) return x.toExponential(2);
    if (a >= 1e4 || (a >= 1000 && Number.isInteger(x))) return Math.round(x).toLocaleString('en-US');
    return String(Number(x.toPrecision(digits)));
  }

  // Returns "YYYY-MM-DD HH:MM" in local time for an ISO timestamp, or '—' when absent.
  function fmtTime(iso) {
    const d = new Date(iso), p = (n) => String(n).padStart(2, '0');
    if (!iso || Number.isNaN(d.getTime())) return iso ? String(iso) : '—';
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
  }

  // Returns a compact duration ("42s", "3m 05s", "2h 10m") between two ISO timestamps (end defaults to now).
  function fmtDuration(from, to) {
    if (!from) return '—';
    const s = Math.max(0, Math.round(((to ? new Date(to) : new Date()) - new Date(from)) / 1000));
    if (s < 60) return `${s}s`;
    if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
    return `${Math.floor(s / 3600)}h ${String(Math.floor(s / 60) % 60).padStart(2, '0')}m`;
  }

  // Returns a <time> element showing fmtTime with the raw ISO value as its tooltip.
  const timeEl = (iso) => el('time', iso ? { datetime: iso, title: iso } : null, fmtTime(iso));

  // Returns a pill whose class (st-STATUS) colours it by status.
  const badge = (status) => el('span', { class: `badge st-${status || 'unknown'}` }, status || 'unknown');

  // Returns a progress bar for done/total epochs with the "done/total" count beside it.
  function progressBar(done, total, status) {
    const pct = total > 0 ? Math.min(100, (100 * (done || 0)) / total) : 0;
    return el('div', { class: `progress st-${status}`, title: `${Math.round(pct)}%` },
      el('div', { class: 'bar' }, el('div', { class: 'fill', style: `width:${pct.toFixed(1)}%` })),
      el('span', { class: 'count' }, `${done || 0}/${total || 0}`));
  }

  // Returns a link to a model (and version when given).
  function modelLink(name, version) {
    const href = `#/models/${encodeURIComponent(name)}` + (version != null ? `/${version}` : '');
    return el('a', { href }, version != null ? `${name}@${version}` : name);
  }

  // Returns a table from columns {label, cell(row), num} and rows; rowAttrs(row) gives each <tr> attributes.
  function table(cols, rows, rowAttrs, emptyText) {
    const head = el('thead', null, el('tr', null, cols.map((c) => el('th', { class: c.num ? 'num' : null }, c.label))));
    const body = el('tbody', null, rows.map((r) => el('tr', rowAttrs ? rowAttrs(r) : null,
      cols.map((c) => el('td', { class: c.num ? 'num' : null }, c.cell(r))))));
    if (!rows.length) body.append(el('tr', null, el('td', { class: 'empty', colspan: cols.length }, emptyText || 'Nothing yet.')));
    return el('div', { class: 'table-wrap' }, el('table', null, head, body));
  }

  /* ---------------- API ---------------- */

  // Error carrying the server's message, HTTP status and SQLSTATE code.
  class ApiError extends Error {
    constructor(message, status, code) { super(message); this.status = status; this.code = code; }
  }

  // Fetches a relative API path as JSON; throws ApiError with the server's {"error"} message on failure.
  async function api(path) {
    const res = await fetch(path, { headers: { Accept: 'application/json' }, cache: 'no-store' })
      .catch((e) => { throw new ApiError(`cannot reach the server (${e.message})`, 0); });
    let body = null;
    try { body = await res.json(); } catch (_) { /* not JSON */ }
    if (!res.ok) {
      const msg = body && body.error ? body.error : `HTTP ${res.status} ${res.statusText} for ${path}`;
      throw new ApiError(msg, res.status, body && body.code);
    }
    if (body == null) throw new ApiError(`${path} did not return JSON`, res.status);
    return body;
  }

  // Returns path with the non-null params appended as a URL-encoded query string.
  function withQuery(path, params) {
    const q = Object.entries(params).filter(([, v]) => v != null && v !== '')
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    return q ? `${path}?${q}` : path;
  }

  /* ---------------- scales and charts ---------------- */

  // Returns round tick values (about n of them) covering [lo, hi].
  function niceTicks(lo, hi, n = 6) {
    const span = hi - lo;
    if (!(span > 0)) return [lo];
    const raw = span / n, mag = 10 ** Math.floor(Math.log10(raw)), f = raw / mag;
    const step = (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
    const out = [];
    for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
    return out;
  }

  // Returns a linear scale mapping domain [d0,d1] to range [r0,r1], with .ticks(n).
  function scale(d0, d1, r0, r1) {
    const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0), f = (v) => r0 + (v - d0) * k;
    f.ticks = (n) => niceTicks(d0, d1, n);
    return f;
  }

  // Returns [lo, hi] spanning the finite values with 5% padding (from 0 when that is close); [0, 1] without values.
  function extent(values) {
    const vs = values.filter((v) => typeof v === 'number' && Number.isFinite(v));
    if (!vs.length) return [0, 1];
    const lo = Math.min(...vs), hi = Math.max(...vs);
    if (lo === hi) { const d = Math.abs(lo) * 0.1 || 1; return [lo - d, hi + d]; }
    const pad = (hi - lo) * 0.05;
    return [lo >= 0 && lo - pad < 0 ? 0 : lo - pad, hi + pad];
  }

  // Returns an SVG path d for [x,y] points, null y values breaking the line; '' when there is nothing to draw.
  function pathD(points, xs, ys) {
    let d = '', pen = false;
    for (const [x, y] of points) {
      const ok = y != null && Number.isFinite(y);
      if (ok) d += `${pen ? 'L' : 'M'}${xs(x).toFixed(1)} ${ys(y).toFixed(1)}`;
      pen = ok;
    }
    return d;
  }

  // Returns the approximate rendered width of a label at the given font size.
  const textWidth = (s, size = 12) => String(s).length * size * 0.55;

  // Returns a legend <g> laid out in rows that fit width, plus its height.
  function legendRows(items, width, x0, y0) {
    const g = sv('g', { class: 'legend' });
    let x = x0, y = y0;
    for (const it of items) {
      const w = 30 + textWidth(it.label) + 18;
      if (x + w > x0 + width && x > x0) { x = x0; y += 18; }
      g.append(sv('line', { x1: x, x2: x + 20, y1: y, y2: y, stroke: it.color, 'stroke-width': it.thin ? 1.5 : 2.5,
        'stroke-dasharray': it.dash ? '5 4' : null, 'stroke-opacity': it.opacity || null }),
      sv('text', { x: x + 25, y: y + 4 }, it.label));
      x += w;
    }
    return { node: g, height: items.length ? y - y0 + 18 : 0 };
  }

  /* Returns a line chart <svg class="plot" data-plot=NAME>. o: {plot, title, width, height, xDomain, xLabel, yLabel,
     xTicks: [{v,label}] | null, series: [{key, color, width, opacity, dash, points:[[x,y]]}], hlines: [{key, y, color, label}] | null,
     vlines: [{x, label}], shade: [{from, to, label}], legend: [{label, color, dash}], dots, emptyText} */
  function lineChart(o) {
    const W = o.width || 1200, H = o.height || 360, lg = legendRows(o.legend || [], W - 140, 70, 14);
    const m = { l: 70, r: o.hlines ? 120 : 24, t: 22 + lg.height, b: 50 };
    const [y0, y1] = extent(o.series.flatMap((s) => s.points.map((p) => p[1])).concat(nearLines(o)));
    const c = { W, H, m, y0, y1, xs: scale(o.xDomain[0], o.xDomain[1], m.l, W - m.r), ys: scale(y0, y1, H - m.b, m.t) };
    const root = sv('svg', { class: 'plot', 'data-plot': o.plot, viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': o.title || o.plot },
      sv('defs', null, sv('clipPath', { id: `clip-${o.plot}` }, sv('rect', { x: m.l, y: m.t - 2, width: W - m.l - m.r, height: H - m.t - m.b + 4 }))));
    chartFrame(root, c, o);
    chartLines(root, c, o);
    if (o.emptyText) root.append(sv('text', { class: 'empty-plot', x: (m.l + W - m.r) / 2, y: (m.t + H - m.b) / 2, 'text-anchor': 'middle' }, o.emptyText));
    root.append(lg.node);
    return root;
  }

  // Returns the y values of the horizontal lines to fit on the scale: all of them without data, else those near the data.
  function nearLines(o) {
    const ys = o.series.flatMap((s) => s.points.map((p) => p[1])).filter((v) => v != null && Number.isFinite(v));
    const hs = (o.hlines || []).map((h) => h.y).filter((v) => v != null && Number.isFinite(v));
    if (!ys.length) return hs;
    const lo = Math.min(...ys), hi = Math.max(...ys), span = hi - lo || Math.abs(hi) * 0.1 || 1;
    return hs.filter((y) => y >= lo - 2 * span && y <= hi + 2 * span);
  }

  // Draws a chart's shaded regions, grid, ticks, axis labels and vertical markers into root.
  function chartFrame(root, { W, H, m, xs, ys }, o) {
    for (const s of o.shade || []) {
      const xa = xs(s.from), xb = xs(s.to);
      root.append(sv('rect', { class: `shade ${s.label}`, x: xa, y: m.t, width: Math.max(0, xb - xa), height: H - m.t - m.b }));
      if (xb - xa > textWidth(s.label, 11) + 8) root.append(sv('text', { class: 'shade-label', x: (xa + xb) / 2, y: m.t + 14, 'text-anchor': 'middle' }, s.label));
    }
    const grid = sv('g', { class: 'grid' }), axes = sv('g', { class: 'axis' });
    for (const v of ys.ticks(6).filter((t) => ys(t) >= m.t - 0.5 && ys(t) <= H - m.b + 0.5)) {
      grid.append(sv('line', { x1: m.l, x2: W - m.r, y1: ys(v), y2: ys(v) }));
      axes.append(sv('text', { x: m.l - 8, y: ys(v) + 4, 'text-anchor': 'end' }, fmt(v, 3)));
    }
    const xt = o.xTicks || niceTicks(o.xDomain[0], o.xDomain[1], 8).filter(Number.isInteger).map((v) => ({ v, label: String(v) }));
    for (const t of xt) {
      grid.append(sv('line', { x1: xs(t.v), x2: xs(t.v), y1: m.t, y2: H - m.b }));
      axes.append(sv('text', { x: xs(t.v), y: H - m.b + 18, 'text-anchor': 'middle' }, t.label));
    }
    axes.append(sv('line', { class: 'frame', x1: m.l, x2: W - m.r, y1: H - m.b, y2: H - m.b }),
      sv('line', { class: 'frame', x1: m.l, x2: m.l, y1: m.t, y2: H - m.b }),
      sv('text', { class: 'axis-label', x: (m.l + W - m.r) / 2, y: H - 8, 'text-anchor': 'middle' }, o.xLabel),
      sv('text', { class: 'axis-label', transform: `translate(16 ${(m.t + H - m.b) / 2}) rotate(-90)`, 'text-anchor': 'middle' }, o.yLabel));
    root.append(grid, axes);
    for (const v of o.vlines || []) {
      root.append(sv('line', { class: 'vline', x1: xs(v.x), x2: xs(v.x), y1: m.t, y2: H - m.b }),
        sv('text', { class: 'vline-label', x: xs(v.x) + 4, y: H - m.b - 6 }, v.label));
    }
  }

  // Draws the series paths (non-empty d only), optional dots, and the labelled dashed horizontal lines into root.
  function chartLines(root, { W, H, m, xs, ys, y0, y1 }, o) {
    const lines = sv('g', { 'clip-path': `url(#clip-${o.plot})` }), labels = [];
    for (const h of o.hlines || []) {
      if (h.y == null || !Number.isFinite(h.y)) continue;
      lines.append(sv('path', { 'data-series': h.key, d: `M${m.l} ${ys(h.y).toFixed(1)}H${W - m.r}`, stroke: h.color,
        'stroke-width': 1.5, 'stroke-dasharray': '6 4', fill: 'none' }, sv('title', null, `${h.label}: ${fmt(h.y)}`)));
      const off = h.y > y1 ? '↑' : h.y < y0 ? '↓' : ''; // off the scale: labelled at the edge with its value
      labels.push({ y: off === '↑' ? m.t : off ? H - m.b : ys(h.y), text: off ? `${h.label} ${off} ${fmt(h.y, 3)}` : h.label, color: h.color });
    }
    for (const s of o.series) {
      const d = pathD(s.points, xs, ys);
      if (!d) continue;
      lines.append(sv('path', { 'data-series': s.key, d, fill: 'none', stroke: s.color, 'stroke-width': s.width || 2,
        'stroke-opacity': s.opacity || null, 'stroke-dasharray': s.dash === true ? '6 4' : s.dash || null, 'stroke-linejoin': 'round', 'stroke-linecap': 'round' }));
      if (o.dots) for (const [x, y] of s.points.filter((p) => p[1] != null)) {
        lines.append(sv('circle', { class: 'dot', cx: xs(x).toFixed(1), cy: ys(y).toFixed(1), r: 2.6, fill: s.color }, sv('title', null, `${s.label || s.key} @ ${x}: ${fmt(y)}`)));
      }
    }
    root.append(lines);
    labels.sort((a, b) => a.y - b.y).forEach((l, i, arr) => { if (i && l.y - arr[i - 1].y < 13) l.y = arr[i - 1].y + 13; });
    for (const l of labels) root.append(sv('text', { class: 'hline-label', x: W - m.r + 6, y: l.y + 4, fill: l.color }, l.text));
  }

  /* ---------------- live updates and routing ---------------- */

  const app = { route: null, token: 0, inflight: null, pending: false, failed: false, poll: null, es: null, debounce: null };

  // Parses location.hash ("#/path?query") into {view, ...params, query}; unknown paths give view 'notfound'.
  function parseRoute(hash) {
    const decode = (x) => { try { return decodeURIComponent(x); } catch (_) { return x; } };
    const [path, search] = hash.replace(/^#\/?/, '').split(/\?(.*)/s);
    const query = Object.fromEntries(new URLSearchParams(search || ''));
    const parts = path.split('/').filter(Boolean).map(decode);
    return { ...routeOf(parts), query };
  }

  // Returns the view and its parameters for the decoded path parts.
  function routeOf(parts) {
    if (!parts.length) return { view: 'overview' };
    if (parts[0] === 'runs' && parts.length === 2) return { view: 'run', id: parts[1] };
    if (parts[0] === 'models' && (parts.length === 2 || parts.length === 3)) {
      const v = parts.length === 3 ? Number(parts[2]) : null;
      if (parts.length === 3 && !Number.isInteger(v)) return { view: 'notfound' };
      return { view: 'model', name: parts[1], version: v };
    }
    return { view: 'notfound' };
  }

  // Starts loading the view named by the hash: marks the body not ready and shows a placeholder.
  function navigate() {
    app.route = { ...parseRoute(location.hash), hash: location.hash || '#/' };
    app.token += 1;
    app.pending = false;
    app.failed = false;
    document.body.dataset.ready = '0';
    document.body.dataset.view = app.route.view;
    document.getElementById('view').replaceChildren(el('div', { class: 'loading' }, 'Loading…'));
    document.getElementById('banner').replaceChildren();
    load(true);
  }

  // Re-fetches the current view; a request while one is in flight runs once after it, never in parallel.
  function refresh() {
    if (!app.route) return;
    if (app.inflight === app.token) { app.pending = true; return; }
    load(false);
  }

  // Fetches and renders the current view; stale results (after navigation) are dropped; sets data-ready when done.
  async function load(initial) {
    const tok = app.token, route = app.route, view = VIEWS[route.view];
    const root = document.getElementById('view');
    app.inflight = tok;
    try {
      const data = await view.load(route);
      if (tok !== app.token) return;
      if (initial || app.failed) root.replaceChildren();
      await view.render(root, data, route); // a render may return a promise of work it started (a recommendation)
      app.failed = false;
      document.getElementById('banner').replaceChildren();
    } catch (e) {
      if (tok !== app.token) return;
      if (initial || app.failed) { root.replaceChildren(errorBox(e.message)); app.failed = true; }
      else document.getElementById('banner').replaceChildren(errorBox(`Refresh failed: ${e.message}`));
      if (!(e instanceof ApiError)) console.error(e);
    } finally {
      if (tok === app.token) {
        app.inflight = null;
        Object.assign(document.body.dataset, { view: route.view, route: route.hash, ready: '1' });
        if (app.pending) { app.pending = false; load(false); }
      }
    }
  }

  // Shows the live-update state in the header ('live' via events, 'polling' as fallback).
  function setLive(mode) {
    const node = document.getElementById('live') || {};
    node.className = `live is-${mode}`;
    node.textContent = mode === 'live' ? 'live' : 'polling';
    node.title = mode === 'live' ? 'Updates arrive from api/events' : 'api/events unavailable; re-fetching every 2 s';
  }

  // Polls the current view every 2 s until stopPolling; idempotent.
  const startPolling = () => { setLive('polling'); if (!app.poll) app.poll = setInterval(refresh, 2000); };
  // Stops the 2 s polling fallback.
  const stopPolling = () => { clearInterval(app.poll); app.poll = null; };

  // Source of the worker that holds the event stream: it relays open/change/error/closed to the page.
  const EVENTS_WORKER = `onmessage = (m) => {
    if (typeof EventSource === 'undefined') { postMessage('unsupported'); return; }
    const es = new EventSource(m.data);
    es.onopen = () => postMessage('open');
    es.addEventListener('change', () => postMessage('change'));
    es.onerror = () => postMessage(es.readyState === 2 ? 'closed' : 'error');
  };`;

  // Handles one event-stream signal: change schedules one debounced refresh, errors fall back to polling.
  function onStreamSignal(kind, reconnect) {
    if (kind === 'open' || kind === 'change') { stopPolling(); setLive('live'); }
    if (kind === 'change') { clearTimeout(app.debounce); app.debounce = setTimeout(refresh, 200); }
    if (kind === 'error' || kind === 'closed') startPolling();
    if (kind === 'closed') setTimeout(reconnect, 15000);
  }

  // Subscribes to api/events in a worker (an open stream there never holds a headless page load), else in the page.
  function connectEvents() {
    const url = new URL('api/events', document.baseURI).href;
    if (app.es) app.es.close ? app.es.close() : app.es.terminate();
    try {
      const w = new Worker(URL.createObjectURL(new Blob([EVENTS_WORKER], { type: 'text/javascript' })));
      app.es = w;
      w.onmessage = (m) => (m.data === 'unsupported' ? connectInPage(url) : onStreamSignal(m.data, connectEvents));
      w.onerror = () => connectInPage(url);
      w.postMessage(url);
    } catch (_) {
      connectInPage(url);
    }
  }

  // Subscribes to the event stream from the page itself; without EventSource it polls.
  function connectInPage(url) {
    if (app.es && app.es.terminate) app.es.terminate();
    if (typeof EventSource === 'undefined') { app.es = null; startPolling(); return; }
    const es = new EventSource(url);
    app.es = es;
    es.addEventListener('open', () => onStreamSignal('open'));
    es.addEventListener('change', () => onStreamSignal('change'));
    es.addEventListener('error', () => {
      if (es.readyState === EventSource.CLOSED) { es.close(); onStreamSignal('closed', () => { if (app.es === es) connectInPage(url); }); }
      else onStreamSignal('error');
    });
  }

  /* ---------------- overview ---------------- */

  const overview = {
    // Fetches every model version and every run in parallel.
    async load() {
      const [m, r] = await Promise.all([api('api/models'), api('api/runs')]);
      return { models: m.models || [], runs: r.runs || [] };
    },
    // Renders the models table and the runs table.
    render(root, { models, runs }) {
      const modelCols = [
        { label: 'Name', cell: (m) => modelLink(m.name) },
        { label: 'Kind', cell: (m) => el('span', { class: 'kind' }, m.kind) },
        { label: 'Version', cell: (m) => el('a', { href: `#/models/${encodeURIComponent(m.name)}/${m.version}` }, `v${m.version}`) },
        { label: 'Status', cell: (m) => badge(m.status) },
        { label: 'Deployed', cell: (m) => (m.deployed ? el('span', { class: 'deployed' }, 'deployed') : '') },
        { label: 'Test loss', num: true, cell: (m) => fmt(m.test_loss) },
        { label: 'Source', cell: (m) => m.source || '—' },
        { label: 'Created', cell: (m) => timeEl(m.created_at) },
      ];
      const runCols = [
        { label: 'Run', cell: (r) => el('a', { href: `#/runs/${r.run_id}` }, `#${r.run_id}`) },
        { label: 'Model', cell: (r) => modelLink(r.model, r.version) },
        { label: 'Kind', cell: (r) => el('span', { class: 'kind' }, r.kind) },
        { label: 'Status', cell: (r) => badge(r.status) },
        { label: 'Progress', cell: (r) => progressBar(r.epochs_done, r.epochs, r.status) },
        { label: 'Best test loss', num: true, cell: (r) => (r.best_test_loss == null ? '—' : [fmt(r.best_test_loss), el('span', { class: 'muted' }, ` @${r.best_epoch}`)]) },
        { label: 'Started', cell: (r) => (r.started_at || r.status !== 'queued' ? timeEl(r.started_at) : el('span', { class: 'muted' }, 'queued')) },
        { label: 'Finished', cell: (r) => timeEl(r.finished_at) },
        { label: 'Error', cell: (r) => (r.error ? el('span', { class: 'run-error-text', title: r.error }, r.error) : '') },
      ];
      const names = new Set(models.map((m) => m.name));
      const active = runs.filter((r) => r.status === 'training' || r.status === 'queued').length;
      root.replaceChildren(
        el('div', { class: 'page-head' }, el('h1', null, 'Overview'),
          el('p', { class: 'muted' }, `${names.size} model${names.size === 1 ? '' : 's'} · ${models.length} versions · ${runs.length} runs · ${active} active`)),
        card('Models', table(modelCols, models, (m) => ({ class: m.deployed ? 'is-deployed' : null }), 'No models yet. Train one from SQL.')),
        card('Runs', table(runCols, runs, (r) => ({ class: `run-row st-${r.status}` }), 'No runs yet.')));
    },
  };

  /* ---------------- run view ---------------- */

  const runView = {
    // Fetches one run with its epoch metrics and baselines.
    load: (route) => api(`api/runs/${encodeURIComponent(route.id)}`),
    // Renders the run header, the loss plot (and ranking plot for recommenders) and the epochs table.
    render(root, data) {
      const r = data.run, metrics = data.metrics || [], baselines = data.baselines || [];
      const lossName = data.loss || 'loss';
      const facts = [
        ['Model', modelLink(r.model, r.version)], ['Kind', r.kind], ['Status', badge(r.status)],
        ['Progress', progressBar(r.epochs_done, r.epochs, r.status)],
        ['Best', r.best_test_loss == null ? '—' : `${fmt(r.best_test_loss)} (${lossName}) at epoch ${r.best_epoch}`],
        ['Queued', timeEl(r.queued_at)], ['Started', timeEl(r.started_at)], ['Finished', timeEl(r.finished_at)],
        ['Duration', r.started_at ? fmtDuration(r.started_at, r.finished_at) : '—'],
      ];
      if (r.resumed_from != null) facts.push(['Resumed from', resumedLink(r.resumed_from)]);
      const head = el('div', { class: 'page-head' },
        el('div', { class: 'crumbs' }, el('a', { href: '#/' }, 'Overview'), ' / Runs'),
        el('h1', null, `Run #${r.run_id} `, el('span', { class: 'muted' }, `${r.model}@${r.version}`), ' ', badge(r.status)),
        el('dl', { class: 'facts' }, facts.map(([k, v]) => el('div', null, el('dt', null, k), el('dd', null, v)))),
        r.error ? el('div', { class: 'run-error' }, el('strong', null, 'Run failed: '), r.error) : null);
      const parts = [head, card(`Loss (${lossName}) per epoch`, lossPlot(r, metrics, baselines, lossName))];
      if (r.kind === 'recommender') parts.push(card('Ranking quality per epoch', rankingPlot(r, metrics)));
      parts.push(card('Epochs', epochsTable(r, metrics)));
      const old = root.querySelector('.scroll'), top = old ? old.scrollTop : 0; // keep the epochs table's scroll
      root.replaceChildren(...parts);
      root.querySelector('.scroll').scrollTop = top;
    },
  };

  // Returns a link for a run's resumed_from: "model@version" links to that version, a number to that run.
  function resumedLink(from) {
    const m = /^(.*)@(\d+)$/.exec(String(from));
    return m ? modelLink(m[1], Number(m[2])) : el('a', { href: `#/runs/${encodeURIComponent(from)}` }, `run #${from}`);
  }

  // Returns the x domain for epoch plots: first recorded epoch (1 before any; later for resumed runs) to the planned or last one.
  function epochDomain(r, metrics) {
    const first = metrics.length ? metrics[0].epoch : 1, last = metrics.length ? metrics[metrics.length - 1].epoch : 1;
    return [first, Math.max(r.epochs || 1, last, first + 1)];
  }

  // Returns the loss plot: train/test per epoch as solid lines, baselines' test loss as labelled dashed lines.
  function lossPlot(r, metrics, baselines, lossName) {
    const series = ['train', 'test'].map((key) => ({ key, label: key, color: LOSS_COLORS[key], points: metrics.map((m) => [m.epoch, m[`${key}_loss`]]) }));
    const hlines = baselines.filter((b) => b.test_loss != null)
      .map((b, i) => ({ key: `baseline:${b.method}`, y: b.test_loss, label: b.method, color: BASELINE_COLORS[i % BASELINE_COLORS.length] }));
    const legend = [{ label: `train ${lossName}`, color: LOSS_COLORS.train }, { label: `test ${lossName}`, color: LOSS_COLORS.test }]
      .concat(hlines.map((h) => ({ label: `${h.label} (baseline, test)`, color: h.color, dash: true, thin: true })));
    return lineChart({ plot: 'loss', title: `${lossName} per epoch`, xDomain: epochDomain(r, metrics), xLabel: 'epoch', yLabel: lossName,
      series, hlines, legend, dots: metrics.length <= 60,
      emptyText: metrics.length ? null : r.status === 'queued' ? 'Queued — waiting to start' : 'Waiting for the first epoch…' });
  }

  // Returns the recommender ranking plot: recall@10 and NDCG@10 per epoch from each epoch's extra.
  function rankingPlot(r, metrics) {
    const keys = [['recall_at_10', 'recall@10', '#059669'], ['ndcg_at_10', 'NDCG@10', '#7c3aed']];
    const series = keys.map(([key, label, color]) => ({ key, label, color,
      points: metrics.filter((m) => m.extra && m.extra[key] != null).map((m) => [m.epoch, m.extra[key]]) }));
    const any = series.some((s) => s.points.length);
    return lineChart({ plot: 'ranking', title: 'ranking metrics per epoch', xDomain: epochDomain(r, metrics), xLabel: 'epoch',
      yLabel: 'score@10', series, hlines: [], legend: keys.map(([, label, color]) => ({ label, color })), dots: metrics.length <= 60,
      emptyText: any ? null : 'No ranking metrics recorded yet' });
  }

  // Returns the per-epoch table (extra keys as extra columns), best epoch highlighted, newest epoch last.
  function epochsTable(r, metrics) {
    const rank = (k) => ['recall_at_10', 'ndcg_at_10'].indexOf(k) + 1 || 9;
    const extraKeys = [...new Set(metrics.flatMap((m) => (m.extra ? Object.keys(m.extra) : [])))].sort((x, y) => rank(x) - rank(y) || x.localeCompare(y));
    const cols = [
      { label: 'Epoch', num: true, cell: (m) => m.epoch },
      { label: 'Train loss', num: true, cell: (m) => fmt(m.train_loss) },
      { label: 'Test loss', num: true, cell: (m) => fmt(m.test_loss) },
      ...extraKeys.map((k) => ({ label: k.replace(/_at_/, '@'), num: true, cell: (m) => fmt(m.extra && m.extra[k]) })),
      { label: 'Elapsed', num: true, cell: (m) => (m.elapsed_ms == null ? '—' : `${fmt(m.elapsed_ms / 1000, 3)} s`) },
    ];
    return el('div', { class: 'scroll' }, table(cols, metrics, (m) => ({ class: m.epoch === r.best_epoch ? 'best' : null }), 'No epochs recorded yet.'));
  }

  /* ---------------- model view ---------------- */

  const reportCache = new Map(); // "name@version" -> {key, report}
  const selections = new Map(); // model name -> {selected:Set<string>, filter:string}

  const modelView = {
    // Fetches the model's versions, then the chosen version's report (reused while that version is unchanged).
    async load(route) {
      const detail = await api(`api/models/${encodeURIComponent(route.name)}`);
      const versions = detail.versions || [];
      const version = route.version != null ? route.version : defaultVersion(detail);
      const v = versions.find((x) => x.version === version);
      const key = v ? `${v.status}|${v.finished_at}` : 'missing';
      const ck = `${route.name}@${version}`, cached = reportCache.get(ck);
      if (version == null) return { detail, version, notice: 'This model has no versions yet.', reportKey: key };
      if (!cached || cached.key !== key) {
        try {
          reportCache.set(ck, { key, report: await api(withQuery(`api/models/${encodeURIComponent(route.name)}/report`, { version })) });
        } catch (e) {
          if (!(e instanceof ApiError && e.status === 409)) throw e;
          reportCache.set(ck, { key, notice: e.message }); // no report until this version's status changes
        }
      }
      const { report, notice } = reportCache.get(ck);
      return { detail, version, report, notice, reportKey: key };
    },
    // Renders header and versions each time; rebuilds the report part only when the shown version changed.
    // Returns the promise of the recommendation a "?user=ID&k=N" hash asks for, if any.
    render(root, data, route) {
      let slots = root.querySelector(':scope > .model-page');
      if (!slots || slots.dataset.model !== route.name) {
        slots = el('div', { class: 'model-page', 'data-model': route.name },
          el('div', { class: 'slot-head' }), el('div', { class: 'slot-versions' }), el('div', { class: 'slot-report' }));
        root.replaceChildren(slots);
      }
      slots.querySelector('.slot-head').replaceChildren(modelHead(data.detail, data.version));
      slots.querySelector('.slot-versions').replaceChildren(versionsCard(data.detail, data.version));
      const rep = slots.querySelector('.slot-report');
      const repKey = `${data.version}|${data.reportKey}`;
      if (rep.dataset.key === repKey) return;
      rep.dataset.key = repKey;
      if (data.notice) rep.replaceChildren(el('div', { class: 'notice' }, el('strong', null, `Version ${data.version}: `), data.notice));
      else if (data.report.kind === 'gat') rep.replaceChildren(gatReport(data.report));
      else if (data.report.kind === 'recommender') {
        const { node, pending } = recommenderReport(data.report, route);
        rep.replaceChildren(node);
        return pending;
      }
      else rep.replaceChildren(el('div', { class: 'notice' }, `No report view for kind "${data.report.kind}".`));
    },
  };

  // Returns the version to show by default: deployed, else newest ready, else newest, else null.
  function defaultVersion(detail) {
    const vs = detail.versions || [], ready = vs.find((v) => v.status === 'ready');
    return detail.deployed_version != null ? detail.deployed_version : (ready || vs[0] || { version: null }).version;
  }

  // Returns the model page heading with breadcrumbs and the shown version's facts.
  function modelHead(detail, version) {
    const v = (detail.versions || []).find((x) => x.version === version);
    return el('div', { class: 'page-head' },
      el('div', { class: 'crumbs' }, el('a', { href: '#/' }, 'Overview'), ' / Models'),
      el('h1', null, detail.name, ' ', el('span', { class: 'kind' }, detail.kind),
        version != null ? el('span', { class: 'muted' }, ` v${version}`) : null, ' ', v ? badge(v.status) : null,
        v && v.deployed ? el('span', { class: 'deployed' }, 'deployed') : null),
      v ? el('p', { class: 'muted' }, [`source ${v.source || '—'}`, v.rows != null ? `${fmt(v.rows)} rows` : null,
        v.entities != null ? `${fmt(v.entities)} ${detail.kind === 'recommender' ? 'users' : 'entities'}` : null, `created ${fmtTime(v.created_at)}`].filter(Boolean).join(' · ')) : null);
  }

  // Returns the versions table; the shown version's row is highlighted and each version links to itself.
  function versionsCard(detail, shown) {
    const name = encodeURIComponent(detail.name);
    const cols = [
      { label: 'Version', cell: (v) => el('a', { href: `#/models/${name}/${v.version}` }, `v${v.version}`) },
      { label: 'Status', cell: (v) => badge(v.status) },
      { label: 'Deployed', cell: (v) => (v.deployed ? el('span', { class: 'deployed' }, 'deployed') : '') },
      { label: 'Test loss', num: true, cell: (v) => fmt(v.test_loss) },
      { label: 'Run', cell: (v) => (v.run_id != null ? el('a', { href: `#/runs/${v.run_id}` }, `#${v.run_id}`) : '—') },
      { label: 'Created', cell: (v) => timeEl(v.created_at) },
      { label: 'Finished', cell: (v) => timeEl(v.finished_at) },
    ];
    return card('Versions', table(cols, detail.versions || [], (v) => ({ class: v.version === shown ? 'current' : null }), 'No versions.'));
  }

  // Returns a metrics table with one row per method and one column per metric key; best (lowest) test error bolded.
  function metricsTable(rows) {
    const label = { train_mse: 'Train MSE', test_mse: 'Test MSE', train_mse_original: 'Train MSE (original)',
      test_mse_original: 'Test MSE (original)', test_rmse: 'Test RMSE', recall_at_10: 'Recall@10', ndcg_at_10: 'NDCG@10' };
    const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((k) => k !== 'method');
    const best = {};
    for (const k of keys) {
      const vals = rows.map((r) => r[k]).filter((x) => typeof x === 'number');
      if (vals.length) best[k] = /recall|ndcg/.test(k) ? Math.max(...vals) : Math.min(...vals);
    }
    const cell = (k) => (r) => el('span', { class: r[k] === best[k] && /test|recall|ndcg/.test(k) ? 'best-val' : null }, fmt(r[k]));
    return table([{ label: 'Method', cell: (r) => el('strong', null, r.method) }, ...keys.map((k) => ({ label: label[k] || k, num: true, cell: cell(k) }))], rows, null, 'No metrics.');
  }

  // Returns a small row of labelled numbers.
  const statRow = (pairs) => el('div', { class: 'stats' },
    pairs.map(([k, v]) => el('div', { class: 'stat' }, el('div', { class: 'stat-v' }, v), el('div', { class: 'stat-k' }, k))));

  /* ---------------- gat report ---------------- */

  // Returns the colour for entity index i (stable across selections).
  const entityColor = (i) => PALETTE[i % PALETTE.length];

  // Returns the persistent selection state for a model, initialised to the first three entities.
  function selectionFor(rep) {
    let st = selections.get(rep.name);
    if (st) st.selected = new Set(rep.entities.filter((e) => st.selected.has(e)));
    if (!st || (!st.selected.size && !st.touched)) {
      st = { selected: new Set(rep.entities.slice(0, 3)), filter: '', touched: false };
      selections.set(rep.name, st);
    }
    return st;
  }

  // Returns the whole gat report: metrics, entity filter with truth plot, heatmap and graph, and the time table.
  function gatReport(rep) {
    const st = selectionFor(rep);
    const layout = forceLayout(rep.entities, rep.edges || []);
    const truthSlot = el('div', { class: 'plot-slot' }), tableSlot = el('div', { class: 'scroll tall' }), graphSlot = el('div', { class: 'plot-slot' });
    const heat = heatmap(rep), countEl = el('span', { class: 'muted' });
    // Redraws everything that depends on the selection.
    const redraw = () => {
      const sel = rep.entities.map((e, i) => ({ name: e, i })).filter((x) => st.selected.has(x.name));
      truthSlot.replaceChildren(truthPlot(rep, sel));
      tableSlot.replaceChildren(timeTable(rep, sel));
      graphSlot.replaceChildren(graphPlot(rep, layout, st.selected, toggle));
      heat.querySelectorAll('text[data-entity]').forEach((t) => t.classList.toggle('sel', st.selected.has(t.dataset.entity)));
      countEl.textContent = `${st.selected.size} of ${rep.entities.length} selected`;
      filterBox.querySelectorAll('input[type=checkbox]').forEach((cb) => { cb.checked = st.selected.has(cb.value); });
    };
    // Toggles one entity's selection and redraws.
    const toggle = (name) => { st.touched = true; st.selected[st.selected.has(name) ? 'delete' : 'add'](name); redraw(); };
    const filterBox = entityFilter(rep, st, toggle, redraw);
    const units = rep.units === 'original' ? 'original units' : 'model units';
    const note = rep.total_entities > rep.entities.length ? ` (showing ${rep.entities.length} of ${rep.total_entities})` : '';
    redraw();
    return el('div', { class: 'report' },
      el('div', { class: 'grid-2 top' },
        card('Metrics', metricsTable(rep.metrics || [])),
        card('Data', statRow([['entities', `${rep.total_entities}`], ['time steps', rep.times.length],
          ['training rows', rep.split], ['test rows', rep.times.length - rep.split],
          ['forecast steps', (rep.forecast && rep.forecast.times || []).length], ['window', rep.window]]))),
      el('div', { class: 'grid-side' },
        card('Entities' + note, filterBox, countEl, 'filter-card'),
        card(`Truth vs prediction (${units})`, [truthSlot, el('p', { class: 'hint' },
          'Solid: training rows · dashed: test rows · lighter, thinner line: one-step-ahead prediction · after the last time: forecast.')])),
      el('div', { class: 'grid-2' },
        card('Correlation over training rows', heat),
        card('Entity graph', [graphSlot, el('p', { class: 'hint' }, 'Edges: red positive, blue negative correlation; thicker is stronger. Click a node to select it.')])),
      card(`Values per time step (${units})`, tableSlot));
  }

  // Returns the entity filter: a text box narrowing a checkbox list, plus "All"/"None" for the visible entries.
  function entityFilter(rep, st, toggle, redraw) {
    const list = el('div', { class: 'entity-list' }, rep.entities.map((e, i) => el('label', { class: 'entity', 'data-entity': e, title: e },
      el('input', { type: 'checkbox', value: e, checked: st.selected.has(e), onchange: () => toggle(e) }),
      el('span', { class: 'swatch', style: `background:${entityColor(i)}` }), el('span', { class: 'ename' }, e))));
    // Hides the entries that do not contain the filter text (case-insensitive).
    const apply = () => {
      const q = st.filter.trim().toLowerCase();
      list.querySelectorAll('label.entity').forEach((l) => { l.hidden = !!q && !l.dataset.entity.toLowerCase().includes(q); });
    };
    // Selects (on) or clears (off) every visible entity.
    const setVisible = (on) => {
      st.touched = true;
      for (const l of list.querySelectorAll('label.entity:not([hidden])')) st.selected[on ? 'add' : 'delete'](l.dataset.entity);
      redraw();
    };
    const input = el('input', { type: 'search', class: 'filter', placeholder: 'Filter entities…', value: st.filter,
      'aria-label': 'Filter entities', oninput: (e) => { st.filter = e.target.value; apply(); } });
    apply();
    return el('div', { class: 'entity-filter' }, input,
      el('div', { class: 'buttons' }, el('button', { type: 'button', title: 'Select every entity the filter shows', onclick: () => setVisible(true) }, 'All'),
        el('button', { type: 'button', title: 'Clear every entity the filter shows', onclick: () => setVisible(false) }, 'None')), list);
  }

  // Returns [x,y] points of values[from..to) at x = index + offset.
  const pointsOf = (values, from, to, offset = 0) => values.slice(from, to).map((y, i) => [from + i + offset, y]);

  // Returns a series split at the train/test boundary: solid part [0, split) and dashed part [split-1, end).
  function splitParts(key, values, split, style) {
    const T = values.length, out = [];
    if (split > 0) out.push({ key, ...style, points: pointsOf(values, 0, Math.min(split, T)) });
    if (split < T) out.push({ key, ...style, dash: true, points: pointsOf(values, Math.max(0, split - 1), T) });
    return out;
  }

  // Returns the truth-vs-prediction plot of the selected entities, with forecast after the last time.
  function truthPlot(rep, sel) {
    const T = rep.times.length, fc = rep.forecast || { times: [], values: [] }, F = (fc.times || []).length;
    const labels = rep.times.concat(fc.times || []), series = [];
    for (const { name, i } of sel) {
      const color = entityColor(i), truth = rep.truth[i] || [], pred = (rep.prediction || [])[i] || [];
      series.push(...splitParts(`truth:${name}`, truth, rep.split, { color, width: 2.2 }));
      series.push(...splitParts(`prediction:${name}`, pred, rep.split, { color, width: 1.3, opacity: 0.5 }));
      const fv = (fc.values || [])[i] || [];
      if (F && fv.length) {
        const lastTruth = truth[T - 1] != null ? truth[T - 1] : pred[T - 1];
        series.push({ key: `forecast:${name}`, color, width: 2.2, dash: '3 3', points: [[T - 1, lastTruth], ...pointsOf(fv, 0, F, T)] });
      }
    }
    const step = Math.max(1, Math.ceil(labels.length / 10));
    const xTicks = labels.map((label, v) => ({ v, label })).filter((t) => t.v % step === 0);
    const legend = sel.slice(0, 16).map(({ name, i }) => ({ label: name.length > 24 ? name.slice(0, 23) + '…' : name, color: entityColor(i) }));
    if (sel.length > 16) legend.push({ label: `+${sel.length - 16} more`, color: '#9ca3af' });
    const shade = [{ from: rep.split - 0.5, to: T - 0.5, label: 'test' }];
    if (F) shade.push({ from: T - 0.5, to: T - 1 + F, label: 'forecast' });
    return lineChart({ plot: 'truth', title: 'truth vs prediction', width: 940, height: 400, xDomain: [0, Math.max(1, T - 1 + F)], xTicks,
      xLabel: 'time', yLabel: rep.units === 'original' ? 'value (original units)' : 'value (model units)', series, legend, shade,
      vlines: [rep.split > 0 && rep.split < T && { x: rep.split - 0.5, label: 'split' }, F && { x: T - 0.5, label: 'forecast' }].filter(Boolean),
      emptyText: sel.length ? null : 'Select entities on the left to plot them' });
  }

  // Returns the table with one row per time step (and forecast step): truth and prediction per selected entity.
  function timeTable(rep, sel) {
    const T = rep.times.length, fc = rep.forecast || { times: [], values: [] };
    const head = el('thead', null,
      el('tr', null, el('th', { rowspan: 2 }, 'Time'), el('th', { rowspan: 2 }, 'Rows'),
        sel.map(({ name, i }) => el('th', { colspan: 2, class: 'ent-head', style: `border-bottom-color:${entityColor(i)}` }, name))),
      el('tr', { class: 'sub' }, sel.map(() => [el('th', { class: 'num' }, 'truth'), el('th', { class: 'num' }, 'prediction')])));
    const rows = [];
    for (let t = 0; t < T; t++) {
      const phase = t < rep.split ? 'train' : 'test';
      rows.push(el('tr', { class: `row-${phase}` }, el('td', null, rep.times[t]), el('td', null, el('span', { class: `tag ${phase}` }, phase)),
        sel.map(({ i }) => [el('td', { class: 'num' }, fmt((rep.truth[i] || [])[t])), el('td', { class: 'num pred' }, fmt(((rep.prediction || [])[i] || [])[t]))])));
    }
    (fc.times || []).forEach((time, f) => rows.push(el('tr', { class: 'row-forecast' }, el('td', null, time),
      el('td', null, el('span', { class: 'tag forecast' }, 'forecast')),
      sel.map(({ i }) => [el('td', { class: 'num' }, ''), el('td', { class: 'num pred' }, fmt(((fc.values || [])[i] || [])[f]))]))));
    return el('table', { class: 'time-table' }, head, el('tbody', null, rows));
  }

  // Returns the diverging colour for r: blue at -1, white at 0, red at +1; grey when missing.
  function divergingColor(r) {
    if (r == null || !Number.isFinite(r)) return '#d1d5db';
    const t = Math.max(-1, Math.min(1, r)), c = t < 0 ? [33, 102, 172] : [178, 24, 43], a = Math.abs(t);
    const mix = (k) => Math.round(255 + (c[k] - 255) * a);
    return `rgb(${mix(0)},${mix(1)},${mix(2)})`;
  }

  // Returns a label cut to n characters with an ellipsis.
  const short = (s, n) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

  // Returns the correlation heatmap: one rect.cell per entity pair with a "A × B: r" title, labels and a colour key.
  function heatmap(rep) {
    const ents = rep.entities, n = ents.length, C = rep.correlation || [];
    const cs = Math.max(6, Math.min(30, Math.floor(420 / Math.max(1, n)))), fs = Math.max(6, Math.min(11, cs * 0.8));
    const lab = Math.min(150, 14 + fs * 0.58 * Math.min(22, Math.max(...ents.map((e) => e.length), 1)));
    const W = lab + n * cs + 16, H = lab + n * cs + 56;
    const root = sv('svg', { class: 'plot heatmap', 'data-plot': 'heatmap', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'correlation heatmap' });
    const cells = sv('g', { transform: `translate(${lab} ${lab})` });
    for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) {
      const r = (C[a] || [])[b], tip = `${ents[a]} × ${ents[b]}: ${r == null ? 'n/a' : r.toFixed(2)}`;
      cells.append(sv('rect', { class: 'cell', x: b * cs, y: a * cs, width: cs, height: cs, fill: divergingColor(r), title: tip }, sv('title', null, tip)));
    }
    root.append(cells);
    ents.forEach((e, i) => {
      const c = lab + i * cs + cs / 2;
      root.append(sv('text', { class: 'hm-label', 'data-entity': e, x: lab - 5, y: c + fs * 0.35, 'text-anchor': 'end', 'font-size': fs }, short(e, 22), sv('title', null, e)),
        sv('text', { class: 'hm-label', 'data-entity': e, transform: `translate(${c + fs * 0.35} ${lab - 5}) rotate(-90)`, 'font-size': fs }, short(e, 22), sv('title', null, e)));
    });
    const ky = lab + n * cs + 20, kw = Math.min(240, n * cs), kx = lab + (n * cs - kw) / 2;
    const grad = sv('linearGradient', { id: 'hm-grad' }, [-1, -0.5, 0, 0.5, 1].map((v) => sv('stop', { offset: `${(v + 1) * 50}%`, 'stop-color': divergingColor(v) })));
    root.append(sv('defs', null, grad), sv('rect', { x: kx, y: ky, width: kw, height: 10, fill: 'url(#hm-grad)', stroke: '#d1d5db' }),
      ...[-1, 0, 1].map((v) => sv('text', { class: 'key-label', x: kx + ((v + 1) / 2) * kw, y: ky + 24, 'text-anchor': 'middle' }, v === 0 ? '0' : v > 0 ? '+1' : '−1')));
    return root;
  }

  // Returns a deterministic PRNG in [0,1) from an integer seed (mulberry32).
  function seededRandom(seed) {
    let s = seed >>> 0;
    return () => {
      s = (s + 0x6d2b79f5) >>> 0;
      let t = Math.imul(s ^ (s >>> 15), s | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  // Returns a 32-bit FNV-1a hash of a string.
  function hashString(s) {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h >>> 0;
  }

  // Returns deterministic positions in [0,1]² for the entities: repulsion, weighted springs, gravity; seeded by their names.
  function forceLayout(ents, edges) {
    const n = ents.length, rnd = seededRandom(hashString(ents.join('\u0000')));
    if (n < 2) return n ? [[0.5, 0.5]] : [];
    const ring = (i, f) => 0.5 + 0.3 * f((2 * Math.PI * i) / n) + (rnd() - 0.5) * 0.1;
    const pos = ents.map((_, i) => [ring(i, Math.cos), ring(i, Math.sin)]);
    const k = 0.9 / Math.sqrt(n), links = edges.filter((e) => e.source !== e.target && pos[e.source] && pos[e.target]);
    let temp = 0.06;
    for (let it = 0; it < 400; it++) {
      const f = pos.map(([x, y]) => [(0.5 - x) * 1.2, (0.5 - y) * 1.2]);
      for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) {
        const dx = pos[a][0] - pos[b][0], dy = pos[a][1] - pos[b][1], d2 = Math.max(1e-6, dx * dx + dy * dy), r = (k * k * 0.2) / d2;
        f[a][0] += dx * r; f[a][1] += dy * r; f[b][0] -= dx * r; f[b][1] -= dy * r;
      }
      for (const e of links) {
        const s = pos[e.source], t = pos[e.target], w = Math.min(1, Math.abs(e.weight || 0));
        const dx = t[0] - s[0], dy = t[1] - s[1], d = Math.max(1e-6, Math.hypot(dx, dy)), pull = (d - k * (1.2 - w * 0.6)) * w * 2 / d;
        f[e.source][0] += dx * pull; f[e.source][1] += dy * pull; f[e.target][0] -= dx * pull; f[e.target][1] -= dy * pull;
      }
      pos.forEach((p, i) => {
        const len = Math.hypot(f[i][0], f[i][1]), step = Math.min(len * 0.1, temp) / Math.max(len, 1e-9);
        p[0] += f[i][0] * step; p[1] += f[i][1] * step;
      });
      temp = Math.max(0.001, temp * 0.99);
    }
    const xs = pos.map((p) => p[0]), ys = pos.map((p) => p[1]);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    return pos.map(([x, y]) => [x1 > x0 ? (x - x0) / (x1 - x0) : 0.5, y1 > y0 ? (y - y0) / (y1 - y0) : 0.5]);
  }

  // Returns the entity graph: edges as line.edge (width/opacity by |weight|, colour by sign), nodes as circle.node.
  function graphPlot(rep, layout, selected, onToggle) {
    const W = 640, H = 480, pad = { l: 130, r: 130, t: 20, b: 20 }, ents = rep.entities;
    const X = (i) => pad.l + layout[i][0] * (W - pad.l - pad.r), Y = (i) => pad.t + layout[i][1] * (H - pad.t - pad.b);
    const root = sv('svg', { class: 'plot graph', 'data-plot': 'graph', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'entity graph' });
    const anySel = selected.size > 0, edges = sv('g', { class: 'edges' });
    for (const e of rep.edges || []) {
      if (!layout[e.source] || !layout[e.target] || e.source === e.target) continue;
      const w = Math.abs(e.weight || 0), touch = selected.has(ents[e.source]) || selected.has(ents[e.target]);
      edges.append(sv('line', { class: 'edge', x1: X(e.source).toFixed(1), y1: Y(e.source).toFixed(1), x2: X(e.target).toFixed(1), y2: Y(e.target).toFixed(1),
        stroke: (e.weight || 0) >= 0 ? '#b2182b' : '#2166ac', 'stroke-width': (0.6 + 4 * w * w).toFixed(2),
        'stroke-opacity': ((0.12 + 0.6 * w) * (anySel && !touch ? 0.45 : 1)).toFixed(2) },
      sv('title', null, `${ents[e.source]} — ${ents[e.target]}: ${fmt(e.weight, 3)}`)));
    }
    root.append(edges);
    const nodes = sv('g', { class: 'nodes' }), showAll = ents.length <= 30, boxes = ents.map((_, i) => [X(i) - 6, Y(i) - 6, 12, 12]);
    const order = ents.map((_, i) => i).sort((a, b) => selected.has(ents[b]) - selected.has(ents[a]));
    for (const i of order) {
      const name = ents[i], on = selected.has(name), x = X(i), y = Y(i);
      const g = sv('g', { class: on ? 'gnode sel' : 'gnode', onclick: () => onToggle(name) },
        sv('circle', { class: 'node', 'data-entity': name, cx: x.toFixed(1), cy: y.toFixed(1), r: on ? 8 : 5.5,
          fill: on ? entityColor(i) : '#9ca3af', stroke: '#fff', 'stroke-width': 1.5 }, sv('title', null, name)));
      if (on || showAll) g.append(graphLabel(short(name, on ? 28 : 20), x, y, layout[i][0] >= 0.5, boxes));
      nodes.append(g);
    }
    root.append(nodes);
    return root;
  }

  // Returns a node label beside (x,y) placed where it overlaps no box in boxes (tried: outer side, inner side, below, above); adds its box.
  function graphLabel(text, x, y, outerRight, boxes) {
    const w = textWidth(text, 11), hit = (b) => boxes.some((o) => b[0] < o[0] + o[2] && o[0] < b[0] + b[2] && b[1] < o[1] + o[3] && o[1] < b[1] + b[3]);
    const right = [x + 10, y - 6, w, 12, 'start', x + 10, y + 4], left = [x - 10 - w, y - 6, w, 12, 'end', x - 10, y + 4];
    const cands = (outerRight ? [right, left] : [left, right]).concat([[x - w / 2, y + 8, w, 12, 'middle', x, y + 18], [x - w / 2, y - 20, w, 12, 'middle', x, y - 10]]);
    const c = cands.find((b) => !hit(b)) || cands[0];
    boxes.push(c.slice(0, 4));
    return sv('text', { x: c[5].toFixed(1), y: c[6].toFixed(1), 'text-anchor': c[4] }, text);
  }

  /* ---------------- recommender report ---------------- */

  // Returns {node, pending}: the recommender report (metrics, data counts, recommend form) and the promise of the route's recommendation.
  function recommenderReport(rep, route) {
    const form = recommendForm(rep, route);
    const node = el('div', { class: 'report' },
      el('div', { class: 'grid-2 top' },
        card('Metrics', metricsTable(rep.metrics || [])),
        card('Data', statRow([['users', fmt(rep.users)], ['items', fmt(rep.items)], ['ratings', fmt(rep.ratings)], ['test ratings', fmt(rep.test_ratings)]]))),
      card('Recommend', form.nodes));
    return { node, pending: form.pending };
  }

  // Returns {nodes, pending}: the form asking api/models/NAME/recommend for a user's top k (results in tr.rec rows or a
  // div.error), submitted at once when the route's query names a user; pending is that answer's promise (or null).
  function recommendForm(rep, route) {
    const q = route.query || {};
    const examples = rep.example_users || [];
    const user = el('input', { type: 'text', name: 'user', required: true, autocomplete: 'off', 'aria-label': 'user id',
      placeholder: examples.length ? `user id, e.g. ${examples[0]}` : 'user id' });
    if (q.user) user.value = q.user;
    const k = el('input', { type: 'number', name: 'k', min: 1, max: 1000, value: q.k || 10, 'aria-label': 'k', class: 'k' });
    const out = el('div', { class: 'rec-out' });
    let seq = 0;
    // Fetches recommendations for the form's user and shows them (only the latest answer is shown).
    const submit = async (ev) => {
      if (ev && ev.preventDefault) ev.preventDefault();
      const id = user.value.trim();
      if (!id) { out.replaceChildren(errorBox('Enter a user id.')); return; }
      const mine = ++seq;
      if (ev !== 'route') history.replaceState(null, '', `${route.hash.split('?')[0]}?${new URLSearchParams({ user: id, k: k.value || 10 })}`);
      out.replaceChildren(el('div', { class: 'loading' }, 'Asking the model…'));
      try {
        const res = await api(withQuery(`api/models/${encodeURIComponent(rep.name)}/recommend`, { user: id, k: k.value || 10, version: rep.version }));
        if (mine !== seq) return;
        const cols = [{ label: 'Rank', num: true, cell: (r) => r.rank }, { label: 'Item', cell: (r) => String(r.item) },
          { label: 'Score', num: true, cell: (r) => fmt(r.score) }];
        const t = table(cols, res.items || [], () => ({ class: 'rec' }), 'No items to recommend.');
        out.replaceChildren(el('p', { class: 'muted' }, `Top ${(res.items || []).length} for user ${res.user} from ${res.model}`), t);
      } catch (e) {
        if (mine === seq) out.replaceChildren(errorBox(e.message));
      }
    };
    const chips = examples.length ? el('div', { class: 'chips' }, el('span', { class: 'muted' }, 'Examples:'),
      examples.map((u) => el('button', { type: 'button', class: 'chip', onclick: () => { user.value = String(u); submit(); } }, String(u)))) : null;
    const form = el('form', { class: 'rec-form', onsubmit: submit },
      el('label', null, 'User ', user), el('label', null, 'k ', k), el('button', { type: 'submit', class: 'primary' }, 'Recommend'));
    return { nodes: [form, chips, out], pending: q.user ? submit('route') : null };
  }

  /* ---------------- not found and start-up ---------------- */

  // The view of an unknown hash: needs no data and points back to the overview.
  const notFound = { load: async () => null, render: (root) => root.replaceChildren(el('div', { class: 'notice' }, 'No such page. ', el('a', { href: '#/' }, 'Back to the overview.'))) };

  const VIEWS = { overview, run: runView, model: modelView, notfound: notFound };

  // Boots the page: routes on hash changes and subscribes to live updates.
  function start() {
    window.addEventListener('hashchange', navigate);
    navigate();
    connectEvents();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
