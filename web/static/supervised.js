'use strict';
// Mallard dashboard: the page of a classifier or regressor version (api/models/NAME/supervised): loss and validation
// curves, test metrics, the confusion matrix, the most confidently wrong test images (api/models/NAME/misclassified)
// and feature importance (api/models/NAME/importance). Needs lib.js; publishes window.Mallard.supervised.
(() => {
  const { LOSS_COLORS, el, sv, card, errorBox, fmt, table, api, withQuery, lineChart } = window.Mallard.lib;

  // Returns {node, pending}: the report of a supervised version, and the promise of the parts it fetches after.
  function supervisedReport(rep) {
    const isCls = rep.kind === 'classifier', image = isCls && Array.isArray(rep.shape);
    const parts = [
      el('div', { class: 'grid-2' },
        card('Loss per epoch', lossPlot(rep)),
        card(isCls ? 'Validation accuracy per epoch' : 'Validation RMSE per epoch', metricPlot(rep))),
      card('Test metrics', [testMetrics(rep.metrics || []), el('p', { class: 'hint' },
        `${rep.target ? `Learns ${rep.target}` : ''}${(rep.features || []).length ? ` from ${rep.features.join(', ')}` : ''}. `
        + 'Figures on the test part, which training never saw; the served method is the one predict uses.')]),
    ];
    if (isCls) parts.push(card('Confusion matrix (test rows)', confusionPart(rep)));
    const wrong = el('div', { class: 'wrong-slot', 'data-wrong': 'loading' }, el('div', { class: 'loading' }, 'Finding the wrong test images…'));
    if (image) parts.push(card('Most confidently wrong test images', wrong));
    const importance = el('div', { class: 'importance-slot', 'data-importance': 'loading' }, el('div', { class: 'loading' }, 'Measuring feature importance…'));
    parts.push(card('Feature importance', importance));
    const q = { version: rep.version };
    const pending = Promise.all([
      image ? fill(wrong, 'wrong', withQuery(`api/models/${encodeURIComponent(rep.name)}/misclassified`, q), (res) => wrongImages(res, rep.shape)) : null,
      fill(importance, 'importance', withQuery(`api/models/${encodeURIComponent(rep.name)}/importance`, q), importanceTable),
    ]);
    return { node: el('div', { class: 'report supervised' }, parts), pending };
  }

  // Fetches path into slot: what draw makes of the answer, or the server's error message in place (data-NAME="error").
  async function fill(slot, name, path, draw) {
    try {
      const res = await api(path);
      const { node, count } = draw(res);
      slot.dataset[name] = String(count);
      slot.replaceChildren(...[node].flat());
    } catch (e) {
      slot.dataset[name] = 'error';
      slot.replaceChildren(errorBox(e.message));
    }
  }

  // Returns the x domain of the epoch plots: the first epoch recorded to the last, or to the planned one while training.
  function epochDomain(rep) {
    const es = rep.epochs || [], first = es.length ? es[0].epoch : 1, last = es.length ? es[es.length - 1].epoch : 1;
    const going = rep.status === 'training' || rep.status === 'queued';
    return [first, Math.max(going ? rep.epochs_planned || 1 : 1, last, first + 1)];
  }

  // Returns the training and validation loss per epoch.
  function lossPlot(rep) {
    const es = rep.epochs || [], name = rep.kind === 'classifier' ? 'cross-entropy' : 'MSE of the standardised target';
    const series = [['train', 'train_loss', LOSS_COLORS.train], ['validation', 'val_loss', LOSS_COLORS.test]]
      .map(([key, field, color]) => ({ key, label: `${key} loss`, color, points: es.map((e) => [e.epoch, e[field]]) }));
    return lineChart({ plot: 'cls-loss', title: 'loss per epoch', xDomain: epochDomain(rep), xLabel: 'epoch', yLabel: `loss (${name})`,
      series, dots: es.length <= 60, emptyText: es.length ? null : 'Waiting for the first epoch…' });
  }

  // Returns the validation accuracy (classifier) or RMSE in the target's units (regressor) per epoch.
  function metricPlot(rep) {
    const es = rep.epochs || [], key = rep.metric, label = key === 'val_accuracy' ? 'validation accuracy' : 'validation RMSE';
    return lineChart({ plot: 'cls-metric', title: `${label} per epoch`, xDomain: epochDomain(rep), xLabel: 'epoch', yLabel: label,
      series: [{ key, label, color: '#059669', points: es.filter((e) => e[key] != null).map((e) => [e.epoch, e[key]]) }],
      dots: es.length <= 60, emptyText: es.length ? null : 'Waiting for the first epoch…' });
  }

  // Returns the table of test metrics, one row per method, the served one marked.
  function testMetrics(rows) {
    const keys = ['rows', 'accuracy', 'macro_f1', 'log_loss', 'rmse', 'mae', 'r2', 'val_loss'].filter((k) => rows.some((r) => r[k] != null));
    const label = { rows: 'Test rows', accuracy: 'Accuracy', macro_f1: 'Macro F1', log_loss: 'Log loss', rmse: 'RMSE', mae: 'MAE', r2: 'R²', val_loss: 'Best val. loss' };
    const cols = [{ label: 'Method', cell: (r) => [el('strong', null, r.method), r.served ? el('span', { class: 'deployed served' }, 'served') : null] },
      ...keys.map((k) => ({ label: label[k], num: true, cell: (r) => fmt(r[k]) }))];
    return table(cols, rows, (r) => ({ class: r.served ? 'current' : null }), 'No test metrics: the version has not finished training.');
  }

  // Returns the confusion matrix as a heatmap (rect.cm-cell with data-actual, data-predicted, data-count), each cell
  // coloured by its share of its true class's rows; or why there is none.
  function confusionPart(rep) {
    if (!rep.confusion) return el('div', { class: 'notice' }, rep.confusion_error || 'No confusion matrix.');
    const { classes, counts } = rep.confusion, n = classes.length;
    const cs = Math.max(18, Math.min(56, Math.floor(480 / Math.max(1, n)))), lab = Math.min(140, 16 + 7 * Math.max(...classes.map((c) => String(c).length), 1));
    const W = lab + n * cs + 20, H = lab + n * cs + 34;
    const root = sv('svg', { class: 'plot heatmap confusion', 'data-plot': 'confusion', viewBox: `0 0 ${W} ${H}`,
      style: `width:${W}px`, role: 'img', 'aria-label': 'confusion matrix' }); // drawn at its own size, never scaled up
    const g = sv('g', { transform: `translate(${lab} ${lab})` });
    counts.forEach((row, a) => {
      const total = row.reduce((x, y) => x + y, 0);
      row.forEach((c, p) => {
        const share = total ? c / total : 0, tip = `true ${classes[a]}, predicted ${classes[p]}: ${c} of ${total}`;
        g.append(sv('rect', { class: 'cell cm-cell', 'data-actual': classes[a], 'data-predicted': classes[p], 'data-count': c,
          x: p * cs, y: a * cs, width: cs, height: cs, fill: shareColor(share, a === p) }, sv('title', null, tip)));
        if (cs >= 24) g.append(sv('text', { class: share > 0.55 ? 'cm-count on-dark' : 'cm-count', x: p * cs + cs / 2, y: a * cs + cs / 2 + 4, 'text-anchor': 'middle' }, String(c)));
      });
    });
    root.append(g);
    classes.forEach((c, i) => {
      const m = lab + i * cs + cs / 2, t = String(c).length > 18 ? String(c).slice(0, 17) + '…' : String(c);
      root.append(sv('text', { class: 'hm-label', x: lab - 6, y: m + 4, 'text-anchor': 'end' }, t),
        sv('text', { class: 'hm-label', transform: `translate(${m + 4} ${lab - 6}) rotate(-90)` }, t));
    });
    root.append(sv('text', { class: 'key-note', x: lab + (n * cs) / 2, y: H - 8, 'text-anchor': 'middle' }, 'rows: true class · columns: predicted class'));
    return [root, el('p', { class: 'hint' }, 'confusion_matrix(\'model\') gives the same counts; a cell\'s colour is its share of its row.')];
  }

  // Returns the colour of a cell holding share of its row: green on the diagonal, red off it, white at 0.
  function shareColor(share, diagonal) {
    const c = diagonal ? [4, 120, 87] : [185, 28, 28], mix = (k) => Math.round(255 + (c[k] - 255) * Math.min(1, share));
    return `rgb(${mix(0)},${mix(1)},${mix(2)})`;
  }

  // Returns {node, count}: the wrong test images, each drawn from its pixels on a canvas.wrong-image, with its true
  // and predicted class and the predicted class's probability.
  function wrongImages(res, shape) {
    const images = res.images || [];
    if (!images.length) return { node: el('p', { class: 'muted' }, 'The model predicts every test image right.'), count: 0 };
    const figs = images.map((im) => el('figure', { class: 'wrong', 'data-row': im.row, 'data-actual': im.actual, 'data-predicted': im.predicted,
      'data-probability': im.probability }, drawImage(im.pixels, res.shape || shape),
    el('figcaption', null, el('span', null, 'true ', el('strong', null, im.actual)), el('span', null, 'predicted ', el('strong', { class: 'wrong-pred' }, im.predicted)),
      el('span', { class: 'muted' }, `p = ${fmt(im.probability, 3)}`))));
    return { node: [el('div', { class: 'wrong-grid' }, figs), el('p', { class: 'hint' },
      `The ${images.length} test images the model gets wrong with the highest probability (misclassified('model')), most confident first; row is the image's row in the source.`)],
    count: images.length };
  }

  // Returns a canvas with the image drawn from pixels, channel first ([channels, height, width]): grey for one channel,
  // colour for three; values scaled so that the image's largest is white.
  function drawImage(pixels, shape) {
    const [ch, h, w] = shape, canvas = el('canvas', { class: 'wrong-image', width: w, height: h });
    const ctx = canvas.getContext('2d'), img = ctx.createImageData(w, h), top = Math.max(1e-12, ...pixels);
    for (let i = 0; i < h * w; i++) {
      const v = (c) => Math.round(255 * Math.max(0, Math.min(1, pixels[(ch === 3 ? c : 0) * h * w + i] / top)));
      img.data.set([v(0), v(1), v(2), 255], i * 4);
    }
    ctx.putImageData(img, 0, 0);
    return canvas;
  }

  // Returns {node, count}: feature_importance's rows as a table with a bar per feature, most important first.
  function importanceTable(res) {
    const rows = (res.features || []).slice().sort((a, b) => (b.importance || 0) - (a.importance || 0));
    const top = Math.max(1e-12, ...rows.map((r) => Math.abs(r.importance || 0)));
    const cols = [{ label: 'Feature', cell: (r) => r.feature },
      { label: 'Importance', num: true, cell: (r) => fmt(r.importance) },
      { label: '', cell: (r) => el('span', { class: 'imp-bar', style: `width:${(100 * Math.abs(r.importance || 0) / top).toFixed(1)}px` }) },
      { label: 'Std', num: true, cell: (r) => fmt(r.std) }, { label: 'Metric', cell: (r) => r.metric || '—' }];
    return { node: table(cols, rows, () => ({ class: 'importance' }), 'No features.'), count: rows.length };
  }

  window.Mallard.supervised = Object.freeze({ supervisedReport });
})();
