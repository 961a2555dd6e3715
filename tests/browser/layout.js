// The layout check of tests/browser/layout.py, run in the page as one evaluate:
// what is off screen, under the dock, too small, or wider than the window.
([touch, minimum, slack, mustSee, board]) => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const report = { scrollWidth: document.documentElement.scrollWidth, innerWidth: vw,
                   missing: [], offscreen: [], small: [], tiny: [], underDock: [] };
  const box = (n) => n.getBoundingClientRect();
  const shown = (n) => n.getClientRects().length > 0 && getComputedStyle(n).visibility !== 'hidden';
  const inView = (n) => { const r = box(n);
    return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw; };
  // Shown, not only in the window: the middle of its part in the window is not covered
  // (by the dock, say).
  const uncovered = (n) => { const r = box(n);
    const x = (Math.max(r.left, 0) + Math.min(r.right, vw)) / 2;
    const y = (Math.max(r.top, 0) + Math.min(r.bottom, vh)) / 2;
    const hit = document.elementFromPoint(x, y);
    return Boolean(hit) && (hit === n || n.contains(hit)); };
  const name = (n) => (n.id ? '#' + n.id : n.tagName.toLowerCase())
    + (n.dataset.key ? `[${n.dataset.key}]` : '') + ' ' + (n.getAttribute('aria-label') || n.textContent || '').trim().slice(0, 30);
  for (const sel of mustSee) {
    const node = document.querySelector(sel);
    if (!node) report.missing.push(sel);
    else if (!inView(node)) report.offscreen.push(sel);
    else if (!uncovered(node)) report.offscreen.push(sel + ' (covered)');
  }
  const table = document.querySelector('#table-root') || document.body;
  // At a table, enabled moves outside the folds and the header row must be on screen now
  // (the lobby and the waiting room are pages that scroll).
  const moves = document.querySelector('#table-root .table')
    ? table.querySelectorAll('button:not([disabled]):not([aria-disabled=true])') : [];
  for (const b of moves) {
    if (!shown(b) || b.closest('details:not([open]), .fold, .table-head, .sk-history')) continue;
    if (!inView(b)) report.offscreen.push(name(b));
    else if (!uncovered(b)) report.offscreen.push(name(b) + ' (covered)');
  }
  // With `board`, nothing a player can tap or read as a card on the board (everything of
  // the table before the dock) may lie under the dock: their boxes must not meet.
  const dock = board && document.querySelector('#table-root #dock');
  if (dock) {
    const d = box(dock);
    const parts = '[data-card], [data-term], button, select, input, summary, a[href]';
    for (const n of table.querySelectorAll(parts)) {
      if (!(n.compareDocumentPosition(dock) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
      if (!shown(n) || n.closest('details:not([open])')) continue;
      const r = box(n);
      if (r.width > 0 && r.height > 0 && r.bottom > d.top + slack && r.top < d.bottom - slack
          && r.right > d.left && r.left < d.right) {
        report.underDock.push(`${name(n)} (${Math.round(r.top)}–${Math.round(r.bottom)} px, dock from ${Math.round(d.top)} px)`);
      }
    }
  }
  const controls = 'button:not([disabled]), select:not([disabled]), input:not([disabled]), summary, a[href]';
  for (const c of document.querySelectorAll(controls)) {
    if (!shown(c)) continue;
    // A link inside a sentence is an inline target, which WCAG 2.5.8 exempts.
    if (c.tagName === 'A' && getComputedStyle(c).display === 'inline') continue;
    // A control inside its label is tapped through the label.
    const target = c.closest('label') || c;
    const r = box(target);
    const size = `${name(c)} ${Math.round(r.width)}x${Math.round(r.height)}`;
    if (r.width + slack < minimum || r.height + slack < minimum) report.tiny.push(size);
    else if (table.contains(c) && (r.width + slack < touch || r.height + slack < touch)) report.small.push(size);
  }
  return report;
}
