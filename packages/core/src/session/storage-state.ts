// A session's cookies and storage state (Playwright's: cookies and each origin's localStorage), read and
// set so a logged-in state saved from one session can start another. Cookies are accepted for any domain:
// a cookie reaches nothing by itself, and every request the browser makes still passes the navigation policy.
import type { BrowserContext } from 'playwright-core';
import { DeckhandError, firstLine } from '../errors.js';
import type { Cookie, SetCookiesRequest, StorageState } from '../types.js';

export async function readCookies(context: BrowserContext): Promise<Cookie[]> {
  return context.cookies();
}

export async function writeCookies(context: BrowserContext, request: SetCookiesRequest): Promise<Cookie[]> {
  if (request.clear) await context.clearCookies();
  if (request.cookies?.length) {
    await context.addCookies(request.cookies).catch((error: unknown) => {
      throw new DeckhandError('validation_error', `Invalid request: body.cookies: ${firstLine(error).replace(/^browserContext\.addCookies: /, '')}`, [
        { path: 'body.cookies', message: firstLine(error) },
      ]);
    });
  }
  return context.cookies();
}

export async function readStorageState(context: BrowserContext): Promise<StorageState> {
  const { cookies, origins } = await context.storageState();
  return { cookies, origins };
}

/** Replaces the context's cookies and the localStorage of the origins it has used with `state`'s. */
export async function writeStorageState(context: BrowserContext, state: StorageState, path = 'body'): Promise<void> {
  await context.setStorageState({ cookies: state.cookies ?? [], origins: state.origins ?? [] }).catch((error: unknown) => {
    throw new DeckhandError('validation_error', `Invalid request: ${path}: ${firstLine(error).replace(/^browserContext\.setStorageState: /, '')}`, [
      { path, message: firstLine(error) },
    ]);
  });
}
