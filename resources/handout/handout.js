// AttentionScope handout: draws a run that the program packed into this page (the JSON in
// #handout-data; its layout is in docs/ARCHITECTURE.md, "A handout page"). Plain JavaScript and
// canvas, nothing loaded from anywhere. One time axis: the timeline's snapshot drives the curves'
// cursor, the attention views, the head statistics' cursor and the positional encoding.
'use strict';
(function () {
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
  const float32Of = (b64) => { const b = bytesOf(b64); return new Float32Array(b.buffer, 0, b.length >> 2); };
  const float64Of = (b64) => { const b = bytesOf(b64); return new Float64Array(b.buffer, 0, b.length >> 3); };
  const int8Of = (b64) => { const b = bytesOf(b64); return new Int8Array(b.buffer, 0, b.length); };
  const MISSING = 255;
  const TOP_CODE = 254;

  const frames = D.frames || [];
  const groups = D.groups || [];
  const viridis = bytesOf(D.colors.viridis);
  const coolwarmStops = [[0, 0x3b, 0x4c, 0xc0], [0.25, 0x7b, 0x9f, 0xf9], [0.5, 0xdd, 0xdc, 0xdc],
    [0.75, 0xf4, 0x98, 0x7a], [1, 0xb4, 0x04, 0x26]];

  const state = {
    frame: Math.max(0, frames.length - 1), probe: 0, group: -1, layer: 0, head: 0,
    decodingRow: -1, timer: null, statGroup: 0, statMetric: 0, ablationMetric: 'accuracy',
    pePatch: -1, hover: null,
  };

  // ---- formatting ---------------------------------------------------------------------------
  const fmtInt = (n) => Math.round(n).toLocaleString('en-US');
  function fmtWeight(w) {  // as the window: two decimals, two significant digits below 0.01
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
    if (m) { const n = parseInt(m[1], 16); return [n >> 16, (n >> 8) & 255, n & 255]; }
    return [128, 128, 128];
  }
  const remPx = () => parseFloat(getComputedStyle(root).fontSize) || 16;
  const fontOf = (scale, weight) => `${weight || ''} ${(remPx() * scale).toFixed(1)}px system-ui, "Noto Sans", "DejaVu Sans", sans-serif`;

  // ---- colours: the window's maps ----------------------------------------------------------
  // Viridis with 256 levels, the weight's level cut as QCustomPlot cuts it (0 to the top).
  function viridisIndex(w, top) {
    const i = Math.floor(w / top * 255);
    return i < 0 ? 0 : i > 255 ? 255 : i;
  }
  function coolwarm(t) {  // t in 0..1
    t = Math.min(1, Math.max(0, t));
    let k = 1;
    while (k < coolwarmStops.length - 1 && coolwarmStops[k][0] < t) ++k;
    const a = coolwarmStops[k - 1], b = coolwarmStops[k];
    const f = (t - a[0]) / (b[0] - a[0]);
    return [Math.trunc(a[1] * (1 - f) + b[1] * f), Math.trunc(a[2] * (1 - f) + b[2] * f),
      Math.trunc(a[3] * (1 - f) + b[3] * f)];
  }

  // ---- canvas helpers ---------------------------------------------------------------------------
  function setupCanvas(canvas) {
    const r = canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(r.width * dpr)), h = Math.max(1, Math.round(r.height * dpr));
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
        px[o] = rgb[0]; px[o + 1] = rgb[1]; px[o + 2] = rgb[2]; px[o + 3] = 255;
      }
    }
    ctx.putImageData(img, 0, 0);
  }
  function niceTicks(lo, hi, count) {
    if (!(hi > lo)) { hi = lo + 1; }
    const raw = (hi - lo) / Math.max(1, count);
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const norm = raw / mag;
    const step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
    const ticks = [];
    for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t);
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
    let left = x + 14, top = y + 14;
    if (left + r.width > window.innerWidth - 4) left = Math.max(4, x - r.width - 14);
    if (top + r.height > window.innerHeight - 4) top = Math.max(4, y - r.height - 14);
    tooltip.style.left = left + 'px';
    tooltip.style.top = top + 'px';
  }
  const hideTooltip = () => { tooltip.hidden = true; };

  // ---- the attention of the shown snapshot ------------------------------------------------
  const labelList = (index) => (index >= 0 && D.labels && D.labels[index]) || null;
  const textOf = (index) => (D.texts && index >= 0 && index < D.texts.length ? D.texts[index] : '');
  function probeAt(frame, probe) {
    const f = frames[frame];
    return f && f.probes && f.probes[Math.min(probe, f.probes.length - 1)] || null;
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
      rows: item.rows, cols: item.cols,
      at(r, c) {
        const code = codes[base + r * item.cols + c];
        return code === MISSING ? NaN : code / TOP_CODE * scale;
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
  function colorFor(g, head, top, masked) {
    return (r, c) => {
      if (isMasked(g, head, r, c)) return masked;
      const i = viridisIndex(head.at(r, c), top) * 3;
      return [viridis[i], viridis[i + 1], viridis[i + 2]];
    };
  }
  const layerName = (g, l) => (groups[g].layer_names && groups[g].layer_names[l]) || `layer ${l}`;
  const headName = (g, h) => (groups[g].aggregate_of ? '' : `head ${h}`);

  // ---- timeline -------------------------------------------------------------------------------
  const slider = $('timeline');
  function stepOf(frame) { return frames[frame] ? frames[frame].step : 0; }
  function nearestFrame(step) {
    let best = 0;
    for (let i = 0; i < frames.length; ++i) {
      if (Math.abs(frames[i].step - step) < Math.abs(frames[best].step - step)) best = i;
    }
    return best;
  }
  function showFrame(frame) {
    if (!frames.length) return;
    state.frame = Math.max(0, Math.min(frames.length - 1, frame));
    slider.value = String(state.frame);
    $('step-readout').textContent = `step ${fmtInt(stepOf(state.frame))} · ${state.frame + 1}/${frames.length}`;
    document.body.dataset.step = String(stepOf(state.frame));
    drawAll();
  }
  function setPlaying(on) {
    if (state.timer) { clearInterval(state.timer); state.timer = null; }
    const play = $('play');
    play.textContent = on ? '❚❚ Pause' : '▶ Play';
    play.setAttribute('aria-pressed', on ? 'true' : 'false');
    if (!on) return;
    if (state.frame >= frames.length - 1) showFrame(0);
    state.timer = setInterval(() => {
      if (state.frame >= frames.length - 1) { setPlaying(false); return; }
      showFrame(state.frame + 1);
    }, 1000 / Number($('speed').value || 4));
  }
  function buildTimeline() {
    slider.max = String(Math.max(0, frames.length - 1));
    slider.disabled = frames.length < 2;
    slider.addEventListener('input', () => showFrame(Number(slider.value)));
    $('prev').addEventListener('click', () => showFrame(state.frame - 1));
    $('next').addEventListener('click', () => showFrame(state.frame + 1));
    $('play').addEventListener('click', () => setPlaying(!state.timer));
    $('speed').addEventListener('change', () => { if (state.timer) setPlaying(true); });
    const notes = $('slider-notes');
    if (frames.length > 1) {
      const first = frames[0].step, last = frames[frames.length - 1].step;
      for (const note of D.notes || []) {
        if (note.step < first || note.step > last || last === first) continue;
        const mark = document.createElement('span');
        mark.className = 'slider-note';
        mark.style.left = ((note.step - first) / (last - first) * 100) + '%';
        mark.title = `step ${fmtInt(note.step)}: ${note.text}`;
        mark.addEventListener('click', () => showFrame(nearestFrame(note.step)));
        mark.addEventListener('mousemove', (e) => showTooltip(mark.title, e.clientX, e.clientY));
        mark.addEventListener('mouseleave', hideTooltip);
        notes.appendChild(mark);
      }
    }
    document.addEventListener('keydown', (e) => {
      const t = e.target;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (t && (t.tagName === 'SELECT' || (t.tagName === 'INPUT' && t !== slider))) return;
      if (t === slider && (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === 'Home' || e.key === 'End')) return;
      if (e.key === 'ArrowLeft') showFrame(state.frame - 1);
      else if (e.key === 'ArrowRight') showFrame(state.frame + 1);
      else if (e.key === 'Home') showFrame(0);
      else if (e.key === 'End') showFrame(frames.length - 1);
      else if (e.key === 'p' || e.key === 'P') setPlaying(!state.timer);
      else return;
      e.preventDefault();
    });
  }

  // ---- probe samples and groups --------------------------------------------------------------
  function segmented(container, items, isOn, onPick) {
    container.textContent = '';
    items.forEach((item, i) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = item.text;
      if (item.title) b.title = item.title;
      b.setAttribute('aria-pressed', isOn(i) ? 'true' : 'false');
      b.addEventListener('click', () => onPick(i));
      container.appendChild(b);
    });
  }
  function refreshPressed(container, isOn) {
    Array.from(container.children).forEach((b, i) => b.setAttribute('aria-pressed', isOn(i) ? 'true' : 'false'));
  }
  function buildProbeChoice() {
    const probes = (D.probe_samples || []).map((s) => ({ text: `#${s}`, title: `validation sample ${s}` }));
    const box = $('probe-choice');
    if (probes.length < 2) { box.hidden = probes.length === 0; }
    segmented(box, probes, (i) => i === state.probe, (i) => {
      state.probe = i;
      refreshPressed(box, (k) => k === state.probe);
      state.decodingRow = -1;
      drawAll();
    });
  }
  // Groups of the shown probe: every kept group any snapshot has.
  function shownGroups() {
    const present = new Set();
    for (const f of frames) for (const p of f.probes) for (const a of p.attention) present.add(a.group);
    return groups.map((g, i) => i).filter((i) => present.has(i));
  }
  function buildGroupChoice() {
    const list = shownGroups();
    if (state.group < 0 && list.length) state.group = list[0];
    const box = $('group-choice');
    segmented(box, list.map((g) => ({ text: groups[g].title })), (i) => list[i] === state.group, (i) => {
      selectHead(list[i], state.layer, state.head);
    });
    box.hidden = list.length < 2;
  }
  function selectHead(group, layer, head) {
    state.group = group;
    state.layer = layer;
    state.head = head;
    refreshPressed($('group-choice'), (i) => shownGroups()[i] === state.group);
    state.structure = '';
    drawAttention();
  }

  // ---- the model view: every layer as a row of heads ------------------------------------------
  function clampHead(item) {
    if (!item.layers.includes(state.layer)) state.layer = item.layers[item.layers.length - 1];
    if (state.head >= item.heads) state.head = item.heads - 1;
    if (state.head < 0) state.head = 0;
  }
  function buildModelView(item) {
    const view = $('model-view');
    view.textContent = '';
    const g = state.group;
    const all = Math.max(...item.layers) + 1;
    // As large as the column allows: its width shared by the heads, its height by the layers.
    const rem = remPx();
    const width = (view.clientWidth || 400) / rem - 4.6;
    const height = (parseFloat(getComputedStyle(view).maxHeight) || 300) / rem;
    const size = Math.max(2.2, Math.min(9, width / item.heads - 0.4, Math.max(height, 12) / all - 1));
    view.style.setProperty('--thumb', size.toFixed(2) + 'rem');
    for (let l = 0; l < all; ++l) {
      const row = document.createElement('div');
      row.className = 'layer-row';
      const name = document.createElement('span');
      name.className = 'layer-name';
      name.textContent = layerName(g, l);
      row.appendChild(name);
      if (!item.layers.includes(l)) {
        row.classList.add('left-out');
        row.appendChild(document.createTextNode('left out to fit the size limit'));
        view.appendChild(row);
        continue;
      }
      for (let h = 0; h < item.heads; ++h) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'thumb';
        b.dataset.layer = String(l);
        b.dataset.head = String(h);
        b.title = `${layerName(g, l)}${headName(g, h) ? ' · ' + headName(g, h) : ''}: click to enlarge`;
        const c = document.createElement('canvas');
        b.appendChild(c);
        const label = document.createElement('span');
        label.textContent = item.heads > 1 ? `h${h}` : '';
        b.appendChild(label);
        b.addEventListener('click', () => { state.layer = l; state.head = h; drawAttention(); });
        row.appendChild(b);
      }
      view.appendChild(row);
    }
  }
  function drawModelView(item) {
    const g = state.group;
    const top = groupTop(g);
    const masked = rgbOf(cssVar('--masked'));
    for (const b of $('model-view').querySelectorAll('.thumb')) {
      const l = Number(b.dataset.layer), h = Number(b.dataset.head);
      const head = headOf(item, l, h);
      b.setAttribute('aria-pressed', l === state.layer && h === state.head ? 'true' : 'false');
      if (head) paintPixels(b.firstChild, head.cols, head.rows, colorFor(g, head, top, masked));
    }
  }

  // ---- the enlarged head ---------------------------------------------------------------------------
  const headCanvas = $('head-canvas');
  function drawScale(g) {
    const top = groupTop(g);
    $('scale-low').textContent = '0';
    $('scale-high').textContent = fmtWeight(top);
    $('scale-name').textContent = 'run scale';
    $('scale-name').title = 'The colours go from 0 to the largest weight of this group anywhere in the run, as the window\'s "run" scale';
    const bar = $('scale-bar');
    paintPixels(bar, 256, 1, (r, c) => [viridis[c * 3], viridis[c * 3 + 1], viridis[c * 3 + 2]]);
  }
  function drawHead(item) {
    const { ctx, w, h } = setupCanvas(headCanvas);
    const g = state.group;
    const group = groups[g];
    const head = item && headOf(item, state.layer, state.head);
    if (!head) {
      ctx.fillStyle = cssVar('--muted');
      ctx.font = fontOf(0.8);
      ctx.fillText('No attention of this group at this step.', 8, 24);
      headCanvas.geometry = null;
      return;
    }
    const labels = labelsOf(item);
    const rowText = (r) => (labels.predictions ? `${labels.rows[r]} → ${labels.predictions[r]}` : labels.rows[r]);
    // Every token labelled, as the window does: the labels shrink with the cells down to 8 px,
    // and only below that is every k-th one written.
    const margins = (px) => {
      ctx.font = `${px.toFixed(1)}px system-ui, "Noto Sans", "DejaVu Sans", sans-serif`;
      let rowW = 0, colW = 0;
      for (let r = 0; r < head.rows; ++r) rowW = Math.max(rowW, ctx.measureText(rowText(r)).width);
      for (let c = 0; c < head.cols; ++c) colW = Math.max(colW, ctx.measureText(labels.cols[c]).width);
      const left = Math.min(w * 0.32, rowW + 8), bottom = Math.min(h * 0.3, colW + 8);
      const cell = Math.min(Math.max(10, w - left - 6) / head.cols, Math.max(10, h - bottom - 4) / head.rows);
      return { left, bottom, cell };
    };
    let fontH = remPx() * 0.62;
    let m = margins(fontH);
    if (m.cell < fontH * 1.05) {
      fontH = Math.max(8, m.cell * 0.95);
      m = margins(fontH);
    }
    const { left, bottom, cell } = m;
    const x0 = left, y0 = 2, gw = cell * head.cols, gh = cell * head.rows;
    const masked = rgbOf(cssVar('--masked'));
    const img = pixelCanvas(head.cols, head.rows, colorFor(g, head, groupTop(g), masked));
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
      ctx.fillText(fitText(ctx, labels.cols[c], bottom - 6), 0, 0);
      ctx.restore();
    }
    if (state.decodingRow >= 0 && state.decodingRow < head.rows && labels.predictions) {
      ctx.strokeStyle = cssVar('--accent');
      ctx.lineWidth = 2;
      ctx.strokeRect(x0 - 1, y0 + state.decodingRow * cell - 1, gw + 2, cell + 2);
    }
    if (state.hover && state.hover.r < head.rows && state.hover.c < head.cols) {
      ctx.strokeStyle = cssVar('--text');
      ctx.lineWidth = 1.5;
      ctx.strokeRect(x0 + state.hover.c * cell, y0 + state.hover.r * cell, cell, cell);
    }
    headCanvas.geometry = { x0, y0, cell, rows: head.rows, cols: head.cols, head, labels, rowText };
    // Where the cells are, for tests and tools that point at one.
    Object.assign(headCanvas.dataset, { plotX: x0.toFixed(1), plotY: y0.toFixed(1), cell: cell.toFixed(3), rows: head.rows, cols: head.cols });
    $('head-caption').textContent = group.aggregate_of ? `${group.title} · ${layerName(g, state.layer)}` :
      `${group.title} · layer ${state.layer} · head ${state.head}`;
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
    const rect = headCanvas.getBoundingClientRect();
    const x = e.clientX - rect.left - geometry.x0, y = e.clientY - rect.top - geometry.y0;
    const c = Math.floor(x / geometry.cell), r = Math.floor(y / geometry.cell);
    if (x < 0 || y < 0 || r >= geometry.rows || c >= geometry.cols) { leaveHead(); return; }
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
    if (state.hover) { state.hover = null; drawHead(currentItem()); }
  }

  // ---- the sample, the CLS overlay, the decoding ---------------------------------------------------
  function drawSample() {
    const box = $('sample');
    box.textContent = '';
    const p = probeAt(state.frame, state.probe);
    if (!p) return;
    const add = (label, text, cls) => {
      const span = document.createElement('span');
      span.className = 'label';
      span.textContent = label + ' ';
      box.appendChild(span);
      const value = document.createElement('span');
      value.textContent = text;
      if (cls) value.className = cls;
      box.appendChild(value);
      box.appendChild(document.createTextNode('   '));
    };
    add('Sample', `#${p.sample}`);
    const pr = p.prediction;
    if (!pr) return;
    // The task names its sample's three texts ("source", "reference", "translation").
    const terms = D.run.terms || { input: 'input', expected: 'label', answer: 'answer', free_text: false };
    if (terms.free_text) {
      add(`${terms.input}:`, textOf(pr.text));
      box.appendChild(document.createElement('br'));
      add(`${terms.expected}:`, textOf(pr.truth));
      add(`${terms.answer}:`, textOf(pr.prediction), pr.correct ? 'right' : 'wrong');
      return;
    }
    const probability = Number.isFinite(pr.probability) && pr.probability > 0 ? ` (${Math.round(pr.probability * 100)} %)` : '';
    add(`${terms.expected}:`, textOf(pr.truth));
    add(`${terms.answer}:`, textOf(pr.prediction) + probability, pr.correct ? 'right' : 'wrong');
    if (textOf(pr.text)) {
      box.appendChild(document.createElement('br'));
      add('', textOf(pr.text));
    }
  }
  function drawOverlay(item) {
    const box = $('overlay-box');
    const p = probeAt(state.frame, state.probe);
    const image = p && p.image >= 0 && D.images ? D.images[p.image] : null;
    const head = item && headOf(item, state.layer, state.head);
    const patches = image ? image.grid_rows * image.grid_cols : 0;
    const hasCls = head && patches > 0 && head.cols === patches + 1;
    box.hidden = !image;
    if (!image) return;
    const canvas = $('overlay-canvas');
    const { ctx, w, h } = setupCanvas(canvas);
    if (!image.pixels) image.pixels = bytesOf(image.rgb);
    const px = image.pixels, n = image.width * image.height;
    const picture = pixelCanvas(image.width, image.height, (r, c) => {
      const i = r * image.width + c;
      return [px[i], px[n + i], px[2 * n + i]];
    });
    const scale = Math.min(w / image.width, h / image.height);
    const tw = image.width * scale, th = image.height * scale;
    const tx = (w - tw) / 2, ty = (h - th) / 2;
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(picture, tx, ty, tw, th);
    if (hasCls) {
      // As the window: patches the CLS token ignores are veiled, the ones it attends to stay bright.
      let max = 0;
      for (let k = 0; k < patches; ++k) max = Math.max(max, head.at(0, k + 1) || 0);
      const cw = tw / image.grid_cols, ch = th / image.grid_rows;
      for (let r = 0; r < image.grid_rows; ++r) {
        for (let c = 0; c < image.grid_cols; ++c) {
          const wgt = head.at(0, 1 + r * image.grid_cols + c) || 0;
          const level = max > 0 ? Math.min(1, Math.max(0, wgt / max)) : 0;
          ctx.fillStyle = `rgba(0,0,0,${(0.8 * (1 - Math.sqrt(level))).toFixed(3)})`;
          ctx.fillRect(tx + c * cw, ty + r * ch, cw, ch);
        }
      }
    }
    ctx.strokeStyle = cssVar('--line');
    ctx.strokeRect(tx, ty, tw, th);
    const g = groups[state.group];
    $('overlay-caption').textContent = hasCls
      ? `Where CLS looks: ${g.title}, ${g.aggregate_of ? layerName(state.group, state.layer) : `layer ${state.layer}, head ${state.head}`}`
      : 'The probe image';
  }
  function drawDecoding(item) {
    const box = $('decoding-box');
    const p = probeAt(state.frame, state.probe);
    const steps = p && p.decoding ? p.decoding : [];
    box.hidden = steps.length === 0;
    if (!steps.length) return;
    let rows = null, predictions = null;
    for (const a of p.attention) {
      const l = labelsOf(a);
      if (l.predictions) { rows = l.rows; predictions = l.predictions; break; }
    }
    $('decoding-hint').textContent = p.fed_reference
      ? 'One token at a time, each step fed the reference so far (teacher forcing): the candidates for the next token. Click a step to mark its row in the decoder maps.'
      : 'One token at a time, each step fed the tokens chosen so far. Click a step to mark its row in the decoder maps.';
    const list = $('decoding-steps');
    list.textContent = '';
    steps.forEach((top, i) => {
      const li = document.createElement('li');
      li.setAttribute('aria-selected', i === state.decodingRow ? 'true' : 'false');
      const head = document.createElement('div');
      const fed = document.createElement('span');
      fed.className = 'fed';
      fed.textContent = `${i + 1}. ${rows ? rows[i] : ''} → `;
      head.appendChild(fed);
      const chosen = document.createElement('b');
      chosen.textContent = predictions ? predictions[i] : (top[0] ? top[0][0] : '');
      head.appendChild(chosen);
      li.appendChild(head);
      for (const [token, probability] of top.slice(0, 3)) {
        const row = document.createElement('div');
        row.className = 'candidate';
        const bar = document.createElement('span');
        bar.className = 'bar-fill';
        bar.style.width = `${Math.max(0.1, (probability || 0) * 5).toFixed(2)}rem`;
        row.appendChild(bar);
        row.appendChild(document.createTextNode(`${token} ${Math.round((probability || 0) * 100)} %`));
        li.appendChild(row);
      }
      li.addEventListener('click', () => {
        state.decodingRow = state.decodingRow === i ? -1 : i;
        drawAttention();
      });
      list.appendChild(li);
    });
  }
  function currentItem() { return attentionItem(state.frame, state.probe, state.group); }
  function drawAttention() {
    const item = currentItem();
    if (item) clampHead(item);
    // The side views first: whether they show decides the width left to the heads.
    drawSample();
    drawOverlay(item);
    drawDecoding(item);
    if (item) {
      const view = $('model-view');
      const key = `${state.group}/${state.probe}/${item.layers.join(',')}/${item.heads}/${view.clientWidth}`;
      if (state.structure !== key) { buildModelView(item); state.structure = key; }
      drawModelView(item);
    } else {
      $('model-view').textContent = 'No attention of this group at this step.';
      state.structure = '';
    }
    drawScale(state.group);
    drawHead(item);
  }

  // ---- curves ------------------------------------------------------------------------------------------
  const charts = [];
  function smooth(values, weight) {  // TensorBoard's debiased EMA, as the window's curves
    const out = new Float64Array(values.length);
    let acc = 0, power = 1, last = NaN;
    for (let i = 0; i < values.length; ++i) {
      const v = values[i];
      if (Number.isFinite(v)) {
        acc = weight * acc + (1 - weight) * v;
        power *= weight;
        last = acc / (1 - power);
      }
      out[i] = last;
    }
    return out;
  }
  function buildCharts() {
    const byName = new Map();
    for (const c of D.curves || []) {
      if (!byName.has(c.chart)) byName.set(c.chart, []);
      byName.get(c.chart).push({ ...c, steps: float64Of(c.steps), values: float32Of(c.values) });
    }
    const box = $('charts');
    for (const [name, series] of byName) {
      for (const s of series) if (s.split === 'train') s.smoothed = smooth(s.values, 0.9);
      const metrics = new Set(series.map((s) => s.metric));
      const test = D.test && D.test.figures ? D.test.figures.filter((f) => metrics.has(f.metric)) : [];
      const div = document.createElement('div');
      div.className = 'chart';
      const canvas = document.createElement('canvas');
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', `${name} over training steps`);
      div.appendChild(canvas);
      box.appendChild(div);
      const chart = { name, series, test, canvas, hover: null };
      canvas.addEventListener('mousemove', (e) => hoverChart(chart, e));
      canvas.addEventListener('mouseleave', () => { chart.hover = null; hideTooltip(); drawChart(chart); });
      canvas.addEventListener('click', (e) => {
        const step = chartStepAt(chart, e);
        if (step !== null && frames.length) showFrame(nearestFrame(step));
      });
      charts.push(chart);
    }
    if (!charts.length) box.textContent = 'This run has no metrics yet.';
    box.dataset.count = String(charts.length);
    const test = $('test-line');
    if (D.test) {
      const figures = (D.test.figures || []).map((f) => `${f.label} ${fmtValue(f.value)}`).join(', ');
      test.textContent = figures ? `Test: ${figures} (${D.test.description}).` : `Test: ${D.test.description}.`;
    } else {
      test.textContent = 'No test figure: the run stopped before its end, or its data has no test split.';
    }
  }
  function chartRange(chart) {
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    const take = (x, y) => {
      if (Number.isFinite(x)) { x0 = Math.min(x0, x); x1 = Math.max(x1, x); }
      if (Number.isFinite(y)) { y0 = Math.min(y0, y); y1 = Math.max(y1, y); }
    };
    for (const s of chart.series) for (let i = 0; i < s.steps.length; ++i) take(s.steps[i], s.values[i]);
    for (const f of chart.test) take(D.test.step, f.value);
    if (!Number.isFinite(x0)) { x0 = 0; x1 = 1; }
    if (x1 === x0) x1 = x0 + 1;
    if (!Number.isFinite(y0)) { y0 = 0; y1 = 1; }
    const pad = (y1 - y0) * 0.06 || Math.abs(y1) * 0.1 || 1;
    return { x0, x1, y0: y0 - pad, y1: y1 + pad };
  }
  function chartLayout(chart, w, h) {
    const range = chart.range;
    const ctx = chart.canvas.getContext('2d');
    ctx.font = fontOf(0.6);
    const ticks = niceTicks(range.y0, range.y1, Math.max(2, Math.floor(h / (remPx() * 2.2))));
    let tickW = 0;
    for (const t of ticks) tickW = Math.max(tickW, ctx.measureText(tickText(t)).width);
    // Room for half of the last step's label on the right.
    const right = Math.max(10, ctx.measureText(tickText(range.x1)).width / 2 + 4);
    const left = tickW + 10, top = remPx() * 1.5, bottom = remPx() * 1.25;
    return {
      left, top, right, bottom, ticks, w, h,
      x: (s) => left + (s - range.x0) / (range.x1 - range.x0) * (w - left - right),
      y: (v) => top + (1 - (v - range.y0) / (range.y1 - range.y0)) * (h - top - bottom),
      stepAt: (x) => range.x0 + (x - left) / (w - left - right) * (range.x1 - range.x0),
    };
  }
  function drawChart(chart) {
    const { ctx, w, h } = setupCanvas(chart.canvas);
    chart.range = chartRange(chart);
    const L = chartLayout(chart, w, h);
    chart.layout = L;
    const text = cssVar('--text'), muted = cssVar('--muted'), grid = cssVar('--grid');
    const train = cssVar('--train'), validation = cssVar('--validation');
    ctx.font = fontOf(0.6);
    ctx.lineWidth = 1;
    // grid and ticks
    ctx.strokeStyle = grid;
    ctx.fillStyle = muted;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const t of L.ticks) {
      const y = Math.round(L.y(t)) + 0.5;
      ctx.beginPath(); ctx.moveTo(L.left, y); ctx.lineTo(w - L.right, y); ctx.stroke();
      ctx.fillText(tickText(t), L.left - 5, y);
    }
    const xticks = niceTicks(chart.range.x0, chart.range.x1, Math.max(2, Math.floor((w - L.left) / (remPx() * 4))));
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (const t of xticks) {
      const x = Math.round(L.x(t)) + 0.5;
      ctx.beginPath(); ctx.moveTo(x, L.top); ctx.lineTo(x, h - L.bottom); ctx.stroke();
      ctx.fillText(tickText(t), x, h - L.bottom + 3);
    }
    ctx.save();
    ctx.beginPath();
    ctx.rect(L.left, L.top - 2, w - L.left - L.right, h - L.top - L.bottom + 4);
    ctx.clip();
    // notes: dashed lines
    const noteColor = cssVar('--note');
    ctx.strokeStyle = noteColor;
    ctx.setLineDash([4, 3]);
    for (const note of D.notes || []) {
      const x = Math.round(L.x(note.step)) + 0.5;
      ctx.beginPath(); ctx.moveTo(x, L.top); ctx.lineTo(x, h - L.bottom); ctx.stroke();
    }
    ctx.setLineDash([]);
    // Each note's words beside its line, as far as they fit before the next note.
    ctx.fillStyle = noteColor;
    ctx.font = fontOf(0.55);
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    const notes = (D.notes || []).filter((n) => n.kind === 'bookmark').sort((a, b) => a.step - b.step);
    notes.forEach((note, i) => {
      const x = L.x(note.step) + 3;
      const end = i + 1 < notes.length ? L.x(notes[i + 1].step) - 4 : w - L.right;
      if (end - x > remPx() * 1.5) ctx.fillText(fitText(ctx, note.text, end - x), x, L.top + 2);
    });
    const line = (steps, values, color, width, alpha) => {
      ctx.strokeStyle = color;
      ctx.globalAlpha = alpha;
      ctx.lineWidth = width;
      ctx.beginPath();
      let started = false;
      for (let i = 0; i < steps.length; ++i) {
        if (!Number.isFinite(values[i])) { started = false; continue; }
        const x = L.x(steps[i]), y = L.y(values[i]);
        if (started) ctx.lineTo(x, y); else { ctx.moveTo(x, y); started = true; }
      }
      ctx.stroke();
      ctx.globalAlpha = 1;
    };
    // One metric: training blue, validation orange, as the window. Several (CER, WER, exact
    // match): a colour per metric, the window's categorical ones.
    const metrics = [...new Set(chart.series.map((s) => s.metric))];
    const byMetric = metrics.length > 1;
    const colorOf = (s) => (byMetric ? cssVar(`--c${metrics.indexOf(s.metric) % 6}`) : s.split === 'train' ? train : validation);
    for (const s of chart.series) {
      const color = colorOf(s);
      if (s.split === 'train') {
        line(s.steps, s.values, color, 0.8, 0.2);
        line(s.steps, s.smoothed, color, 2.2, 1);
      } else {
        line(s.steps, s.values, color, 1.6, 1);
        ctx.fillStyle = color;
        for (let i = 0; i < s.steps.length; ++i) {
          if (!Number.isFinite(s.values[i])) continue;
          ctx.beginPath(); ctx.arc(L.x(s.steps[i]), L.y(s.values[i]), 3, 0, 2 * Math.PI); ctx.fill();
        }
      }
    }
    ctx.restore();
    // test figure: a diamond at the run's end
    ctx.strokeStyle = text;
    for (const f of chart.test) {
      if (!Number.isFinite(f.value)) continue;
      ctx.fillStyle = byMetric ? cssVar(`--c${Math.max(0, metrics.indexOf(f.metric)) % 6}`) : cssVar('--test');
      const x = L.x(D.test.step), y = L.y(f.value), r = remPx() * 0.3;
      ctx.beginPath(); ctx.moveTo(x, y - r); ctx.lineTo(x + r, y); ctx.lineTo(x, y + r); ctx.lineTo(x - r, y); ctx.closePath();
      ctx.fill(); ctx.stroke();
    }
    // the timeline's cursor
    if (frames.length) {
      const x = Math.round(L.x(stepOf(state.frame))) + 0.5;
      ctx.strokeStyle = cssVar('--accent');
      ctx.lineWidth = 2;
      ctx.beginPath(); ctx.moveTo(x, L.top); ctx.lineTo(x, h - L.bottom); ctx.stroke();
    }
    if (chart.hover !== null) {
      const x = Math.round(L.x(chart.hover)) + 0.5;
      ctx.strokeStyle = muted;
      ctx.lineWidth = 1;
      ctx.setLineDash([2, 2]);
      ctx.beginPath(); ctx.moveTo(x, L.top); ctx.lineTo(x, h - L.bottom); ctx.stroke();
      ctx.setLineDash([]);
    }
    // title and legend
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.font = fontOf(0.72, '600');
    ctx.fillStyle = text;
    ctx.fillText(chart.name, L.left, L.top * 0.45);
    let x = L.left + ctx.measureText(chart.name).width + remPx() * 0.6;
    ctx.font = fontOf(0.6);
    // The legend names what tells the lines apart; the test figures are written under the charts.
    const legend = [];
    if (byMetric) {
      // One line per metric, stacked in the plot's top right corner on the plot's background.
      const entries = metrics.map((m, k) => [cssVar(`--c${k % 6}`), chart.series.find((s) => s.metric === m).label]);
      const lineH = remPx() * 0.75;
      const boxW = Math.max(...entries.map(([, label]) => ctx.measureText(label).width)) + remPx() * 1.2;
      const bx = w - L.right - boxW - 4, by = L.top + 4;
      ctx.fillStyle = cssVar('--surface');
      ctx.globalAlpha = 0.85;
      ctx.fillRect(bx, by, boxW, lineH * entries.length + 6);
      ctx.globalAlpha = 1;
      entries.forEach(([color, label], k) => {
        const y = by + 3 + lineH * (k + 0.5);
        ctx.fillStyle = color;
        ctx.fillRect(bx + 4, y - 2, remPx() * 0.6, 4);
        ctx.fillStyle = text;
        ctx.fillText(label, bx + 4 + remPx() * 0.75, y);
      });
    } else {
      if (chart.series.some((s) => s.split === 'train')) legend.push([train, 'train']);
      if (chart.series.some((s) => s.split !== 'train')) legend.push([validation, 'validation']);
      if (chart.test.length) legend.push([cssVar('--test'), 'test']);
    }
    for (const [color, label] of legend) {
      if (x + remPx() * 0.75 + ctx.measureText(label).width > w) break;  // the tooltip names them
      ctx.fillStyle = color;
      ctx.fillRect(x, L.top * 0.45 - 2, remPx() * 0.6, 4);
      x += remPx() * 0.75;
      ctx.fillStyle = muted;
      ctx.fillText(label, x, L.top * 0.45);
      x += ctx.measureText(label).width + remPx() * 0.5;
    }
  }
  function chartStepAt(chart, e) {
    if (!chart.layout) return null;
    const rect = chart.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left;
    if (x < chart.layout.left || x > chart.layout.w - chart.layout.right) return null;
    return chart.layout.stepAt(x);
  }
  function nearestIndex(steps, step) {
    let lo = 0, hi = steps.length - 1;
    if (hi < 0) return -1;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (steps[mid] < step) lo = mid + 1; else hi = mid; }
    if (lo > 0 && Math.abs(steps[lo - 1] - step) <= Math.abs(steps[lo] - step)) lo -= 1;
    return lo;
  }
  function hoverChart(chart, e) {
    const step = chartStepAt(chart, e);
    if (step === null) { chart.hover = null; hideTooltip(); drawChart(chart); return; }
    const lines = [];
    let shown = step;
    for (const s of chart.series) {
      const i = nearestIndex(s.steps, step);
      if (i < 0) continue;
      if (s.split === 'train') {
        shown = s.steps[i];
        lines.push(`${s.label} · train ${fmtValue(s.values[i])} (smoothed ${fmtValue(s.smoothed[i])})`);
      } else {
        lines.push(`${s.label} · validation ${fmtValue(s.values[i])} at step ${fmtInt(s.steps[i])}`);
      }
    }
    for (const f of chart.test) lines.push(`${f.label} · test ${fmtValue(f.value)} (${D.test.description})`);
    for (const note of D.notes || []) {
      if (Math.abs(chart.layout.x(note.step) - chart.layout.x(step)) < 6) lines.push(`note at step ${fmtInt(note.step)}: ${note.text}`);
    }
    chart.hover = shown;
    showTooltip(`step ${fmtInt(shown)}\n${lines.join('\n')}`, e.clientX, e.clientY);
    drawChart(chart);
  }

  // ---- head statistics ---------------------------------------------------------------------------------
  const HS = D.head_stats;
  function buildHeadStats() {
    if (!HS) { $('heads').hidden = true; $('nav-heads').hidden = true; return; }
    HS.stepValues = float64Of(HS.steps);
    for (const s of HS.series) s.decoded = bytesOf(s.values);
    const metric = $('stat-metric');
    HS.metrics.forEach((m, i) => {
      if (!HS.series.some((s) => s.metric === i)) return;
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = m.name.replace(/_/g, ' ');
      o.title = m.description;
      metric.appendChild(o);
    });
    state.statMetric = Number(metric.value || 0);
    metric.addEventListener('change', () => { state.statMetric = Number(metric.value); buildStatGrid(); drawHeadStats(); });
    segmented($('stat-group-choice'), HS.groups.map((t) => ({ text: t })), (i) => i === state.statGroup, (i) => {
      state.statGroup = i;
      refreshPressed($('stat-group-choice'), (k) => k === state.statGroup);
      buildStatGrid();
      drawHeadStats();
    });
    $('stat-group-choice').hidden = HS.groups.length < 2;
    buildStatGrid();
  }
  function statValue(s, i) {
    const code = s.decoded[i];
    return code === MISSING ? NaN : s.low + code / TOP_CODE * (s.high - s.low);
  }
  function buildStatGrid() {
    const grid = $('stat-grid');
    grid.textContent = '';
    const series = HS.series.filter((s) => s.group === state.statGroup && s.metric === state.statMetric);
    const layers = Math.max(0, ...series.map((s) => s.layer + 1));
    const heads = Math.max(0, ...series.map((s) => s.head + 1));
    grid.style.gridTemplateColumns = `auto repeat(${heads}, minmax(4.5rem, 1fr))`;
    const m = HS.metrics[state.statMetric] || { unit_range: true, description: '' };
    let lo = 0, hi = 1;
    if (!m.unit_range) {
      lo = Infinity; hi = -Infinity;
      for (const s of series) { lo = Math.min(lo, s.low); hi = Math.max(hi, s.high); }
      if (!(hi > lo)) { lo = Number.isFinite(lo) ? lo : 0; hi = lo + 1; }
    }
    HS.range = { lo, hi };
    $('stat-hint').textContent = `${m.description}. Each cell is one head over training (${m.unit_range ? '0 to 1' : `${fmtValue(lo)} to ${fmtValue(hi)}`}); the line marks the timeline's step. Click a head to see its attention.`;
    for (let l = 0; l < layers; ++l) {
      const name = document.createElement('span');
      name.className = 'stat-header';
      name.textContent = `layer ${l}`;
      grid.appendChild(name);
      for (let h = 0; h < heads; ++h) {
        const s = series.find((x) => x.layer === l && x.head === h);
        const cell = document.createElement('button');
        cell.type = 'button';
        cell.className = 'stat-cell';
        const title = document.createElement('span');
        title.className = 'cell-title';
        cell.appendChild(title);
        const c = document.createElement('canvas');
        cell.appendChild(c);
        cell.series = s;
        cell.layer = l;
        cell.head = h;
        cell.addEventListener('click', () => {
          const g = groups.findIndex((x) => x.title === HS.groups[state.statGroup] && !x.aggregate_of);
          if (g >= 0) { selectHead(g, l, h); $('attention').scrollIntoView({ behavior: 'smooth' }); }
        });
        grid.appendChild(cell);
      }
    }
  }
  function kindAt(group, layer, head, step) {
    let kind = '';
    for (const c of HS.changes) if (c.group === group && c.layer === layer && c.head === head && c.step <= step) kind = c.kind;
    return kind;
  }
  function drawHeadStats() {
    if (!HS) return;
    const step = stepOf(state.frame);
    const steps = HS.stepValues;
    const at = nearestIndex(steps, step);
    const { lo, hi } = HS.range;
    const color = cssVar('--train'), accent = cssVar('--accent');
    for (const cell of $('stat-grid').querySelectorAll('.stat-cell')) {
      const s = cell.series;
      const { ctx, w, h } = setupCanvas(cell.lastChild);
      const title = cell.firstChild;
      title.textContent = '';
      const name = document.createElement('span');
      name.textContent = `h${cell.head}`;
      title.appendChild(name);
      const value = document.createElement('b');
      value.textContent = s && at >= 0 ? fmtValue(statValue(s, at)) : '–';
      title.appendChild(value);
      const kind = kindAt(state.statGroup, cell.layer, cell.head, step);
      cell.title = `layer ${cell.layer} head ${cell.head}${kind ? ': ' + kind : ''}`;
      if (!s || steps.length === 0) continue;
      const x = (i) => (steps.length > 1 ? (steps[i] - steps[0]) / (steps[steps.length - 1] - steps[0]) : 0.5) * (w - 2) + 1;
      const y = (v) => 2 + (1 - (v - lo) / (hi - lo)) * (h - 4);
      ctx.strokeStyle = color;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      let started = false;
      for (let i = 0; i < steps.length; ++i) {
        const v = statValue(s, i);
        if (!Number.isFinite(v)) { started = false; continue; }
        if (started) ctx.lineTo(x(i), y(v)); else { ctx.moveTo(x(i), y(v)); started = true; }
      }
      ctx.stroke();
      if (at >= 0) {
        ctx.strokeStyle = accent;
        ctx.lineWidth = 1.5;
        ctx.beginPath(); ctx.moveTo(x(at), 0); ctx.lineTo(x(at), h); ctx.stroke();
      }
    }
    // Changes of kind: those still to come muted, each head's latest so far in bold.
    const list = $('stat-changes');
    list.textContent = '';
    const latest = new Map();
    for (const c of HS.changes) if (c.group === state.statGroup && c.step <= step) latest.set(`${c.layer}/${c.head}`, c);
    for (const c of HS.changes) {
      if (c.group !== state.statGroup) continue;
      const li = document.createElement('li');
      li.textContent = c.text;
      li.className = c.step > step ? 'future' : latest.get(`${c.layer}/${c.head}`) === c ? 'latest' : '';
      li.title = 'Go to this step';
      li.addEventListener('click', () => showFrame(nearestFrame(c.step)));
      list.appendChild(li);
    }
  }

  // ---- ablation -------------------------------------------------------------------------------------------
  function buildAblation() {
    const A = D.ablation;
    if (!A) { $('ablation').hidden = true; $('nav-ablation').hidden = true; return; }
    const select = $('ablation-metric');
    // Loss and accuracy, then every figure the task declares (BLEU, edit distance, …).
    const metrics = [['accuracy', 'accuracy'], ['loss', 'loss']];
    for (const f of A.figures || []) metrics.push([f.key, f.label]);
    for (const [value, text] of metrics) {
      const o = document.createElement('option');
      o.value = value;
      o.textContent = text;
      select.appendChild(o);
    }
    select.addEventListener('change', () => { state.ablationMetric = select.value; drawAblation(); });
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
    const checkpoint = A.step > 0 ? `the checkpoint of step ${fmtInt(A.step)}` : 'the run\'s newest checkpoint';
    $('ablation-hint').textContent = `Heads switched off in ${checkpoint}, on ${fmtInt(A.samples)} validation samples: the change in ${info ? info.label : metric} from ${fmtValue(base)} with every head on. Red: the model does worse without it.`;
    const box = $('ablation-tables');
    box.textContent = '';
    const groupsSeen = [...new Set(A.rows.map((r) => r.group))];
    let maxAbs = 0;
    for (const r of A.rows) if (Number.isFinite(valueOf(r)) && Number.isFinite(base)) maxAbs = Math.max(maxAbs, Math.abs(valueOf(r) - base));
    const lowerBetter = metric === 'loss' || (info && info.lower_better);
    const worse = (d) => (lowerBetter ? d > 0 : d < 0);
    const tint = (d) => {
      if (!Number.isFinite(d) || maxAbs === 0) return '';
      const a = Math.min(1, Math.abs(d) / maxAbs) * 0.55;
      return worse(d) ? `rgba(214,39,40,${a.toFixed(2)})` : `rgba(31,119,180,${a.toFixed(2)})`;
    };
    const fmtDelta = (d) => (Number.isFinite(d) ? (d > 0 ? '+' : '') + d.toFixed(info ? info.decimals : 3) : '–');
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
        for (let h = 0; h < heads; ++h) { const th = document.createElement('th'); th.textContent = `head ${h}`; head.appendChild(th); }
        if (kind === 'drop head') { const th = document.createElement('th'); th.textContent = 'layer dropped'; head.appendChild(th); }
        const body = table.createTBody();
        for (let l = 0; l < layers; ++l) {
          const tr = body.insertRow();
          const th = document.createElement('th');
          th.textContent = `layer ${l}`;
          tr.appendChild(th);
          const cells = [...Array(heads).keys()].map((h) => rows.find((r) => r.layer === l && r.head === h));
          if (kind === 'drop head') cells.push(A.rows.find((r) => r.group === g && r.layer === l && r.ablation === 'drop layer'));
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

  // ---- positional encoding ------------------------------------------------------------------------------
  const MAX_SIMILARITY_POSITIONS = 200;
  function encodingOf(frame) {
    const f = frames[frame];
    const index = f ? f.encoding : -1;
    const E = index >= 0 && D.encodings ? D.encodings[index] : null;
    if (!E) return null;
    if (!E.decoded) {
      const codes = int8Of(E.values);
      const v = new Float32Array(codes.length);
      for (let i = 0; i < codes.length; ++i) v[i] = codes[i] / 127 * E.scale;
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
    const left = remPx() * 1.1, bottom = remPx() * 1.1;
    let width = w - left, height = h - bottom;
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
    $('encoding-hint').textContent = `${E.kind === 'learned' ? 'Learned' : 'Sinusoidal'} position embeddings, ${fmtInt(E.positions)} positions × ${E.dims} dimensions${E.kind === 'learned' ? ', as trained at this step' : ' (fixed)'}. Blue negative, red positive.`;
    const maxAbs = E.scale || 1;
    $('pe-heatmap').area = drawHeatmap($('pe-heatmap'), E.positions, E.dims, (r, c) => coolwarm(0.5 + E.decoded[r * E.dims + c] / (2 * maxAbs)), 'dimension', 'position');
    // chosen dimensions over position
    const dims = [...new Set([0, 1, Math.floor(E.dims / 4), Math.floor(E.dims / 2)])].filter((d) => d < E.dims);
    const { ctx, w, h } = setupCanvas($('pe-dims'));
    const colors = [cssVar('--train'), cssVar('--validation'), cssVar('--test'), cssVar('--note')];
    ctx.font = fontOf(0.6);
    const top = remPx() * 0.4, bottom = remPx() * 1.1;
    const left = Math.max(ctx.measureText(fmtValue(maxAbs)).width, ctx.measureText(fmtValue(-maxAbs)).width) + 8;
    ctx.strokeStyle = cssVar('--grid');
    ctx.beginPath(); ctx.moveTo(left, top + (h - top - bottom) / 2); ctx.lineTo(w, top + (h - top - bottom) / 2); ctx.stroke();
    dims.forEach((d, k) => {
      ctx.strokeStyle = colors[k % colors.length];
      ctx.lineWidth = 1.6;
      ctx.beginPath();
      for (let p = 0; p < E.positions; ++p) {
        const x = left + (E.positions > 1 ? p / (E.positions - 1) : 0.5) * (w - left - 2);
        const y = top + (0.5 - E.decoded[p * E.dims + d] / (2 * maxAbs)) * (h - top - bottom);
        if (p) ctx.lineTo(x, y); else ctx.moveTo(x, y);
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
      for (let a = 0; a < P; ++a) for (let b = a; b < P; ++b) E.similarity[a * P + b] = E.similarity[b * P + a] = cosine(E, a, b);
    }
    $('pe-similarity').area = drawHeatmap($('pe-similarity'), P, P, (r, c) => coolwarm(0.5 + E.similarity[r * P + c] / 2), 'position', 'position', true);
    $('pe-similarity-caption').textContent = `Cosine similarity of every two positions${P < E.positions ? ` (the first ${P})` : ''}: nearby positions look alike`;
    // ViT: each patch's similarity on the patch grid
    const grid = E.grid_rows * E.grid_cols;
    const patchBox = $('pe-patch-box');
    patchBox.hidden = !(grid > 0 && E.positions === grid + (E.has_cls ? 1 : 0));
    if (patchBox.hidden) return;
    const offset = E.has_cls ? 1 : 0;
    if (state.pePatch < 0 || state.pePatch >= grid) state.pePatch = Math.floor(E.grid_rows / 2) * E.grid_cols + Math.floor(E.grid_cols / 2);
    const canvas = $('pe-patches');
    const area = drawHeatmap(canvas, E.grid_rows, E.grid_cols,
      (r, c) => coolwarm(0.5 + cosine(E, offset + state.pePatch, offset + r * E.grid_cols + c) / 2),
      'patch column', 'patch row', true);
    // The chosen patch, outlined.
    const cw = area.width / E.grid_cols, ch = area.height / E.grid_rows;
    area.ctx.strokeStyle = cssVar('--text');
    area.ctx.lineWidth = 2;
    area.ctx.strokeRect(area.left + (state.pePatch % E.grid_cols) * cw + 1, Math.floor(state.pePatch / E.grid_cols) * ch + 1, cw - 2, ch - 2);
    canvas.area = area;
    $('pe-patch-caption').textContent = `Similarity of every patch's position to patch ${state.pePatch} (marked; hover to choose another)`;
  }
  function hoverPatches(e) {
    const E = encodingOf(state.frame);
    const canvas = $('pe-patches');
    if (!E || !canvas.area) return;
    const rect = canvas.getBoundingClientRect();
    const a = canvas.area;
    const c = Math.floor((e.clientX - rect.left - a.left) / a.width * E.grid_cols);
    const r = Math.floor((e.clientY - rect.top - a.top) / a.height * E.grid_rows);
    if (r < 0 || c < 0 || r >= E.grid_rows || c >= E.grid_cols) return;
    const patch = r * E.grid_cols + c;
    if (patch !== state.pePatch) { state.pePatch = patch; drawEncoding(); }
  }
  function hoverEncoding(e, canvas, what) {
    const E = encodingOf(state.frame);
    if (!E) return;
    const rect = canvas.getBoundingClientRect();
    const area = canvas.area || { left: remPx() * 1.1, top: 0, width: rect.width - remPx() * 1.1, height: rect.height - remPx() * 1.1 };
    const fx = (e.clientX - rect.left - area.left) / area.width, fy = (e.clientY - rect.top - area.top) / area.height;
    if (fx < 0 || fy < 0 || fx >= 1 || fy >= 1) return;
    let text;
    if (what === 'values') {
      const p = Math.floor(fy * E.positions), d = Math.floor(fx * E.dims);
      text = `position ${p}, dimension ${d}: ${fmtValue(E.decoded[p * E.dims + d])}`;
    } else {
      const P = Math.min(E.positions, MAX_SIMILARITY_POSITIONS);
      const a = Math.floor(fy * P), b = Math.floor(fx * P);
      text = `positions ${a} and ${b}: cosine similarity ${fmtValue(E.similarity[a * P + b])}`;
    }
    $('pe-readout').textContent = text;
    showTooltip(text, e.clientX, e.clientY);
  }

  // ---- settings, about, notice ----------------------------------------------------------------------
  function buildSettings() {
    const list = $('settings-list');
    for (const [key, value] of D.settings || []) {
      const row = document.createElement('div');
      row.className = 'setting';
      const k = document.createElement('span');
      k.className = 'key';
      k.textContent = key;
      const v = document.createElement('span');
      v.className = 'value';
      v.textContent = value === '' ? '–' : value;
      row.append(k, v);
      list.appendChild(row);
    }
  }
  function buildAbout() {
    const about = $('about-text');
    const p = (text) => { const el = document.createElement('p'); el.textContent = text; about.appendChild(el); return el; };
    p(`Run ${D.run.name}, task ${D.run.task_title}: ${fmtInt(frames.length)} snapshots of the attention of ${(D.probe_samples || []).length} probe samples from the validation split, every group, layer and head. This page works offline: everything it shows is inside this one file, and it loads nothing from anywhere.`);
    p('Colours: viridis from 0 to the largest weight the group has anywhere in the run (the window\'s "run" scale), so brighter means more attention at every step and in every head. Grey cells are masked (a decoder never looks ahead).');
    p('Packing: each head\'s attention map keeps its largest weight, and every weight is stored as the nearest of 255 steps from 0 up to it (8 bits, within 0.2 % of that largest weight); the values shown are those steps. Curves are stored as 32-bit floats (runs of more than 4,000 steps averaged into 4,000 points), head statistics as 8 bits over their range, positional encodings as 8 signed bits of their largest magnitude.');
    if (D.left_out && D.left_out.length) {
      const el = p(`To stay under ${D.max_mb} MB, this page leaves out:`);
      const ul = document.createElement('ul');
      for (const t of D.left_out) { const li = document.createElement('li'); li.textContent = t; ul.appendChild(li); }
      el.appendChild(ul);
      p('Left out in this order until the page fits: snapshots thinned evenly (to 20), probe samples (the last first), the middle layers of every group (the first and last kept), attention groups (the rollouts, then the last ones), then snapshots again.');
      const notice = $('notice');
      notice.hidden = false;
      notice.textContent = `To stay under ${D.max_mb} MB, this page leaves out: `;
      const list = document.createElement('ul');
      for (const t of D.left_out) { const li = document.createElement('li'); li.textContent = t; list.appendChild(li); }
      notice.appendChild(list);
    } else {
      p(`Nothing was left out: all ${fmtInt(frames.length)} stored snapshots are here (limit ${D.max_mb} MB).`);
    }
    p('Keys: ← → previous and next snapshot, Home and End the first and the last, P play or pause.');
  }

  // ---- themes -------------------------------------------------------------------------------------------------
  function applyTheme(name, remember) {
    root.dataset.theme = name;
    for (const b of document.querySelectorAll('[data-theme-choice]')) b.setAttribute('aria-pressed', b.dataset.themeChoice === name ? 'true' : 'false');
    if (remember) {
      try { localStorage.setItem('attentionscope-handout-theme', name); } catch (e) { /* file:// may refuse storage */ }
    }
    drawAll();
  }
  function initialTheme() {
    let saved = null;
    try { saved = localStorage.getItem('attentionscope-handout-theme'); } catch (e) { saved = null; }
    const known = (t) => t === 'light' || t === 'dark' || t === 'contrast';
    if (known(saved)) return saved;
    if (known(D.theme)) return D.theme;
    if (window.matchMedia && window.matchMedia('(prefers-contrast: more)').matches) return 'contrast';
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }

  // ---- everything -------------------------------------------------------------------------------------------
  let drawing = false;
  function drawAll() {
    if (drawing) return;
    drawing = true;
    try {
      for (const chart of charts) drawChart(chart);
      drawAttention();
      drawHeadStats();
      drawEncoding();
    } finally {
      drawing = false;
    }
  }
  function init() {
    $('run-title').textContent = `${D.run.name} · ${D.run.task_title}`;
    $('run-title').title = `${D.run.name} · ${D.run.task_title} · made with AttentionScope`;
    buildTimeline();
    buildProbeChoice();
    buildGroupChoice();
    buildCharts();
    buildHeadStats();
    buildAblation();
    buildSettings();
    buildAbout();
    headCanvas.addEventListener('mousemove', hoverHead);
    headCanvas.addEventListener('mouseleave', leaveHead);
    $('pe-patches').addEventListener('mousemove', hoverPatches);
    $('pe-heatmap').addEventListener('mousemove', (e) => hoverEncoding(e, $('pe-heatmap'), 'values'));
    $('pe-similarity').addEventListener('mousemove', (e) => hoverEncoding(e, $('pe-similarity'), 'similarity'));
    for (const c of [$('pe-heatmap'), $('pe-similarity')]) c.addEventListener('mouseleave', hideTooltip);
    for (const b of document.querySelectorAll('[data-theme-choice]')) b.addEventListener('click', () => applyTheme(b.dataset.themeChoice, true));
    if (!frames.length) {
      $('step-readout').textContent = 'no snapshots';
      $('model-view').textContent = 'This run stored no attention snapshots.';
    }
    let pending = false;
    window.addEventListener('resize', () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; state.structure = ''; drawAll(); });
    });
    applyTheme(initialTheme(), false);
    if (frames.length) showFrame(state.frame); else drawAll();
    document.body.dataset.ready = 'true';
  }
  init();
})();
