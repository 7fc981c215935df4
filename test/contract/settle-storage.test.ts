// Storage and blob work an act starts is seen by the very next read: an Action act, then an extract at
// once through HTTP, on pages whose click finishes in an IndexedDB transaction's oncomplete, a Blob read,
// a FileReader, a Blob stream's reader or the Cache API (settle-storage.html, from the 20:46 tester's
// r-idb and r-blob). Each moves 60–120 MB, so it outlasts the 20 ms DOM quiet of the read.
import { describe, expect, it } from 'vitest';
import { clickSucceeds, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const ctx = useContract();

const click = (id: string, selector: string, options?: { timeout: number }) => clickSucceeds(ctx.api, id, selector, options);

describe('storage and blob work an act started (settle-storage.html)', () => {
  it.each([
    ['a 60 MB IndexedDB write shown in the transaction oncomplete', '#idb', '#r1'],
    ['a 120 MB Blob arrayBuffer read', '#blob', '#r2'],
    ['a 120 MB FileReader read', '#reader', '#r3'],
    ['a 120 MB Blob stream read chunk by chunk', '#stream', '#r4'],
    ['a 120 MB Cache API put', '#cache', '#r5'],
  ])('%s: the next extract reads its effect', async (_name, button, result) => {
    const id = await ctx.sessionOn('settle-storage.html');
    await click(id, button);
    expect(await pageText(ctx.api, id, result)).toBe(`${result.slice(1)}-DONE`);
  });

  it('a loop of IndexedDB transactions that never ends, on a page polling IndexedDB every 100 ms, does not hold the act to the settle bound', async () => {
    // The settle bound (60 s) is past the act's own deadline (20 s): counted for ever, the loop would make the act a 408.
    const id = await ctx.sessionOn('settle-storage.html', { domSettleTimeoutMs: 60_000 });
    await click(id, '#forever', { timeout: 20_000 });
    expect(await pageText(ctx.api, id, '#r6')).toBe('r6-DONE');
    // The poll kept running: a later act on the page answers too.
    await click(id, '#blob', { timeout: 20_000 });
    expect(await pageText(ctx.api, id, '#r2')).toBe('r2-DONE');
  }, 60_000);
});
