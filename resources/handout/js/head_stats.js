// Head statistics: a sparkline per head and the changes of kind.
const HS = D.head_stats;
function buildHeadStats() {
  if (!HS) {
    $('heads').hidden = true;
    $('nav-heads').hidden = true;
    return;
  }
  HS.stepValues = float64Of(HS.steps);
  for (const s of HS.series) s.decoded = bytesOf(s.values);
  const metric = $('stat-metric');
  HS.metrics.forEach((m, i) => {
    if (!HS.series.some((s) => s.metric === i)) return;
    const o = document.createElement('option');
    o.value = String(i);
    o.textContent = m.name.replace(/_/g, ' ');
    o.title = m.description;
    metric.appendChild(o);
  });
  state.statMetric = Number(metric.value || 0);
  metric.addEventListener('change', () => {
    state.statMetric = Number(metric.value);
    buildStatGrid();
    drawHeadStats();
  });
  segmented(
    $('stat-group-choice'),
    HS.groups.map((t) => ({ text: t })),
    (i) => i === state.statGroup,
    (i) => {
      state.statGroup = i;
      refreshPressed($('stat-group-choice'), (k) => k === state.statGroup);
      buildStatGrid();
      drawHeadStats();
    },
  );
  $('stat-group-choice').hidden = HS.groups.length < 2;
  buildStatGrid();
}
function statValue(s, i) {
  const code = s.decoded[i];
  return code === MISSING ? NaN : s.low + (code / TOP_CODE) * (s.high - s.low);
}
function buildStatGrid() {
  const grid = $('stat-grid');
  grid.textContent = '';
  const series = HS.series.filter(
    (s) => s.group === state.statGroup && s.metric === state.statMetric,
  );
  const layers = Math.max(0, ...series.map((s) => s.layer + 1));
  const heads = Math.max(0, ...series.map((s) => s.head + 1));
  grid.style.gridTemplateColumns = `auto repeat(${heads}, minmax(4.5rem, 1fr))`;
  const m = HS.metrics[state.statMetric] || { unit_range: true, description: '' };
  let lo = 0,
    hi = 1;
  if (!m.unit_range) {
    lo = Infinity;
    hi = -Infinity;
    for (const s of series) {
      lo = Math.min(lo, s.low);
      hi = Math.max(hi, s.high);
    }
    if (!(hi > lo)) {
      lo = Number.isFinite(lo) ? lo : 0;
      hi = lo + 1;
    }
  }
  HS.range = { lo, hi };
  $('stat-hint').textContent =
    `${m.description}. Each cell is one head over training (${m.unit_range ? '0 to 1' : `${fmtValue(lo)} to ${fmtValue(hi)}`}); the line marks the timeline's step. Click a head to see its attention.`;
  for (let l = 0; l < layers; ++l) {
    const name = document.createElement('span');
    name.className = 'stat-header';
    name.textContent = `layer ${l}`;
    grid.appendChild(name);
    for (let h = 0; h < heads; ++h) {
      const s = series.find((x) => x.layer === l && x.head === h);
      const cell = document.createElement('button');
      cell.type = 'button';
      cell.className = 'stat-cell';
      const title = document.createElement('span');
      title.className = 'cell-title';
      cell.appendChild(title);
      const c = document.createElement('canvas');
      cell.appendChild(c);
      cell.series = s;
      cell.layer = l;
      cell.head = h;
      cell.addEventListener('click', () => {
        const g = groups.findIndex(
          (x) => x.title === HS.groups[state.statGroup] && !x.aggregate_of,
        );
        if (g >= 0) {
          selectHead(g, l, h);
          $('attention').scrollIntoView({ behavior: 'smooth' });
        }
      });
      grid.appendChild(cell);
    }
  }
}
function kindAt(group, layer, head, step) {
  let kind = '';
  for (const c of HS.changes)
    if (c.group === group && c.layer === layer && c.head === head && c.step <= step) kind = c.kind;
  return kind;
}
function drawHeadStats() {
  if (!HS) return;
  const step = stepOf(state.frame);
  const steps = HS.stepValues;
  const at = nearestIndex(steps, step);
  const { lo, hi } = HS.range;
  const color = cssVar('--train'),
    accent = cssVar('--accent');
  for (const cell of $('stat-grid').querySelectorAll('.stat-cell')) {
    const s = cell.series;
    const { ctx, w, h } = setupCanvas(cell.lastChild);
    const title = cell.firstChild;
    title.textContent = '';
    const name = document.createElement('span');
    name.textContent = `h${cell.head}`;
    title.appendChild(name);
    const value = document.createElement('b');
    value.textContent = s && at >= 0 ? fmtValue(statValue(s, at)) : '–';
    title.appendChild(value);
    const kind = kindAt(state.statGroup, cell.layer, cell.head, step);
    cell.title = `layer ${cell.layer} head ${cell.head}${kind ? ': ' + kind : ''}`;
    if (!s || steps.length === 0) continue;
    const x = (i) =>
      (steps.length > 1 ? (steps[i] - steps[0]) / (steps[steps.length - 1] - steps[0]) : 0.5) *
        (w - 2) +
      1;
    const y = (v) => 2 + (1 - (v - lo) / (hi - lo)) * (h - 4);
    ctx.strokeStyle = color;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    let started = false;
    for (let i = 0; i < steps.length; ++i) {
      const v = statValue(s, i);
      if (!Number.isFinite(v)) {
        started = false;
        continue;
      }
      if (started) ctx.lineTo(x(i), y(v));
      else {
        ctx.moveTo(x(i), y(v));
        started = true;
      }
    }
    ctx.stroke();
    if (at >= 0) {
      ctx.strokeStyle = accent;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(x(at), 0);
      ctx.lineTo(x(at), h);
      ctx.stroke();
    }
  }
  // Changes of kind: those still to come muted, each head's latest so far in bold.
  const list = $('stat-changes');
  list.textContent = '';
  const latest = new Map();
  for (const c of HS.changes)
    if (c.group === state.statGroup && c.step <= step) latest.set(`${c.layer}/${c.head}`, c);
  for (const c of HS.changes) {
    if (c.group !== state.statGroup) continue;
    const li = document.createElement('li');
    li.textContent = c.text;
    li.className =
      c.step > step ? 'future' : latest.get(`${c.layer}/${c.head}`) === c ? 'latest' : '';
    li.title = 'Go to this step';
    li.addEventListener('click', () => showFrame(nearestFrame(c.step)));
    list.appendChild(li);
  }
}

registerView({ name: 'head statistics', build: buildHeadStats, draw: drawHeadStats });
