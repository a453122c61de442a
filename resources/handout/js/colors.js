// Colours: the window's maps.
// Viridis with 256 levels, the weight's level cut as QCustomPlot cuts it (0 to the top).
function viridisIndex(w, top) {
  const i = Math.floor((w / top) * 255);
  return i < 0 ? 0 : i > 255 ? 255 : i;
}
function coolwarm(t) {
  // t in 0..1
  t = Math.min(1, Math.max(0, t));
  let k = 1;
  while (k < coolwarmStops.length - 1 && coolwarmStops[k][0] < t) ++k;
  const a = coolwarmStops[k - 1],
    b = coolwarmStops[k];
  const f = (t - a[0]) / (b[0] - a[0]);
  return [
    Math.trunc(a[1] * (1 - f) + b[1] * f),
    Math.trunc(a[2] * (1 - f) + b[2] * f),
    Math.trunc(a[3] * (1 - f) + b[3] * f),
  ];
}
