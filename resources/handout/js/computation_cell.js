// One cell of the explained head taken apart (cellBreakdown): the products q[d]·k[d] as bars with
// their running sum, ending at Σ, the logit; the scale; where the cell stands in its row before
// and after the softmax; and, at a first layer fed token + position, the logit as its four parts
// (content against place). A masked cell says it is masked and shows no number.
const PART_NOTES = [
  'content: the two tokens',
  'the query’s token, the key’s position',
  'the query’s position, the key’s token',
  'place: the two positions',
];
function paragraph(parent, text, className) {
  const p = document.createElement('p');
  if (className) p.className = className;
  p.textContent = text;
  parent.appendChild(p);
  return p;
}
function cellCanvas(parent, label, height) {
  const canvas = document.createElement('canvas');
  canvas.className = 'cell-chart';
  canvas.style.height = `${height}px`;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', label);
  parent.appendChild(canvas);
  return canvas;
}
// Vertical bars of `values` (positive up), the running sum as a line, and a last bar Σ.
function drawProducts(canvas, products, sum) {
  const { ctx, w, h } = setupCanvas(canvas);
  let lo = Math.min(0, sum),
    hi = Math.max(0, sum),
    running = 0;
  for (const p of products) {
    running += p;
    lo = Math.min(lo, p, running);
    hi = Math.max(hi, p, running);
  }
  if (!(hi > lo)) hi = lo + 1;
  const top = 6,
    bottom = h - 16,
    left = 40;
  const y = (v) => bottom - ((v - lo) / (hi - lo)) * (bottom - top);
  const slots = products.length + 2; // a gap, then Σ
  const slot = (w - left - 4) / slots;
  ctx.font = fontOf(0.65);
  ctx.fillStyle = cssVar('--muted');
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of niceTicks(lo, hi, 4)) ctx.fillText(tickText(t), left - 4, y(t));
  ctx.strokeStyle = cssVar('--line');
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(left, y(0));
  ctx.lineTo(w - 2, y(0));
  ctx.stroke();
  const bar = (i, v, color) => {
    ctx.fillStyle = color;
    const x = left + i * slot + slot * 0.15;
    ctx.fillRect(x, Math.min(y(0), y(v)), Math.max(1, slot * 0.7), Math.abs(y(v) - y(0)));
  };
  products.forEach((p, d) => bar(d, p, p >= 0 ? cssVar('--validation') : cssVar('--train')));
  bar(products.length + 1, sum, cssVar('--test'));
  ctx.strokeStyle = cssVar('--text');
  ctx.lineWidth = 1.2;
  ctx.beginPath();
  running = 0;
  ctx.moveTo(left, y(0));
  products.forEach((p, d) => {
    running += p;
    ctx.lineTo(left + (d + 1) * slot, y(running));
  });
  ctx.stroke();
  ctx.fillStyle = cssVar('--muted');
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  const every = Math.max(1, Math.ceil(24 / slot));
  for (let d = 0; d < products.length; d += every) {
    ctx.fillText(String(d), left + (d + 0.5) * slot, h - 3);
  }
  ctx.fillText('Σ', left + (products.length + 1.5) * slot, h - 3);
}
// The row's unmasked keys: scaled logits above (around their zero line), weights below (0 to 1),
// the chosen key in the accent, each key named below where there is room.
function drawRow(canvas, c, b) {
  const { ctx, w, h } = setupCanvas(canvas);
  const keys = [];
  for (let k = 0; k < c.m.k.rows; ++k) if (!c.isMasked(b.query, k)) keys.push(k);
  const scaled = keys.map((k) => c.m.scaled.at(b.query, k));
  const weights = keys.map((k) => c.m.weights.at(b.query, k));
  const lo = Math.min(0, ...scaled),
    hi = Math.max(0, ...scaled);
  ctx.font = fontOf(0.65);
  const names = ['QKᵀ/√d', 'weights'];
  const left = Math.max(...names.map((t) => ctx.measureText(t).width)) + 10,
    band = (h - 22) / 2,
    slot = (w - left - 4) / Math.max(1, keys.length);
  ctx.fillStyle = cssVar('--muted');
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  ctx.fillText(names[0], left - 6, band * 0.5);
  ctx.fillText(names[1], left - 6, band + 6 + band * 0.5);
  const y = (v) => 2 + ((hi - v) / (hi - lo || 1)) * (band - 4);
  ctx.strokeStyle = cssVar('--line');
  ctx.beginPath();
  ctx.moveTo(left, y(0));
  ctx.lineTo(w - 2, y(0));
  ctx.moveTo(left, band * 2 + 4);
  ctx.lineTo(w - 2, band * 2 + 4);
  ctx.stroke();
  const named = slot >= 24;
  keys.forEach((k, i) => {
    const chosen = k === b.key;
    const color = chosen ? cssVar('--accent') : cssVar('--line');
    const x = left + i * slot + slot * 0.1,
      bw = Math.max(1, slot * 0.8);
    ctx.fillStyle = color;
    ctx.fillRect(x, Math.min(y(0), y(scaled[i])), bw, Math.max(1, Math.abs(y(scaled[i]) - y(0))));
    const wh = weights[i] * (band - 4);
    ctx.fillRect(x, band * 2 + 4 - wh, bw, Math.max(1, wh));
    if (named) {
      ctx.fillStyle = chosen ? cssVar('--text') : cssVar('--muted');
      ctx.textAlign = 'center';
      ctx.textBaseline = 'alphabetic';
      ctx.fillText(fitText(ctx, c.keyLabel(k), slot - 2), x + bw / 2, h - 3);
    }
  });
}
function drawParts(canvas, parts, logit) {
  const { ctx, w, h } = setupCanvas(canvas);
  const top = Math.max(...parts.map(Math.abs), Math.abs(logit), 1e-9);
  ctx.font = fontOf(0.7);
  const left = Math.max(...POSITION_PARTS.map((t) => ctx.measureText(t).width)) + 10,
    mid = left + (w - left - 70) / 2,
    span = (w - left - 70) / 2;
  const row = h / 5;
  ctx.textBaseline = 'middle';
  [...parts, logit].forEach((v, i) => {
    const y = i * row + row / 2;
    ctx.fillStyle = cssVar('--text');
    ctx.textAlign = 'right';
    ctx.fillText(i < 4 ? POSITION_PARTS[i] : 'the logit', left - 6, y);
    ctx.fillStyle = i < 4 ? cssVar('--note') : cssVar('--test');
    const len = (v / top) * span;
    ctx.fillRect(Math.min(mid, mid + len), y - row * 0.3, Math.max(1, Math.abs(len)), row * 0.6);
    ctx.fillStyle = cssVar('--text');
    ctx.textAlign = 'left';
    ctx.fillText(fmtValue(v), mid + span + 6, y);
  });
  ctx.strokeStyle = cssVar('--line');
  ctx.beginPath();
  ctx.moveTo(mid, 0);
  ctx.lineTo(mid, h);
  ctx.stroke();
}
function showCell(c, query, key) {
  const box = $('computation-cell');
  box.textContent = '';
  const b = cellBreakdown(c, query, key);
  const title = document.createElement('h3');
  title.textContent = `“${c.queryLabel(query)}” (query ${query}) → “${c.keyLabel(key)}” (key ${key})`;
  box.appendChild(title);
  Object.assign(box.dataset, { query, key, masked: String(b.masked) });
  for (const name of [
    'products',
    'sum',
    'logit',
    'scaled',
    'weight',
    'rank_before',
    'rank_after',
    'parts',
  ]) {
    delete box.dataset[name];
  }
  if (b.masked) {
    paragraph(
      box,
      'Masked: this key is blocked for this query, so it takes no part in the softmax and gets ' +
        'no weight. Nothing of it is computed here.',
      'cell-masked',
    );
    return;
  }
  Object.assign(box.dataset, {
    products: JSON.stringify(b.products),
    sum: String(b.sum),
    logit: String(b.logit),
    scaled: String(b.scaled),
    weight: String(b.weight),
    rank_before: String(b.rank_before),
    rank_after: String(b.rank_after),
  });
  paragraph(
    box,
    `1 · q·k: the ${b.products.length} products q[d]·k[d] (bars: orange adds, blue takes away; the line is the running sum) add up ` +
      `to the green Σ = ${fmtValue(b.sum)}, the logit QKᵀ = ${fmtValue(b.logit)}.`,
  );
  drawProducts(
    cellCanvas(box, `The products q[d]·k[d], summing to ${fmtValue(b.sum)}`, 130),
    b.products,
    b.sum,
  );
  paragraph(
    box,
    `2 · ÷ √${c.d_head}: ${fmtValue(b.logit)} × ${fmtValue(b.scale)} = ${fmtValue(b.scaled)}` +
      ` (the row's largest: ${fmtValue(b.row_max_scaled)}).`,
  );
  paragraph(
    box,
    `3 · softmax: rank ${b.rank_before} of ${b.unmasked_keys} keys before, weight ` +
      `${fmtWeight(b.weight)}, rank ${b.rank_after} after. The order stays; the gaps grow.`,
  );
  drawRow(cellCanvas(box, 'The row before and after the softmax', 110), c, b);
  if (b.parts) {
    box.dataset.parts = JSON.stringify(b.parts);
    // Shares of the parts' magnitudes: parts of opposite signs cancel in the logit, not here.
    const total = b.parts.reduce((s, p) => s + Math.abs(p), 0) || 1;
    const share = (...parts) =>
      `${Math.round((100 * parts.reduce((s, p) => s + Math.abs(p), 0)) / total)}%`;
    paragraph(
      box,
      `4 · content against place: this first layer reads token + position, so the logit is ` +
        `four dot products that add up to it: ${PART_NOTES[0]} (${share(b.parts[0])} of the ` +
        `magnitude), ${PART_NOTES[3]} (${share(b.parts[3])}), and the two mixed ones (${share(b.parts[1], b.parts[2])}).`,
    );
    drawParts(cellCanvas(box, 'The logit split into its four parts', 110), b.parts, b.logit);
  }
}
