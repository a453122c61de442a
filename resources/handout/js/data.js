// The packed data: the JSON document in #handout-data, its base64 arrays decoded, and the
// page's shared state (one time axis: the shown snapshot, probe, group, layer and head).
const D = JSON.parse(document.getElementById('handout-data').textContent);
const $ = (id) => document.getElementById(id);
const root = document.documentElement;

// ---- the packed data ---------------------------------------------------------------------
function bytesOf(b64) {
  const text = atob(b64 || '');
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; ++i) out[i] = text.charCodeAt(i);
  return out;
}
const float32Of = (b64) => {
  const b = bytesOf(b64);
  return new Float32Array(b.buffer, 0, b.length >> 2);
};
const float64Of = (b64) => {
  const b = bytesOf(b64);
  return new Float64Array(b.buffer, 0, b.length >> 3);
};
const int8Of = (b64) => {
  const b = bytesOf(b64);
  return new Int8Array(b.buffer, 0, b.length);
};
const MISSING = 255;
const TOP_CODE = 254;

const frames = D.frames || [];
const groups = D.groups || [];
const viridis = bytesOf(D.colors && D.colors.viridis);
const coolwarmStops = [
  [0, 0x3b, 0x4c, 0xc0],
  [0.25, 0x7b, 0x9f, 0xf9],
  [0.5, 0xdd, 0xdc, 0xdc],
  [0.75, 0xf4, 0x98, 0x7a],
  [1, 0xb4, 0x04, 0x26],
];

// The document's layout this page reads (resources/handout/handout.schema.json, "format").
const HANDOUT_FORMAT = 1;

// Every view of the page, in the order its module was joined: { name, build(), draw() }, either
// may be absent. A view registers itself at the end of its module; main.js builds each once and
// draws each again when the shown snapshot, sample, head, theme or size changes.
const views = [];
function registerView(view) {
  views.push(view);
}

const state = {
  frame: Math.max(0, frames.length - 1),
  probe: 0,
  group: -1,
  layer: 0,
  head: 0,
  decodingRow: -1,
  timer: null,
  statGroup: 0,
  statMetric: 0,
  ablationMetric: 'accuracy',
  pePatch: -1,
  hover: null,
};
