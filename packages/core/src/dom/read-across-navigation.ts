// Reads of a page (its text, its snapshot) run several evaluations; a navigation that commits between
// or during them (a page that redirects itself by script, a late error page) destroys the document
// they read. A read counts only on a parsed document, and one whose document was replaced meanwhile
// is done again, once, on the new document.
import type { Frame } from 'playwright-core';
import { DeckhandError, firstLine } from '../errors.js';

/** How long a read waits for the new document before reading it again. */
const NEW_DOCUMENT_WAIT_MS = 5_000;

/** Playwright's and CDP's words for a document (or a handle into it) that a navigation replaced, or that has none yet. */
const DOCUMENT_REPLACED = /Execution context was destroyed|Cannot find context with specified id|Cannot find default execution context|JSHandle is disposed|Element is not attached to the DOM/i;

/** What a read that checks its own document throws when it found the document still being parsed. */
export class DocumentNotParsed extends Error {
  constructor() {
    super('the document was still being parsed');
  }
}

export interface ReadOptions {
  /** The read checks in its own evaluation that its document is parsed (it throws DocumentNotParsed): no separate check goes out. */
  readChecksParsed?: boolean;
}

export async function readAcrossNavigation<T>(frame: Frame, read: () => Promise<T>, { readChecksParsed = false }: ReadOptions = {}): Promise<T> {
  if (readChecksParsed) {
    try {
      return await read();
    } catch (error) {
      if (error instanceof DocumentNotParsed) return readParsed(frame, read, 1);
      if (!isDocumentReplaced(error)) throw error;
      return readParsed(frame, read, 0);
    }
  }
  // Usually the document is parsed: the check and the read go out together (one round trip, not two),
  // and a read of a document still being parsed is thrown away and done again once it is.
  const [parsed, early] = await Promise.all([isParsed(frame), read().then((value) => ({ value }), (error: unknown) => ({ error }))]);
  if (!parsed) return readParsed(frame, read, 1);
  if (!('error' in early)) return early.value;
  if (!isDocumentReplaced(early.error)) throw early.error;
  return readParsed(frame, read, 0);
}

/** Reads once the document is parsed, again (up to `retries` times) when a navigation replaced it mid-read. */
async function readParsed<T>(frame: Frame, read: () => Promise<T>, retries: number): Promise<T> {
  for (let left = retries; ; left--) {
    await documentParsed(frame);
    try {
      return await read();
    } catch (error) {
      if (!isDocumentReplaced(error)) throw error;
      if (left === 0) throw new DeckhandError('unprocessable', 'The page navigated again while it was being read; try again once it has settled');
    }
  }
}

function isParsed(frame: Frame): Promise<boolean> {
  return frame.evaluate(() => document.readyState !== 'loading').catch(() => false);
}

/**
 * Waits until the frame's current document is parsed (a document just committed is still empty).
 * Asked in the page, since Playwright may not have seen a new document's commit yet when the old
 * one's context is reported destroyed (its load state would still be the old document's); the wait
 * carries over to the next document if the page navigates once more meanwhile.
 */
async function documentParsed(frame: Frame): Promise<void> {
  // Usually it is: one evaluation says so, where waitForFunction sets up a poller and waits a frame.
  if (await isParsed(frame)) return;
  await frame.waitForFunction(() => document.readyState !== 'loading', undefined, { timeout: NEW_DOCUMENT_WAIT_MS }).catch(() => undefined);
}

/** Whether `error` says the read's document was replaced (or has none yet): the read is worth doing again. */
export function isDocumentReplaced(error: unknown): boolean {
  return error instanceof DocumentNotParsed || DOCUMENT_REPLACED.test(firstLine(error));
}
