'use strict';
// Mallard dashboard library: constants, DOM helpers, formatting, the API helpers and line charts (drawn by uPlot,
// static/vendor/uplot, loaded before this file). Publishes window.Mallard.lib, the dashboard's only global besides
// uPlot; reports.js and app.js take what they use from it.
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
    const text = version != null ? `${name}@${version}` : name;
    return el('a', { href, class: 'model-link', title: text }, text);
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

  /* ---------------- line charts ---------------- */

  // The line charts are drawn by uPlot (static/vendor/uplot, loaded before this file): its scales, ticks, axes, log
  // scale, legend and cursor. Mallard adds the baselines' labels beside the plot, spread so that none overlaps
  // another; shaded regions and marked times; and, for screen readers, a list of the series that says where each
  // one was drawn (li[data-series] with data-top and data-bottom, in CSS pixels from the top of the plotting area).

  const charts = new Set(); // {node, u, observer, attached}: the charts made, until they have left the page

  // Destroys the charts that were on the page and no longer are (a view redraws by replacing its nodes), which
  // frees what uPlot holds: its listeners on the window, its canvas.
  function sweepCharts() {
    for (const c of charts) {
      if (c.attached && !c.node.isConnected) { c.observer.disconnect(); c.u.destroy(); charts.delete(c); }
    }
  }

  // Returns the finite numbers among values.
  const finite = (values) => values.filter((v) => typeof v === 'number' && Number.isFinite(v));

  // Returns [lo, hi] spanning the positive finite values with a margin of a tenth of a decade; [0.1, 1] without any.
  function logExtent(values) {
    const vs = finite(values).filter((v) => v > 0);
    if (!vs.length) return [0.1, 1];
    return [Math.min(...vs) / 1.26, Math.max(...vs) * 1.26];
  }

  // Reports whether the positive finite values span more than a decade (max/min > 10), when a log scale reads better.
  function spansDecade(values) {
    const vs = finite(values).filter((v) => v > 0);
    return vs.length > 1 && Math.max(...vs) / Math.min(...vs) > 10;
  }

  // Returns [lo, hi] spanning the finite values with 5% padding (from 0 when that is close); [0, 1] without values.
  function extent(values) {
    const vs = finite(values);
    if (!vs.length) return [0, 1];
    const lo = Math.min(...vs), hi = Math.max(...vs);
    if (lo === hi) { const d = Math.abs(lo) * 0.1 || 1; return [lo - d, hi + d]; }
    const pad = (hi - lo) * 0.05;
    return [lo >= 0 && lo - pad < 0 ? 0 : lo - pad, hi + pad];
  }

  // Returns round tick values (about n of them) covering [lo, hi].
  function niceTicks(lo, hi, n) {
    const span = hi - lo;
    if (!(span > 0)) return [lo];
    const raw = span / n, mag = 10 ** Math.floor(Math.log10(raw)), f = raw / mag;
    const step = (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag, out = [];
    for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
    return out;
  }

  // Returns the ticks of a log scale over [lo, hi]: powers of ten, with 2×, 3× and 5× them over two decades or less
  // (2× and 5× over four or less); round linear ticks when those are fewer than three, as on a range within a decade.
  function logTicks(lo, hi) {
    const e0 = Math.floor(Math.log10(lo)), e1 = Math.ceil(Math.log10(hi)), out = [];
    const steps = e1 - e0 <= 2 ? [1, 2, 3, 5] : e1 - e0 <= 4 ? [1, 2, 5] : [1];
    for (let e = e0; e <= e1; e++) {
      for (const m of steps) { const v = Number((m * 10 ** e).toPrecision(12)); if (v >= lo && v <= hi) out.push(v); }
    }
    return out.length >= 3 ? out : niceTicks(lo, hi, 5).filter((v) => v > 0);
  }

  // Returns the approximate rendered width of a label at the given font size.
  const textWidth = (s, size = 12) => String(s).length * size * 0.55;

  // Returns the y values of the horizontal lines to fit on the scale: all of them without data, else those near the data.
  function nearLines(ys, hlines) {
    const hs = finite(hlines.map((h) => h.y));
    if (!ys.length) return hs;
    const lo = Math.min(...ys), hi = Math.max(...ys), span = hi - lo || Math.abs(hi) * 0.1 || 1;
    return hs.filter((y) => y >= lo - 2 * span && y <= hi + 2 * span);
  }

  // Returns uPlot's data: the x values of every point (the x domain's ends among them), then each series' y values
  // aligned with them, null where it has none and, on a log scale, where y ≤ 0 (a log scale cannot place them).
  function alignSeries(series, xDomain, log) {
    const xs = [...new Set(series.flatMap((s) => s.points.map((p) => p[0])).concat(xDomain))].sort((a, b) => a - b);
    const at = new Map(xs.map((x, i) => [x, i]));
    return [xs, ...series.map((s) => {
      const ys = new Array(xs.length).fill(null);
      for (const [x, y] of s.points) if (typeof y === 'number' && Number.isFinite(y) && (!log || y > 0)) ys[at.get(x)] = y;
      return ys;
    })];
  }

  // Returns a #rrggbb colour at opacity as rgba(); other colours, or no opacity, as they are.
  function withOpacity(color, opacity) {
    if (opacity == null || !/^#[0-9a-f]{6}$/i.test(color)) return color;
    const n = parseInt(color.slice(1), 16);
    return `rgba(${n >> 16},${(n >> 8) & 255},${n & 255},${opacity})`;
  }

  // Returns a series' dash as uPlot takes it: true is 6 on 4 off, a string "a b" is [a, b].
  const dashOf = (dash) => (dash === true ? [6, 4] : typeof dash === 'string' ? dash.split(/\s+/).map(Number) : dash || undefined);

  // Whole steps for axes whose values are epochs or time indexes.
  const WHOLE_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000];

  const AXIS_FONT = '12px system-ui, sans-serif', LABEL_FONT = '600 12px system-ui, sans-serif';

  /* Returns a line chart drawn by uPlot, in <div class="plot chart" data-plot=NAME data-yscale=...>. o: {plot, title,
     width, height, xDomain, xLabel, yLabel, yLog, yScaleName, xTick(v) -> label, series: [{key, label, color, width,
     opacity, dash, points: [[x, y]]}], hlines: [{key, y, color, label, legend}], vlines: [{x, label}],
     shade: [{from, to, label}], key: [{label, color, ring}] (a legend of its own instead of uPlot's), dots, emptyText,
     marks: [{x, y, lo, hi, color, title, attrs}] (points ringed over the series, see placeMarks)}.
     The horizontal lines are dashed series across the chart, labelled at its right edge; those far from the data
     are left off the scale and labelled at its edge with an arrow and their value. With yLog the y axis is log10. */
  function lineChart(o) {
    sweepCharts();
    const log = !!o.yLog, H = o.height || 360;
    const ys = finite(o.series.flatMap((s) => s.points.map((p) => p[1]))).filter((v) => !log || v > 0);
    const hlines = (o.hlines || []).filter((h) => finite([h.y]).length && (!log || h.y > 0));
    const [y0, y1] = (log ? logExtent : extent)(ys.concat(nearLines(ys, hlines)));
    const lines = o.series.concat(hlines.map((h) => ({ key: h.key, label: h.legend || h.label, color: h.color, width: 1.5,
      dash: true, across: true, points: [[o.xDomain[0], h.y], [o.xDomain[1], h.y]] })));
    const right = hlines.length ? Math.min(240, Math.max(110, ...hlines.map((h) => textWidth(`${h.label} ↑ ${fmt(h.y, 3)}`, 11.5) + 14))) : 16;
    const node = el('div', { class: 'plot chart', 'data-plot': o.plot, 'data-yscale': o.yScaleName || (log ? 'log' : 'linear'),
      role: 'figure', 'aria-label': o.title || o.plot });
    const list = el('ul', { class: 'sr-only plot-series', 'data-xmax': o.xDomain ? o.xDomain[1] : null }, lines.map((s) => el('li', { 'data-series': s.key }, s.label || s.key)));
    const labels = el('div', { class: 'hline-labels' }), marks = el('div', { class: 'marks' });
    const opts = {
      width: o.width || 1200, height: H, padding: [14, right, 0, 0],
      cursor: { drag: { x: false, y: false } },
      legend: { show: !o.key },
      scales: { x: { time: false, range: () => o.xDomain }, y: log ? { distr: 3, log: 10, range: () => [y0, y1] } : { range: () => [y0, y1] } },
      axes: [
        { label: o.xLabel, font: AXIS_FONT, labelFont: LABEL_FONT, stroke: '#4b5563', incrs: WHOLE_STEPS, grid: { stroke: '#eef0f3' },
          space: o.xTick ? Math.max(50, ...o.series.flatMap((s) => s.points.map((p) => textWidth(o.xTick(p[0]) || '') + 16))) : 50,
          values: (u, splits) => splits.map((v) => (o.xTick ? o.xTick(v) : String(v))) },
        { label: o.yLabel, font: AXIS_FONT, labelFont: LABEL_FONT, stroke: '#4b5563', size: 64, grid: { stroke: '#eef0f3' },
          ...(log ? { splits: () => logTicks(y0, y1), filter: (u, splits) => splits } : {}),
          values: (u, splits) => splits.map((v) => (v == null ? null : fmt(v, 3))) },
      ],
      series: [{ label: o.xLabel }, ...lines.map((s) => ({ label: s.label || s.key, stroke: withOpacity(s.color, s.opacity), width: s.width || 2,
        dash: dashOf(s.dash), spanGaps: !!s.across, points: { show: !!o.dots && !s.across, size: 5 } }))],
      hooks: { drawClear: [(u) => drawShade(u, o.shade || [])], draw: [(u) => afterDraw(u, o, hlines, { y0, y1, node, list, labels, marks })] },
    };
    const u = new uPlot(opts, alignSeries(lines, o.xDomain, log), node);
    node.dataset.yscale = o.yScaleName || (u.scales.y.distr === 3 ? 'log' : 'linear');
    u.root.querySelector('.u-wrap').append(labels);
    u.over.append(marks);
    if (o.emptyText) u.over.append(el('div', { class: 'empty-plot' }, o.emptyText));
    node.append(list);
    if (o.key) node.prepend(chartKey(o.key));
    const c = { node, u, attached: false };
    c.observer = new ResizeObserver(() => {
      c.attached = true;
      const w = Math.floor(node.clientWidth);
      if (w > 0 && w !== u.width) u.setSize({ width: w, height: H });
    });
    c.observer.observe(node);
    charts.add(c);
    return node;
  }

  // Returns a row of coloured swatches and labels, the legend of a chart with too many series for uPlot's.
  const chartKey = (items) => el('div', { class: 'chart-key' },
    items.map((it) => el('span', { class: 'key-item' + (it.ring ? ' key-ring' : '') },
      el('span', { class: it.ring ? 'swatch ring' : 'swatch', style: it.ring ? `border-color:${it.color}` : `background:${it.color}` }), it.label)));

  // Returns the plotting area of u in CSS pixels.
  function plotBox(u) {
    const r = uPlot.pxRatio, b = u.bbox;
    return { left: b.left / r, top: b.top / r, width: b.width / r, height: b.height / r };
  }

  // Shades the regions [from, to] of the x axis, under the grid and the series.
  function drawShade(u, shade) {
    const { ctx, bbox } = u;
    ctx.save();
    for (const s of shade) {
      const a = Math.max(bbox.left, u.valToPos(s.from, 'x', true)), b = Math.min(bbox.left + bbox.width, u.valToPos(s.to, 'x', true));
      ctx.fillStyle = s.label === 'forecast' ? '#f5f3ff' : '#f3f4f6';
      if (b > a) ctx.fillRect(a, bbox.top, b - a, bbox.height);
    }
    ctx.restore();
  }

  // Draws what goes over the series (marked times, shade labels), places the baselines' labels and updates the
  // list of series with where each was drawn.
  function afterDraw(u, o, hlines, { y0, y1, node, list, labels, marks }) {
    const { ctx, bbox } = u, r = uPlot.pxRatio;
    ctx.save();
    ctx.font = `${11 * r}px system-ui, sans-serif`;
    for (const s of o.shade || []) {
      const a = u.valToPos(s.from, 'x', true), b = u.valToPos(s.to, 'x', true);
      ctx.fillStyle = '#9ca3af';
      ctx.textAlign = 'center';
      if (b - a > (textWidth(s.label, 11) + 8) * r) ctx.fillText(s.label.toUpperCase(), (a + b) / 2, bbox.top + 14 * r);
    }
    for (const v of o.vlines || []) {
      const x = Math.round(u.valToPos(v.x, 'x', true));
      ctx.strokeStyle = '#374151';
      ctx.lineWidth = 1.2 * r;
      ctx.setLineDash([2 * r, 3 * r]);
      ctx.beginPath(); ctx.moveTo(x, bbox.top); ctx.lineTo(x, bbox.top + bbox.height); ctx.stroke();
      ctx.fillStyle = '#374151';
      ctx.textAlign = 'left';
      ctx.fillText(v.label, x + 4 * r, bbox.top + bbox.height - 6 * r);
    }
    ctx.restore();
    const box = plotBox(u);
    placeLabels(u, hlines, y0, y1, box, labels);
    placeMarks(u, o.marks || [], marks);
    u.data.slice(1).forEach((ys, i) => {
      const vs = finite(ys), li = list.children[i];
      if (!vs.length || !li) return;
      li.dataset.top = u.valToPos(Math.max(...vs), 'y').toFixed(1);
      li.dataset.bottom = u.valToPos(Math.min(...vs), 'y').toFixed(1);
    });
    node.dataset.drawn = String(Number(node.dataset.drawn || 0) + 1);
  }

  // Places the baselines' labels at the right edge of the plotting area, each at its line's height, spread 13 px
  // apart within the area; a line off the scale is labelled at the edge it lies beyond, with an arrow and its value.
  // Each label's data-y is its centre in CSS pixels from the top of the area, whose height the container's data-height says.
  function placeLabels(u, hlines, y0, y1, box, labels) {
    const ls = hlines.map((h) => {
      const off = h.y > y1 ? '↑' : h.y < y0 ? '↓' : '';
      return { y: off === '↑' ? 0 : off ? box.height : u.valToPos(h.y, 'y'), text: off ? `${h.label} ${off} ${fmt(h.y, 3)}` : h.label, color: h.color };
    });
    spreadLabels(ls, 0, box.height, 13);
    labels.dataset.height = box.height.toFixed(1);
    labels.replaceChildren(...ls.map((l) => el('div', { class: 'hline-label', 'data-y': l.y.toFixed(1),
      style: `left:${(box.left + box.width + 6).toFixed(1)}px;top:${(box.top + l.y).toFixed(1)}px;color:${l.color}` }, l.text)));
  }

  // Rings each mark at its point, with a whisker over its interval [lo, hi] when it has one, both clipped to the
  // plotting area, and lays over each a span.mark that holds its title (the tooltip) and its attrs, with data-x and
  // data-y saying where it was drawn, in CSS pixels from the top left of the plotting area.
  function placeMarks(u, marks, layer) {
    const { ctx, bbox } = u, r = uPlot.pxRatio;
    ctx.save();
    ctx.beginPath(); ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height); ctx.clip();
    for (const m of marks) {
      const x = u.valToPos(m.x, 'x', true), y = u.valToPos(m.y, 'y', true);
      ctx.strokeStyle = m.color || '#111827';
      if (m.lo != null && m.hi != null) {
        const a = u.valToPos(m.lo, 'y', true), b = u.valToPos(m.hi, 'y', true), w = 4 * r;
        ctx.lineWidth = 1.2 * r; ctx.setLineDash([]);
        ctx.beginPath(); ctx.moveTo(x, a); ctx.lineTo(x, b); ctx.moveTo(x - w, a); ctx.lineTo(x + w, a); ctx.moveTo(x - w, b); ctx.lineTo(x + w, b); ctx.stroke();
      }
      ctx.beginPath(); ctx.arc(x, y, 6 * r, 0, 2 * Math.PI);
      ctx.fillStyle = 'rgba(255,255,255,0.6)'; ctx.fill();
      ctx.lineWidth = 2.5 * r; ctx.stroke();
    }
    ctx.restore();
    layer.replaceChildren(...marks.map((m) => {
      const x = u.valToPos(m.x, 'x'), y = u.valToPos(m.y, 'y');
      return el('span', { class: 'mark', ...(m.attrs || {}), 'data-x': x.toFixed(1), 'data-y': y.toFixed(1), title: m.title,
        style: `left:${x.toFixed(1)}px;top:${y.toFixed(1)}px` });
    }));
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
