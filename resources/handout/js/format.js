// Numbers and fonts as the window writes them.
const fmtInt = (n) => Math.round(n).toLocaleString('en-US');
function fmtWeight(w) {
  // as the window: two decimals, two significant digits below 0.01
  if (!Number.isFinite(w)) return '–';
  return w === 0 || Math.abs(w) >= 0.01 ? w.toFixed(2) : w.toPrecision(2);
}
function fmtValue(v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  if (a >= 1000) return fmtInt(v);
  if (a >= 100) return v.toFixed(1);
  if (a >= 1) return v.toFixed(3);
  return v.toPrecision(3);
}
const cssVar = (name) => getComputedStyle(root).getPropertyValue(name).trim();
function rgbOf(color) {
  const m = /^#([0-9a-f]{6})$/i.exec(color);
  if (m) {
    const n = parseInt(m[1], 16);
    return [n >> 16, (n >> 8) & 255, n & 255];
  }
  return [128, 128, 128];
}
const remPx = () => parseFloat(getComputedStyle(root).fontSize) || 16;
const fontOf = (scale, weight) =>
  `${weight || ''} ${(remPx() * scale).toFixed(1)}px system-ui, "Noto Sans", "DejaVu Sans", sans-serif`;
