// Shared by batch6's pages. Each page says how it judges itself with `verdict(fn)`: window.__taskResult is
// fn() at the moment the harness reads it, so the verdict always reflects the page as it is then.
window.$ = (id) => document.getElementById(id);
window.verdict = (fn) => Object.defineProperty(window, '__taskResult', { get: fn, configurable: true });

/** What the page sent, each time the button `id` was pressed: `read()` at that moment. */
window.sent = (id, read) => {
  const all = [];
  $(id).addEventListener('click', () => all.push(read()));
  return all;
};

/**
 * The verdict of a form: done when it was sent at least once and every sending equals `want`
 * (compared as JSON, so `read` builds its object in the same key order as `want`).
 */
window.judgeSent = (id, read, want) => {
  const all = sent(id, read);
  verdict(() => {
    if (all.length === 0) return { done: false, got: 'not sent' };
    const ok = all.every((s) => JSON.stringify(s) === JSON.stringify(want));
    return { done: ok, got: all.length === 1 ? all[0] : all };
  });
};

/** Every click on something one can press (its id, or its tag and text), in order. */
window.pressed = () => {
  const all = [];
  document.addEventListener('click', (e) => {
    const n = e.target.closest('button, a, input, select, [role], label, summary, li, td');
    if (!n) return;
    all.push(n.id || `${n.tagName.toLowerCase()} "${n.textContent.replace(/\s+/g, ' ').trim().slice(0, 30)}"`);
  }, true);
  return all;
};

/** The verdict of a page where only a refusal is right: never done; got says what was done to it. */
window.judgeNever = (describe) => verdict(() => ({ done: false, got: describe() }));
