// Per-file setup of the contract suite: fixture pages, a Deckhand server, and this run's driver.
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import { driverFor, type Driver, type Reply } from './drivers';
import { startTestServer, type TestServer } from './test-server';

export interface ContractContext {
  server: TestServer;
  fixtures: FixtureServer;
  api: Driver;
  /** Starts a session on a locally launched headless Chromium and returns its id. */
  startSession(extra?: Record<string, unknown>): Promise<string>;
  /** Starts a session (with `extra` merged into the start body) and navigates it to a fixture page. */
  sessionOn(fixture: string, extra?: Record<string, unknown>): Promise<string>;
}

export const START_BODY = { modelName: 'builtin/offline', browser: { type: 'local', launchOptions: { headless: true } } } as const;

export function useContract(env: Record<string, string> = {}, defaultHeaders?: Record<string, string>): ContractContext {
  const ctx = {} as ContractContext;
  beforeAll(async () => {
    ctx.fixtures = await startFixtureServer();
    ctx.server = await startTestServer(env);
    ctx.api = driverFor(ctx.server.url, defaultHeaders);
    ctx.startSession = async (extra = {}) => {
      const reply = await ctx.api.call('startSession', { body: { ...START_BODY, ...extra } });
      expectOk(reply);
      return reply.body.data.sessionId;
    };
    ctx.sessionOn = async (fixture, extra) => {
      const id = await ctx.startSession(extra);
      expectOk(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url(fixture) } }));
      return id;
    };
  });
  afterAll(async () => {
    await ctx.server?.close();
    await ctx.fixtures?.close();
  });
  return ctx;
}

export function expectOk(reply: Reply): void {
  if (reply.status !== 200) throw new Error(`expected 200, got ${reply.status}: ${JSON.stringify(reply.body)}`);
}

/** Acts on a session (a natural-language instruction or an Action) and returns its result; the call itself must answer 200. */
export async function actResult(api: Driver, id: string, input: unknown, variables?: Record<string, string>): Promise<{ success: boolean; message: string }> {
  const reply = await api.call('act', { id, body: { input, ...(variables && { options: { variables } }) } });
  expectOk(reply);
  return reply.body.data.result as { success: boolean; message: string };
}

/** Clicks `selector` with an Action act (a JSON answer) and asserts the act reported success. */
export async function clickSucceeds(api: Driver, id: string, selector: string, options?: { timeout: number }): Promise<void> {
  const reply = await api.call('act', { id, body: { input: { selector, method: 'click' }, ...(options && { options }) }, headers: { 'x-stream-response': 'false' } });
  expectOk(reply);
  expect(reply.body.data.result.success, reply.body.data.result.message).toBe(true);
}

/** Asserts the one error shape and returns its body. */
export function expectError(reply: Reply, status: number, code: string) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body).toMatchObject({ success: false, code, message: expect.any(String) });
  expect(reply.headers.get('x-request-id')).toBeTruthy();
  return reply.body as { success: false; code: string; message: string; issues?: Array<{ path: string; message: string }> };
}

/** The `finished` event's payload of a streamed reply (asserting the framing sequence on the way). */
export function finishedOf(reply: Reply) {
  const events = reply.events ?? [];
  expect(events.map((e) => e.data.status).slice(0, 2)).toEqual(['starting', 'connected']);
  const last = events.at(-1)!;
  expect(last.data.status, JSON.stringify(last)).toBe('finished');
  return last.data;
}

/** The CDP frame id of the first iframe on a session's page, read through the session's CDP relay. */
export async function firstChildFrameId(api: Driver, id: string): Promise<string> {
  const record = await api.call('getBrowserSession', { id });
  const browser = await chromium.connectOverCDP(record.body.connectUrl);
  try {
    const page = browser.contexts()[0]!.pages()[0]!;
    const cdp = await page.context().newCDPSession(page);
    const { frameTree } = (await cdp.send('Page.getFrameTree')) as { frameTree: { childFrames: Array<{ frame: { id: string } }> } };
    return frameTree.childFrames[0]!.frame.id;
  } finally {
    await browser.close().catch(() => {});
  }
}
