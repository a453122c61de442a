// The curves: every chart of the run, its test figures and the shown step.
const charts = [];
function smooth(values, weight) {
  // TensorBoard's debiased EMA, as the window's curves
  const out = new Float64Array(values.length);
  let acc = 0,
    power = 1,
    last = NaN;
  for (let i = 0; i < values.length; ++i) {
    const v = values[i];
    if (Number.isFinite(v)) {
      acc = weight * acc + (1 - weight) * v;
      power *= weight;
      last = acc / (1 - power);
    }
    out[i] = last;
  }
  return out;
}
function buildCharts() {
  const byName = new Map();
  for (const c of D.curves || []) {
    if (!byName.has(c.chart)) byName.set(c.chart, []);
    byName.get(c.chart).push({ ...c, steps: float64Of(c.steps), values: float32Of(c.values) });
  }
  const box = $('charts');
  for (const [name, series] of byName) {
    for (const s of series) if (s.split === 'train') s.smoothed = smooth(s.values, 0.9);
    const metrics = new Set(series.map((s) => s.metric));
    const test =
      D.test && D.test.figures ? D.test.figures.filter((f) => metrics.has(f.metric)) : [];
    const div = document.createElement('div');
    div.className = 'chart';
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', `${name} over training steps`);
    div.appendChild(canvas);
    box.appendChild(div);
    const chart = { name, series, test, canvas, hover: null };
    canvas.addEventListener('mousemove', (e) => hoverChart(chart, e));
    canvas.addEventListener('mouseleave', () => {
      chart.hover = null;
      hideTooltip();
      drawChart(chart);
    });
    canvas.addEventListener('click', (e) => {
      const step = chartStepAt(chart, e);
      if (step !== null && frames.length) showFrame(nearestFrame(step));
    });
    charts.push(chart);
  }
  if (!charts.length) box.textContent = 'This run has no metrics yet.';
  box.dataset.count = String(charts.length);
  const test = $('test-line');
  if (D.test) {
    const figures = (D.test.figures || []).map((f) => `${f.label} ${fmtValue(f.value)}`).join(', ');
    test.textContent = figures
      ? `Test: ${figures} (${D.test.description}).`
      : `Test: ${D.test.description}.`;
  } else {
    test.textContent =
      'No test figure: the run stopped before its end, or its data has no test split.';
  }
}
function chartRange(chart) {
  let x0 = Infinity,
    x1 = -Infinity,
    y0 = Infinity,
    y1 = -Infinity;
  const take = (x, y) => {
    if (Number.isFinite(x)) {
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
    }
    if (Number.isFinite(y)) {
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  };
  for (const s of chart.series)
    for (let i = 0; i < s.steps.length; ++i) take(s.steps[i], s.values[i]);
  for (const f of chart.test) take(D.test.step, f.value);
  if (!Number.isFinite(x0)) {
    x0 = 0;
    x1 = 1;
  }
  if (x1 === x0) x1 = x0 + 1;
  if (!Number.isFinite(y0)) {
    y0 = 0;
    y1 = 1;
  }
  const pad = (y1 - y0) * 0.06 || Math.abs(y1) * 0.1 || 1;
  return { x0, x1, y0: y0 - pad, y1: y1 + pad };
}
function chartLayout(chart, w, h) {
  const range = chart.range;
  const ctx = chart.canvas.getContext('2d');
  ctx.font = fontOf(0.6);
  const ticks = niceTicks(range.y0, range.y1, Math.max(2, Math.floor(h / (remPx() * 2.2))));
  let tickW = 0;
  for (const t of ticks) tickW = Math.max(tickW, ctx.measureText(tickText(t)).width);
  // Room for half of the last step's label on the right.
  const right = Math.max(10, ctx.measureText(tickText(range.x1)).width / 2 + 4);
  const left = tickW + 10,
    top = remPx() * 1.5,
    bottom = remPx() * 1.25;
  return {
    left,
    top,
    right,
    bottom,
    ticks,
    w,
    h,
    x: (s) => left + ((s - range.x0) / (range.x1 - range.x0)) * (w - left - right),
    y: (v) => top + (1 - (v - range.y0) / (range.y1 - range.y0)) * (h - top - bottom),
    stepAt: (x) => range.x0 + ((x - left) / (w - left - right)) * (range.x1 - range.x0),
  };
}
function drawChart(chart) {
  const { ctx, w, h } = setupCanvas(chart.canvas);
  chart.range = chartRange(chart);
  const L = chartLayout(chart, w, h);
  chart.layout = L;
  const text = cssVar('--text'),
    muted = cssVar('--muted'),
    grid = cssVar('--grid');
  const train = cssVar('--train'),
    validation = cssVar('--validation');
  ctx.font = fontOf(0.6);
  ctx.lineWidth = 1;
  // grid and ticks
  ctx.strokeStyle = grid;
  ctx.fillStyle = muted;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of L.ticks) {
    const y = Math.round(L.y(t)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(L.left, y);
    ctx.lineTo(w - L.right, y);
    ctx.stroke();
    ctx.fillText(tickText(t), L.left - 5, y);
  }
  const xticks = niceTicks(
    chart.range.x0,
    chart.range.x1,
    Math.max(2, Math.floor((w - L.left) / (remPx() * 4))),
  );
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const t of xticks) {
    const x = Math.round(L.x(t)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(x, L.top);
    ctx.lineTo(x, h - L.bottom);
    ctx.stroke();
    ctx.fillText(tickText(t), x, h - L.bottom + 3);
  }
  ctx.save();
  ctx.beginPath();
  ctx.rect(L.left, L.top - 2, w - L.left - L.right, h - L.top - L.bottom + 4);
  ctx.clip();
  // notes: dashed lines
  const noteColor = cssVar('--note');
  ctx.strokeStyle = noteColor;
  ctx.setLineDash([4, 3]);
  for (const note of D.notes || []) {
    const x = Math.round(L.x(note.step)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(x, L.top);
    ctx.lineTo(x, h - L.bottom);
    ctx.stroke();
  }
  ctx.setLineDash([]);
  // Each note's words beside its line, as far as they fit before the next note.
  ctx.fillStyle = noteColor;
  ctx.font = fontOf(0.55);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  const notes = (D.notes || [])
    .filter((n) => n.kind === 'bookmark')
    .sort((a, b) => a.step - b.step);
  notes.forEach((note, i) => {
    const x = L.x(note.step) + 3;
    const end = i + 1 < notes.length ? L.x(notes[i + 1].step) - 4 : w - L.right;
    if (end - x > remPx() * 1.5) ctx.fillText(fitText(ctx, note.text, end - x), x, L.top + 2);
  });
  const line = (steps, values, color, width, alpha) => {
    ctx.strokeStyle = color;
    ctx.globalAlpha = alpha;
    ctx.lineWidth = width;
    ctx.beginPath();
    let started = false;
    for (let i = 0; i < steps.length; ++i) {
      if (!Number.isFinite(values[i])) {
        started = false;
        continue;
      }
      const x = L.x(steps[i]),
        y = L.y(values[i]);
      if (started) ctx.lineTo(x, y);
      else {
        ctx.moveTo(x, y);
        started = true;
      }
    }
    ctx.stroke();
    ctx.globalAlpha = 1;
  };
  // One metric: training blue, validation orange, as the window. Several (CER, WER, exact
  // match): a colour per metric, the window's categorical ones.
  const metrics = [...new Set(chart.series.map((s) => s.metric))];
  const byMetric = metrics.length > 1;
  const colorOf = (s) =>
    byMetric
      ? cssVar(`--c${metrics.indexOf(s.metric) % 6}`)
      : s.split === 'train'
        ? train
        : validation;
  for (const s of chart.series) {
    const color = colorOf(s);
    if (s.split === 'train') {
      line(s.steps, s.values, color, 0.8, 0.2);
      line(s.steps, s.smoothed, color, 2.2, 1);
    } else {
      line(s.steps, s.values, color, 1.6, 1);
      ctx.fillStyle = color;
      for (let i = 0; i < s.steps.length; ++i) {
        if (!Number.isFinite(s.values[i])) continue;
        ctx.beginPath();
        ctx.arc(L.x(s.steps[i]), L.y(s.values[i]), 3, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
  }
  ctx.restore();
  // test figure: a diamond at the run's end
  ctx.strokeStyle = text;
  for (const f of chart.test) {
    if (!Number.isFinite(f.value)) continue;
    ctx.fillStyle = byMetric
      ? cssVar(`--c${Math.max(0, metrics.indexOf(f.metric)) % 6}`)
      : cssVar('--test');
    const x = L.x(D.test.step),
      y = L.y(f.value),
      r = remPx() * 0.3;
    ctx.beginPath();
    ctx.moveTo(x, y - r);
    ctx.lineTo(x + r, y);
    ctx.lineTo(x, y + r);
    ctx.lineTo(x - r, y);
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
  }
  // the timeline's cursor
  if (frames.length) {
    const x = Math.round(L.x(stepOf(state.frame))) + 0.5;
    ctx.strokeStyle = cssVar('--accent');
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x, L.top);
    ctx.lineTo(x, h - L.bottom);
    ctx.stroke();
  }
  if (chart.hover !== null) {
    const x = Math.round(L.x(chart.hover)) + 0.5;
    ctx.strokeStyle = muted;
    ctx.lineWidth = 1;
    ctx.setLineDash([2, 2]);
    ctx.beginPath();
    ctx.moveTo(x, L.top);
    ctx.lineTo(x, h - L.bottom);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  // title and legend
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.font = fontOf(0.72, '600');
  ctx.fillStyle = text;
  ctx.fillText(chart.name, L.left, L.top * 0.45);
  let x = L.left + ctx.measureText(chart.name).width + remPx() * 0.6;
  ctx.font = fontOf(0.6);
  // The legend names what tells the lines apart; the test figures are written under the charts.
  const legend = [];
  if (byMetric) {
    // One line per metric, stacked in the plot's top right corner on the plot's background.
    const entries = metrics.map((m, k) => [
      cssVar(`--c${k % 6}`),
      chart.series.find((s) => s.metric === m).label,
    ]);
    const lineH = remPx() * 0.75;
    const boxW =
      Math.max(...entries.map(([, label]) => ctx.measureText(label).width)) + remPx() * 1.2;
    const bx = w - L.right - boxW - 4,
      by = L.top + 4;
    ctx.fillStyle = cssVar('--surface');
    ctx.globalAlpha = 0.85;
    ctx.fillRect(bx, by, boxW, lineH * entries.length + 6);
    ctx.globalAlpha = 1;
    entries.forEach(([color, label], k) => {
      const y = by + 3 + lineH * (k + 0.5);
      ctx.fillStyle = color;
      ctx.fillRect(bx + 4, y - 2, remPx() * 0.6, 4);
      ctx.fillStyle = text;
      ctx.fillText(label, bx + 4 + remPx() * 0.75, y);
    });
  } else {
    if (chart.series.some((s) => s.split === 'train')) legend.push([train, 'train']);
    if (chart.series.some((s) => s.split !== 'train')) legend.push([validation, 'validation']);
    if (chart.test.length) legend.push([cssVar('--test'), 'test']);
  }
  for (const [color, label] of legend) {
    if (x + remPx() * 0.75 + ctx.measureText(label).width > w) break; // the tooltip names them
    ctx.fillStyle = color;
    ctx.fillRect(x, L.top * 0.45 - 2, remPx() * 0.6, 4);
    x += remPx() * 0.75;
    ctx.fillStyle = muted;
    ctx.fillText(label, x, L.top * 0.45);
    x += ctx.measureText(label).width + remPx() * 0.5;
  }
}
function chartStepAt(chart, e) {
  if (!chart.layout) return null;
  const rect = chart.canvas.getBoundingClientRect();
  const x = e.clientX - rect.left;
  if (x < chart.layout.left || x > chart.layout.w - chart.layout.right) return null;
  return chart.layout.stepAt(x);
}
function nearestIndex(steps, step) {
  let lo = 0,
    hi = steps.length - 1;
  if (hi < 0) return -1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (steps[mid] < step) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && Math.abs(steps[lo - 1] - step) <= Math.abs(steps[lo] - step)) lo -= 1;
  return lo;
}
function hoverChart(chart, e) {
  const step = chartStepAt(chart, e);
  if (step === null) {
    chart.hover = null;
    hideTooltip();
    drawChart(chart);
    return;
  }
  const lines = [];
  let shown = step;
  for (const s of chart.series) {
    const i = nearestIndex(s.steps, step);
    if (i < 0) continue;
    if (s.split === 'train') {
      shown = s.steps[i];
      lines.push(
        `${s.label} · train ${fmtValue(s.values[i])} (smoothed ${fmtValue(s.smoothed[i])})`,
      );
    } else {
      lines.push(`${s.label} · validation ${fmtValue(s.values[i])} at step ${fmtInt(s.steps[i])}`);
    }
  }
  for (const f of chart.test)
    lines.push(`${f.label} · test ${fmtValue(f.value)} (${D.test.description})`);
  for (const note of D.notes || []) {
    if (Math.abs(chart.layout.x(note.step) - chart.layout.x(step)) < 6)
      lines.push(`note at step ${fmtInt(note.step)}: ${note.text}`);
  }
  chart.hover = shown;
  showTooltip(`step ${fmtInt(shown)}\n${lines.join('\n')}`, e.clientX, e.clientY);
  drawChart(chart);
}

registerView({
  name: 'curves',
  build: buildCharts,
  draw: () => {
    for (const chart of charts) drawChart(chart);
  },
});
