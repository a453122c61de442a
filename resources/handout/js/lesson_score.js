// How a guess at a hidden head scores, by the rule the window scores a class's votes by. For each
// guessed query row q, with G the keys guessed in it (v_k votes each; a click is one vote):
// held_q is the weight of G (masked cells, NaN, count 0 and cannot be guessed); top_q is the
// unmasked key of the largest weight (the first of equal ones); the row is a hit when top_q has
// votes and no key of the row has more. Over the guessed rows: held is the mean of held_q, hits
// the rows that are hits.

// `head`: {rows, cols, at(r, c)}; `votes`: {row: {col: count}}. Returns {rows: [{row, held, top,
// topWeight, hit}], held, hits}; rows without a vote on an unmasked key are not guessed rows.
function scoreGuess(head, votes) {
  const rows = [];
  for (const [key, cols] of Object.entries(votes)) {
    const q = Number(key);
    if (!(q >= 0 && q < head.rows)) continue;
    let held = 0,
      most = 0,
      top = -1,
      topWeight = -Infinity;
    for (let k = 0; k < head.cols; ++k) {
      const w = head.at(q, k);
      if (Number.isNaN(w)) continue;
      if (w > topWeight) {
        topWeight = w;
        top = k;
      }
      const v = cols[k] || 0;
      if (v > 0) {
        held += w;
        most = Math.max(most, v);
      }
    }
    if (most === 0) continue;
    const topVotes = cols[top] || 0;
    rows.push({ row: q, held, top, topWeight, hit: topVotes > 0 && topVotes === most });
  }
  const held = rows.length ? rows.reduce((sum, r) => sum + r.held, 0) / rows.length : 0;
  return { rows, held, hits: rows.filter((r) => r.hit).length };
}

// The score as one line: "Your guess held 62% of the weight · top key “trophy” guessed ✓"; with
// several rows "… · top key guessed in 2 of 3 rows"; a missed row "… · the top key was
// “suitcase” (0.41)". `keyText(k)` names key k.
function scoreText(score, keyText) {
  if (!score.rows.length) return 'No guess was made.';
  const held = `Your guess held ${Math.round(score.held * 100)}% of the weight`;
  if (score.rows.length > 1) {
    return `${held} · top key guessed in ${score.hits} of ${score.rows.length} rows`;
  }
  const row = score.rows[0];
  return row.hit
    ? `${held} · top key “${keyText(row.top)}” guessed ✓`
    : `${held} · the top key was “${keyText(row.top)}” (${fmtWeight(row.topWeight)})`;
}
