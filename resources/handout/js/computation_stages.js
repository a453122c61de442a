// The explained head's stages, left to right as the head computes them: each a small map of its
// matrix with its shape and formula, the chosen cell's rows and cell outlined, the number under
// the pointer read out. Signed numbers are blue–red around 0 (the largest magnitude of the
// matrix at either end), weights viridis; a masked cell is grey and never shows a number.
const STAGE_BOX = 150; // px: the longer side of a stage's map
const STAGE_MAX_CELL = 14;

const dimLabel = (n) => (d) => `dim ${d} of ${n}`;
// Every stage of computation `c`: {name, formula, shape ({names, size}), matrix, rowLabel, colLabel, kind
// ('signed', 'weights', 'mask'), masks (its cells follow the mask), mark ({row}, {cell} or
// {cols: [first, end]})}.
function stagesOf(c) {
  const m = c.m;
  const cross = c.key_input !== null;
  const tq = m.q.rows,
    tk = m.k.rows;
  const qs = { names: '[queries × d_model]', size: `${tq} × ${c.d_model}` };
  const x = c.norm_first ? 'LN(x)' : 'x';
  const source = cross ? 'memory' : x;
  const query = (r) => `query ${r} “${c.queryLabel(r)}”`;
  const key = (k) => `key ${k} “${c.keyLabel(k)}”`;
  const perQuery = { rowLabel: query, kind: 'signed' };
  const perKey = { rowLabel: key, kind: 'signed' };
  const map = { rowLabel: query, colLabel: key, masks: true };
  const stages = [
    {
      ...perQuery,
      name: x,
      formula: c.norm_first ? "the layer's input after its LayerNorm" : "the layer's input",
      shape: qs,
      matrix: m.query_input,
      colLabel: dimLabel(c.d_model),
      mark: { row: 'query' },
    },
  ];
  if (cross) {
    stages.push({
      ...perKey,
      name: 'memory',
      formula: 'what the keys and values are made from',
      shape: { names: '[keys × d_model]', size: `${tk} × ${c.d_model}` },
      matrix: m.key_input,
      colLabel: dimLabel(c.d_model),
      mark: { row: 'key' },
    });
  }
  const square = { names: '[queries × keys]', size: `${tq} × ${tk}` };
  const dh = (rows, n) => ({ names: `[${rows} × d_head]`, size: `${n} × ${c.d_head}` });
  stages.push(
    {
      ...perQuery,
      name: 'Q',
      formula: `${x} · W_Qᵀ + b_Q`,
      shape: dh('queries', tq),
      matrix: m.q,
      colLabel: dimLabel(c.d_head),
      mark: { row: 'query' },
    },
    {
      ...perKey,
      name: 'K',
      formula: `${source} · W_Kᵀ + b_K`,
      shape: dh('keys', tk),
      matrix: m.k,
      colLabel: dimLabel(c.d_head),
      mark: { row: 'key' },
    },
    {
      ...perKey,
      name: 'V',
      formula: `${source} · W_Vᵀ + b_V`,
      shape: dh('keys', tk),
      matrix: m.v,
      colLabel: dimLabel(c.d_head),
      mark: { row: 'key' },
    },
    {
      ...map,
      kind: 'signed',
      name: 'QKᵀ',
      formula: 'each query row · each key row',
      shape: square,
      matrix: m.logits,
      mark: { cell: true },
    },
    {
      ...map,
      kind: 'signed',
      name: `÷ √${c.d_head}`,
      formula: `QKᵀ × ${fmtValue(c.scale)}`,
      shape: square,
      matrix: m.scaled,
      mark: { cell: true },
    },
    {
      ...map,
      kind: 'mask',
      name: 'mask',
      formula: c.masked ? 'grey: −∞, the key is blocked' : 'no key is blocked',
      shape: square,
      matrix: m.scaled,
      mark: { cell: true },
    },
    {
      ...map,
      kind: 'weights',
      name: 'softmax',
      formula: 'A: each row’s e^s ÷ its sum',
      shape: square,
      matrix: m.weights,
      mark: { cell: true },
    },
    {
      ...perQuery,
      name: 'A · V',
      formula: `head ${c.head}’s output`,
      shape: dh('queries', tq),
      matrix: m.head_output,
      colLabel: dimLabel(c.d_head),
      mark: { row: 'query' },
    },
    {
      ...perQuery,
      name: 'heads joined',
      formula: `${c.heads} heads side by side; head ${c.head} outlined`,
      shape: qs,
      matrix: m.joined,
      colLabel: (d) => `dim ${d} of ${c.d_model} (head ${Math.floor(d / c.d_head)})`,
      mark: { row: 'query', cols: [c.head * c.d_head, (c.head + 1) * c.d_head] },
    },
    {
      ...perQuery,
      name: 'output',
      formula: 'joined · W_Oᵀ + b_O',
      shape: qs,
      matrix: m.output,
      colLabel: dimLabel(c.d_model),
      mark: { row: 'query' },
    },
  );
  return stages;
}
function largestMagnitude(matrix, skip) {
  let top = 0;
  for (let r = 0; r < matrix.rows; ++r) {
    for (let k = 0; k < matrix.cols; ++k) {
      const v = matrix.at(r, k);
      if (!skip(r, k) && Number.isFinite(v)) top = Math.max(top, Math.abs(v));
    }
  }
  return top > 0 ? top : 1;
}
function stageColors(c, stage) {
  const masked = rgbOf(cssVar('--masked'));
  const skip = (r, k) => Boolean(stage.masks && c.isMasked(r, k));
  if (stage.kind === 'mask') {
    const open = rgbOf(cssVar('--surface'));
    return (r, k) => (skip(r, k) ? masked : open);
  }
  const top = largestMagnitude(stage.matrix, skip);
  if (stage.kind === 'weights') {
    return weightColors(stage.matrix, top, masked, skip);
  }
  return (r, k) => (skip(r, k) ? masked : coolwarm((stage.matrix.at(r, k) / top + 1) / 2));
}
// The figures, made again when another head is chosen.
function buildStages(c) {
  const box = $('computation-stages');
  box.textContent = '';
  c.stages = stagesOf(c);
  c.stages.forEach((stage, i) => {
    if (i > 0) {
      const arrow = document.createElement('span');
      arrow.className = 'stage-arrow';
      arrow.textContent = '→';
      arrow.setAttribute('aria-hidden', 'true');
      box.appendChild(arrow);
    }
    const figure = document.createElement('figure');
    figure.className = 'stage';
    figure.dataset.stage = stage.name;
    const canvas = document.createElement('canvas');
    const { rows, cols } = stage.matrix;
    const cell = Math.min(STAGE_MAX_CELL, STAGE_BOX / Math.max(rows, cols));
    canvas.style.width = `${Math.max(2, cols * cell).toFixed(1)}px`;
    // A strip of few rows keeps a height the eye finds (its cells then taller than wide).
    canvas.style.height = `${Math.max(Math.min(24, rows * STAGE_MAX_CELL), rows * cell).toFixed(1)}px`;
    canvas.setAttribute('role', 'img');
    canvas.setAttribute(
      'aria-label',
      `${stage.name}: ${stage.formula} ${stage.shape.names} ${stage.shape.size}`,
    );
    canvas.addEventListener('mousemove', (e) => hoverStage(c, stage, canvas, e));
    canvas.addEventListener('mouseleave', () => {
      hideTooltip();
      $('computation-readout').textContent = '';
    });
    const caption = document.createElement('figcaption');
    const name = document.createElement('b');
    name.textContent = stage.name;
    const shape = document.createElement('span');
    shape.className = 'stage-shape';
    shape.textContent = `${stage.shape.names} = ${stage.shape.size}`;
    caption.append(name, ` = ${stage.formula}`, document.createElement('br'), shape);
    figure.append(canvas, caption);
    box.appendChild(figure);
    stage.canvas = canvas;
  });
}
function drawStages(c, cell) {
  for (const stage of c.stages) {
    const { ctx, w, h } = setupCanvas(stage.canvas);
    const { rows, cols } = stage.matrix;
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(pixelCanvas(cols, rows, stageColors(c, stage)), 0, 0, w, h);
    const cw = w / cols,
      ch = h / rows;
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = cssVar('--text');
    const mark = stage.mark;
    if (mark.cols) {
      ctx.strokeRect(mark.cols[0] * cw, 0.75, (mark.cols[1] - mark.cols[0]) * cw, h - 1.5);
    }
    ctx.strokeStyle = cssVar('--accent');
    ctx.lineWidth = 2;
    if (mark.row) {
      const r = mark.row === 'query' ? cell.query : cell.key;
      ctx.strokeRect(0, r * ch, w, Math.max(2, ch));
    } else if (mark.cell) {
      ctx.strokeRect(cell.key * cw, cell.query * ch, Math.max(2, cw), Math.max(2, ch));
    }
    Object.assign(stage.canvas.dataset, { rows, cols });
  }
}
// "QKᵀ · query 3 “cat” · key 5 “sat”: 4.213", "masked" for a blocked cell.
function stageCellText(c, stage, r, k) {
  const where = `${stage.rowLabel(r)} · ${stage.colLabel(k)}`;
  let value;
  if (stage.masks && c.isMasked(r, k)) value = 'masked';
  else if (stage.kind === 'mask') value = 'open';
  else value = fmtValue(stage.matrix.at(r, k));
  return `${stage.name} · ${where}: ${value}`;
}
function hoverStage(c, stage, canvas, e) {
  const rect = canvas.getBoundingClientRect();
  const k = Math.floor(((e.clientX - rect.left) / rect.width) * stage.matrix.cols);
  const r = Math.floor(((e.clientY - rect.top) / rect.height) * stage.matrix.rows);
  if (r < 0 || k < 0 || r >= stage.matrix.rows || k >= stage.matrix.cols) {
    hideTooltip();
    return;
  }
  const text = stageCellText(c, stage, r, k);
  const readout = $('computation-readout');
  readout.textContent = text;
  Object.assign(readout.dataset, { stage: stage.name, row: r, col: k });
  showTooltip(text, e.clientX, e.clientY);
}
