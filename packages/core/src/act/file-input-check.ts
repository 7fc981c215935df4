// One check before files are set on a file field, for act's setInputFiles and the upload tool: the
// field is enabled, takes as many files as given, and its `accept` admits each file, so the page is
// never handed files it says it does not take.
import type { ElementHandle, Locator } from 'playwright-core';
import mime from 'mime-types';
import { ActionFailure } from './action-failure.js';

interface FileField {
  file: boolean;
  disabled: boolean;
  multiple: boolean;
  accept: string;
}

/** Throws an ActionFailure naming why the field cannot take these files (names as the page would see them). */
export async function checkFileField(element: Locator | ElementHandle<Element>, names: string[], timeoutMs: number): Promise<void> {
  const field = await (element as Locator).evaluate((found: Element): FileField | undefined => {
    const el = found instanceof HTMLLabelElement ? found.control : found;
    if (!(el instanceof HTMLInputElement)) return undefined;
    return { file: el.type === 'file', disabled: el.disabled, multiple: el.multiple, accept: el.accept };
  }, undefined, { timeout: timeoutMs });
  // Not an input: Playwright says so itself when it sets the files.
  if (!field?.file) return;
  if (field.disabled) throw new ActionFailure('The file field is disabled');
  if (names.length > 1 && !field.multiple) throw new ActionFailure(`The file field takes one file (it does not allow several); ${names.length} were given`);
  const refused = names.filter((name) => !accepts(field.accept, name));
  if (refused.length > 0) throw new ActionFailure(`The file field accepts only ${field.accept}: ${refused.map((n) => `"${n}"`).join(', ')} is not one`);
}

/** The HTML rule: a token is an extension (".png"), a MIME type ("image/png") or a family ("image/*"). */
function accepts(accept: string, name: string): boolean {
  const tokens = accept.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean);
  if (tokens.length === 0) return true;
  const type = (mime.lookup(name) || '').toLowerCase();
  const lower = name.toLowerCase();
  return tokens.some((t) => (t.startsWith('.') ? lower.endsWith(t) : t.endsWith('/*') ? type.startsWith(t.slice(0, -1)) : type === t));
}
