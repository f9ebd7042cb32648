// What tests/e2e/test_layout.py measures in the browser, on one page at viewport width vw:
// elements past the viewport's edges, boxes whose content is wider than the box
// (scrollWidth > clientWidth on a block, or a scroll wrapper that would have to scroll), and
// legends outside their fieldsets. Visually hidden elements are not measured.
(vw) => {
  const bad = [];
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : '');
  const hidden = (e) => {
    for (let n = e; n && n !== document.body; n = n.parentElement) {
      const s = getComputedStyle(n);
      if (s.display === 'none' || s.visibility === 'hidden') return true;
      if (n.classList.contains('usa-sr-only') || n.classList.contains('usa-radio__input') ||
          n.classList.contains('usa-checkbox__input') || n.classList.contains('usa-skipnav')) return true;
      if (s.position === 'absolute' && (s.clip !== 'auto' || parseFloat(s.width) <= 1 ||
          n.getBoundingClientRect().right <= 0)) return true;  // moved off-screen on purpose
    }
    return false;
  };
  if (document.documentElement.scrollWidth > vw) bad.push('page ' + document.documentElement.scrollWidth + 'px wide');
  for (const e of document.body.querySelectorAll('*')) {
    if (['SCRIPT', 'STYLE', 'OPTION', 'BR'].includes(e.tagName)) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (hidden(e)) continue;
    if (r.right > vw + 1 || r.left < -1) bad.push(name(e) + ' spans ' + Math.round(r.left) + '..' + Math.round(r.right));
    const s = getComputedStyle(e);
    if (s.display === 'inline' || s.display === 'contents') continue;
    if (e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0 && ['TD', 'TH'].indexOf(e.tagName) < 0)
      bad.push(name(e) + ' holds ' + e.scrollWidth + 'px in ' + e.clientWidth + 'px (' + s.overflowX + ')');
  }
  for (const lg of document.querySelectorAll('fieldset > legend')) {
    const f = lg.parentElement.getBoundingClientRect(), r = lg.getBoundingClientRect();
    if (r.top < f.top - 1 || r.right > f.right + 1) bad.push(name(lg) + ' outside its fieldset');
  }
  return [...new Set(bad)].slice(0, 12);
}
