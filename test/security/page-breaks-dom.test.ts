// A page whose own scripts replace a DOM function our in-page code calls (getBoundingClientRect or
// getClientRects throwing or returning null, elementFromPoint throwing) made an act by instruction, an
// observe and an extract with an instruction answer 500, an agent step "act failed unexpectedly", and a
// clicked Action's refusal carry the page's exception whole (200 KB, dressed as a success). Now each
// answers in our words: a 422 where the page cannot be read, a refused act where the click could not be
// done; the page's words never come back, and the session still works afterwards. An Action's click is
// done: its check uses the browser's own DOM functions, kept before the page's script ran.
import { describe, expect, it } from 'vitest';
import { expectError, expectOk, finishedOf, useContract } from '../support/contract';
import type { Reply } from '../support/drivers';
import { pageText } from '../support/page-log';

const ctx = useContract();
const json = { 'x-stream-response': 'false' };

const BREAKS = ['rect-throws', 'rect-null', 'rects-throw', 'point-throws', 'all-throw'] as const;
const OUR_WORDS = /the page's own script failed/;

/** The page's words (see broken-dom.html) are not in the answer, which stays small. */
function expectNoPageWords(reply: Reply): void {
  const body = JSON.stringify(reply.body);
  expect(body).not.toMatch(/PAGE-WORDS/);
  expect(body.length).toBeLessThan(4_000);
}

/** A 422 in our error shape, or a refused act (200, success: false), saying what the page did. */
function expectRefusedInOurWords(reply: Reply): void {
  expectNoPageWords(reply);
  if (reply.status === 200) {
    expect(reply.body.data.result.success).toBe(false);
    expect(reply.body.data.result.message).toMatch(OUR_WORDS);
  } else {
    expect(expectError(reply, 422, 'unprocessable').message).toMatch(OUR_WORDS);
  }
}

/** Refused in our words, or done for real: the page recorded the click. */
async function refusedOrDone(reply: Reply, id: string): Promise<void> {
  if (reply.status !== 200 || reply.body.data.result.success !== true) return expectRefusedInOurWords(reply);
  expectNoPageWords(reply);
  expect(await pageText(ctx.api, id)).toContain('clicked: pay');
}

describe.each(BREAKS)('a page that breaks a DOM function we call (%s)', (kind) => {
  it('act, observe and extract answer in our words, never 500 nor the page’s exception, and the session still works', async () => {
    const id = await ctx.sessionOn(`broken-dom.html?break=${kind}`);
    await refusedOrDone(await ctx.api.call('act', { id, body: { input: 'click the Pay now button' }, headers: json }), id);
    const clicked = await ctx.api.call('act', { id, body: { input: { selector: '#pay', method: 'click' } }, headers: json });
    expectNoPageWords(clicked);
    expect(clicked.body.data.result.success, clicked.body.data.result.message).toBe(true);
    expect(await pageText(ctx.api, id)).toContain('clicked: pay');
    for (const body of [{ instruction: 'click the Pay now button' }, {}]) {
      const observed = await ctx.api.call('observe', { id, body, headers: json });
      // A page that breaks only what the outline does not need still gets its elements listed.
      if (observed.status === 200) expect(JSON.stringify(observed.body.data.result)).toContain('Pay now');
      else expectRefusedInOurWords(observed);
    }
    const extracted = await ctx.api.call('extract', { id, body: { instruction: 'the heading' }, headers: json });
    expect(extracted.status, JSON.stringify(extracted.body).slice(0, 500)).toBe(422);
    expectNoPageWords(extracted);

    expectOk(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('forms.html') }, headers: json }));
    const go = await ctx.api.call('act', { id, body: { input: { selector: '#go', method: 'click' } }, headers: json });
    expect(go.body.data.result.success, go.body.data.result.message).toBe(true);
    expect(await pageText(ctx.api, id)).toContain('clicked: go');
  }, 60_000);

  it('an agent step says what the page did in our words, or does the click', async () => {
    const id = await ctx.sessionOn(`broken-dom.html?break=${kind}`);
    const reply = await ctx.api.call('agentExecute', {
      id,
      body: { agentConfig: { model: 'builtin/offline' }, executeOptions: { instruction: 'click the Pay now button' } },
      headers: json,
    });
    expectOk(reply);
    await refusedOrDone(reply, id);
  }, 60_000);
});

describe('the server log', () => {
  it('keeps no page exception whole', () => {
    // Runs after the cases above, which each put a 200 KB exception in front of the server.
    expect(ctx.server.logs.length).toBeGreaterThan(0);
    for (const line of ctx.server.logs) expect(line.length).toBeLessThan(10_000);
  });
});

describe('a child frame that breaks a DOM function we call', () => {
  it('is left out of the outline and said so, and the rest of the page is used', async () => {
    const id = await ctx.sessionOn('broken-dom-frame.html');
    const reply = await ctx.api.call('observe', { id, body: { instruction: 'click the Readable button' }, headers: { 'x-stream-response': 'true' } });
    expect(reply.status).toBe(200);
    expectNoPageWords(reply);
    expect(JSON.stringify(finishedOf(reply).result)).toContain('Readable button');
    const logged = (reply.events ?? []).filter((e) => e.type === 'log').map((e) => e.data.message.message as string);
    expect(logged.some((m) => /^skipped the frame .*broken-dom\.html.*the page's own script failed/.test(m)), logged.join('\n')).toBe(true);
    expect((await ctx.api.call('act', { id, body: { input: 'click the Readable button' }, headers: json })).body.data.result.success).toBe(true);
    expect(await pageText(ctx.api, id, '#log')).toContain('clicked: ok');
  }, 60_000);
});
