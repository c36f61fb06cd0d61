'use strict';
// Mallard dashboard reports: the GAT and recommender reports of a model version, shown by the model view.
// Needs lib.js; publishes window.Mallard.reports.
(() => {
  const { PALETTE, el, sv, card, errorBox, fmt, table, api, withQuery, textWidth, lineChart } = window.Mallard.lib;

  /* ---------------- report parts ---------------- */

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
    const t = table([{ label: 'Method', cell: (r) => el('strong', null, r.method) }, ...keys.map((k) => ({ label: label[k] || k, num: true, cell: cell(k) }))], rows, null, 'No metrics.');
    t.classList.add('metrics-table'); // its headings wrap, so that every column fits beside the data card at 1,400 px
    return t;
  }

  // Returns a small row of labelled numbers.
  const statRow = (pairs) => el('div', { class: 'stats' },
    pairs.map(([k, v]) => el('div', { class: 'stat' }, el('div', { class: 'stat-v' }, v), el('div', { class: 'stat-k' }, k))));

  /* ---------------- gat report ---------------- */

  const selections = new Map(); // model name -> {selected:Set<string>, filter:string}

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
  function gatReport(rep, route) {
    const st = selectionFor(rep), q = (route && route.query) || {};
    if (q.scale === 'entity' || q.scale === 'shared') st.ownScale = q.scale === 'entity';
    const links = graphEdges(rep), layout = forceLayout(rep.entities, links);
    const truthSlot = el('div', { class: 'plot-slot' }), tableSlot = el('div', { class: 'scroll tall' }), graphSlot = el('div', { class: 'plot-slot' });
    const heat = heatmap(rep), countEl = el('span', { class: 'muted' });
    // Redraws everything that depends on the selection.
    const redraw = () => {
      const sel = rep.entities.map((e, i) => ({ name: e, i })).filter((x) => st.selected.has(x.name));
      truthSlot.replaceChildren(truthPlot(rep, sel, st.ownScale));
      tableSlot.replaceChildren(timeTable(rep, sel));
      graphSlot.replaceChildren(graphPlot(rep, links, layout, st.selected, toggle));
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
          ['steps forecast past the data', (rep.forecast && rep.forecast.times || []).length], ['window', rep.window]]),
          el('p', { class: 'hint' }, 'The plot continues each series this many steps past its last time with the model’s forecast; forecast(\'model\', steps := n) gives any number.'))),
      el('div', { class: 'grid-side' },
        card('Entities' + note, filterBox, countEl, 'filter-card'),
        card(`Truth vs prediction (${units})`, [truthSlot, el('p', { class: 'hint' },
          'Solid: training rows · dashed: test rows · lighter, thinner line: one-step-ahead prediction · after the last time: forecast.'),
        anomalyHint(rep.anomalies)],
        ownScaleToggle(st, route, redraw))),
      el('div', { class: 'grid-2' },
        card('Correlation over training rows', heat),
        card('Entity graph', [graphSlot, el('p', { class: 'hint' }, graphHint(rep))])),
      card(`Values per time step (${units})`, tableSlot));
  }

  // Returns the "each entity to its own range" checkbox of the truth plot; switching it records ?scale= in the hash.
  function ownScaleToggle(st, route, redraw) {
    const change = (e) => {
      st.ownScale = e.target.checked;
      if (route && route.hash) {
        route.query = { ...route.query, scale: st.ownScale ? 'entity' : 'shared' };
        history.replaceState(null, '', `${route.hash.split('?')[0]}?${new URLSearchParams(route.query)}`);
      }
      redraw();
    };
    return el('label', { class: 'toggle', title: 'Map each entity from its own minimum (0) to its own maximum (1)' },
      el('input', { type: 'checkbox', class: 'own-scale-toggle', checked: !!st.ownScale, onchange: change }), ' each entity to its own range');
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

  // Returns the note under the truth plot on its anomalies: how many values detect_anomalies flags (data-anomalies),
  // or why there are none to show.
  function anomalyHint(an) {
    if (!an) return null;
    if (an.error) return el('p', { class: 'hint anomaly-hint', 'data-anomalies': 'error' }, `Anomalies cannot be shown: ${an.error}`);
    const n = an.points.length, pct = `${+(an.level * 100).toFixed(2)} %`;
    return el('p', { class: 'hint anomaly-hint', 'data-anomalies': n },
      n ? `Ringed: the ${n} value${n === 1 ? '' : 's'} outside their entity’s ${pct} interval around the one-step forecast ` +
        `(detect_anomalies), with that interval as a whisker; point at a ring for its time, value, expected value and interval.`
        : `No value lies outside its entity’s ${pct} interval around the one-step forecast (detect_anomalies).`);
  }

  // Returns the marks of the anomalies of the selected entities at x = their time index, for lineChart; own maps a
  // value to the plot's scale of entity i.
  function anomalyMarks(rep, sel, own) {
    const an = rep.anomalies;
    if (!an || !an.points) return [];
    const T = rep.times.length, index = new Map(sel.map(({ name, i }) => [name, i]));
    return an.points.filter((p) => index.has(p.entity)).map((p) => {
      const i = index.get(p.entity), x = T - an.scored_steps + p.step, time = rep.times[x], f = own(i);
      return { x, y: f(p.value), lo: p.lo == null ? null : f(p.lo), hi: p.hi == null ? null : f(p.hi), color: entityColor(i),
        attrs: { 'data-mark': 'anomaly', 'data-entity': p.entity, 'data-time': time },
        title: `${p.entity} · ${time}\nvalue ${fmt(p.value)}\nexpected ${fmt(p.expected)}\n` +
          `${+(an.level * 100).toFixed(2)} % interval ${fmt(p.lo)} to ${fmt(p.hi)}` };
    });
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
  // With ownScale each entity's values are mapped from its own minimum (0) to its own maximum (1).
  function truthPlot(rep, sel, ownScale) {
    const T = rep.times.length, fc = rep.forecast || { times: [], values: [] }, F = (fc.times || []).length;
    const labels = rep.times.concat(fc.times || []), series = [], scales = new Map();
    for (const { name, i } of sel) {
      const color = entityColor(i);
      let truth = rep.truth[i] || [], pred = (rep.prediction || [])[i] || [], fv = (fc.values || [])[i] || [];
      if (ownScale) {
        const f = ownRange([truth, pred, fv]);
        scales.set(i, f);
        [truth, pred, fv] = [truth, pred, fv].map((l) => l.map(f));
      }
      series.push(...splitParts(`truth:${name}`, truth, rep.split, { color, width: 2.2 }));
      series.push(...splitParts(`prediction:${name}`, pred, rep.split, { color, width: 1.3, opacity: 0.5 }));
      if (F && fv.length) {
        const lastTruth = truth[T - 1] != null ? truth[T - 1] : pred[T - 1];
        series.push({ key: `forecast:${name}`, color, width: 2.2, dash: '3 3', points: [[T - 1, lastTruth], ...pointsOf(fv, 0, F, T)] });
      }
    }
    const key = sel.slice(0, 16).map(({ name, i }) => ({ label: name.length > 24 ? name.slice(0, 23) + '…' : name, color: entityColor(i) }));
    if (sel.length > 16) key.push({ label: `+${sel.length - 16} more`, color: '#9ca3af' });
    const marks = anomalyMarks(rep, sel, (i) => scales.get(i) || ((v) => v));
    if (marks.length) key.push({ label: `anomaly (outside the ${+(rep.anomalies.level * 100).toFixed(2)} % interval)`, color: '#374151', ring: true });
    const shade = [{ from: rep.split - 0.5, to: T - 0.5, label: 'test' }];
    if (F) shade.push({ from: T - 0.5, to: T - 1 + F, label: 'forecast' });
    return lineChart({ plot: 'truth', title: 'truth vs prediction', width: 940, height: 400, xDomain: [0, Math.max(1, T - 1 + F)],
      xTick: (v) => (Number.isInteger(v) && labels[v] != null ? String(labels[v]) : ''),
      xLabel: 'time', yScaleName: ownScale ? 'entity' : 'shared', series, key, shade,
      yLabel: ownScale ? 'value, each entity from its min (0) to its max (1)' : rep.units === 'original' ? 'value (original units)' : 'value (model units)',
      marks, vlines: [rep.split > 0 && rep.split < T && { x: rep.split - 0.5, label: 'split' }, F && { x: T - 0.5, label: 'forecast' }].filter(Boolean),
      emptyText: sel.length ? null : 'Select entities on the left to plot them' });
  }

  // Returns the linear map under which the finite values of lists together span [0, 1] (a constant entity sits at 0.5).
  function ownRange(lists) {
    const vs = lists.flat().filter((v) => v != null && Number.isFinite(v));
    const lo = Math.min(...vs), span = Math.max(...vs) - lo;
    return (v) => (v == null || !Number.isFinite(v) ? v : span > 0 ? (v - lo) / span : 0.5);
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

  // heatmapFloor is the correlation above which, for every pair, the heatmap's colours span the data's range: on
  // the full −1..+1 scale such pairs are all the same dark red.
  const heatmapFloor = 0.9;

  // Returns the heatmap's colour range: {lo, hi, full} with full the −1..+1 scale, else the data's range when every
  // pair of distinct entities correlates above heatmapFloor.
  function heatRange(C, n) {
    const off = [];
    for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) {
      const r = (C[a] || [])[b];
      if (a !== b && r != null && Number.isFinite(r)) off.push(r);
    }
    if (!off.length || Math.min(...off) <= heatmapFloor) return { lo: -1, hi: 1, full: true };
    const lo = Math.min(...off), hi = Math.max(1, ...off);
    return { lo, hi: hi > lo ? hi : lo + 1e-9, full: false };
  }

  // Returns the colour of r on range: diverging on the full scale, else white at range.lo to red at range.hi.
  const heatColor = (r, range) => (range.full || r == null ? divergingColor(r) : divergingColor((r - range.lo) / (range.hi - range.lo)));

  // Returns the diverging colour for r: blue at -1, white at 0, red at +1; grey when missing.
  function divergingColor(r) {
    if (r == null || !Number.isFinite(r)) return '#d1d5db';
    const t = Math.max(-1, Math.min(1, r)), c = t < 0 ? [33, 102, 172] : [178, 24, 43], a = Math.abs(t);
    const mix = (k) => Math.round(255 + (c[k] - 255) * a);
    return `rgb(${mix(0)},${mix(1)},${mix(2)})`;
  }

  // Returns a label cut to n characters with an ellipsis.
  const short = (s, n) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

  // Returns the correlation heatmap: one rect.cell per entity pair with a "A × B: r" title (and data-r off the diagonal),
  // labels and a colour key; the svg's data-range says whether the colours span −1..+1 ("full") or the data ("data").
  function heatmap(rep) {
    const ents = rep.entities, n = ents.length, C = rep.correlation || [];
    const cs = Math.max(6, Math.min(30, Math.floor(420 / Math.max(1, n)))), fs = Math.max(6, Math.min(11, cs * 0.8));
    const lab = Math.min(150, 14 + fs * 0.58 * Math.min(22, Math.max(...ents.map((e) => e.length), 1)));
    const W = Math.max(lab + n * cs + 16, 380), H = lab + n * cs + 72;
    const range = heatRange(C, n);
    const root = sv('svg', { class: 'plot heatmap', 'data-plot': 'heatmap', 'data-range': range.full ? 'full' : 'data', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'correlation heatmap' });
    const cells = sv('g', { transform: `translate(${lab} ${lab})` });
    for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) {
      const r = (C[a] || [])[b], tip = `${ents[a]} × ${ents[b]}: ${r == null ? 'n/a' : r.toFixed(2)}`;
      cells.append(sv('rect', { class: 'cell', 'data-r': a === b ? null : r, x: b * cs, y: a * cs, width: cs, height: cs, fill: heatColor(r, range), title: tip }, sv('title', null, tip)));
    }
    root.append(cells);
    ents.forEach((e, i) => {
      const c = lab + i * cs + cs / 2;
      root.append(sv('text', { class: 'hm-label', 'data-entity': e, x: lab - 5, y: c + fs * 0.35, 'text-anchor': 'end', 'font-size': fs }, short(e, 22), sv('title', null, e)),
        sv('text', { class: 'hm-label', 'data-entity': e, transform: `translate(${c + fs * 0.35} ${lab - 5}) rotate(-90)`, 'font-size': fs }, short(e, 22), sv('title', null, e)));
    });
    root.append(heatKey(range, lab, n * cs, lab + n * cs + 20, W));
    return root;
  }

  // Returns the heatmap's colour key under the cells (x0, width w, at y, in a plot W wide): −1, 0, +1 on the full
  // scale, else the data's range with a line saying why.
  function heatKey(range, x0, w, y, W) {
    const kw = Math.min(240, w), kx = x0 + (w - kw) / 2, stops = [0, 0.25, 0.5, 0.75, 1];
    const at = (f) => range.lo + f * (range.hi - range.lo);
    const grad = sv('linearGradient', { id: 'hm-grad' }, stops.map((f) => sv('stop', { offset: `${f * 100}%`, 'stop-color': heatColor(at(f), range) })));
    const ticks = range.full ? [[0, '−1'], [0.5, '0'], [1, '+1']] : [[0, fmt(range.lo, 3)], [1, fmt(range.hi, 3)]];
    const g = sv('g', { class: 'hm-key' }, sv('defs', null, grad), sv('rect', { x: kx, y, width: kw, height: 10, fill: 'url(#hm-grad)', stroke: '#d1d5db' }),
      ticks.map(([f, label]) => sv('text', { class: 'key-label', x: kx + f * kw, y: y + 24, 'text-anchor': 'middle' }, label)));
    if (!range.full) {
      g.append(sv('text', { class: 'key-note', x: W / 2, y: y + 40, 'text-anchor': 'middle' },
        `every pair is above ${heatmapFloor}: colours span the data's range, not −1..+1`));
    }
    return g;
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

  // attentionSources is how many sources per entity the graph draws from a report's attention.
  const attentionSources = 3;

  // Returns the entity graph's edges as {source, target, weight, strength in [0,1], positive, title}. A report with attention
  // gives each shown entity's attentionSources strongest sources among the shown entities, sign from the correlation, and
  // strength from 0.15 for the weakest edge drawn to 1 for the strongest: attention is often near uniform, and its
  // ranking is what the widths should show. An older report gives its correlation edges, strength |weight|.
  function graphEdges(rep) {
    const ents = rep.entities, n = ents.length;
    if (!rep.attention) {
      return (rep.edges || []).map((e) => ({ source: e.source, target: e.target, weight: e.weight, strength: Math.min(1, Math.abs(e.weight || 0)),
        positive: (e.weight || 0) >= 0, title: `${ents[e.source]} — ${ents[e.target]}: ${fmt(e.weight, 3)}` }));
    }
    const into = ents.map(() => []);
    for (const e of rep.attention) if (e.source !== e.target && e.source < n && e.target < n) into[e.target].push(e);
    const kept = into.flatMap((es) => es.sort((a, b) => b.weight - a.weight).slice(0, attentionSources));
    const lo = Math.min(...kept.map((e) => e.weight)), span = Math.max(...kept.map((e) => e.weight)) - lo;
    return kept.map((e) => {
      const c = ((rep.correlation || [])[e.source] || [])[e.target] || 0;
      const strength = span > 0 ? 0.15 + 0.85 * (e.weight - lo) / span : 1;
      return { source: e.source, target: e.target, weight: e.weight, strength, positive: c >= 0,
        title: `${ents[e.target]} attends to ${ents[e.source]}: ${fmt(e.weight, 3)} (correlation ${fmt(c, 2)})` };
    });
  }

  // Returns the hint under the entity graph, which says what its edges are.
  function graphHint(rep) {
    if (!rep.attention) return 'Edges: red positive, blue negative correlation; thicker is stronger. Click a node to select it.';
    return `Edges: each entity's ${attentionSources} strongest attention sources over the test samples; width is the attention weight, `
      + 'from the weakest edge drawn to the strongest; red positive, blue negative correlation. Click a node to select it.';
  }

  // Returns deterministic positions in [0,1]² for the entities: repulsion, springs weighted by edge strength, gravity; seeded by their names.
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
        const s = pos[e.source], t = pos[e.target], w = e.strength;
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

  // Returns the entity graph: edges (see graphEdges) as line.edge, width/opacity by strength and colour by sign, nodes as
  // circle.node; the svg's data-edges says whether the edges' data-weight is attention or correlation.
  function graphPlot(rep, links, layout, selected, onToggle) {
    const W = 640, H = 480, pad = { l: 130, r: 130, t: 20, b: 20 }, ents = rep.entities;
    const X = (i) => pad.l + layout[i][0] * (W - pad.l - pad.r), Y = (i) => pad.t + layout[i][1] * (H - pad.t - pad.b);
    const root = sv('svg', { class: 'plot graph', 'data-plot': 'graph', 'data-edges': rep.attention ? 'attention' : 'correlation',
      viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'entity graph' });
    const anySel = selected.size > 0, edges = sv('g', { class: 'edges' });
    for (const e of links) {
      if (!layout[e.source] || !layout[e.target] || e.source === e.target) continue;
      const w = e.strength, touch = selected.has(ents[e.source]) || selected.has(ents[e.target]);
      edges.append(sv('line', { class: 'edge', 'data-weight': String(e.weight), x1: X(e.source).toFixed(1), y1: Y(e.source).toFixed(1), x2: X(e.target).toFixed(1), y2: Y(e.target).toFixed(1),
        stroke: e.positive ? '#b2182b' : '#2166ac', 'stroke-width': (0.6 + 4 * w * w).toFixed(2),
        'stroke-opacity': ((0.12 + 0.6 * w) * (anySel && !touch ? 0.45 : 1)).toFixed(2) },
      sv('title', null, e.title)));
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

  // Returns {node, pending}: the recommender report (metrics with EASE's row, data counts, recommend form) and the promise of the route's recommendation.
  function recommenderReport(rep, route) {
    const form = recommendForm(rep, route);
    const node = el('div', { class: 'report' },
      el('div', { class: 'grid-2 top' },
        card('Metrics', [metricsTable(rep.metrics || []), rep.ease_error ? el('div', { class: 'notice ease-error' }, rep.ease_error) : null,
          el('p', { class: 'hint' }, 'ease is EASE (Steck, 2019), the closed-form item model evaluate(\'model\') measures beside the baselines.')]),
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
        const names = res.item_names, cols = [{ label: 'Rank', num: true, cell: (r) => r.rank }, { label: 'Item', cell: (r) => String(r.item) }];
        if (names) cols.push({ label: names.column, cell: (r) => (r.name == null ? el('span', { class: 'muted' }, '—') : el('span', { class: 'item-name' }, r.name)) });
        cols.push({ label: 'Score', num: true, cell: (r) => fmt(r.score) });
        const t = table(cols, res.items || [], () => ({ class: 'rec' }), 'No items to recommend.');
        out.replaceChildren(el('p', { class: 'muted' }, `Top ${(res.items || []).length} for user ${res.user} from ${res.model}`
          + (names ? ` · names from ${names.table}.${names.column}` : '')), t, ...(res.names_error ? [el('div', { class: 'notice' }, res.names_error)] : []));
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

  window.Mallard.reports = Object.freeze({ gatReport, recommenderReport });
})();
