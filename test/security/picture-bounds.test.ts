// Screenshots cannot take the host's memory: a picture holds at most 16,384 device px an edge and
// 8192² device pixels (a wider or denser page is cut and marked truncated), a project takes at most 2
// pictures at a time (429 past it), and the browser's failures to picture are the request's (408/422), never a 500.
import { describe, expect, it } from 'vitest';
import { START_BODY, expectError, expectOk, useContract } from '../support/contract';

const ctx = useContract();

const VIEWPORT = { width: 800, height: 600 };
const START = { browser: { type: 'local', launchOptions: { ...START_BODY.browser.launchOptions, viewport: VIEWPORT } } };

function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

async function sessionAt(query: string, start: Record<string, unknown> = START): Promise<string> {
  const id = await ctx.startSession(start);
  expectOk(await ctx.api.call('navigate', { id, body: { url: `${ctx.fixtures.url('pictures.html')}?${query}` } }));
  return id;
}

describe('picture bounds', () => {
  it('cuts a full page wider than 16,384 px at the bound and says so', async () => {
    const id = await sessionAt('w=20000&h=700');
    const full = await ctx.api.call('screenshot', { id, body: { fullPage: true, encoding: 'base64' } });
    expectOk(full);
    expect(full.body.data.truncated).toBe(true);
    expect(pngSize(Buffer.from(full.body.data.base64, 'base64'))).toEqual({ width: 16_384, height: 700 });
    expectOk(await ctx.api.call('endSession', { id }));
  }, 60_000);

  it('bounds the device pixels of a dense page (deviceScaleFactor 4) and says so', async () => {
    const dense = { browser: { type: 'local', launchOptions: { ...START.browser.launchOptions, deviceScaleFactor: 4 } } };
    const id = await sessionAt('h=6000', dense);
    const full = await ctx.api.call('screenshot', { id, body: { fullPage: true, encoding: 'base64' } });
    expectOk(full);
    expect(full.body.data.truncated).toBe(true);
    const { width, height } = pngSize(Buffer.from(full.body.data.base64, 'base64'));
    expect(width).toBe(3200);
    expect(width * height).toBeLessThanOrEqual(8192 * 8192);
    expectOk(await ctx.api.call('endSession', { id }));
  }, 60_000);

  it('takes at most 2 pictures of a project at a time (429 past it), and a picture that times out is a 408', async () => {
    const busy = [await sessionAt('busy=1'), await sessionAt('busy=1')];
    const other = await sessionAt('h=700');
    const waiting = busy.map((id) => ctx.api.call('screenshot', { id, body: { fullPage: true, timeout: 8_000 } }));
    let refused: Awaited<ReturnType<typeof ctx.api.call>> | undefined;
    await expect.poll(async () => (refused = await ctx.api.call('screenshot', { id: other, body: {} })).status, { timeout: 6_000, interval: 200 }).toBe(429);
    expect(expectError(refused!, 429, 'rate_limited').message).toMatch(/2 screenshots or PDFs/);
    for (const reply of await Promise.all(waiting)) expectError(reply, 408, 'timeout');
    expectOk(await ctx.api.call('screenshot', { id: other, body: {} }));
    for (const id of [...busy, other]) await ctx.api.call('endSession', { id });
  }, 90_000);
});
