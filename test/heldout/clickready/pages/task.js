// Held-out task pages (issue 18): each page judges itself. It calls record(judge) with a function
// that returns {done, got} from the page's own state; the runner reads window.__taskResult, which
// calls it, and never the act's or the agent's report.
window.$ = (id) => document.getElementById(id);
window.record = (judge) =>
  Object.defineProperty(window, '__taskResult', {
    configurable: true,
    get() {
      try {
        return judge();
      } catch (e) {
        return { done: false, got: `judge failed: ${e.message}` };
      }
    },
  });
/** What the page held when the button was pressed (the last press counts; null before any). */
window.onPress = (id, snapshot) => {
  let sent = null;
  $(id).addEventListener('click', () => {
    sent = snapshot();
  });
  return () => sent;
};
