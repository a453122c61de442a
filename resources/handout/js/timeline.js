// The timeline: the slider, play, the notes on it and the keys.
const slider = $('timeline');
function stepOf(frame) {
  return frames[frame] ? frames[frame].step : 0;
}
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
  $('step-readout').textContent =
    `step ${fmtInt(stepOf(state.frame))} · ${state.frame + 1}/${frames.length}`;
  document.body.dataset.step = String(stepOf(state.frame));
  drawAll();
}
function setPlaying(on) {
  if (state.timer) {
    clearInterval(state.timer);
    state.timer = null;
  }
  const play = $('play');
  play.textContent = on ? '❚❚ Pause' : '▶ Play';
  play.setAttribute('aria-pressed', on ? 'true' : 'false');
  if (!on) return;
  if (state.frame >= frames.length - 1) showFrame(0);
  state.timer = setInterval(
    () => {
      if (state.frame >= frames.length - 1) {
        setPlaying(false);
        return;
      }
      showFrame(state.frame + 1);
    },
    1000 / Number($('speed').value || 4),
  );
}
function buildTimeline() {
  slider.max = String(Math.max(0, frames.length - 1));
  slider.disabled = frames.length < 2;
  slider.addEventListener('input', () => showFrame(Number(slider.value)));
  $('prev').addEventListener('click', () => showFrame(state.frame - 1));
  $('next').addEventListener('click', () => showFrame(state.frame + 1));
  $('play').addEventListener('click', () => setPlaying(!state.timer));
  $('speed').addEventListener('change', () => {
    if (state.timer) setPlaying(true);
  });
  const notes = $('slider-notes');
  if (frames.length > 1) {
    const first = frames[0].step,
      last = frames[frames.length - 1].step;
    for (const note of D.notes || []) {
      if (note.step < first || note.step > last || last === first) continue;
      const mark = document.createElement('span');
      mark.className = 'slider-note';
      mark.style.left = ((note.step - first) / (last - first)) * 100 + '%';
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
    if (
      t === slider &&
      (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === 'Home' || e.key === 'End')
    )
      return;
    if (e.key === 'ArrowLeft') showFrame(state.frame - 1);
    else if (e.key === 'ArrowRight') showFrame(state.frame + 1);
    else if (e.key === 'Home') showFrame(0);
    else if (e.key === 'End') showFrame(frames.length - 1);
    else if (e.key === 'p' || e.key === 'P') setPlaying(!state.timer);
    else return;
    e.preventDefault();
  });
}

registerView({ name: 'timeline', build: buildTimeline });
