// An unexpected error becomes a generic 500 with a request id; its detail reaches only the log.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { DeckhandError } from '@deckhand/core';
import type { AppEnv } from '../src/env';
import { toErrorResponse } from '../src/errors';
import { createLogger } from '../src/logger';

function appThatThrows(error: unknown, lines: string[]) {
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set('requestId', 'req-1');
    c.set('logger', createLogger('debug', (line) => lines.push(line)));
    await next();
  });
  app.get('/boom', () => {
    throw error;
  });
  app.onError((e, c) => toErrorResponse(c, e));
  return app;
}

describe('error mapping', () => {
  it('hides unexpected errors behind a generic 500 and logs the detail with the request id', async () => {
    const lines: string[] = [];
    const response = await appThatThrows(new Error('db password is swordfish'), lines).request('/boom');
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body).toEqual({ success: false, code: 'internal_error', message: 'Internal error (request id req-1)' });
    expect(lines.join('\n')).toContain('swordfish');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ level: 'error', requestId: 'req-1' });
  });

  it('keeps the message of a DeckhandError internal_error out of the answer too', async () => {
    const lines: string[] = [];
    const raw = 'frame.goto: Navigation to "http://x/" is interrupted by another navigation to "chrome-error://chromewebdata/"';
    const response = await appThatThrows(new DeckhandError('internal_error', raw), lines).request('/boom');
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ success: false, code: 'internal_error', message: 'Internal error (request id req-1)' });
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ level: 'error', requestId: 'req-1', error: expect.stringContaining('chrome-error') });
  });

  it('maps a DeckhandError to its status and code', async () => {
    const response = await appThatThrows(new DeckhandError('session_limit', 'Too many sessions'), []).request('/boom');
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({ success: false, code: 'session_limit', message: 'Too many sessions' });
  });
});
