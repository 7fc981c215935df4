// The dialog open in the frame the agent acts in: a <dialog open>, or an element with role dialog or
// alertdialog (or aria-modal) that is rendered. Its name and its buttons are read, for "… and confirm".
import type { OperationScope } from '../scope/operation-scope.js';
import { pageFunction } from '../selectors/in-page.js';

export interface OpenDialog {
  /** What the dialog is called: its aria-label, the text aria-labelledby names, else its first heading. */
  name: string;
  /** The text of each of its buttons. */
  buttons: string[];
  /** All its text, cut to 2,000 characters. */
  text: string;
}

const readDialog = pageFunction((): OpenDialog | null => {
  const words = (el: Element | null) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const open = [...document.querySelectorAll('dialog[open], [role="dialog"], [role="alertdialog"], [aria-modal="true"]')].filter(
    (d) => (d as HTMLElement).getClientRects().length > 0 && getComputedStyle(d).visibility === 'visible',
  );
  // The last one opened is drawn over the others.
  const dialog = open.at(-1);
  if (!dialog) return null;
  const labelledBy = (dialog.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean).map((id) => words(document.getElementById(id))).join(' ');
  const name = dialog.getAttribute('aria-label') ?? (labelledBy || words(dialog.querySelector('h1, h2, h3, h4, h5, h6, [role="heading"]')));
  const buttons = [...dialog.querySelectorAll('button, [role="button"], input[type="submit"], input[type="button"]')].map((b) =>
    b instanceof HTMLInputElement ? b.value : (b.getAttribute('aria-label') ?? words(b)),
  );
  return { name, buttons: buttons.filter(Boolean), text: words(dialog).slice(0, 2000) };
});

export async function openDialog(scope: OperationScope, frameId: Parameters<OperationScope['frame']>[0]): Promise<OpenDialog | undefined> {
  const frame = await scope.frame(frameId);
  return (await frame.evaluate(readDialog).catch(() => null)) ?? undefined;
}
