// The layout check of tests/browser/layout.py, run in the page as one evaluate:
// what is off screen or covered, too small, or wider or taller than the window.
([touch, minimum, slack, mustSee, phone]) => {
  // Cards in flight (motion.js) are checked where they come to rest.
  for (const a of document.getAnimations()) a.finish();
  const vw = window.innerWidth, vh = window.innerHeight;
  const report = { scrollWidth: document.documentElement.scrollWidth, innerWidth: vw,
                   scrollHeight: document.documentElement.scrollHeight, innerHeight: vh,
                   missing: [], offscreen: [], small: [], tiny: [] };
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
  // A must-see part: there, wholly inside the window, and its middle not covered (by the
  // dock, a sheet, the head row, or the edge of a part that scrolls inside itself).
  const whole = (n) => { const r = box(n);
    return r.width > 0 && r.height > 0 && r.top >= -slack && r.left >= -slack
      && r.bottom <= vh + slack && r.right <= vw + slack; };
  for (const sel of mustSee) {
    const nodes = [...document.querySelectorAll(sel)];
    if (!nodes.length) report.missing.push(sel);
    for (const node of nodes) {
      if (!whole(node)) { const r = box(node);
        report.offscreen.push(`${sel} (${Math.round(r.top)}–${Math.round(r.bottom)} px of ${vh})`); }
      else if (!uncovered(node)) report.offscreen.push(sel + ' (covered)');
    }
  }
  const table = document.querySelector('#table-root') || document.body;
  // At a table, enabled moves outside the folds and the header row must be on screen now
  // (the lobby and the waiting room are pages that scroll).
  const moves = document.querySelector('#table-root .table')
    ? table.querySelectorAll('button:not([disabled]):not([aria-disabled=true])') : [];
  // A hand (or the face-up row) longer than its place scrolls inside itself (two rows
  // upright, one on its side): its cards count as reachable when the row itself is on
  // screen and uncovered.
  const scrolls = (n) => n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1;
  // A round's result lies over the middle: what it covers there waits for the next round.
  const over = document.querySelector('.middle-wrap > .round-end') ? ', .middle' : '';
  for (const b of moves) {
    if (!shown(b) || b.closest('details:not([open]), .fold, .table-head, .sk-history' + over)) continue;
    const hand = b.closest('.hand, .sk-hand');
    if (hand && scrolls(hand)) {
      if (!inView(hand) || !uncovered(hand)) report.offscreen.push('the hand holding ' + name(b));
      continue;
    }
    if (!inView(b)) report.offscreen.push(name(b));
    else if (!uncovered(b)) report.offscreen.push(name(b) + ' (covered)');
  }
  // The head row's controls may scroll sideways inside the row on a phone, but each must
  // be reachable by that scroll: one pushed past the row's start (a row aligned to its
  // end and overflowing) can never be scrolled to.
  for (const row of document.querySelectorAll('.head-controls')) {
    const start = box(row).left - row.scrollLeft;
    for (const c of row.children) {
      if (shown(c) && box(c).left < start - slack) report.offscreen.push(name(c) + ' (past the head row\'s start)');
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
    else if (phone && table.contains(c) && (r.width + slack < touch || r.height + slack < touch)) report.small.push(size);
  }
  return report;
}
