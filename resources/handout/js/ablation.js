// Ablation: each head switched off, its effect on the figures.
function buildAblation() {
  const A = D.ablation;
  if (!A) {
    $('ablation').hidden = true;
    $('nav-ablation').hidden = true;
    return;
  }
  const select = $('ablation-metric');
  // Loss and accuracy, then every figure the task declares (BLEU, edit distance, …).
  const metrics = [
    ['accuracy', 'accuracy'],
    ['loss', 'loss'],
  ];
  for (const f of A.figures || []) metrics.push([f.key, f.label]);
  for (const [value, text] of metrics) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    select.appendChild(o);
  }
  select.addEventListener('change', () => {
    state.ablationMetric = select.value;
    drawAblation();
  });
  drawAblation();
}
function drawAblation() {
  const A = D.ablation;
  const metric = state.ablationMetric;
  const info = (A.figures || []).find((f) => f.key === metric);
  const valueOf = (r) => {
    if (!info) return r[metric];
    const v = r.figures ? r.figures[metric] : null;
    return v === null || v === undefined ? NaN : v;
  };
  const base = valueOf(A.baseline);
  const checkpoint =
    A.step > 0 ? `the checkpoint of step ${fmtInt(A.step)}` : "the run's newest checkpoint";
  $('ablation-hint').textContent =
    `Heads switched off in ${checkpoint}, on ${fmtInt(A.samples)} validation samples: the change in ${info ? info.label : metric} from ${fmtValue(base)} with every head on. Red: the model does worse without it.`;
  const box = $('ablation-tables');
  box.textContent = '';
  const groupsSeen = [...new Set(A.rows.map((r) => r.group))];
  let maxAbs = 0;
  for (const r of A.rows)
    if (Number.isFinite(valueOf(r)) && Number.isFinite(base))
      maxAbs = Math.max(maxAbs, Math.abs(valueOf(r) - base));
  const lowerBetter = metric === 'loss' || (info && info.lower_better);
  const worse = (d) => (lowerBetter ? d > 0 : d < 0);
  const tint = (d) => {
    if (!Number.isFinite(d) || maxAbs === 0) return '';
    const a = Math.min(1, Math.abs(d) / maxAbs) * 0.55;
    return worse(d) ? `rgba(214,39,40,${a.toFixed(2)})` : `rgba(31,119,180,${a.toFixed(2)})`;
  };
  const fmtDelta = (d) =>
    Number.isFinite(d) ? (d > 0 ? '+' : '') + d.toFixed(info ? info.decimals : 3) : '–';
  for (const g of groupsSeen) {
    for (const kind of ['drop head', 'keep only head']) {
      const rows = A.rows.filter((r) => r.group === g && r.ablation === kind);
      if (!rows.length) continue;
      const layers = Math.max(...rows.map((r) => r.layer)) + 1;
      const heads = Math.max(...rows.map((r) => r.head)) + 1;
      const table = document.createElement('table');
      table.className = 'ablation-table';
      const caption = table.createCaption();
      caption.textContent = `${g}: ${kind === 'drop head' ? 'each head dropped' : 'only this head of its layer kept'}`;
      const head = table.createTHead().insertRow();
      head.appendChild(document.createElement('th'));
      for (let h = 0; h < heads; ++h) {
        const th = document.createElement('th');
        th.textContent = `head ${h}`;
        head.appendChild(th);
      }
      if (kind === 'drop head') {
        const th = document.createElement('th');
        th.textContent = 'layer dropped';
        head.appendChild(th);
      }
      const body = table.createTBody();
      for (let l = 0; l < layers; ++l) {
        const tr = body.insertRow();
        const th = document.createElement('th');
        th.textContent = `layer ${l}`;
        tr.appendChild(th);
        const cells = [...Array(heads).keys()].map((h) =>
          rows.find((r) => r.layer === l && r.head === h),
        );
        if (kind === 'drop head')
          cells.push(
            A.rows.find((r) => r.group === g && r.layer === l && r.ablation === 'drop layer'),
          );
        for (const r of cells) {
          const td = tr.insertCell();
          const d = r ? valueOf(r) - base : NaN;
          td.textContent = fmtDelta(d);
          td.style.background = tint(d);
        }
      }
      box.appendChild(table);
    }
  }
}

registerView({ name: 'ablation', build: buildAblation });
