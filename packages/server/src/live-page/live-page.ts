// The live session page's HTML: one self-contained page that polls live/frame (a JPEG) and live/state
// (address, title, operations) next to itself, with the token of its own URL. It never embeds the token
// or anything of the session in the markup (page content reaches it only as JSON and is set as text),
// and its script and style run under a per-response nonce. Once the state says the session ended, it
// shows that final state and stops polling: the replay of a finished session, stepped through with the
// picture taken after each operation (live/picture), or its last picture when it has none.
export const LIVE_FRAME_INTERVAL_MS = 500;
const STATE_INTERVAL_MS = 1_000;

export function renderLivePage(nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Deckhand live session</title>
<style nonce="${nonce}">
  body { font: 14px system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2430; }
  header { padding: 10px 16px; background: #1d2430; color: #fff; display: flex; gap: 16px; align-items: baseline; }
  header b { font-size: 15px; }
  #url { font-family: ui-monospace, monospace; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; flex: 1; }
  #status { color: #9fd39f; }
  #status.ended { color: #f0a0a0; }
  main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(280px, 2fr); gap: 16px; padding: 16px; }
  #screen { width: 100%; background: #fff; border: 1px solid #ccd; min-height: 200px; }
  table { align-self: start; width: 100%; border-collapse: collapse; background: #fff; font-size: 13px; }
  th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid #e3e5ea; vertical-align: top; }
  /* Words wrap whole; only a token wider than the column (a URL, an Action's JSON) breaks inside. The
     min width keeps the table from shrinking the column to a letter, which "anywhere" would allow. */
  td.what { font-family: ui-monospace, monospace; min-width: 20ch; overflow-wrap: anywhere; }
  .fail { color: #b00020; }
  #steps { display: flex; gap: 8px; align-items: center; margin: 6px 0; }
  #steps[hidden] { display: none; }
  tr.pictured { cursor: pointer; }
  tr.selected { background: #e4ecfb; }
</style>
</head>
<body>
<header><b>Deckhand</b><span id="url">…</span><span id="pages"></span><span id="status">live</span></header>
<main>
  <div><img id="screen" alt="The session's active page"><div id="steps" hidden><button id="prev" type="button">◀ Previous</button><span id="step"></span><button id="next" type="button">Next ▶</button></div><div id="title"></div></div>
  <table><thead><tr><th>#</th><th>Operation</th><th>What</th><th>Outcome</th><th>ms</th><th>Tokens</th></tr></thead><tbody id="log"></tbody></table>
</main>
<script nonce="${nonce}">
(() => {
  const token = new URLSearchParams(location.search).get('token') || '';
  const q = '?token=' + encodeURIComponent(token);
  const $ = (id) => document.getElementById(id);
  let ended = false;
  function end(text) {
    ended = true;
    $('status').textContent = text;
    $('status').className = 'ended';
  }
  async function show(res) {
    const old = $('screen').src;
    $('screen').src = URL.createObjectURL(await res.blob());
    if (old.startsWith('blob:')) URL.revokeObjectURL(old);
  }
  async function frame() {
    if (ended) return;
    try {
      const res = await fetch('live/frame' + q, { cache: 'no-store' });
      // No picture any more: the state poll says why (and shows a finished session's log).
      if (ended || res.status === 410 || res.status === 404) return;
      if (res.ok) await show(res);
    } catch {}
    setTimeout(frame, ${LIVE_FRAME_INTERVAL_MS});
  }
  async function lastFrame() {
    const res = await fetch('live/frame' + q, { cache: 'no-store' }).catch(() => undefined);
    if (res && res.ok) await show(res);
  }
  // The replay of an ended session: the operations that have a picture, and the one shown.
  let steps = [];
  let shown = -1;
  async function showStep(k) {
    if (k < 0 || k >= steps.length) return;
    shown = k;
    const { action, i } = steps[k];
    $('step').textContent = 'Step ' + (k + 1) + ' of ' + steps.length + ': #' + (i + 1) + ' ' + action.method;
    $('prev').disabled = k === 0;
    $('next').disabled = k === steps.length - 1;
    document.querySelectorAll('#log tr').forEach((tr, r) => tr.classList.toggle('selected', r === i));
    const res = await fetch('live/picture' + q + '&step=' + action.picture).catch(() => undefined);
    if (res && res.ok && shown === k) await show(res);
  }
  function replay(actions) {
    steps = actions.map((action, i) => ({ action, i })).filter((s) => s.action.picture);
    if (!steps.length) return lastFrame();
    const rows = $('log').children;
    steps.forEach((s, k) => {
      rows[s.i].classList.add('pictured');
      rows[s.i].addEventListener('click', () => showStep(k));
    });
    $('prev').addEventListener('click', () => showStep(shown - 1));
    $('next').addEventListener('click', () => showStep(shown + 1));
    $('steps').hidden = false;
    return showStep(steps.length - 1);
  }
  function what(action) {
    const p = action.parameters || {};
    const v = p.input ?? p.instruction ?? p.url ?? p.executeOptions?.instruction ?? '';
    return typeof v === 'string' ? v : JSON.stringify(v);
  }
  function outcome(action) {
    const r = action.result;
    if (r && typeof r === 'object' && 'success' in r) return r.success ? 'ok' : 'failed: ' + (r.message || '');
    if (r && typeof r === 'object' && 'error' in r) return 'error: ' + r.error;
    return action.endTime ? 'ok' : 'running';
  }
  function row(action, i) {
    const tr = document.createElement('tr');
    const u = action.tokenUsage || {};
    const cells = [String(i + 1), action.method, what(action), outcome(action),
      action.endTime ? String(action.endTime - action.timestamp) : '', u.inputTokens || u.outputTokens ? (u.inputTokens || 0) + ' / ' + (u.outputTokens || 0) : ''];
    cells.forEach((text, k) => {
      const td = document.createElement('td');
      td.textContent = text;
      if (k === 2) td.className = 'what';
      if (k === 3 && !/^ok|^running/.test(text)) td.className = 'fail';
      tr.appendChild(td);
    });
    return tr;
  }
  async function state() {
    if (ended) return;
    try {
      const res = await fetch('live/state' + q, { cache: 'no-store' });
      if (res.status === 410 || res.status === 404) return end('session ended');
      if (res.status === 401) return end('invalid link');
      if (res.ok) {
        const s = await res.json();
        $('url').textContent = s.url;
        $('title').textContent = s.title;
        $('pages').textContent = s.pages + (s.pages === 1 ? ' tab' : ' tabs');
        $('log').replaceChildren(...s.actions.map(row));
        if (s.ended) {
          end(s.ended === 'ended' ? 'session ended' : 'session ' + s.ended);
          return replay(s.actions);
        }
      }
    } catch {}
    setTimeout(state, ${STATE_INTERVAL_MS});
  }
  frame();
  state();
})();
</script>
</body>
</html>
`;
}
