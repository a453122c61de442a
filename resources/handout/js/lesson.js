// The lesson, first on the page when the handout carries one: the lecturer's moments one at a time
// ("Moment 3 of 8"), each a question about a head (lesson_maps.js) or about a section of the page.
// A hidden head stays blank until the reader has guessed: clicks (or, on the focused map, the
// arrow keys and Space) mark cells, Reveal (R) draws the weights with the guess outlined and
// scores it (lesson_score.js). Previous and Next also take the keys a presenter's clicker sends
// (PageUp/PageDown, ←/→) while the lesson is on screen; elsewhere ← and → move the timeline.
const lessonMoments = (D.lesson && D.lesson.moments) || [];
// Per moment: the reader's votes per input ({row: {col: 1}}), whether it was revealed, and the
// keyboard's cursor per input.
const lessonState = { at: 0, votes: [], revealed: [], cursors: [] };
// Where on this page a moment of a view without a head is.
const LESSON_SECTIONS = {
  curves: { id: 'curves', title: 'Training curves' },
  encoding: { id: 'encoding', title: 'Positional encoding' },
  decoding: { id: 'attention', title: 'Attention, its decoding' },
  sample: { id: 'attention', title: 'Attention, its sample' },
  heads: { id: 'attention', title: 'Attention' },
  attention: { id: 'attention', title: 'Attention' },
};
const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

const lessonMoment = () => lessonMoments[lessonState.at];
function guessing() {
  const m = lessonMoment();
  return Boolean(m && m.hidden && m.inputs.length && !lessonState.revealed[lessonState.at]);
}
function votesOf(i) {
  const at = lessonState.at;
  if (!lessonState.votes[at]) lessonState.votes[at] = lessonMoment().inputs.map(() => ({}));
  return lessonState.votes[at][i];
}
function cursorOf(i) {
  const at = lessonState.at;
  const query = lessonMoment().head.query;
  if (!lessonState.cursors[at]) {
    lessonState.cursors[at] = lessonMoment().inputs.map(() => ({ r: Math.max(0, query), c: 0 }));
  }
  return lessonState.cursors[at][i];
}

function toggleVote(i, r, c) {
  const m = lessonMoment();
  if (!guessing() || (m.head.query >= 0 && r !== m.head.query)) return;
  if (Number.isNaN(lessonHead(m.inputs[i]).at(r, c))) return;
  const votes = votesOf(i);
  votes[r] = votes[r] || {};
  if (votes[r][c]) delete votes[r][c];
  else votes[r][c] = 1;
  Object.assign(cursorOf(i), { r, c });
  drawLesson();
}
function moveCursor(i, [dr, dc]) {
  const m = lessonMoment();
  const input = m.inputs[i];
  const cursor = cursorOf(i);
  const clamp = (v, n) => Math.max(0, Math.min(n - 1, v));
  if (m.head.query < 0) cursor.r = clamp(cursor.r + dr, input.rows);
  cursor.c = clamp(cursor.c + dc, input.cols);
  drawLesson();
}
function reveal() {
  if (!guessing()) return;
  lessonState.revealed[lessonState.at] = true;
  drawLesson();
}
function clearGuess() {
  if (!guessing()) return;
  lessonState.votes[lessonState.at] = null;
  drawLesson();
}
function goToMoment(at) {
  if (at < 0 || at >= lessonMoments.length || at === lessonState.at) return;
  lessonState.at = at;
  showMoment();
}

// "imdb · run_a · step 400 · encoder self · layer 0 · head 1 · query row 3 “it”".
function lessonWhere(m) {
  const parts = [`${m.run.task_title} · ${m.run.name}`];
  if (m.step >= 0) parts.push(`step ${fmtInt(m.step)}`);
  if (m.head) {
    parts.push(`${m.head.group} · layer ${m.head.layer} · head ${m.head.head}`);
    if (m.head.query >= 0) {
      const rows = labelsOf(m.inputs[0]).rows;
      parts.push(`query row ${m.head.query} “${rows[m.head.query]}”`);
    }
    if (m.sample < 0) parts.push(m.inputs.length > 1 ? 'a typed minimal pair' : 'a typed input');
  } else if (m.sample >= 0) {
    parts.push(`sample #${m.sample}`);
  }
  return parts.join(' · ');
}
// The moment on the rest of the page: its step, sample and head (its own run only).
function showInPage(m) {
  if (frames.length && m.step >= 0) showFrame(nearestFrame(m.step));
  const probe = (D.probe_samples || []).indexOf(m.sample);
  if (probe >= 0) {
    state.probe = probe;
    refreshPressed($('probe-choice'), (k) => k === state.probe);
  }
  if (m.head) {
    const g = groups.findIndex((group) => group.title === m.head.group && !group.aggregate_of);
    if (g >= 0) selectHead(g, m.head.layer, m.head.head);
  }
  drawAll();
  $(LESSON_SECTIONS[m.view].id).scrollIntoView({ block: 'start' });
}
// Where to look: a link to the section (and a button that goes to the moment's step there) for
// the page's own run; another run's curves or encodings are not in this page, which it says.
function buildLessonLinks(m) {
  const box = $('lesson-links');
  box.textContent = '';
  const section = LESSON_SECTIONS[m.view];
  if (!m.run.this_run) {
    if (!m.head) {
      box.textContent = `This moment is about the run ${m.run.name} (${m.run.task_title}), which this page does not show: open that run, or its own handout.`;
    }
    return;
  }
  if (m.head && m.sample < 0) return;
  box.appendChild(document.createTextNode(m.head ? 'Also in ' : 'Look at '));
  const link = document.createElement('a');
  link.href = `#${section.id}`;
  link.textContent = section.title;
  box.appendChild(link);
  if (m.step >= 0 || m.head) {
    const go = document.createElement('button');
    go.type = 'button';
    go.id = 'lesson-show';
    go.textContent = m.step >= 0 ? `Show step ${fmtInt(m.step)} there` : 'Show it there';
    go.addEventListener('click', () => showInPage(m));
    box.appendChild(document.createTextNode(' '));
    box.appendChild(go);
  }
}
function showMoment() {
  const m = lessonMoment();
  const at = lessonState.at;
  $('lesson-position').textContent = `Moment ${at + 1} of ${lessonMoments.length}`;
  $('lesson').dataset.moment = String(at + 1);
  $('lesson-prev').disabled = at === 0;
  $('lesson-next').disabled = at === lessonMoments.length - 1;
  $('lesson-question').textContent = m.question || 'Look, and say what you see.';
  $('lesson-where').textContent = lessonWhere(m);
  buildLessonLinks(m);
  buildLessonMaps(m, toggleVote, drawLesson);
  drawLesson();
}

function scoreLesson(m) {
  const lines = [];
  let first = null;
  m.inputs.forEach((input, i) => {
    const score = scoreGuess(lessonHead(input), votesOf(i));
    if (!score.rows.length && m.inputs.length > 1) return;
    const cols = labelsOf(input).cols;
    const text = scoreText(score, (k) => cols[k]);
    lines.push(m.inputs.length > 1 ? `${input.name}: ${text}` : text);
    first = first || score;
  });
  const out = $('lesson-score');
  out.textContent = lines.length ? lines.join(' — ') : 'No guess was made.';
  out.dataset.held = first && first.rows.length ? String(Math.round(first.held * 100)) : '';
  out.dataset.hits = first ? String(first.hits) : '';
  out.dataset.rows = first ? String(first.rows.length) : '';
}
function drawLesson() {
  const m = lessonMoment();
  if (!m) return;
  const hidden = guessing();
  const revealed = Boolean(lessonState.revealed[lessonState.at]);
  const top = lessonTop(m);
  for (const canvas of $('lesson-maps').querySelectorAll('canvas.lesson-map')) {
    const i = Number(canvas.dataset.input);
    // A map of the moment before may still be here: its blur comes as it is removed.
    if (!m.head || !m.inputs[i]) continue;
    drawLessonMap(canvas, m.inputs[i], {
      top,
      hidden,
      query: m.head.query,
      votes: votesOf(i),
      outline: m.hidden && revealed,
      cursor: hidden && document.activeElement === canvas ? cursorOf(i) : null,
    });
  }
  for (const picture of $('lesson-maps').querySelectorAll('canvas.lesson-picture')) {
    drawPicture(picture, D.images[Number(picture.dataset.image)]);
  }
  $('lesson-guess').hidden = !(m.hidden && m.inputs.length);
  $('lesson-reveal').disabled = !hidden;
  $('lesson-clear').disabled = !hidden;
  $('lesson-links').hidden = hidden;
  const query = m.head && m.head.query >= 0;
  $('lesson-instructions').textContent = !hidden
    ? ''
    : query
      ? 'Guess first: in the marked row, click the keys you expect it to look at most, then Reveal (R). On the map, the arrow keys and Space mark cells too.'
      : 'Guess first: click the cells (query → key) you expect to hold the most weight, then Reveal (R). On the map, the arrow keys and Space mark cells too.';
  const out = $('lesson-score');
  if (m.hidden && revealed) {
    scoreLesson(m);
  } else {
    out.textContent = '';
    out.dataset.held = '';
  }
}

// The lesson takes the keys while it is on screen (any of it in the upper part of the window: a
// moment that only points at a section is short, and the clicker must not stop there), or holds
// the focus.
function lessonOnScreen(target) {
  const section = $('lesson');
  if (target && section.contains(target) && target !== document.body) return true;
  const r = section.getBoundingClientRect();
  return r.bottom > 0 && r.top < window.innerHeight * 0.6;
}
function lessonKey(e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const t = e.target;
  if (t && (t.tagName === 'SELECT' || t.tagName === 'INPUT')) return;
  const onMap = Boolean(t && t.classList && t.classList.contains('lesson-map')) && guessing();
  const at = lessonState.at;
  if (onMap && ARROWS[e.key]) {
    moveCursor(Number(t.dataset.input), ARROWS[e.key]);
  } else if (onMap && (e.key === ' ' || e.key === 'Enter')) {
    const i = Number(t.dataset.input);
    const cursor = cursorOf(i);
    toggleVote(i, cursor.r, cursor.c);
  } else if (!lessonOnScreen(t)) {
    return;
  } else if ((e.key === 'PageDown' || e.key === 'ArrowRight') && at < lessonMoments.length - 1) {
    goToMoment(at + 1);
  } else if ((e.key === 'PageUp' || e.key === 'ArrowLeft') && at > 0) {
    goToMoment(at - 1);
  } else if ((e.key === 'r' || e.key === 'R') && guessing()) {
    reveal();
  } else {
    return;
  }
  e.preventDefault();
  e.stopPropagation();
}

function buildLesson() {
  if (!lessonMoments.length) return;
  $('lesson').hidden = false;
  $('nav-lesson').hidden = false;
  $('lesson-title').textContent = D.lesson.title ? `Lesson: ${D.lesson.title}` : 'Lesson';
  $('lesson-prev').addEventListener('click', () => goToMoment(lessonState.at - 1));
  $('lesson-next').addEventListener('click', () => goToMoment(lessonState.at + 1));
  $('lesson-reveal').addEventListener('click', reveal);
  $('lesson-clear').addEventListener('click', clearGuess);
  // Before the timeline's keys, which ← and → would otherwise move.
  window.addEventListener('keydown', lessonKey, true);
  showMoment();
}

registerView({ name: 'lesson', build: buildLesson, draw: drawLesson });
