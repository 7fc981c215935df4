// What happened in a grounding page, as effect lines the suite judges: controls that did something
// ("do …"), links followed ("open …", the page stays put), values typed, boxes ticked, options
// chosen, forms submitted, sections opened or closed, keys pressed. Pages log their own hovers and
// switches with glog(). A frame reports to the top page, which keeps the lines in window.__glog.
(() => {
  const isTop = window.top === window;
  const lines = [];
  if (isTop) {
    window.__glog = lines;
    window.addEventListener('message', (e) => {
      if (e.data && typeof e.data.glog === 'string') lines.push(e.data.glog);
    });
  }
  const log = (line) => (isTop ? lines.push(line) : window.top.postMessage({ glog: line }, '*'));
  window.glog = log;
  const keyOf = (el) => (el.dataset && el.dataset.k) || el.id || el.getAttribute('name') || el.localName;
  const origin = (e) => e.composedPath()[0];

  document.addEventListener('input', (e) => {
    const t = origin(e);
    if (t.localName === 'textarea' || (t.localName === 'input' && !['checkbox', 'radio'].includes(t.type))) log(`value ${keyOf(t)}=${t.value}`);
    else if (t.isContentEditable) log(`value ${keyOf(t)}=${t.innerText.trim()}`);
  }, true);
  document.addEventListener('change', (e) => {
    const t = origin(e);
    if (t.type === 'checkbox' || t.type === 'radio') log(`checked ${keyOf(t)}=${t.checked}`);
    else if (t.localName === 'select') log(`select ${keyOf(t)}=${t.selectedOptions[0] ? t.selectedOptions[0].label : ''}`);
  }, true);
  document.addEventListener('submit', (e) => {
    e.preventDefault();
    log(`submit ${keyOf(e.target)}`);
  }, true);
  document.addEventListener('toggle', (e) => {
    const t = e.target;
    if (t.localName === 'details') log(`toggle ${keyOf(t)}=${t.open ? 'open' : 'closed'}`);
  }, true);
  document.addEventListener('click', (e) => {
    const path = e.composedPath();
    const doer = path.find((n) => n.dataset && n.dataset.do);
    if (doer) log(`do ${doer.dataset.do}`);
    const link = path.find((n) => n.localName === 'a' && n.hasAttribute('href'));
    if (link) {
      e.preventDefault();
      if (!doer) log(`open ${link.getAttribute('href')}`);
    }
  }, true);
  document.addEventListener('keydown', (e) => {
    if (['Enter', 'Escape', 'Tab'].includes(e.key)) log(`key ${e.key}`);
  }, true);
})();
