'use strict';
// Mallard dashboard: hash-routed views over the JSON API under api/, kept live by api/events.
// Needs lib.js and reports.js, loaded before it (see index.html).
(() => {
  const {
    LOSS_COLORS, BASELINE_COLORS, el, card, errorBox, fmt, fmtTime, fmtDuration, timeEl, badge, progressBar,
    modelLink, table, ApiError, api, withQuery, lineChart, spansDecade,
  } = window.Mallard.lib;
  const { gatReport, recommenderReport } = window.Mallard.reports;
  const { supervisedReport } = window.Mallard.supervised;
  const SUPERVISED = new Set(['classifier', 'regressor']);

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
        { label: 'Test loss', num: true, cell: (m) => lossCell(m.test_loss, m.loss) },
        { label: 'Source', cell: (m) => m.source || '—' },
        { label: 'Created', cell: (m) => timeEl(m.created_at) },
      ];
      const runCols = [
        { label: 'Run', cell: (r) => el('a', { href: `#/runs/${r.run_id}` }, `#${r.run_id}`) },
        { label: 'Model', cell: (r) => modelLink(r.model, r.version) },
        { label: 'Kind', cell: (r) => el('span', { class: 'kind' }, r.kind) },
        { label: 'Status', cell: (r) => badge(r.status) },
        { label: 'Progress', cell: (r) => progressBar(r.epochs_done, r.epochs, r.status) },
        { label: 'Best test loss', num: true, cell: (r) => (r.best_test_loss == null ? '—' : [lossCell(r.best_test_loss, r.loss), el('span', { class: 'muted' }, ` @${r.best_epoch}`)]) },
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

  // Returns a loss value labelled with what it measures (MSE, RMSE, 1 − NDCG@10), so that a column mixing kinds reads right.
  function lossCell(value, loss) {
    if (value == null) return '—';
    const name = (loss || 'loss').toUpperCase();
    return [fmt(value), ' ', el('span', { class: 'metric', 'data-metric': name, title: `test ${name}` }, name)];
  }

  /* ---------------- run view ---------------- */

  const runView = {
    // Fetches one run with its epoch metrics and baselines.
    load: (route) => api(`api/runs/${encodeURIComponent(route.id)}`),
    // Renders the run header, the loss plot (and ranking plot for recommenders) and the epochs table.
    render(root, data, route) {
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
      const log = useLogScale(metrics, route.query.scale);
      const parts = [head, card(`Loss (${lossName}) per epoch`, lossPlot(r, metrics, baselines, lossName, log), scaleToggle(route, log))];
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

  // Reports whether the loss plot uses a log scale: as the hash's ?scale= says, else when its curves span more than a decade.
  function useLogScale(metrics, asked) {
    if (asked === 'log' || asked === 'linear') return asked === 'log';
    return spansDecade(metrics.flatMap((m) => [m.train_loss, m.test_loss]));
  }

  // Returns the "log scale" checkbox of the loss plot; switching it records ?scale= in the hash and redraws.
  function scaleToggle(route, on) {
    const change = (e) => {
      const scale = e.target.checked ? 'log' : 'linear';
      route.query = { ...route.query, scale };
      history.replaceState(null, '', `${route.hash.split('?')[0]}?${new URLSearchParams(route.query)}`);
      refresh();
    };
    return el('label', { class: 'toggle' }, el('input', { type: 'checkbox', class: 'log-toggle', checked: on, onchange: change }), ' log scale');
  }

  // Returns the x domain for epoch plots: first recorded epoch (1 before any; later for resumed runs) to the planned epoch
  // while the run may still reach it, else to the last one recorded (a run that stopped early ends where it stopped).
  function epochDomain(r, metrics) {
    const first = metrics.length ? metrics[0].epoch : 1, last = metrics.length ? metrics[metrics.length - 1].epoch : 1;
    const going = r.status === 'training' || r.status === 'queued';
    return [first, Math.max(going ? r.epochs || 1 : 1, last, first + 1)];
  }

  // Returns the loss plot: train/test per epoch as solid lines, baselines' test loss as labelled dashed lines.
  function lossPlot(r, metrics, baselines, lossName, log) {
    const series = ['train', 'test'].map((key) => ({ key, label: `${key} ${lossName}`, color: LOSS_COLORS[key], points: metrics.map((m) => [m.epoch, m[`${key}_loss`]]) }));
    const hlines = baselines.filter((b) => b.test_loss != null).map((b, i) => ({ key: `baseline:${b.method}`, y: b.test_loss, label: b.method,
      legend: `${b.method} (baseline, test)`, color: BASELINE_COLORS[i % BASELINE_COLORS.length] }));
    return lineChart({ plot: 'loss', title: `${lossName} per epoch`, xDomain: epochDomain(r, metrics), xLabel: 'epoch', yLabel: log ? `${lossName} (log scale)` : lossName,
      yLog: log, series, hlines, dots: metrics.length <= 60,
      emptyText: metrics.length ? null : r.status === 'queued' ? 'Queued — waiting to start' : 'Waiting for the first epoch…' });
  }

  // Returns the recommender ranking plot: recall@10 and NDCG@10 per epoch from each epoch's extra.
  function rankingPlot(r, metrics) {
    const keys = [['recall_at_10', 'recall@10', '#059669'], ['ndcg_at_10', 'NDCG@10', '#7c3aed']];
    const series = keys.map(([key, label, color]) => ({ key, label, color,
      points: metrics.filter((m) => m.extra && m.extra[key] != null).map((m) => [m.epoch, m.extra[key]]) }));
    const any = series.some((s) => s.points.length);
    return lineChart({ plot: 'ranking', title: 'ranking metrics per epoch', xDomain: epochDomain(r, metrics), xLabel: 'epoch',
      yLabel: 'score@10', series, dots: metrics.length <= 60, emptyText: any ? null : 'No ranking metrics recorded yet' });
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

  const modelView = {
    // Fetches the model's versions, then the chosen version's report (reused while that version is unchanged), or a
    // classifier's or regressor's page (api/models/NAME/supervised).
    async load(route) {
      const detail = await api(`api/models/${encodeURIComponent(route.name)}`);
      const versions = detail.versions || [];
      const version = route.version != null ? route.version : defaultVersion(detail);
      const v = versions.find((x) => x.version === version);
      const key = v ? `${v.status}|${v.finished_at}` : 'missing';
      const ck = `${route.name}@${version}`, cached = reportCache.get(ck);
      if (version == null) return { detail, version, notice: 'This model has no versions yet.', reportKey: key };
      if (SUPERVISED.has(detail.kind)) { // drawn from the registry's epochs, which change while it trains: never cached
        const report = await api(withQuery(`api/models/${encodeURIComponent(route.name)}/supervised`, { version }));
        return { detail, version, report, reportKey: `${key}|${report.epochs.length}` };
      }
      if (!cached || cached.key !== key) {
        try {
          const report = await api(withQuery(`api/models/${encodeURIComponent(route.name)}/report`, { version }));
          if (report.kind === 'gat') report.anomalies = await anomaliesOf(route.name, version);
          reportCache.set(ck, { key, report });
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
      else if (data.report.kind === 'gat') rep.replaceChildren(gatReport(data.report, route));
      else if (SUPERVISED.has(data.report.kind)) {
        const { node, pending } = supervisedReport(data.report);
        rep.replaceChildren(node);
        return pending;
      }
      else if (data.report.kind === 'recommender') {
        const { node, pending } = recommenderReport(data.report, route);
        rep.replaceChildren(node);
        return pending;
      }
      else rep.replaceChildren(el('div', { class: 'notice' }, `No report view for kind "${data.report.kind}".`));
    },
  };

  // Returns a GAT version's anomalies (api/models/NAME/anomalies), or {error} when they cannot be computed: the
  // report is still shown without them.
  async function anomaliesOf(name, version) {
    try {
      return await api(withQuery(`api/models/${encodeURIComponent(name)}/anomalies`, { version }));
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      return { error: e.message };
    }
  }

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
        v.entities != null && !SUPERVISED.has(detail.kind) ? `${fmt(v.entities)} ${detail.kind === 'recommender' ? 'users' : 'entities'}` : null, `created ${fmtTime(v.created_at)}`].filter(Boolean).join(' · ')) : null);
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
