// Per-project limits: one project at its session limit or over its request rate gets 429 with
// retry-after, while other projects carry on. Limits count per project, whichever of its keys is used.
import { describe, expect, it } from 'vitest';
import { driverFor, type Reply } from '../support/drivers';
import { START_BODY, expectError, expectOk, useContract } from '../support/contract';

const ctx = useContract(
  { DECKHAND_API_KEYS: 'a-key:project-a:sessions=2,a-key-2:project-a,b-key:project-b,c-key:project-c:rate=1,c-key-2:project-c' },
  { 'x-bb-api-key': 'a-key' },
);
const as = (key: string) => driverFor(ctx.server.url, { 'x-bb-api-key': key });

function retryAfterOf(reply: Reply): number {
  const header = reply.headers.get('retry-after');
  expect(header).toMatch(/^[1-9]\d*$/);
  return Number(header);
}

describe('per-project limits', () => {
  it('refuses a session past the project\'s limit with 429 and retry-after, while another project starts', async () => {
    const a = [await ctx.startSession(), (await as('a-key-2').call('startSession', { body: START_BODY })).body.data.sessionId];
    const refused = await as('a-key-2').call('startSession', { body: START_BODY });
    expect(expectError(refused, 429, 'session_limit').message).toMatch(/project/);
    retryAfterOf(refused);

    const b = await as('b-key').call('startSession', { body: START_BODY });
    expectOk(b);
    expectOk(await as('b-key').call('endSession', { id: b.body.data.sessionId }));

    expectOk(await ctx.api.call('endSession', { id: a.pop()! }));
    a.push(await ctx.startSession());
    for (const id of a) expectOk(await ctx.api.call('endSession', { id }));
  });

  it('answers 429 rate_limited with retry-after past the project\'s rate, for every key of it, and recovers', async () => {
    const c = as('c-key');
    const lookup = (driver = c) => driver.call('getBrowserSession', { id: 'no-such-session' });
    let limited: Reply | undefined;
    for (let i = 0; i < 200 && !limited; i++) {
      const reply = await lookup();
      if (reply.status === 429) limited = reply;
      else expectError(reply, 404, 'session_not_found');
    }
    expect(limited, 'no 429 within 200 requests at rate=1').toBeDefined();
    expectError(limited!, 429, 'rate_limited');
    const wait = retryAfterOf(limited!);

    // The same project through its other key is limited too; other projects and health are not.
    expectError(await lookup(as('c-key-2')), 429, 'rate_limited');
    expectError(await lookup(as('b-key')), 404, 'session_not_found');
    for (let i = 0; i < 20; i++) expect((await c.call('getHealth')).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    await expect.poll(async () => (await lookup()).status, { timeout: 10_000, interval: 1_000 }).toBe(404);
  });
});
