// Everything: every view built once, drawn again on each change.
let drawing = false;
function drawAll() {
  if (drawing) return;
  drawing = true;
  try {
    for (const view of views) if (view.draw) view.draw();
  } finally {
    drawing = false;
  }
}
// A page written by another version of the program may hold a layout this script does not read:
// say so rather than draw nonsense.
function refuseOtherFormat() {
  const notice = $('notice');
  notice.hidden = false;
  notice.textContent = `This page's data has layout ${D.format}, which this page's script cannot read (it reads layout ${HANDOUT_FORMAT}). Export the handout again from the run.`;
}
function init() {
  $('run-title').textContent = `${(D.run || {}).name} · ${(D.run || {}).task_title}`;
  $('run-title').title =
    `${(D.run || {}).name} · ${(D.run || {}).task_title} · made with AttentionScope`;
  if (D.format !== HANDOUT_FORMAT) {
    refuseOtherFormat();
    document.body.dataset.ready = 'true';
    return;
  }
  for (const view of views) if (view.build) view.build();
  if (!frames.length) {
    $('step-readout').textContent = 'no snapshots';
    $('model-view').textContent = 'This run stored no attention snapshots.';
  }
  let pending = false;
  window.addEventListener('resize', () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      state.structure = '';
      drawAll();
    });
  });
  applyTheme(initialTheme(), false);
  if (frames.length) showFrame(state.frame);
  else drawAll();
  document.body.dataset.ready = 'true';
}
init();
