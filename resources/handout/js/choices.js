// The probe sample and the attention group shown.
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
  Array.from(container.children).forEach((b, i) =>
    b.setAttribute('aria-pressed', isOn(i) ? 'true' : 'false'),
  );
}
function buildProbeChoice() {
  const probes = (D.probe_samples || []).map((s) => ({
    text: `#${s}`,
    title: `validation sample ${s}`,
  }));
  const box = $('probe-choice');
  if (probes.length < 2) {
    box.hidden = probes.length === 0;
  }
  segmented(
    box,
    probes,
    (i) => i === state.probe,
    (i) => {
      state.probe = i;
      refreshPressed(box, (k) => k === state.probe);
      state.decodingRow = -1;
      drawAll();
    },
  );
}
// Groups of the shown probe: every kept group any snapshot has.
function shownGroups() {
  const present = new Set();
  for (const f of frames)
    for (const p of f.probes) for (const a of p.attention) present.add(a.group);
  return groups.map((g, i) => i).filter((i) => present.has(i));
}
function buildGroupChoice() {
  const list = shownGroups();
  if (state.group < 0 && list.length) state.group = list[0];
  const box = $('group-choice');
  segmented(
    box,
    list.map((g) => ({ text: groups[g].title })),
    (i) => list[i] === state.group,
    (i) => {
      selectHead(list[i], state.layer, state.head);
    },
  );
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

registerView({
  name: 'probe and group choice',
  build: () => {
    buildProbeChoice();
    buildGroupChoice();
  },
});
