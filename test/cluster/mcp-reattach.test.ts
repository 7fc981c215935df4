// Issue 20: a keepAlive browser session left by an MCP session on node A is re-attached (`start
// {sessionId}`) by a new MCP session on node B, in either protocol revision, and B's tools drive A's
// page; another project's key attaches to it through no node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, text, type Era } from '../mcp/mcp-clients';
import { call, KEYS, startCluster, type Cluster } from './three-nodes';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
}, 120_000);
afterAll(async () => cluster?.close());

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** A keepAlive browser session on `node`, left on the forms page after a click on Go by an MCP session that closed. */
async function keptAliveOn(node: { url: string }): Promise<string> {
  const first = await connectHttp(`${node.url}/mcp?keepAlive=true`, 'legacy', bearer(KEYS.alpha));
  const started = await first.client.callTool({ name: 'start', arguments: {} });
  const id = (started.structuredContent as { sessionId: string }).sessionId;
  await first.client.callTool({ name: 'navigate', arguments: { url: cluster.fixtures.url('forms.html') } });
  expect((await first.client.callTool({ name: 'act', arguments: { action: 'click Go' } })).isError).toBeFalsy();
  await first.close();
  return id;
}

describe('an MCP keepAlive session re-attached through another node', () => {
  it.each<Era>(['legacy', 'modern'])('%s: B attaches to the session A holds, drives its page, and ends it', async (era) => {
    const [a, b] = cluster.nodes as [any, any];
    const id = await keptAliveOn(a);

    const second = await connectHttp(`${b.url}/mcp`, era, bearer(KEYS.alpha));
    try {
      const attached = await second.client.callTool({ name: 'start', arguments: { sessionId: id } });
      expect(attached.isError, text(attached)).toBeFalsy();
      expect(attached.structuredContent).toEqual({ sessionId: id, liveViewUrl: expect.stringContaining(id) });
      // The page A's MCP session left: B's tools run on A's browser.
      const extracted = await second.client.callTool({ name: 'extract', arguments: {} });
      expect(extracted.isError, text(extracted)).toBeFalsy();
      expect((extracted.structuredContent as { extraction: string }).extraction).toContain('clicked: go');
      const navigated = await second.client.callTool({ name: 'navigate', arguments: { url: cluster.fixtures.url('forms.html?via=b') } });
      expect(navigated.isError, text(navigated)).toBeFalsy();
      const replay = await call(a, 'GET', `/v1/sessions/${id}/replay`);
      expect(replay.status).toBe(200);
      const calls = replay.body.data.pages.flatMap((page: { actions: Array<{ method: string; parameters?: unknown }> }) => page.actions);
      expect(JSON.stringify(calls)).toContain('forms.html?via=b');

      const ended = await second.client.callTool({ name: 'end', arguments: {} });
      expect(text(ended)).toContain(id);
    } finally {
      await second.close();
    }
    const after = await call(a, 'GET', `/v1/sessions/${id}/replay`);
    expect(after.status).toBe(410);
    expect(after.body.code).toBe('session_gone');
  }, 120_000);

  it('is not reached by another project\'s key through any node (404, as a session that never was), nor without the cluster secret', async () => {
    const id = await keptAliveOn(cluster.nodes[0]!);
    for (const node of cluster.nodes) {
      const other = await connectHttp(`${node.url}/mcp`, 'legacy', bearer(KEYS.beta));
      try {
        const attached = await other.client.callTool({ name: 'start', arguments: { sessionId: id } });
        expect(attached.isError).toBe(true);
        expect(text(attached)).toMatch(/not found/i);
      } finally {
        await other.close();
      }
      const record = await call(node, 'GET', `/v1/sessions/${id}`, undefined, KEYS.beta);
      expect(record.status).toBe(404);
    }
    // Nor by calling the owner's internal tool route without the cluster secret (a key, or a forged secret).
    const forged = { 'x-deckhand-cluster-secret': 'f'.repeat(64), 'x-deckhand-project': 'alpha' };
    const asTool = { sessionId: id, tool: 'navigate', input: { url: cluster.fixtures.url('forms.html?forged') } };
    for (const headers of [{}, forged]) expect((await call(cluster.nodes[0]!, 'POST', '/_cluster/mcp/tool', asTool, KEYS.beta, headers)).status).toBe(401);
    expect((await call(cluster.nodes[1]!, 'POST', `/v1/sessions/${id}/end`, {})).status).toBe(200);
  }, 120_000);
});
