// The attention of the shown snapshot: one head's weights, its labels, the masked cells.
const labelList = (index) => (index >= 0 && D.labels && D.labels[index]) || null;
const textOf = (index) => (D.texts && index >= 0 && index < D.texts.length ? D.texts[index] : '');
function probeAt(frame, probe) {
  const f = frames[frame];
  return (f && f.probes && f.probes[Math.min(probe, f.probes.length - 1)]) || null;
}
function attentionItem(frame, probe, group) {
  const p = probeAt(frame, probe);
  if (!p) return null;
  const item = p.attention.find((a) => a.group === group);
  if (!item) return null;
  if (!item.decoded) {
    item.decoded = { scales: float32Of(item.scales), codes: bytesOf(item.weights) };
  }
  return item;
}
// The weights of one head as the page shows them: code / 254 · the map's largest weight.
function headOf(item, layer, head) {
  const position = item.layers.indexOf(layer);
  if (position < 0 || head < 0 || head >= item.heads) return null;
  const map = position * item.heads + head;
  const size = item.rows * item.cols;
  const scale = item.decoded.scales[map];
  const codes = item.decoded.codes;
  const base = map * size;
  return {
    rows: item.rows,
    cols: item.cols,
    at(r, c) {
      const code = codes[base + r * item.cols + c];
      return code === MISSING ? NaN : (code / TOP_CODE) * scale;
    },
  };
}
function labelsOf(item) {
  const rows = labelList(item.row_labels) || Array.from({ length: item.rows }, (_, i) => String(i));
  const cols = labelList(item.col_labels) || Array.from({ length: item.cols }, (_, i) => String(i));
  const predictions = labelList(item.row_predictions);
  return { rows, cols, predictions };
}
const groupTop = (g) => (groups[g] && groups[g].run_max > 0 ? groups[g].run_max : 1);
function isMasked(g, head, r, c) {
  return (groups[g].causal && c > r) || Number.isNaN(head.at(r, c));
}
// Each cell's colour: viridis from 0 to `top`, `masked` where maskedAt says so.
function weightColors(head, top, masked, maskedAt) {
  return (r, c) => {
    if (maskedAt(r, c)) return masked;
    const i = viridisIndex(head.at(r, c), top) * 3;
    return [viridis[i], viridis[i + 1], viridis[i + 2]];
  };
}
function colorFor(g, head, top, masked) {
  return weightColors(head, top, masked, (r, c) => isMasked(g, head, r, c));
}
const layerName = (g, l) => (groups[g].layer_names && groups[g].layer_names[l]) || `layer ${l}`;
const headName = (g, h) => (groups[g].aggregate_of ? '' : `head ${h}`);
