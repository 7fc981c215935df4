// Screenshots (viewport, element, full page; PNG and JPEG; bytes or base64), PDF, and the replay's
// picture per operation, over the wire; with the errors bad input gets.
import { describe, expect, it } from 'vitest';
import { START_BODY, expectError, expectOk, useContract } from '../support/contract';
import type { Reply } from '../support/drivers';

const ctx = useContract();

const VIEWPORT = { width: 800, height: 600 };
const START = { browser: { type: 'local', launchOptions: { ...START_BODY.browser.launchOptions, viewport: VIEWPORT } } };

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

const isJpeg = (bytes: Uint8Array) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

/** Width and height from a JPEG's start-of-frame segment. */
function jpegSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  for (let at = 2; at + 9 < bytes.length; at += 2 + view.getUint16(at + 2)) {
    const marker = bytes[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xc2) return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
  }
  throw new Error('no start-of-frame segment');
}

function fileOf(reply: Reply, contentType: string): Uint8Array {
  expectOk(reply);
  expect(reply.headers.get('content-type')).toBe(contentType);
  return reply.bytes!;
}

describe('screenshot', () => {
  it('pictures the viewport, an element and the full page as PNG at their own sizes', async () => {
    const id = await ctx.sessionOn('pictures.html', START);
    expect(pngSize(fileOf(await ctx.api.call('screenshot', { id, body: {} }), 'image/png'))).toEqual(VIEWPORT);
    expect(pngSize(fileOf(await ctx.api.call('screenshot', { id, body: { selector: '#box' } }), 'image/png'))).toEqual({ width: 200, height: 100 });
    const full = await ctx.api.call('screenshot', { id, body: { fullPage: true } });
    expect(pngSize(fileOf(full, 'image/png'))).toEqual({ width: VIEWPORT.width, height: 3000 });
    expect(full.headers.get('x-deckhand-truncated')).toBeNull();
    await ctx.api.call('endSession', { id });
  });

  it('cuts a full page taller than 16,384 px at the cap and says so', async () => {
    const id = await ctx.startSession(START);
    expectOk(await ctx.api.call('navigate', { id, body: { url: `${ctx.fixtures.url('pictures.html')}?h=20000` } }));
    const full = await ctx.api.call('screenshot', { id, body: { fullPage: true, type: 'jpeg', quality: 30 } });
    expect(isJpeg(fileOf(full, 'image/jpeg'))).toBe(true);
    expect(full.headers.get('x-deckhand-truncated')).toBe('true');
    const encoded = await ctx.api.call('screenshot', { id, body: { fullPage: true, encoding: 'base64' } });
    expectOk(encoded);
    expect(encoded.body.data).toMatchObject({ mediaType: 'image/png', truncated: true });
    expect(pngSize(Buffer.from(encoded.body.data.base64, 'base64'))).toEqual({ width: VIEWPORT.width, height: 16_384 });
    await ctx.api.call('endSession', { id });
  });

  it('answers JPEG, and base64 JSON when asked', async () => {
    const id = await ctx.sessionOn('pictures.html', START);
    expect(isJpeg(fileOf(await ctx.api.call('screenshot', { id, body: { type: 'jpeg', quality: 50 } }), 'image/jpeg'))).toBe(true);
    const encoded = await ctx.api.call('screenshot', { id, body: { selector: '#box', encoding: 'base64' } });
    expectOk(encoded);
    expect(encoded.headers.get('content-type')).toMatch(/^application\/json/);
    expect(encoded.body.data.mediaType).toBe('image/png');
    expect(pngSize(Buffer.from(encoded.body.data.base64, 'base64'))).toEqual({ width: 200, height: 100 });
    await ctx.api.call('endSession', { id });
  });

  it('refuses bad input with the error shape, naming what is wrong', async () => {
    const id = await ctx.sessionOn('pictures.html', START);
    const missing = expectError(await ctx.api.call('screenshot', { id, body: { selector: '#nowhere' } }), 422, 'unprocessable');
    expect(missing.message).toContain('#nowhere');
    expect(expectError(await ctx.api.call('screenshot', { id, body: { quality: 50 } }), 400, 'validation_error').issues?.[0]?.path).toBe('body.quality');
    expect(expectError(await ctx.api.call('screenshot', { id, body: { type: 'jpeg', quality: 101 } }), 400, 'validation_error').message).toContain('body.quality');
    expect(expectError(await ctx.api.call('screenshot', { id, body: { type: 'gif' } }), 400, 'validation_error').message).toContain('body.type');
    expectError(await ctx.api.call('screenshot', { id, body: { frameId: 'no-such-frame' } }), 400, 'frame_not_found');
    expectError(await ctx.api.call('screenshot', { id: '00000000-0000-4000-8000-000000000000', body: {} }), 404, 'session_not_found');
    await ctx.api.call('endSession', { id });
    expectError(await ctx.api.call('screenshot', { id, body: {} }), 410, 'session_gone');
  });
});

describe('pdf', () => {
  it('prints the page to PDF, as bytes or base64', async () => {
    const id = await ctx.sessionOn('pictures.html', START);
    const pdf = fileOf(await ctx.api.call('pdf', { id, body: {} }), 'application/pdf');
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const encoded = await ctx.api.call('pdf', { id, body: { format: 'A4', landscape: true, printBackground: true, encoding: 'base64' } });
    expectOk(encoded);
    expect(encoded.body.data.mediaType).toBe('application/pdf');
    expect(Buffer.from(encoded.body.data.base64, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(expectError(await ctx.api.call('pdf', { id, body: { scale: 3 } }), 400, 'validation_error').message).toContain('body.scale');
    expect(expectError(await ctx.api.call('pdf', { id, body: { pageRanges: '90-99' } }), 422, 'unprocessable').message).toContain('pageRanges');
    await ctx.api.call('endSession', { id });
  });
});

describe('replay pictures', () => {
  it('gives each recorded operation a picture, served by number while the session lives and after it ends', async () => {
    const id = await ctx.sessionOn('pictures.html', START);
    expectOk(await ctx.api.call('act', { id, body: { input: { selector: '#box', method: 'click', arguments: [], description: 'the box' } } }));
    const replay = await ctx.api.call('replaySession', { id });
    expectOk(replay);
    const actions = replay.body.data.pages.flatMap((page: { actions: unknown[] }) => page.actions);
    expect(actions.map((a: { method: string; picture?: number }) => [a.method, a.picture])).toEqual([
      ['navigate', 1],
      ['act', 2],
    ]);
    const first = await ctx.api.call('getReplayPicture', { id, query: { step: '1' } });
    expect(isJpeg(fileOf(first, 'image/jpeg'))).toBe(true);
    expectError(await ctx.api.call('getReplayPicture', { id, query: { step: '3' } }), 404, 'route_not_found');
    expectError(await ctx.api.call('getReplayPicture', { id, query: { step: '0' } }), 400, 'validation_error');

    expectOk(await ctx.api.call('endSession', { id }));
    expect(isJpeg(fileOf(await ctx.api.call('getReplayPicture', { id, query: { step: '2' } }), 'image/jpeg'))).toBe(true);
  });

  it('pictures the viewport in CSS pixels on a browser with a device scale factor', async () => {
    const id = await ctx.sessionOn('pictures.html', { browser: { ...START.browser, launchOptions: { ...START.browser.launchOptions, deviceScaleFactor: 2 } } });
    expect(jpegSize(fileOf(await ctx.api.call('getReplayPicture', { id, query: { step: '1' } }), 'image/jpeg'))).toEqual(VIEWPORT);
  });
});
