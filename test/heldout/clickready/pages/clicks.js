// The clicks this batch's pages judge by (beside task.js): every click that reaches the document, where
// the page's own handlers would get it (caught as it comes down, so no handler of the page can hide it),
// with whether it hit the element the task names and whether real input made it (isTrusted), not a script.
/** A short name for what a click landed on: its id, or its tag (and its text, below the body). */
window.named = (n) => {
  if (n.id) return n.id;
  const tag = n.tagName.toLowerCase();
  return n === document.body || n === document.documentElement ? tag : `${tag} "${n.textContent.replace(/\s+/g, ' ').trim().slice(0, 30)}"`;
};
/**
 * Watches the clicks in this document; `hits(node)` says, at the click, whether it landed on the
 * element the task names (or a part of it). The verdict: done when exactly one click hit it, made by
 * real input, and no click landed anywhere else.
 */
window.watchClicks = (hits) => {
  const seen = [];
  document.addEventListener('click', (e) => { const on = e.composedPath()[0]; seen.push({ on, hit: hits(on), trusted: e.isTrusted }); }, true);
  return () => {
    const elsewhere = seen.filter((c) => !c.hit);
    const mine = seen.filter((c) => c.hit);
    if (elsewhere.length) return { done: false, got: `clicked elsewhere: ${elsewhere.map((c) => named(c.on)).join(', ')}` };
    if (mine.length === 0) return { done: false, got: 'no click' };
    if (mine.some((c) => !c.trusted)) return { done: false, got: 'a click made by a script, not by input' };
    return { done: mine.length === 1, got: mine.length === 1 ? 'clicked once' : `clicked ${mine.length} times` };
  };
};
/** The element `id` or anything inside it. */
window.within = (id) => (n) => $(id) !== null && $(id).contains(n);
