// Attack: one project takes over another's browser. Before, every session browser listened on a
// loopback DevTools port: project B's page could read http://127.0.0.1:<port>/json/list of A's browser
// and B could then attach to it with browser.cdpUrl; and the loopback cdpUrl needed no credentials.
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { driverFor } from '../support/drivers';
import { expectError, expectOk, START_BODY, useContract } from '../support/contract';
import { ALLOW_FIXTURES } from '../support/fixture-server';
import { browserPids, listeningPorts } from '../support/processes';

const ctx = useContract({ DECKHAND_API_KEYS: 'key-a:project-a,key-b:project-b', ...ALLOW_FIXTURES }, { 'x-bb-api-key': 'key-a' });
const b = () => driverFor(ctx.server.url, { 'x-bb-api-key': 'key-b' });

describe("project B never reaches project A's browser", () => {
  it('finds no DevTools port to read: no process of the browser listens on TCP', async () => {
    const reply = await ctx.api.call('startSession', { body: START_BODY });
    expectOk(reply);
    const { sessionId, cdpUrl } = reply.body.data;
    const pids = await browserPids(cdpUrl);
    expect(pids.length).toBeGreaterThan(1);
    expect(pids.flatMap(listeningPorts)).toEqual([]);
    expectOk(await ctx.api.call('endSession', { id: sessionId }));
  });

  it("cannot attach a session of its own to A's browser, nor use A's relay URL", async () => {
    const a = await ctx.api.call('startSession', { body: START_BODY });
    expectOk(a);
    const { sessionId, cdpUrl } = a.body.data;
    expectOk(await ctx.api.call('navigate', { id: sessionId, body: { url: ctx.fixtures.url('forms.html') } }));

    // browser.cdpUrl is off on a server with keys: neither A's relay URL nor any loopback browser.
    for (const target of [cdpUrl, 'ws://127.0.0.1:9222/devtools/browser/x', 'http://127.0.0.1:9222']) {
      expectError(await b().call('startSession', { body: { ...START_BODY, browser: { type: 'local', cdpUrl: target } } }), 403, 'forbidden');
    }
    // A's relay URL with B's key: the token is A's, bound to A; B's key does not matter to it, and
    // B cannot mint one for A's session (forging is covered in the contract suite).
    const bSession = await b().call('startSession', { body: START_BODY });
    expectOk(bSession);
    const bUrl = new URL(bSession.body.data.cdpUrl);
    const stolen = new URL(cdpUrl);
    stolen.searchParams.set('token', bUrl.searchParams.get('token')!);
    await expect(chromium.connectOverCDP(stolen.href)).rejects.toThrow(/401/);
    // A's page is untouched.
    const still = await ctx.api.call('extract', { id: sessionId, body: { options: { selector: 'h1' } } });
    expectOk(still);
    expect(still.body.data.result).toEqual({ pageText: 'Sign up' });
    expectOk(await ctx.api.call('endSession', { id: sessionId }));
    expectOk(await b().call('endSession', { id: bSession.body.data.sessionId }));
  });
});
