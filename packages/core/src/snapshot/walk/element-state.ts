// In-page (shipped as source by inPage): the state an element's line carries (value, checked,
// selected option, expanded, disabled, link target) and whether it is in the viewport.
import type { Line } from './walk-types.js';
import type { WalkRules } from './walk-rules.js';

/** Where the walk runs: the viewport's size, and the origin and address short links are written against. */
export interface WalkView {
  vw: number;
  vh: number;
  origin: string;
  here: string | undefined;
}

export function elementState(rules: WalkRules, { vw, vh, origin, here }: WalkView) {
  const { MAX_NAME, MAX_TEXT, MAX_OPTIONS, TEXT_INPUT_PLAIN, TEXT_INPUTS, squash, clip, triState } = rules;

  function shortHref(a: Element): string | undefined {
    const raw = (a as HTMLAnchorElement).href;
    if (!raw || raw.startsWith('javascript:')) return undefined;
    try {
      const u = new URL(raw);
      if (u.href.split('#')[0] === here && u.hash) return u.hash;
      if (u.origin === origin) return u.pathname + u.search + u.hash;
      return u.href;
    } catch {
      return raw;
    }
  }

  function inView(el: Element): 1 | undefined {
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw ? 1 : undefined;
  }

  function describeState(el: Element, tag: string, role: string, node: Line) {
    if (tag === 'input' || tag === 'textarea') {
      const input = el as HTMLInputElement;
      const type = tag === 'input' ? (input.getAttribute('type') ?? '').toLowerCase() : '';
      if (type && type !== 'text' && !TEXT_INPUT_PLAIN.has(type)) node.inputType = type;
      if (type === 'checkbox' || type === 'radio') {
        node.checked = input.indeterminate ? 'mixed' : input.checked;
      } else if (tag === 'textarea' || TEXT_INPUTS.has(type) || type === 'range') {
        // A password's value never leaves the page; the caller prints the mask instead.
        if (input.value) {
          if (type === 'password') node.secret = 1;
          else node.value = clip(input.value, MAX_TEXT);
        }
        const ph = input.placeholder;
        if (ph && !input.value && ph !== node.name) node.placeholder = clip(ph, MAX_NAME);
      }
      if (input.required) node.required = 1;
    } else if (tag === 'select') {
      const select = el as HTMLSelectElement;
      const picked = Array.from(select.selectedOptions, (o) => squash(o.label));
      if (picked.length) node.selected = clip(picked.join(', '), MAX_TEXT);
      const opts = select.options;
      const labels: string[] = [];
      for (let i = 0; i < opts.length && i < MAX_OPTIONS; i++) labels.push(clip(squash(opts[i].label), 40));
      if (opts.length > MAX_OPTIONS) labels.push(`…${opts.length - MAX_OPTIONS} more`);
      node.options = labels;
      if (select.required) node.required = 1;
    } else if (tag === 'a') {
      const href = shortHref(el);
      if (href) node.href = href;
    } else if (tag === 'summary') {
      const details = el.parentElement;
      if (details && details.localName === 'details') node.expanded = (details as HTMLDetailsElement).open;
    } else if ((el as HTMLElement).isContentEditable) {
      const t = squash((el as HTMLElement).innerText);
      if (t) node.value = clip(t, MAX_TEXT);
    }
    if ((el as HTMLButtonElement).disabled === true || el.getAttribute('aria-disabled') === 'true' || ((tag === 'input' || tag === 'button' || tag === 'select' || tag === 'textarea') && el.matches(':disabled'))) node.disabled = 1;
    if (el.getAttribute('aria-required') === 'true') node.required = 1;
    const checked = triState(el.getAttribute('aria-checked'));
    if (checked !== undefined && node.checked === undefined) node.checked = checked;
    const pressed = triState(el.getAttribute('aria-pressed'));
    if (pressed !== undefined) node.pressed = pressed;
    const popup = el.getAttribute('aria-haspopup');
    if (popup && popup !== 'false') node.popup = popup === 'true' ? 'menu' : popup;
    const expanded = el.getAttribute('aria-expanded');
    if (expanded === 'true' || expanded === 'false') node.expanded = expanded === 'true';
    if (el.getAttribute('aria-selected') === 'true' || (el.getAttribute('aria-current') ?? 'false') !== 'false') node.current = 1;
    if (role === 'option' && tag === 'option' && (el as HTMLOptionElement).selected) node.current = 1;
  }

  return { inView, describeState };
}
