// Canvas helpers: crisp canvases, pixel grids, axis ticks and the tooltip.
function setupCanvas(canvas) {
  const r = canvas.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(r.width * dpr)),
    h = Math.max(1, Math.round(r.height * dpr));
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, r.width, r.height);
  return { ctx, w: r.width, h: r.height };
}
// A rows × cols grid of colours as a small canvas, to be scaled up without smoothing.
function pixelCanvas(cols, rows, colorAt) {
  const c = document.createElement('canvas');
  c.width = Math.max(1, cols);
  c.height = Math.max(1, rows);
  paintPixels(c, cols, rows, colorAt);
  return c;
}
function paintPixels(canvas, cols, rows, colorAt) {
  if (canvas.width !== cols) canvas.width = Math.max(1, cols);
  if (canvas.height !== rows) canvas.height = Math.max(1, rows);
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(Math.max(1, cols), Math.max(1, rows));
  const px = img.data;
  for (let r = 0; r < rows; ++r) {
    for (let c = 0; c < cols; ++c) {
      const rgb = colorAt(r, c);
      const o = (r * cols + c) * 4;
      px[o] = rgb[0];
      px[o + 1] = rgb[1];
      px[o + 2] = rgb[2];
      px[o + 3] = 255;
    }
  }
  ctx.putImageData(img, 0, 0);
}
function niceTicks(lo, hi, count) {
  if (!(hi > lo)) {
    hi = lo + 1;
  }
  const raw = (hi - lo) / Math.max(1, count);
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const norm = raw / mag;
  const step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
  const ticks = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
    ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  return ticks;
}
function tickText(t) {
  const a = Math.abs(t);
  if (a >= 10000) return (t / 1000).toFixed(a >= 100000 ? 0 : 1).replace(/\.0$/, '') + 'k';
  if (a >= 100 || t === 0) return String(Math.round(t * 100) / 100);
  return String(Number(t.toPrecision(3)));
}
const tooltip = $('tooltip');
function showTooltip(text, x, y) {
  tooltip.textContent = text;
  tooltip.hidden = false;
  const r = tooltip.getBoundingClientRect();
  let left = x + 14,
    top = y + 14;
  if (left + r.width > window.innerWidth - 4) left = Math.max(4, x - r.width - 14);
  if (top + r.height > window.innerHeight - 4) top = Math.max(4, y - r.height - 14);
  tooltip.style.left = left + 'px';
  tooltip.style.top = top + 'px';
}
const hideTooltip = () => {
  tooltip.hidden = true;
};
