// A page whose click ran `while (true) {}` left its session unusable for good: the act timed out (408),
// then every navigate, act and extract after it timed out too, minutes later. Now an operation that
// times out checks whether the page still answers; one that does not is replaced by a blank page as a
// crashed one is: the next operation answers 422 saying so, navigate carries on, and the session works.
import { describe, expect, it } from 'vitest';
import { expectError, expectOk, useContract } from '../support/contract';

// A short default deadline, so that before the fix the extract fails with 408 rather than outlasting the test.
const ctx = useContract({ DECKHAND_DEFAULT_TIMEOUT_MS: '10000' });
const json = { 'x-stream-response': 'false' };

describe('a page that stopped responding', () => {
  it('is replaced after the operation that timed out on it: the next one says so, and the session works again', async () => {
    const id = await ctx.sessionOn('freeze.html');
    const hanging = await ctx.api.call('act', { id, body: { input: { selector: '#freeze', method: 'click' }, options: { timeout: 5000 } }, headers: json });
    expectError(hanging, 408, 'timeout');
    const after = await ctx.api.call('extract', { id, body: {}, headers: json });
    expect(expectError(after, 422, 'unprocessable').message).toMatch(/stopped responding.*freeze\.html.*navigate/s);
    expectOk(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url('forms.html') }, headers: json }));
    expectOk(await ctx.api.call('act', { id, body: { input: { selector: '#go', method: 'click' } }, headers: json }));
    const text = await ctx.api.call('extract', { id, body: {}, headers: json });
    expectOk(text);
    expect(text.body.data.result.pageText).toMatch(/clicked: go/);
  }, 60_000);
});
