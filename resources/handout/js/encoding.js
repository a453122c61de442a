// The positional encoding of the shown snapshot and its similarities.
const MAX_SIMILARITY_POSITIONS = 200;
function encodingOf(frame) {
  const f = frames[frame];
  const index = f ? f.encoding : -1;
  const E = index >= 0 && D.encodings ? D.encodings[index] : null;
  if (!E) return null;
  if (!E.decoded) {
    const codes = int8Of(E.values);
    const v = new Float32Array(codes.length);
    for (let i = 0; i < codes.length; ++i) v[i] = (codes[i] / 127) * E.scale;
    E.decoded = v;
    E.norms = new Float32Array(E.positions);
    for (let p = 0; p < E.positions; ++p) {
      let s = 0;
      for (let d = 0; d < E.dims; ++d) s += v[p * E.dims + d] ** 2;
      E.norms[p] = Math.sqrt(s);
    }
  }
  return E;
}
function cosine(E, a, b) {
  const v = E.decoded;
  let s = 0;
  for (let d = 0; d < E.dims; ++d) s += v[a * E.dims + d] * v[b * E.dims + d];
  const n = E.norms[a] * E.norms[b];
  return n > 0 ? s / n : 0;
}
// A heatmap filling the canvas, or with square cells when `square`.
function drawHeatmap(canvas, rows, cols, colorAt, xTitle, yTitle, square) {
  const { ctx, w, h } = setupCanvas(canvas);
  const left = remPx() * 1.1,
    bottom = remPx() * 1.1;
  let width = w - left,
    height = h - bottom;
  if (square) {
    const cell = Math.min(width / cols, height / rows);
    width = cell * cols;
    height = cell * rows;
  }
  const img = pixelCanvas(cols, rows, colorAt);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(img, left, 0, width, height);
  ctx.fillStyle = cssVar('--muted');
  ctx.font = fontOf(0.6);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  ctx.fillText(xTitle, left + width / 2, height + bottom);
  ctx.save();
  ctx.translate(0, height / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textBaseline = 'top';
  ctx.fillText(yTitle, 0, 0);
  ctx.restore();
  return { left, top: 0, width, height, ctx };
}
function drawEncoding() {
  const E = encodingOf(state.frame);
  const section = $('encoding');
  if (!E) {
    const any = frames.some((f) => f.encoding >= 0);
    section.hidden = !any;
    $('nav-encoding').hidden = !any;
    return;
  }
  section.hidden = false;
  $('encoding-hint').textContent =
    `${E.kind === 'learned' ? 'Learned' : 'Sinusoidal'} position embeddings, ${fmtInt(E.positions)} positions × ${E.dims} dimensions${E.kind === 'learned' ? ', as trained at this step' : ' (fixed)'}. Blue negative, red positive.`;
  const maxAbs = E.scale || 1;
  $('pe-heatmap').area = drawHeatmap(
    $('pe-heatmap'),
    E.positions,
    E.dims,
    (r, c) => coolwarm(0.5 + E.decoded[r * E.dims + c] / (2 * maxAbs)),
    'dimension',
    'position',
  );
  // chosen dimensions over position
  const dims = [...new Set([0, 1, Math.floor(E.dims / 4), Math.floor(E.dims / 2)])].filter(
    (d) => d < E.dims,
  );
  const { ctx, w, h } = setupCanvas($('pe-dims'));
  const colors = [cssVar('--train'), cssVar('--validation'), cssVar('--test'), cssVar('--note')];
  ctx.font = fontOf(0.6);
  const top = remPx() * 0.4,
    bottom = remPx() * 1.1;
  const left =
    Math.max(ctx.measureText(fmtValue(maxAbs)).width, ctx.measureText(fmtValue(-maxAbs)).width) + 8;
  ctx.strokeStyle = cssVar('--grid');
  ctx.beginPath();
  ctx.moveTo(left, top + (h - top - bottom) / 2);
  ctx.lineTo(w, top + (h - top - bottom) / 2);
  ctx.stroke();
  dims.forEach((d, k) => {
    ctx.strokeStyle = colors[k % colors.length];
    ctx.lineWidth = 1.6;
    ctx.beginPath();
    for (let p = 0; p < E.positions; ++p) {
      const x = left + (E.positions > 1 ? p / (E.positions - 1) : 0.5) * (w - left - 2);
      const y = top + (0.5 - E.decoded[p * E.dims + d] / (2 * maxAbs)) * (h - top - bottom);
      if (p) ctx.lineTo(x, y);
      else ctx.moveTo(x, y);
    }
    ctx.stroke();
  });
  ctx.font = fontOf(0.6);
  ctx.fillStyle = cssVar('--muted');
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  ctx.fillText('position', left + (w - left) / 2, h);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  ctx.fillText(fmtValue(maxAbs), left - 3, top + 4);
  ctx.fillText(fmtValue(-maxAbs), left - 3, h - bottom - 4);
  const caption = $('pe-dims-caption');
  caption.textContent = 'Dimensions ';
  dims.forEach((d, k) => {
    const key = document.createElement('b');
    key.style.color = colors[k % colors.length];
    key.textContent = `${d}`;
    caption.append(key, k + 1 < dims.length ? ', ' : ' over position');
  });
  // similarity of positions
  const P = Math.min(E.positions, MAX_SIMILARITY_POSITIONS);
  if (!E.similarity || E.similarity.length !== P * P) {
    E.similarity = new Float32Array(P * P);
    for (let a = 0; a < P; ++a)
      for (let b = a; b < P; ++b)
        E.similarity[a * P + b] = E.similarity[b * P + a] = cosine(E, a, b);
  }
  $('pe-similarity').area = drawHeatmap(
    $('pe-similarity'),
    P,
    P,
    (r, c) => coolwarm(0.5 + E.similarity[r * P + c] / 2),
    'position',
    'position',
    true,
  );
  $('pe-similarity-caption').textContent =
    `Cosine similarity of every two positions${P < E.positions ? ` (the first ${P})` : ''}: nearby positions look alike`;
  // ViT: each patch's similarity on the patch grid
  const grid = E.grid_rows * E.grid_cols;
  const patchBox = $('pe-patch-box');
  patchBox.hidden = !(grid > 0 && E.positions === grid + (E.has_cls ? 1 : 0));
  if (patchBox.hidden) return;
  const offset = E.has_cls ? 1 : 0;
  if (state.pePatch < 0 || state.pePatch >= grid)
    state.pePatch = Math.floor(E.grid_rows / 2) * E.grid_cols + Math.floor(E.grid_cols / 2);
  const canvas = $('pe-patches');
  const area = drawHeatmap(
    canvas,
    E.grid_rows,
    E.grid_cols,
    (r, c) => coolwarm(0.5 + cosine(E, offset + state.pePatch, offset + r * E.grid_cols + c) / 2),
    'patch column',
    'patch row',
    true,
  );
  // The chosen patch, outlined.
  const cw = area.width / E.grid_cols,
    ch = area.height / E.grid_rows;
  area.ctx.strokeStyle = cssVar('--text');
  area.ctx.lineWidth = 2;
  area.ctx.strokeRect(
    area.left + (state.pePatch % E.grid_cols) * cw + 1,
    Math.floor(state.pePatch / E.grid_cols) * ch + 1,
    cw - 2,
    ch - 2,
  );
  canvas.area = area;
  $('pe-patch-caption').textContent =
    `Similarity of every patch's position to patch ${state.pePatch} (marked; hover to choose another)`;
}
function hoverPatches(e) {
  const E = encodingOf(state.frame);
  const canvas = $('pe-patches');
  if (!E || !canvas.area) return;
  const rect = canvas.getBoundingClientRect();
  const a = canvas.area;
  const c = Math.floor(((e.clientX - rect.left - a.left) / a.width) * E.grid_cols);
  const r = Math.floor(((e.clientY - rect.top - a.top) / a.height) * E.grid_rows);
  if (r < 0 || c < 0 || r >= E.grid_rows || c >= E.grid_cols) return;
  const patch = r * E.grid_cols + c;
  if (patch !== state.pePatch) {
    state.pePatch = patch;
    drawEncoding();
  }
}
function hoverEncoding(e, canvas, what) {
  const E = encodingOf(state.frame);
  if (!E) return;
  const rect = canvas.getBoundingClientRect();
  const area = canvas.area || {
    left: remPx() * 1.1,
    top: 0,
    width: rect.width - remPx() * 1.1,
    height: rect.height - remPx() * 1.1,
  };
  const fx = (e.clientX - rect.left - area.left) / area.width,
    fy = (e.clientY - rect.top - area.top) / area.height;
  if (fx < 0 || fy < 0 || fx >= 1 || fy >= 1) return;
  let text;
  if (what === 'values') {
    const p = Math.floor(fy * E.positions),
      d = Math.floor(fx * E.dims);
    text = `position ${p}, dimension ${d}: ${fmtValue(E.decoded[p * E.dims + d])}`;
  } else {
    const P = Math.min(E.positions, MAX_SIMILARITY_POSITIONS);
    const a = Math.floor(fy * P),
      b = Math.floor(fx * P);
    text = `positions ${a} and ${b}: cosine similarity ${fmtValue(E.similarity[a * P + b])}`;
  }
  $('pe-readout').textContent = text;
  showTooltip(text, e.clientX, e.clientY);
}

registerView({
  name: 'positional encoding',
  build: () => {
    $('pe-patches').addEventListener('mousemove', hoverPatches);
    $('pe-heatmap').addEventListener('mousemove', (e) =>
      hoverEncoding(e, $('pe-heatmap'), 'values'),
    );
    $('pe-similarity').addEventListener('mousemove', (e) =>
      hoverEncoding(e, $('pe-similarity'), 'similarity'),
    );
    for (const c of [$('pe-heatmap'), $('pe-similarity')])
      c.addEventListener('mouseleave', hideTooltip);
  },
  draw: drawEncoding,
});
