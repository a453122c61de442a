// About this page: what it holds, how it was packed, what was left out.
// What the size limit cut, as a list: in the About text and in the notice at the top.
function leftOutList() {
  const list = document.createElement('ul');
  for (const t of D.left_out) {
    const li = document.createElement('li');
    li.textContent = t;
    list.appendChild(li);
  }
  return list;
}
function buildAbout() {
  const about = $('about-text');
  const p = (text) => {
    const el = document.createElement('p');
    el.textContent = text;
    about.appendChild(el);
    return el;
  };
  p(
    `Run ${D.run.name}, task ${D.run.task_title}: ${fmtInt(frames.length)} snapshots of the attention of ${(D.probe_samples || []).length} probe samples from the validation split, every group, layer and head. This page works offline: everything it shows is inside this one file, and it loads nothing from anywhere.`,
  );
  p(
    'Colours: viridis from 0 to the largest weight the group has anywhere in the run (the window\'s "run" scale), so brighter means more attention at every step and in every head. Grey cells are masked (a decoder never looks ahead).',
  );
  p(
    "Packing: each head's attention map keeps its largest weight, and every weight is stored as the nearest of 255 steps from 0 up to it (8 bits, within 0.2 % of that largest weight); the values shown are those steps. Curves are stored as 32-bit floats (runs of more than 4,000 steps averaged into 4,000 points), head statistics as 8 bits over their range, positional encodings as 8 signed bits of their largest magnitude.",
  );
  if (D.left_out && D.left_out.length) {
    const el = p(`To stay under ${D.max_mb} MB, this page leaves out:`);
    el.appendChild(leftOutList());
    p(
      'Left out in this order until the page fits: snapshots thinned evenly (to 20), probe samples (the last first), the middle layers of every group (the first and last kept), attention groups (the rollouts, then the last ones), then snapshots again.',
    );
    const notice = $('notice');
    notice.hidden = false;
    notice.textContent = `To stay under ${D.max_mb} MB, this page leaves out: `;
    notice.appendChild(leftOutList());
  } else {
    p(
      `Nothing was left out: all ${fmtInt(frames.length)} stored snapshots are here (limit ${D.max_mb} MB).`,
    );
  }
  p('Keys: ← → previous and next snapshot, Home and End the first and the last, P play or pause.');
}

registerView({ name: 'about', build: buildAbout });
