// A lesson moment's maps: its head for each of its inputs (two for a minimal pair), drawn as the
// enlarged head is. Hidden, the cells are blank and those the reader marked are filled; revealed,
// the weights are drawn with the marked cells outlined.

// A lesson input read as headOf reads a frame's packed maps: one layer of one head.
function lessonHead(input) {
  if (!input.head) {
    const item = {
      layers: [0],
      heads: 1,
      rows: input.rows,
      cols: input.cols,
      decoded: { scales: Float32Array.of(input.scale || 0), codes: bytesOf(input.weights) },
    };
    input.head = headOf(item, 0, 0);
  }
  return input.head;
}
// The colour scale of a moment: 0 to the largest weight of its inputs, so a pair compares.
function lessonTop(moment) {
  const top = Math.max(0, ...moment.inputs.map((input) => input.scale || 0));
  return top > 0 ? top : 1;
}
// A figure per input: its name, its map (focusable, to be guessed at with the keys), the probe
// image of an image run. `onCell(i, r, c)` is called for a clicked cell of input i.
function buildLessonMaps(moment, onCell, onFocus) {
  const box = $('lesson-maps');
  box.textContent = '';
  box.dataset.count = String(moment.inputs.length);
  moment.inputs.forEach((input, i) => {
    const figure = document.createElement('figure');
    figure.className = 'lesson-figure';
    const caption = document.createElement('figcaption');
    caption.textContent = input.name;
    const text = textOf(input.text);
    if (text && !input.name.includes(text)) caption.title = text;
    figure.appendChild(caption);
    const canvas = document.createElement('canvas');
    canvas.className = 'lesson-map';
    canvas.tabIndex = 0;
    canvas.dataset.input = String(i);
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', `The head for ${input.name}`);
    canvas.addEventListener('click', (e) => {
      const cell = canvas.geometry && cellAt(canvas, canvas.geometry, e);
      if (cell) onCell(i, cell.r, cell.c);
    });
    canvas.addEventListener('mousemove', (e) => hoverLessonMap(canvas, input, e));
    canvas.addEventListener('mouseleave', hideTooltip);
    canvas.addEventListener('focus', onFocus);
    canvas.addEventListener('blur', onFocus);
    figure.appendChild(canvas);
    if (input.image >= 0 && D.images && D.images[input.image]) {
      const picture = document.createElement('canvas');
      picture.className = 'lesson-picture';
      picture.dataset.image = String(input.image);
      picture.setAttribute('role', 'img');
      picture.setAttribute('aria-label', 'The probe image');
      figure.appendChild(picture);
    }
    box.appendChild(figure);
  });
}
// view: {top, hidden (blank cells), query (-1: every row), votes ({row: {col: n}}), outline
// (mark the voted cells on the weights), cursor ({r, c} or null)}.
function drawLessonMap(canvas, input, view) {
  const head = lessonHead(input);
  const labels = labelsOf(input);
  const maskedAt = (r, c) => Number.isNaN(head.at(r, c));
  const voted = (r, c) => Boolean(view.votes[r] && view.votes[r][c] > 0);
  const masked = rgbOf(cssVar('--masked'));
  const blank = rgbOf(cssVar('--surface'));
  const mark = rgbOf(cssVar('--accent'));
  const colorAt = view.hidden
    ? (r, c) => (maskedAt(r, c) ? masked : voted(r, c) ? mark : blank)
    : weightColors(head, view.top, masked, maskedAt);
  const { ctx, geometry } = drawHeadMap(
    canvas,
    head,
    (r) => labels.rows[r],
    (c) => labels.cols[c],
    colorAt,
  );
  const { x0, y0, cell } = geometry;
  if (view.hidden && cell >= 5) {
    // Blank cells need their edges to be clicked one by one.
    ctx.strokeStyle = cssVar('--grid');
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let r = 1; r < head.rows; ++r) {
      ctx.moveTo(x0, y0 + r * cell);
      ctx.lineTo(x0 + head.cols * cell, y0 + r * cell);
    }
    for (let c = 1; c < head.cols; ++c) {
      ctx.moveTo(x0 + c * cell, y0);
      ctx.lineTo(x0 + c * cell, y0 + head.rows * cell);
    }
    ctx.stroke();
  }
  if (view.query >= 0 && view.query < head.rows) {
    ctx.strokeStyle = cssVar('--accent');
    ctx.lineWidth = 2;
    ctx.strokeRect(x0 - 1, y0 + view.query * cell - 1, cell * head.cols + 2, cell + 2);
  }
  if (view.outline) {
    // Dark and light together: seen on every colour of the scale.
    for (const [r, cols] of Object.entries(view.votes)) {
      for (const [c, n] of Object.entries(cols)) {
        if (!(n > 0)) continue;
        const x = x0 + Number(c) * cell,
          y = y0 + Number(r) * cell;
        ctx.lineWidth = 3;
        ctx.strokeStyle = '#000000';
        ctx.strokeRect(x + 1.5, y + 1.5, cell - 3, cell - 3);
        ctx.lineWidth = 1.5;
        ctx.strokeStyle = '#ffffff';
        ctx.strokeRect(x + 1.5, y + 1.5, cell - 3, cell - 3);
      }
    }
  }
  if (view.cursor) {
    ctx.setLineDash([3, 2]);
    ctx.strokeStyle = cssVar('--text');
    ctx.lineWidth = 2;
    ctx.strokeRect(
      x0 + view.cursor.c * cell + 1,
      y0 + view.cursor.r * cell + 1,
      cell - 2,
      cell - 2,
    );
    ctx.setLineDash([]);
  }
  canvas.geometry = geometry;
  canvas.dataset.drawn = view.hidden ? 'blank' : 'weights';
}
// "query → key", and the weight once it is shown.
function hoverLessonMap(canvas, input, e) {
  const cell = canvas.geometry && cellAt(canvas, canvas.geometry, e);
  if (!cell) {
    hideTooltip();
    return;
  }
  const labels = labelsOf(input);
  const w = lessonHead(input).at(cell.r, cell.c);
  let text = `${labels.rows[cell.r]} → ${labels.cols[cell.c]}`;
  if (Number.isNaN(w)) text += ': masked';
  else if (canvas.dataset.drawn === 'weights') text += `: ${fmtWeight(w)}`;
  showTooltip(text, e.clientX, e.clientY);
}
