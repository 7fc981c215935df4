// Reads of a page (its text, its snapshot) run several evaluations; a navigation that commits between
// or during them (a page that redirects itself by script, a late error page) destroys the document
// they read. A read starts once the current document is parsed, and one whose document was replaced
// meanwhile is done again, once, on the new document.
import type { Frame } from 'playwright-core';
import { DeckhandError, firstLine } from '../errors.js';

/** How long a read waits for the new document before reading it again. */
const NEW_DOCUMENT_WAIT_MS = 5_000;

/** Playwright's words for a document (or a handle into it) that a navigation replaced. */
const DOCUMENT_REPLACED = /Execution context was destroyed|Cannot find context with specified id|JSHandle is disposed|Element is not attached to the DOM/i;

export async function readAcrossNavigation<T>(frame: Frame, read: () => Promise<T>): Promise<T> {
  await documentParsed(frame);
  try {
    return await read();
  } catch (error) {
    if (!isDocumentReplaced(error)) throw error;
  }
  await documentParsed(frame);
  try {
    return await read();
  } catch (error) {
    if (!isDocumentReplaced(error)) throw error;
    throw new DeckhandError('unprocessable', 'The page navigated again while it was being read; try again once it has settled');
  }
}

/**
 * Waits until the frame's current document is parsed (a document just committed is still empty).
 * Asked in the page, since Playwright may not have seen a new document's commit yet when the old
 * one's context is reported destroyed (its load state would still be the old document's); the wait
 * carries over to the next document if the page navigates once more meanwhile.
 */
async function documentParsed(frame: Frame): Promise<void> {
  // Usually it is: one evaluation says so, where waitForFunction sets up a poller and waits a frame.
  if (await frame.evaluate(() => document.readyState !== 'loading').catch(() => false)) return;
  await frame.waitForFunction(() => document.readyState !== 'loading', undefined, { timeout: NEW_DOCUMENT_WAIT_MS }).catch(() => undefined);
}

function isDocumentReplaced(error: unknown): boolean {
  return DOCUMENT_REPLACED.test(firstLine(error));
}
