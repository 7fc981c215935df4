// In-page (shipped as source by inPage): a modal's backdrop, and whether an element lies behind it.
import type { InPageLib } from '../../selectors/index.js';
import type { WalkRules } from './walk-rules.js';

export function modalOverlay(rules: WalkRules, lib: InPageLib, vw: number, vh: number) {
  const { parentOf } = rules;

  /**
   * A fixed layer over (nearly) the whole viewport, at its centre: a modal's backdrop. Controls
   * outside it cannot be clicked while it is there.
   */
  function overlayAtCentre(): Element | undefined {
    let hit: Element | null = document.elementFromPoint(vw / 2, vh / 2);
    for (let sr = hit && lib.shadowRootOf(hit); sr; sr = hit && lib.shadowRootOf(hit)) {
      const inner: Element | null = sr.elementFromPoint(vw / 2, vh / 2);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    for (let a = hit; a && a.localName !== 'body' && a.localName !== 'html'; a = parentOf(a)) {
      if (getComputedStyle(a).position !== 'fixed') continue;
      const r = a.getBoundingClientRect();
      if (r.width * r.height >= vw * vh * 0.9) return a;
    }
    return undefined;
  }

  const overlay = overlayAtCentre();
  /** Whether the overlay lies in a shadow root above el (el is in it then, not behind it). */
  function overlayHosts(el: Element): boolean {
    for (let a: Element | null = el; a; a = parentOf(a)) if (a === overlay) return true;
    return false;
  }

  return { overlay, overlayHosts };
}
