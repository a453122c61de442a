// Light, dark and high-contrast colours, remembered by the browser.
function applyTheme(name, remember) {
  root.dataset.theme = name;
  for (const b of document.querySelectorAll('[data-theme-choice]'))
    b.setAttribute('aria-pressed', b.dataset.themeChoice === name ? 'true' : 'false');
  if (remember) {
    try {
      localStorage.setItem('attentionscope-handout-theme', name);
    } catch (e) {
      /* file:// may refuse storage */
    }
  }
  drawAll();
}
function initialTheme() {
  let saved = null;
  try {
    saved = localStorage.getItem('attentionscope-handout-theme');
  } catch (e) {
    saved = null;
  }
  const known = (t) => t === 'light' || t === 'dark' || t === 'contrast';
  if (known(saved)) return saved;
  if (known(D.theme)) return D.theme;
  if (window.matchMedia && window.matchMedia('(prefers-contrast: more)').matches) return 'contrast';
  return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches
    ? 'dark'
    : 'light';
}

registerView({
  name: 'theme',
  build: () => {
    for (const b of document.querySelectorAll('[data-theme-choice]'))
      b.addEventListener('click', () => applyTheme(b.dataset.themeChoice, true));
  },
});
