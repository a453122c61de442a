// The sample beside the heads: its text or image, the CLS overlay, the decoding.
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
  const terms = D.run.terms || {
    input: 'input',
    expected: 'label',
    answer: 'answer',
    free_text: false,
  };
  if (terms.free_text) {
    add(`${terms.input}:`, textOf(pr.text));
    box.appendChild(document.createElement('br'));
    add(`${terms.expected}:`, textOf(pr.truth));
    add(`${terms.answer}:`, textOf(pr.prediction), pr.correct ? 'right' : 'wrong');
    return;
  }
  const probability =
    Number.isFinite(pr.probability) && pr.probability > 0
      ? ` (${Math.round(pr.probability * 100)} %)`
      : '';
  add(`${terms.expected}:`, textOf(pr.truth));
  add(`${terms.answer}:`, textOf(pr.prediction) + probability, pr.correct ? 'right' : 'wrong');
  if (textOf(pr.text)) {
    box.appendChild(document.createElement('br'));
    add('', textOf(pr.text));
  }
}
// One of the document's images on `canvas`, as large as it fits, centred; where it lies.
function drawPicture(canvas, image) {
  const { ctx, w, h } = setupCanvas(canvas);
  if (!image.pixels) image.pixels = bytesOf(image.rgb);
  const px = image.pixels,
    n = image.width * image.height;
  const picture = pixelCanvas(image.width, image.height, (r, c) => {
    const i = r * image.width + c;
    return [px[i], px[n + i], px[2 * n + i]];
  });
  const scale = Math.min(w / image.width, h / image.height);
  const tw = image.width * scale,
    th = image.height * scale;
  const tx = (w - tw) / 2,
    ty = (h - th) / 2;
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(picture, tx, ty, tw, th);
  return { ctx, tx, ty, tw, th };
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
  const { ctx, tx, ty, tw, th } = drawPicture($('overlay-canvas'), image);
  if (hasCls) {
    // As the window: patches the CLS token ignores are veiled, the ones it attends to stay bright.
    let max = 0;
    for (let k = 0; k < patches; ++k) max = Math.max(max, head.at(0, k + 1) || 0);
    const cw = tw / image.grid_cols,
      ch = th / image.grid_rows;
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
function drawDecoding() {
  const box = $('decoding-box');
  const p = probeAt(state.frame, state.probe);
  const steps = p && p.decoding ? p.decoding : [];
  box.hidden = steps.length === 0;
  if (!steps.length) return;
  let rows = null,
    predictions = null;
  for (const a of p.attention) {
    const l = labelsOf(a);
    if (l.predictions) {
      rows = l.rows;
      predictions = l.predictions;
      break;
    }
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
    chosen.textContent = predictions ? predictions[i] : top[0] ? top[0][0] : '';
    head.appendChild(chosen);
    li.appendChild(head);
    for (const [token, probability] of top.slice(0, 3)) {
      const row = document.createElement('div');
      row.className = 'candidate';
      const bar = document.createElement('span');
      bar.className = 'bar-fill';
      bar.style.width = `${Math.max(0.1, (probability || 0) * 5).toFixed(2)}rem`;
      row.appendChild(bar);
      row.appendChild(
        document.createTextNode(`${token} ${Math.round((probability || 0) * 100)} %`),
      );
      li.appendChild(row);
    }
    li.addEventListener('click', () => {
      state.decodingRow = state.decodingRow === i ? -1 : i;
      drawAttention();
    });
    list.appendChild(li);
  });
}
