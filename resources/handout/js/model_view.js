// The model view: every layer as a row of heads.
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
      b.addEventListener('click', () => {
        state.layer = l;
        state.head = h;
        drawAttention();
      });
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
    const l = Number(b.dataset.layer),
      h = Number(b.dataset.head);
    const head = headOf(item, l, h);
    b.setAttribute('aria-pressed', l === state.layer && h === state.head ? 'true' : 'false');
    if (head) paintPixels(b.firstChild, head.cols, head.rows, colorFor(g, head, top, masked));
  }
}
