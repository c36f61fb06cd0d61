'use strict';
// Mallard dashboard library: constants, DOM helpers, formatting, the API helpers, scales and charts.
// Publishes window.Mallard.lib, the dashboard's only global; reports.js and app.js take what they use from it.
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

  // Returns a log10 scale mapping domain [d0,d1] (both > 0) to range [r0,r1], with .ticks(n): powers of ten, and
  // 2× and 5× them when the domain spans under two decades, or round linear ticks when those are fewer than three.
  // Values ≤ 0 map to NaN, which breaks a line.
  function logScale(d0, d1, r0, r1) {
    const l0 = Math.log10(d0), l1 = Math.log10(d1), k = l1 === l0 ? 0 : (r1 - r0) / (l1 - l0);
    const f = (v) => (v > 0 ? r0 + (Math.log10(v) - l0) * k : NaN);
    f.ticks = () => {
      const out = [], steps = l1 - l0 < 2 ? [1, 2, 5] : [1];
      for (let e = Math.floor(l0); e <= Math.ceil(l1); e++) {
        for (const m of steps) { const v = Number((m * 10 ** e).toPrecision(12)); if (v >= d0 && v <= d1) out.push(v); }
      }
      return out.length >= 3 ? out : niceTicks(d0, d1, 5).filter((v) => v > 0);
    };
    return f;
  }

  // Returns [lo, hi] spanning the positive finite values with a margin of a tenth of a decade; [0.1, 1] without any.
  function logExtent(values) {
    const vs = values.filter((v) => typeof v === 'number' && Number.isFinite(v) && v > 0);
    if (!vs.length) return [0.1, 1];
    return [Math.min(...vs) / 1.26, Math.max(...vs) * 1.26];
  }

  // Reports whether the positive finite values span more than a decade (max/min > 10), when a log scale reads better.
  function spansDecade(values) {
    const vs = values.filter((v) => typeof v === 'number' && Number.isFinite(v) && v > 0);
    return vs.length > 1 && Math.max(...vs) / Math.min(...vs) > 10;
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
      const ok = y != null && Number.isFinite(ys(y));
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

  /* Returns a line chart <svg class="plot" data-plot=NAME data-yscale=...>. o: {plot, title, width, height, xDomain, xLabel, yLabel,
     yLog, yScaleName, xTicks: [{v,label}] | null, series: [{key, color, width, opacity, dash, points:[[x,y]]}],
     hlines: [{key, y, color, label}] | null, vlines: [{x, label}], shade: [{from, to, label}], legend: [{label, color, dash}],
     dots, emptyText}. With yLog the y axis is log10 and values ≤ 0 are left out. */
  function lineChart(o) {
    const W = o.width || 1200, H = o.height || 360, lg = legendRows(o.legend || [], W - 140, 70, 14);
    const m = { l: 70, r: o.hlines ? hlineMargin(o.hlines) : 24, t: 22 + lg.height, b: 50 };
    const ys0 = o.series.flatMap((s) => s.points.map((p) => p[1])).concat(nearLines(o));
    const [y0, y1] = o.yLog ? logExtent(ys0) : extent(ys0);
    const c = { W, H, m, y0, y1, xs: scale(o.xDomain[0], o.xDomain[1], m.l, W - m.r), ys: (o.yLog ? logScale : scale)(y0, y1, H - m.b, m.t) };
    const root = sv('svg', { class: 'plot', 'data-plot': o.plot, 'data-yscale': o.yScaleName || (o.yLog ? 'log' : 'linear'),
      viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': o.title || o.plot },
      sv('defs', null, sv('clipPath', { id: `clip-${o.plot}` }, sv('rect', { x: m.l, y: m.t - 2, width: W - m.l - m.r, height: H - m.t - m.b + 4 }))));
    chartFrame(root, c, o);
    chartLines(root, c, o);
    if (o.emptyText) root.append(sv('text', { class: 'empty-plot', x: (m.l + W - m.r) / 2, y: (m.t + H - m.b) / 2, 'text-anchor': 'middle' }, o.emptyText));
    root.append(lg.node);
    return root;
  }

  // Returns the right margin that fits the horizontal lines' labels, an off-scale value included (at most 240).
  const hlineMargin = (hlines) => Math.min(240, Math.max(120, ...hlines.map((h) => textWidth(`${h.label} ↑ ${fmt(h.y, 3)}`, 11.5) + 14)));

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
      if (h.y == null || !Number.isFinite(ys(h.y))) continue;
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
      if (o.dots) for (const [x, y] of s.points.filter((p) => p[1] != null && Number.isFinite(ys(p[1])))) {
        lines.append(sv('circle', { class: 'dot', cx: xs(x).toFixed(1), cy: ys(y).toFixed(1), r: 2.6, fill: s.color }, sv('title', null, `${s.label || s.key} @ ${x}: ${fmt(y)}`)));
      }
    }
    root.append(lines);
    spreadLabels(labels, m.t, H - m.b, 13);
    for (const l of labels) root.append(sv('text', { class: 'hline-label', x: W - m.r + 6, y: l.y + 4, fill: l.color }, l.text));
  }

  // Moves labels {y} apart so that no two are closer than gap, keeping them within [top, bottom] while they fit:
  // pushed down from the top, then back up from the bottom.
  function spreadLabels(labels, top, bottom, gap) {
    labels.sort((a, b) => a.y - b.y);
    labels.forEach((l, i) => { l.y = Math.max(l.y, top, i ? labels[i - 1].y + gap : top); });
    for (let i = labels.length - 1; i >= 0; i--) {
      const limit = i === labels.length - 1 ? bottom : labels[i + 1].y - gap;
      if (labels[i].y > limit) labels[i].y = limit;
    }
  }

  window.Mallard = {
    lib: Object.freeze({
      PALETTE, LOSS_COLORS, BASELINE_COLORS,
      el, sv, card, errorBox,
      fmt, fmtTime, fmtDuration, timeEl, badge, progressBar, modelLink, table,
      ApiError, api, withQuery,
      textWidth, lineChart, spansDecade,
    }),
  };
})();
