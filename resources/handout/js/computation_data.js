// The explained heads (D.computations): each stage's matrix decoded from its packed bytes, and a
// cell taken apart with breakDownCell's arithmetic (engine/analysis/attention_cell_breakdown.cpp)
// on the model's own float32 q and k, so that the page's numbers are the engine's to the bit.
const computations = D.computations || [];

// IEEE 754 binary16 → number (engine/core/half_float.h packs them).
function halfToNumber(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f,
    fraction = h & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}
// A packed {rows, cols, values} as a matrix: float32 when its bytes are 4 a value, else binary16.
function matrixOf(packed) {
  if (!packed) return null;
  const bytes = bytesOf(packed.values);
  const count = packed.rows * packed.cols;
  let values;
  if (bytes.length === count * 4) {
    values = new Float32Array(bytes.buffer, 0, count);
  } else {
    values = new Float64Array(count);
    for (let i = 0; i < count; ++i)
      values[i] = halfToNumber(bytes[2 * i] | (bytes[2 * i + 1] << 8));
  }
  return {
    rows: packed.rows,
    cols: packed.cols,
    values,
    at: (r, c) => values[r * packed.cols + c],
  };
}
// The computation with its stages decoded once, on first use.
function computationAt(i) {
  const c = computations[i];
  if (!c) return null;
  if (!c.m) {
    const m = {};
    for (const key of [
      'query_input',
      'key_input',
      'q',
      'k',
      'v',
      'logits',
      'scaled',
      'weights',
      'head_output',
      'joined',
      'output',
    ]) {
      m[key] = matrixOf(c[key]);
    }
    if (!m.key_input) m.key_input = m.query_input; // self-attention: the same rows
    if (c.split) {
      for (const key of ['q_tokens', 'q_positions', 'k_tokens', 'k_positions']) {
        m[key] = matrixOf(c.split[key]);
      }
    }
    const masked = c.masked ? bytesOf(c.masked) : null;
    c.isMasked = (r, k) => Boolean(masked && masked[r * m.weights.cols + k]);
    const queries = labelList(c.query_labels),
      keys = labelList(c.key_labels);
    c.queryLabel = (r) => (queries && queries[r] !== undefined ? queries[r] : String(r));
    c.keyLabel = (k) => (keys && keys[k] !== undefined ? keys[k] : String(k));
    c.m = m;
  }
  return c;
}
function dotRows(a, rowA, b, rowB) {
  let s = 0;
  for (let d = 0; d < a.cols; ++d) s += a.at(rowA, d) * b.at(rowB, d);
  return s;
}
// breakDownCell: the products q[d]·k[d] and their sum, the logit, the scale, the weight, the
// ranks among the row's unmasked keys (ties share the better rank), and the four position parts.
function cellBreakdown(c, query, key) {
  const { q, k, logits, scaled, weights } = c.m;
  const b = {
    query,
    key,
    masked: c.isMasked(query, key),
    products: [],
    sum: 0,
    logit: logits.at(query, key),
    scale: c.scale,
    scaled: scaled.at(query, key),
    weight: weights.at(query, key),
    rank_before: 0,
    rank_after: 0,
    unmasked_keys: 0,
    row_max_scaled: 0,
    parts: null,
  };
  for (let d = 0; d < q.cols; ++d) {
    const p = q.at(query, d) * k.at(key, d);
    b.products.push(p);
    b.sum += p;
  }
  let any = false;
  for (let j = 0; j < k.rows; ++j) {
    if (c.isMasked(query, j)) continue;
    ++b.unmasked_keys;
    const s = scaled.at(query, j);
    if (!any || s > b.row_max_scaled) b.row_max_scaled = s;
    any = true;
    if (b.masked) continue;
    if (s > b.scaled) ++b.rank_before;
    if (weights.at(query, j) > b.weight) ++b.rank_after;
  }
  if (!b.masked) {
    ++b.rank_before;
    ++b.rank_after;
  }
  if (c.split) {
    const m = c.m;
    b.parts = [
      dotRows(m.q_tokens, query, m.k_tokens, key),
      dotRows(m.q_tokens, query, m.k_positions, key),
      dotRows(m.q_positions, query, m.k_tokens, key),
      dotRows(m.q_positions, query, m.k_positions, key),
    ];
  }
  return b;
}
const POSITION_PARTS = ['token·token', 'token·position', 'position·token', 'position·position'];
