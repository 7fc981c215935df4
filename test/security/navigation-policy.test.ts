// The navigation policy through the HTTP API: a shared server (API keys) keeps sessions out of the
// machine's own networks, by navigate and by every request a page makes; an open loopback server
// lets one developer's sessions reach loopback as before; metadata addresses are refused everywhere.
// A recorder listening on every local address must never see a denied request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk, START_BODY, useContract, type ContractContext } from '../support/contract';
import { ALLOW_FIXTURES } from '../support/fixture-server';
import { startHitRecorder, type HitRecorder } from '../support/hit-recorder';
import { pageText } from '../support/page-log';

const KEYS = { DECKHAND_API_KEYS: 'policy-key:policy' };
const AUTH = { 'x-bb-api-key': 'policy-key' };
/** Every request reach-out.html makes by itself; the popup is opened by a click. */
const IN_PAGE = ['iframe', 'redirect', 'img', 'fetch', 'ws'];

let recorder: HitRecorder;
beforeAll(async () => {
  recorder = await startHitRecorder();
});
afterAll(async () => {
  await recorder.close();
});

/** Opens reach-out.html aimed at `target` and waits until all its in-page requests are over. */
async function reachOut(ctx: ContractContext, target: string): Promise<string> {
  const id = await ctx.startSession();
  expectOk(await ctx.api.call('navigate', { id, body: { url: `${ctx.fixtures.url('reach-out.html')}?to=${encodeURIComponent(target)}` } }));
  await expect.poll(async () => overIn(await pageText(ctx.api, id, '#log'))).toBe(true);
  return id;
}

function overIn(log: string): boolean {
  return IN_PAGE.every((label) => log.includes(`${label}: over`));
}

describe('a server with API keys', () => {
  const ctx = useContract(KEYS, AUTH);

  it('refuses navigation to metadata, loopback and private addresses in every spelling, with 403 destination_blocked', async () => {
    const id = await ctx.startSession();
    const port = recorder.port;
    const refused: Array<[string, RegExp]> = [
      ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a link-local or cloud metadata address/],
      ['http://metadata.google.internal/computeMetadata/v1/', /metadata\.google\.internal is a cloud metadata host/],
      [`http://0.0.0.0:${port}/`, /0\.0\.0\.0 is a loopback address/],
      [`http://[::ffff:127.0.0.1]:${port}/`, /127\.0\.0\.1 is a loopback address/],
      [`http://2130706433:${port}/`, /127\.0\.0\.1 is a loopback address/],
      [`http://0x7f.1:${port}/`, /127\.0\.0\.1 is a loopback address/],
      [`http://[::1]:${port}/`, /::1 is a loopback address/],
      [`http://localhost:${port}/`, /localhost \(127\.0\.0\.1\) is a loopback address/],
      [`https://127.0.0.1:${port}/`, /127\.0\.0\.1 is a loopback address/],
      ['http://10.0.0.1/', /10\.0\.0\.1 is a private address/],
    ];
    for (const [url, reason] of refused) {
      const reply = await ctx.api.call('navigate', { id, body: { url, options: { timeout: 5_000 } } });
      const error = expectError(reply, 403, 'destination_blocked');
      expect(error.message).toMatch(/^Navigation to \S+ is blocked by the navigation policy: /);
      expect(error.message, url).toMatch(reason);
    }
    expect(recorder.connections).toBe(0);
  });

  it("refuses a session whose own proxy server is in a denied network, and keeps the proxy's credentials out of the answer", async () => {
    const proxy = { server: 'http://10.0.0.8:3128', username: 'user', password: 'proxy-secret' };
    const reply = await ctx.api.call('startSession', { body: { ...START_BODY, browser: { type: 'local', launchOptions: { headless: true, proxy } } } });
    const error = expectError(reply, 403, 'destination_blocked');
    expect(error.message).toContain('10.0.0.8 is a private address');
    expect(JSON.stringify(reply.body)).not.toContain('proxy-secret');
  });

  it('streams the refusal as an error event with its code', async () => {
    const id = await ctx.startSession();
    const reply = await ctx.api.call('navigate', { id, body: { url: 'http://169.254.169.254/' }, headers: { 'x-stream-response': 'true' } });
    expect(reply.events!.at(-1)!.data).toMatchObject({ status: 'error', code: 'destination_blocked' });
  });
});

describe('a server with API keys that allows the fixture server', () => {
  const ctx = useContract({ ...KEYS, ...ALLOW_FIXTURES }, AUTH);

  it("keeps a page's frames, images, fetches, websockets, redirects and popups away from denied addresses", async () => {
    const port = recorder.port;
    const before = recorder.connections;
    for (const target of [
      `http://127.0.0.2:${port}`,
      `http://[::ffff:127.0.0.2]:${port}`,
      `http://2130706434:${port}`,
      `http://0x7f.2:${port}`,
      `http://0.0.0.0:${port}`,
      `http://[::1]:${port}`,
    ]) {
      const id = await reachOut(ctx, target);
      // The denied frame shows the proxy's refusal; the page itself is unaffected.
      expect(await pageText(ctx.api, id)).toContain("Blocked by Deckhand's navigation policy");
      expectOk(await ctx.api.call('act', { id, body: { input: { selector: '#popup', method: 'click' } } }));
      // The popup is now the session's page: the proxy refused it too.
      await expect.poll(() => pageText(ctx.api, id)).toMatch(/^Blocked by Deckhand's navigation policy: .* is a loopback address/);
      expectOk(await ctx.api.call('endSession', { id, body: {} }));
    }
    expect(recorder.connections).toBe(before);
    expect(recorder.paths).toEqual([]);
  });

  it('refuses a navigation that redirects to a denied address', async () => {
    const id = await ctx.startSession();
    const url = ctx.fixtures.url(`/api/redirect?to=${encodeURIComponent(`http://127.0.0.2:${recorder.port}/redirected`)}`);
    const error = expectError(await ctx.api.call('navigate', { id, body: { url } }), 403, 'destination_blocked');
    expect(error.message).toContain(`Navigation to http://127.0.0.2:${recorder.port}/redirected is blocked by the navigation policy: 127.0.0.2 is a loopback address`);
    expect(recorder.paths).toEqual([]);
  });
});

describe('an open loopback server (no keys)', () => {
  const ctx = useContract();

  it('lets pages reach loopback as before, and still refuses the metadata address', async () => {
    const before = recorder.paths.length;
    const id = await reachOut(ctx, `http://127.0.0.2:${recorder.port}`);
    await expect.poll(() => recorder.paths.slice(before).sort()).toEqual(['/fetch', '/iframe', '/img', '/redirected', '/ws']);
    expect(await pageText(ctx.api, id)).toContain('recorder saw /iframe');
    const error = expectError(await ctx.api.call('navigate', { id, body: { url: 'http://[::ffff:a9fe:a9fe]/' } }), 403, 'destination_blocked');
    expect(error.message).toContain('169.254.169.254 is a link-local or cloud metadata address');
  });
});
