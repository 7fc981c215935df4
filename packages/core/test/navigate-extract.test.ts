// navigate's result shape and errors; extract's page text across frames and shadow roots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../src/session/session.js';
import { closedPortUrl } from '../../../test/support/closed-port.js';
import { opContext, startFixtureServer, testManager, textOf, type FixtureServer } from './session-harness.js';

let fixtures: FixtureServer;
let session: Session;
const manager = testManager();

beforeAll(async () => {
  fixtures = await startFixtureServer();
  session = await manager.start('p1', { modelName: 'builtin/offline' });
});
afterAll(async () => {
  await manager.shutdown();
  await fixtures.close();
});

describe('navigate', () => {
  it('returns the main response in CDP Network.Response shape, without a body', async () => {
    const result = await session.navigate({ url: fixtures.url('/forms.html'), options: { waitUntil: 'domcontentloaded' } }, opContext());
    expect(result).toMatchObject({
      requestId: expect.any(String),
      frameId: expect.stringMatching(/^[0-9A-F]{32}$/),
      response: {
        url: fixtures.url('/forms.html'),
        status: 200,
        statusText: 'OK',
        mimeType: 'text/html',
        remoteIPAddress: '127.0.0.1',
        remotePort: Number(new URL(fixtures.origin).port),
        headers: expect.objectContaining({ 'x-fixture': 'deckhand' }),
      },
    });
    expect(JSON.stringify(result).length).toBeLessThan(2_000);
    expect(await session.navigate({ url: 'about:blank' }, opContext())).toBeNull();
  });

  it('navigates a child frame by frameId', async () => {
    const top = await session.navigate({ url: fixtures.url('/iframe.html') }, opContext());
    const inner = await session.navigate({ url: fixtures.url('/select.html'), frameId: top!.frameId }, opContext());
    expect(inner!.frameId).toBe(top!.frameId);
    expect(await textOf(session)).toContain('Color');
  });

  it('rejects bad URLs and reports network failures', async () => {
    await expect(session.navigate({ url: 'not a url' }, opContext())).rejects.toMatchObject({ code: 'validation_error' });
    await expect(session.navigate({ url: 'file:///etc/passwd' }, opContext())).rejects.toMatchObject({ code: 'validation_error' });
    await expect(session.navigate({ url: await closedPortUrl() }, opContext())).rejects.toMatchObject({
      code: 'navigation_failed',
      message: expect.stringContaining('net::ERR_CONNECTION_REFUSED'),
    });
    await expect(
      session.navigate({ url: fixtures.url('/api/delay?ms=3000'), options: { timeout: 300 } }, opContext()),
    ).rejects.toMatchObject({ code: 'timeout' });
  });
});

describe('extract page text', () => {
  it('reads the visible text in document order', async () => {
    await session.navigate({ url: fixtures.url('/forms.html') }, opContext());
    const text = await textOf(session);
    expect(text.split('\n').slice(0, 3)).toEqual(['Sign up', 'Name Email Password Bio Submit', 'Go Disabled']);
    expect(text).not.toContain('logLine');
  });

  it('splices in same- and cross-origin iframes', async () => {
    for (const path of ['/iframe.html', '/cross-iframe.html']) {
      await session.navigate({ url: fixtures.url(path) }, opContext());
      expect(await textOf(session)).toMatch(/^Before the (cross )?frame\nInside the frame\nInner button\nAfter the (cross )?frame$/);
    }
  });

  it('walks open and closed shadow roots', async () => {
    await session.navigate({ url: fixtures.url('/shadow.html') }, opContext());
    expect(await textOf(session)).toBe('Light text\nopen shadow text open button\nclosed shadow text closed button');
    expect(await textOf(session, '/html/body/closed-card[1]/#shadow-root/div[1]')).toBe('closed shadow text closed button');
  });

  it('scopes to a selector', async () => {
    await session.navigate({ url: fixtures.url('/forms.html') }, opContext());
    expect(await textOf(session, 'form')).toBe('Name Email Password Bio Submit');
    expect(await textOf(session, 'xpath=//h1')).toBe('Sign up');
    await expect(textOf(session, '#missing')).rejects.toMatchObject({ code: 'unprocessable', message: 'options.selector: No element matches selector "#missing"' });
  });

  it('hands instructions to the model layer (operations-*.test.ts covers them)', async () => {
    await expect(session.extract({ instruction: 'all the text' }, opContext())).resolves.toMatchObject({ extraction: expect.any(String) });
    await expect(session.act({ input: 'click the Nonexistent Widget' }, opContext())).resolves.toMatchObject({ success: false });
  });
});
