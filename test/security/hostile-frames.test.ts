// Security: a page that embeds a frame Deckhand cannot read (a blocked file: or chrome: URL, an error
// page, a cross-origin frame whose script never yields) must not hang the session. Every operation
// answers with what the readable frames hold, and says which frame it skipped.
import { describe, expect, it } from 'vitest';
import { expectOk, finishedOf, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const ctx = useContract();
const json = { 'x-stream-response': 'false' };
const stream = { 'x-stream-response': 'true' };

const HOSTILE_PAGES = [
  ['a file: frame', 'hostile-file-frame.html'],
  ['a chrome: frame and an error page frame', 'hostile-chrome-frame.html'],
  ['a cross-origin frame whose script never yields', 'hostile-busy-frame.html'],
] as const;

describe.each(HOSTILE_PAGES)('a page with %s', (_, fixture) => {
  it('extract {} answers with the readable text', async () => {
    const id = await ctx.sessionOn(fixture);
    const text = await pageText(ctx.api, id);
    expect(text).toMatch(/^Hostile frames\nBefore the/);
    expect(text).toContain('Readable button');
    expect(text).toMatch(/After the .*frames?$/);
    expect(text).not.toContain('root:');
  });

  it('observe {} and an observe instruction answer with the readable elements', async () => {
    const id = await ctx.sessionOn(fixture);
    const all = await ctx.api.call('observe', { id, body: {}, headers: json });
    expectOk(all);
    expect(all.body.data.result.map((a: { description: string }) => a.description).join('\n')).toContain('Readable button');
    const one = await ctx.api.call('observe', { id, body: { instruction: 'click the Readable button' }, headers: json });
    expectOk(one);
    expect(one.body.data.result[0]).toMatchObject({ method: 'click', description: expect.stringContaining('Readable button') });
  });

  it('an extract instruction answers from the readable frames', async () => {
    const id = await ctx.sessionOn(fixture);
    const reply = await ctx.api.call('extract', { id, body: { instruction: 'the main heading' }, headers: json });
    expectOk(reply);
    expect(reply.body.data.result).toEqual({ extraction: 'Hostile frames' });
  });

  it('a natural-language act is carried out', async () => {
    const id = await ctx.sessionOn(fixture);
    const reply = await ctx.api.call('act', { id, body: { input: 'click the Readable button' }, headers: json });
    expectOk(reply);
    expect(reply.body.data.result.success, reply.body.data.result.message).toBe(true);
    expect(await pageText(ctx.api, id)).toContain('pressed');
  });

  it('says in the event stream and the server log which frame it skipped', async () => {
    const id = await ctx.sessionOn(fixture);
    const reply = await ctx.api.call('extract', { id, body: {}, headers: stream });
    expect(reply.status).toBe(200);
    expect(finishedOf(reply).result.pageText).toContain('Readable button');
    const logged = (reply.events ?? []).filter((e) => e.type === 'log').map((e) => e.data.message.message as string);
    expect(logged.some((m) => /^skipped (a|the) frame/.test(m)), logged.join('\n')).toBe(true);
    expect(ctx.server.logs.some((line) => line.includes('skipped') && line.includes('frame'))).toBe(true);
  });
});
