// The attention views together: the side views first, then the heads.
function currentItem() {
  return attentionItem(state.frame, state.probe, state.group);
}
function drawAttention() {
  const item = currentItem();
  if (item) clampHead(item);
  // The side views first: whether they show decides the width left to the heads.
  drawSample();
  drawOverlay(item);
  drawDecoding();
  if (item) {
    const view = $('model-view');
    const key = `${state.group}/${state.probe}/${item.layers.join(',')}/${item.heads}/${view.clientWidth}`;
    if (state.structure !== key) {
      buildModelView(item);
      state.structure = key;
    }
    drawModelView(item);
  } else {
    $('model-view').textContent = 'No attention of this group at this step.';
    state.structure = '';
  }
  drawScale(state.group);
  drawHead(item);
}

registerView({ name: 'attention', draw: drawAttention });
