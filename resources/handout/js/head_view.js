// The enlarged head, with the weight under the pointer.
const headCanvas = $('head-canvas');
function drawScale(g) {
  const top = groupTop(g);
  $('scale-low').textContent = '0';
  $('scale-high').textContent = fmtWeight(top);
  $('scale-name').textContent = 'run scale';
  $('scale-name').title =
    'The colours go from 0 to the largest weight of this group anywhere in the run, as the window\'s "run" scale';
  const bar = $('scale-bar');
  paintPixels(bar, 256, 1, (r, c) => [viridis[c * 3], viridis[c * 3 + 1], viridis[c * 3 + 2]]);
}
// A head's map on `canvas`, every token labelled as the window does: the labels shrink with the
// cells down to 8 px, and only below that is every k-th one written. Returns the context and where
// the cells are (also written on the canvas's dataset, for tests and tools that point at one).
function drawHeadMap(canvas, head, rowText, colText, colorAt) {
  const { ctx, w, h } = setupCanvas(canvas);
  const margins = (px) => {
    ctx.font = `${px.toFixed(1)}px system-ui, "Noto Sans", "DejaVu Sans", sans-serif`;
    let rowW = 0,
      colW = 0;
    for (let r = 0; r < head.rows; ++r) rowW = Math.max(rowW, ctx.measureText(rowText(r)).width);
    for (let c = 0; c < head.cols; ++c) colW = Math.max(colW, ctx.measureText(colText(c)).width);
    const left = Math.min(w * 0.32, rowW + 8),
      bottom = Math.min(h * 0.3, colW + 8);
    const cell = Math.min(
      Math.max(10, w - left - 6) / head.cols,
      Math.max(10, h - bottom - 4) / head.rows,
    );
    return { left, bottom, cell };
  };
  let fontH = remPx() * 0.62;
  let m = margins(fontH);
  if (m.cell < fontH * 1.05) {
    fontH = Math.max(8, m.cell * 0.95);
    m = margins(fontH);
  }
  const { left, bottom, cell } = m;
  const x0 = left,
    y0 = 2,
    gw = cell * head.cols,
    gh = cell * head.rows;
  const img = pixelCanvas(head.cols, head.rows, colorAt);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(img, x0, y0, gw, gh);
  ctx.strokeStyle = cssVar('--line');
  ctx.lineWidth = 1;
  ctx.strokeRect(x0 - 0.5, y0 - 0.5, gw + 1, gh + 1);
  // Labels: every token while they fit, else every k-th.
  ctx.fillStyle = cssVar('--text');
  const every = Math.max(1, Math.ceil((fontH * 1.05) / cell));
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (let r = 0; r < head.rows; r += every) {
    ctx.fillText(fitText(ctx, rowText(r), left - 6), x0 - 4, y0 + (r + 0.5) * cell);
  }
  for (let c = 0; c < head.cols; c += every) {
    ctx.save();
    ctx.translate(x0 + (c + 0.5) * cell, y0 + gh + 4);
    ctx.rotate(-Math.PI / 2);
    ctx.fillText(fitText(ctx, colText(c), bottom - 6), 0, 0);
    ctx.restore();
  }
  Object.assign(canvas.dataset, {
    plotX: x0.toFixed(1),
    plotY: y0.toFixed(1),
    cell: cell.toFixed(3),
    rows: head.rows,
    cols: head.cols,
  });
  return { ctx, geometry: { x0, y0, cell, rows: head.rows, cols: head.cols } };
}
// The cell of a map drawn by drawHeadMap under the pointer of `e`; null outside the cells.
function cellAt(canvas, geometry, e) {
  const rect = canvas.getBoundingClientRect();
  const x = e.clientX - rect.left - geometry.x0,
    y = e.clientY - rect.top - geometry.y0;
  const c = Math.floor(x / geometry.cell),
    r = Math.floor(y / geometry.cell);
  if (x < 0 || y < 0 || r >= geometry.rows || c >= geometry.cols) return null;
  return { r, c };
}
function drawHead(item) {
  const g = state.group;
  const group = groups[g];
  const head = item && headOf(item, state.layer, state.head);
  if (!head) {
    const { ctx } = setupCanvas(headCanvas);
    ctx.fillStyle = cssVar('--muted');
    ctx.font = fontOf(0.8);
    ctx.fillText('No attention of this group at this step.', 8, 24);
    headCanvas.geometry = null;
    return;
  }
  const labels = labelsOf(item);
  const rowText = (r) =>
    labels.predictions ? `${labels.rows[r]} → ${labels.predictions[r]}` : labels.rows[r];
  const masked = rgbOf(cssVar('--masked'));
  const { ctx, geometry } = drawHeadMap(
    headCanvas,
    head,
    rowText,
    (c) => labels.cols[c],
    colorFor(g, head, groupTop(g), masked),
  );
  const { x0, y0, cell } = geometry;
  if (state.decodingRow >= 0 && state.decodingRow < head.rows && labels.predictions) {
    ctx.strokeStyle = cssVar('--accent');
    ctx.lineWidth = 2;
    ctx.strokeRect(x0 - 1, y0 + state.decodingRow * cell - 1, cell * head.cols + 2, cell + 2);
  }
  if (state.hover && state.hover.r < head.rows && state.hover.c < head.cols) {
    ctx.strokeStyle = cssVar('--text');
    ctx.lineWidth = 1.5;
    ctx.strokeRect(x0 + state.hover.c * cell, y0 + state.hover.r * cell, cell, cell);
  }
  headCanvas.geometry = { ...geometry, head, labels, rowText };
  $('head-caption').textContent = group.aggregate_of
    ? `${group.title} · ${layerName(g, state.layer)}`
    : `${group.title} · layer ${state.layer} · head ${state.head}`;
  const readout = $('hover-readout');
  if (!state.hover) {
    readout.textContent = `Rows: ${labels.predictions ? 'fed token → predicts' : group.query_title}; columns: ${group.key_title}${group.causal ? '; grey: masked, a decoder never looks ahead' : ''}. Hover a cell.`;
    readout.classList.add('muted');
  }
}
function fitText(ctx, text, width) {
  if (ctx.measureText(text).width <= width) return text;
  let t = text;
  while (t.length > 1 && ctx.measureText(t + '…').width > width) t = t.slice(0, -1);
  return t + '…';
}
function cellText(geometry, r, c) {
  const group = groups[state.group];
  const { head, labels } = geometry;
  let query = labels.rows[r];
  if (labels.predictions) query = `${query} (predicts ${labels.predictions[r]})`;
  let value;
  if (group.causal && c > r) value = 'masked (causal)';
  else if (Number.isNaN(head.at(r, c))) value = 'masked';
  else value = fmtWeight(head.at(r, c));
  return `${query} → ${labels.cols[c]}: ${value}`;
}
function hoverHead(e) {
  const geometry = headCanvas.geometry;
  if (!geometry) return;
  const cell = cellAt(headCanvas, geometry, e);
  if (!cell) {
    leaveHead();
    return;
  }
  const { r, c } = cell;
  const text = cellText(geometry, r, c);
  const readout = $('hover-readout');
  readout.textContent = text;
  readout.classList.remove('muted');
  const w = geometry.head.at(r, c);
  readout.dataset.weight = Number.isNaN(w) ? 'masked' : String(w);
  readout.dataset.row = String(r);
  readout.dataset.col = String(c);
  showTooltip(text, e.clientX, e.clientY);
  if (!state.hover || state.hover.r !== r || state.hover.c !== c) {
    state.hover = { r, c };
    drawHead(currentItem());
  }
}
function leaveHead() {
  hideTooltip();
  if (state.hover) {
    state.hover = null;
    drawHead(currentItem());
  }
}

registerView({
  name: 'enlarged head',
  build: () => {
    headCanvas.addEventListener('mousemove', hoverHead);
    headCanvas.addEventListener('mouseleave', leaveHead);
  },
});
