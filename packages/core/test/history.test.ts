// Replay answers whatever history holds: parameters and results are kept as bounded plain JSON, and
// an unexpected error is recorded without its raw detail.
import { afterAll, describe, expect, it } from 'vitest';
import { SessionHistory } from '../src/session/history.js';
import { MAX_RECORDED_DEPTH, MAX_RECORDED_ENTRIES, MAX_RECORDED_STRING } from '../src/session/replayable.js';
import { opContext, testManager } from './session-harness.js';

function deepSchema(levels: number): unknown {
  let node: unknown = { type: 'string' };
  for (let i = 0; i < levels; i++) node = { type: 'object', properties: { a: node } };
  return node;
}

describe('session history', () => {
  it('records anything as bounded JSON that replay can always serialise', () => {
    const history = new SessionHistory();
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    const odd = {
      schema: deepSchema(5_000),
      cycle,
      big: 10n ** 30n,
      nothing: undefined,
      fn: () => 1,
      nan: Number.NaN,
      when: new Date(0),
      long: 'x'.repeat(300_000),
      many: Array.from({ length: 50_000 }, (_, i) => i),
      ['__proto__']: { polluted: true },
    };
    const thrower = { get boom() { throw new Error('getter'); } };
    const record = history.begin('extract', odd, 'about:blank');
    history.finish(record, thrower, 'about:blank');
    const text = JSON.stringify(history.replay());
    const parameters = JSON.parse(text).pages[0].actions[0].parameters;
    expect(text.length).toBeLessThan(100_000);
    expect(parameters.cycle.self).toBe('[circular]');
    expect(parameters.big).toBe('1000000000000000000000000000000');
    expect(parameters.nan).toBeNull();
    expect(parameters.when).toBe('1970-01-01T00:00:00.000Z');
    expect(parameters.long).toHaveLength(MAX_RECORDED_STRING + ' more characters)'.length + `… (${300_000 - MAX_RECORDED_STRING}`.length);
    expect(parameters.many).toHaveLength(MAX_RECORDED_ENTRIES + 1);
    expect(JSON.stringify(parameters.schema)).toContain(`[nested deeper than ${MAX_RECORDED_DEPTH} levels]`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.parse(text).pages[0].actions[0].result).toBe('[not recordable]');
  });
});

describe('an unexpected error in an operation', () => {
  const manager = testManager();
  afterAll(() => manager.shutdown());

  it('reaches the caller as it was thrown (the server maps it) and replay records no raw detail', async () => {
    const session = await manager.start('p1', { modelName: 'builtin/offline' });
    const raw = new Error('frame.evaluate: Execution context was destroyed, most likely because of a navigation');
    const failure = await session.perform('extract', {}, opContext(), 10_000, () => Promise.reject(raw)).catch((error: unknown) => error);
    expect(failure).toBe(raw);
    const recorded = JSON.stringify(session.replay());
    expect(recorded).not.toContain('Execution context');
    expect(recorded).toContain('Unexpected error');
  });
});
