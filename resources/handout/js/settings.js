// The run's settings.
function buildSettings() {
  const list = $('settings-list');
  for (const [key, value] of D.settings || []) {
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

registerView({ name: 'settings', build: buildSettings });
