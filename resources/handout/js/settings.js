// The run's settings: the few a student reads first, named for people, then every one of
// config.json's keys, folded away.
function settingRows(list, pairs) {
  for (const [key, value] of pairs) {
    const row = document.createElement('div');
    row.className = 'setting';
    const k = document.createElement('span');
    k.className = 'key';
    k.textContent = key;
    const v = document.createElement('span');
    v.className = 'value';
    v.textContent = value === '' ? '–' : value;
    row.append(k, v);
    list.appendChild(row);
  }
}
function buildSettings() {
  const list = $('settings-list');
  settingRows(list, D.key_settings || []);
  const all = D.settings || [];
  if (!all.length) return;
  const details = document.createElement('details');
  details.id = 'all-settings';
  const summary = document.createElement('summary');
  summary.textContent = `All ${all.length} settings, as config.json names them`;
  const rows = document.createElement('div');
  rows.className = 'settings';
  settingRows(rows, all);
  details.append(summary, rows);
  list.after(details);
}

registerView({ name: 'settings', build: buildSettings });
