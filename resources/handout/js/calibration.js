// Calibration: how far the model's probabilities are from its hit rate (a reliability diagram per
// split), before and after the temperature fitted on the validation split.
const calibrationCharts = [];
function buildCalibration() {
  const C = D.calibration;
  if (!C) {
    $('calibration').hidden = true;
    $('nav-calibration').hidden = true;
    return;
  }
  const ece = (v) => v.toFixed(3);
  const T = C.temperature;
  const test = C.test
    ? ` On the test split, which chose nothing: ECE ${ece(C.test.ece_before)} → ${ece(C.test.ece_after)}.`
    : ' The run has no test split.';
  $('calibration-hint').textContent =
    `A model that says 90 % should be right 9 times in 10. Each bar is one band of confidence (10 bands of 0.1): its height is how often the answers in it were right; on the dashed diagonal the two agree. The expected calibration error (ECE) is the gap averaged over the answers. The model's own probabilities (line) were divided at the logits by a temperature of ${T.toPrecision(4)}, fitted on the validation split to the weights of step ${fmtInt(C.weights_step)}: ECE ${ece(C.validation.ece_before)} → ${ece(C.validation.ece_after)} there.${test}`;
  const box = $('calibration-plots');
  const splits = [['validation', C.validation]];
  if (C.test) splits.push(['test', C.test]);
  for (const [name, split] of splits) {
    const div = document.createElement('div');
    div.className = 'chart';
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute(
      'aria-label',
      `Reliability diagram of the ${name} split: ECE ${ece(split.ece_before)} before the temperature, ${ece(split.ece_after)} after`,
    );
    div.appendChild(canvas);
    box.appendChild(div);
    calibrationCharts.push({ name, split, canvas });
  }
}
function drawReliability(chart) {
  const { ctx, w, h } = setupCanvas(chart.canvas);
  const text = cssVar('--text'),
    muted = cssVar('--muted'),
    grid = cssVar('--grid');
  const after = cssVar('--validation'),
    before = cssVar('--bad');
  const left = remPx() * 2.2,
    right = remPx() * 0.6,
    top = remPx() * 2.6,
    bottom = remPx() * 1.8;
  const x = (v) => left + v * (w - left - right);
  const y = (v) => top + (1 - v) * (h - top - bottom);
  ctx.font = fontOf(0.6);
  ctx.lineWidth = 1;
  ctx.strokeStyle = grid;
  ctx.fillStyle = muted;
  for (let t = 0; t <= 1.0001; t += 0.2) {
    ctx.beginPath();
    ctx.moveTo(x(0), Math.round(y(t)) + 0.5);
    ctx.lineTo(x(1), Math.round(y(t)) + 0.5);
    ctx.stroke();
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    ctx.fillText(tickText(t), x(0) - 4, y(t));
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillText(tickText(t), x(t), y(0) + 3);
  }
  ctx.fillText('confidence', (x(0) + x(1)) / 2, y(0) + remPx() * 0.8);
  // Bars: accuracy per bin at the temperature.
  ctx.fillStyle = after;
  ctx.globalAlpha = 0.45;
  for (const b of chart.split.bins_after) {
    if (!b.count) continue;
    ctx.fillRect(x(b.lower) + 1, y(b.accuracy), x(b.upper) - x(b.lower) - 2, y(0) - y(b.accuracy));
  }
  ctx.globalAlpha = 1;
  ctx.strokeStyle = muted;
  ctx.setLineDash([4, 3]);
  ctx.beginPath();
  ctx.moveTo(x(0), y(0));
  ctx.lineTo(x(1), y(1));
  ctx.stroke();
  ctx.setLineDash([]);
  // Line: the model's own probabilities, each bin at its mean confidence.
  const own = chart.split.bins_before.filter((b) => b.count > 0);
  ctx.strokeStyle = before;
  ctx.fillStyle = before;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  own.forEach((b, i) => {
    if (i === 0) ctx.moveTo(x(b.confidence), y(b.accuracy));
    else ctx.lineTo(x(b.confidence), y(b.accuracy));
  });
  ctx.stroke();
  for (const b of own) {
    ctx.beginPath();
    ctx.arc(x(b.confidence), y(b.accuracy), 2.5, 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.font = fontOf(0.65, 600);
  ctx.fillStyle = text;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  const s = chart.split;
  ctx.fillText(
    `${chart.name} (${fmtInt(s.samples)}): ECE ${s.ece_before.toFixed(3)} → ${s.ece_after.toFixed(3)}`,
    left,
    2,
  );
  ctx.font = fontOf(0.55);
  ctx.fillStyle = before;
  ctx.fillText('● model’s own', left, remPx() * 1.2);
  ctx.fillStyle = after;
  ctx.fillText(
    `▮ at temperature ${D.calibration.temperature.toPrecision(4)}`,
    left + remPx() * 6,
    remPx() * 1.2,
  );
}
function drawCalibration() {
  for (const chart of calibrationCharts) drawReliability(chart);
}

registerView({ name: 'calibration', build: buildCalibration, draw: drawCalibration });
