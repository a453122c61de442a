// The Computation section: each explained head (D.computations) as the computation it is, with
// the model's own numbers — its stages (computation_stages.js), its weight map, and the cell
// clicked on that map taken apart (computation_cell.js). The page opens each head at the cell
// the handout chose. The numbers are one checkpoint's, not the timeline's: the section says which.
const compState = { at: 0, cells: [], drawnFor: '' };
const compMap = $('computation-map');

function compGroupTitle(c) {
  return c.group >= 0 && groups[c.group] ? groups[c.group].title : c.group_name;
}
function compCell() {
  const c = computationAt(compState.at);
  if (!compState.cells[compState.at]) {
    const chosen = c.cell || { query: 0, key: 0 };
    compState.cells[compState.at] = { query: chosen.query, key: chosen.key };
  }
  return compState.cells[compState.at];
}
// "encoder self · layer 0 · head 1 of 4 · validation sample 0 · weights of step 4,200 (last.pt)".
function compWhere(c) {
  const parts = [
    `${compGroupTitle(c)} · layer ${c.layer} · head ${c.head} of ${c.heads}`,
    `d_model ${c.d_model}, d_head ${c.d_head}`,
    c.sample >= 0 ? `validation sample ${c.sample}` : c.input,
    `the model's weights at step ${fmtInt(c.step)} (${c.weights_file})`,
  ];
  let text = parts.join(' · ') + '.';
  const last = frames.length ? frames[frames.length - 1].step : -1;
  if (last >= 0 && last !== c.step) {
    text += ` The Attention section's newest snapshot is of step ${fmtInt(last)}.`;
  }
  if (fedOtherRows(c)) {
    text += ` The Attention section's snapshots of this sample were fed the reference; here the model reads its own answer, so the rows differ.`;
  }
  if (c.keys_outside > 0) {
    text += ` Keys ${c.key_offset}–${c.key_offset + c.m.k.rows - 1} are shown; ${c.keys_outside} more took part in the softmax.`;
  }
  return text;
}
// Whether the newest snapshot's map of this head's group and sample has other rows than the
// computation: a decoder's probes are fed the reference, the computation decodes by itself.
function fedOtherRows(c) {
  const frame = frames[frames.length - 1];
  const probe = frame && frame.probes.find((p) => p.sample === c.sample);
  const item = probe && probe.attention.find((a) => a.group === c.group);
  if (!item || !probe.fed_reference) return false;
  const rows = labelList(item.row_labels) || [];
  return rows.length !== c.m.q.rows || rows.some((label, r) => label !== c.queryLabel(r));
}
function compHead(c) {
  const w = c.m.weights;
  return {
    rows: w.rows,
    cols: w.cols,
    at: (r, k) => (c.isMasked(r, k) ? NaN : w.at(r, k)),
  };
}
function drawComputationMap(c, cell) {
  const head = compHead(c);
  let top = 0;
  for (let r = 0; r < head.rows; ++r) {
    for (let k = 0; k < head.cols; ++k) if (head.at(r, k) > top) top = head.at(r, k);
  }
  const masked = rgbOf(cssVar('--masked'));
  const { ctx, geometry } = drawHeadMap(
    compMap,
    head,
    (r) => c.queryLabel(r),
    (k) => c.keyLabel(k),
    weightColors(head, top > 0 ? top : 1, masked, (r, k) => Number.isNaN(head.at(r, k))),
  );
  const { x0, y0, cell: size } = geometry;
  ctx.lineWidth = 3;
  ctx.strokeStyle = '#000000';
  ctx.strokeRect(x0 + cell.key * size, y0 + cell.query * size, size, size);
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = '#ffffff';
  ctx.strokeRect(x0 + cell.key * size, y0 + cell.query * size, size, size);
  compMap.geometry = geometry;
}
function drawComputation(force) {
  if (!computations.length) return;
  const key = `${root.dataset.theme}/${window.innerWidth}/${compState.at}`;
  if (!force && key === compState.drawnFor) return;
  compState.drawnFor = key;
  const c = computationAt(compState.at);
  const cell = compCell();
  drawStages(c, cell);
  drawComputationMap(c, cell);
  showCell(c, cell.query, cell.key);
}
function chooseComputation(i) {
  compState.at = i;
  refreshPressed($('computation-choice'), (k) => k === i);
  const c = computationAt(i);
  $('computation-where').textContent = compWhere(c);
  buildStages(c);
  drawComputation(true);
}
function pickComputationCell(e) {
  const cell = compMap.geometry && cellAt(compMap, compMap.geometry, e);
  if (!cell) return;
  compState.cells[compState.at] = { query: cell.r, key: cell.c };
  drawComputation(true);
}
// The arrow keys on the focused map move the cell taken apart (and not the timeline).
function stepComputationCell(e) {
  const move = ARROWS[e.key];
  if (!move || e.altKey || e.ctrlKey || e.metaKey) return;
  const weights = computationAt(compState.at).m.weights;
  const cell = compCell();
  const clamp = (v, n) => Math.max(0, Math.min(n - 1, v));
  cell.query = clamp(cell.query + move[0], weights.rows);
  cell.key = clamp(cell.key + move[1], weights.cols);
  drawComputation(true);
  e.preventDefault();
  e.stopPropagation();
}
function hoverComputationMap(e) {
  const cell = compMap.geometry && cellAt(compMap, compMap.geometry, e);
  if (!cell) {
    hideTooltip();
    return;
  }
  const c = computationAt(compState.at);
  const w = c.isMasked(cell.r, cell.c) ? 'masked' : fmtWeight(c.m.weights.at(cell.r, cell.c));
  showTooltip(
    `${c.queryLabel(cell.r)} → ${c.keyLabel(cell.c)}: ${w} (click to take it apart)`,
    e.clientX,
    e.clientY,
  );
}
function buildComputation() {
  if (!computations.length) return;
  $('computation').hidden = false;
  $('nav-computation').hidden = false;
  segmented(
    $('computation-choice'),
    computations.map((c, i) => ({
      text: `${compGroupTitle(computationAt(i))} · L${c.layer} H${c.head}`,
      title: `${compGroupTitle(c)}, layer ${c.layer}, head ${c.head}`,
    })),
    (i) => i === compState.at,
    chooseComputation,
  );
  $('computation-choice').hidden = computations.length < 2;
  compMap.tabIndex = 0;
  compMap.addEventListener('click', pickComputationCell);
  compMap.addEventListener('keydown', stepComputationCell);
  compMap.addEventListener('mousemove', hoverComputationMap);
  compMap.addEventListener('mouseleave', hideTooltip);
  chooseComputation(0);
}

registerView({ name: 'computation', build: buildComputation, draw: () => drawComputation(false) });
