// The project's session limit holds for MCP starts across nodes: browser sessions started over the hosted
// /mcp of two nodes take the same project slots (in Redis) as each other and as REST starts on any node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, text, type Era } from '../mcp/mcp-clients';
import { call, KEYS, startCluster, START_BODY, type Cluster } from './three-nodes';

let cluster: Cluster;
beforeAll(async () => {
  // Project beta may hold two sessions at a time, across the nodes.
  cluster = await startCluster(2, { DECKHAND_API_KEYS: `${KEYS.alpha}:alpha,${KEYS.beta}:beta:sessions=2` });
}, 120_000);
afterAll(async () => cluster?.close());

const bearer = { authorization: `Bearer ${KEYS.beta}` };

describe.each<Era>(['legacy', 'modern'])('MCP starts on two nodes against one project limit (%s)', (era) => {
  it('a start over MCP on A and one on B fill the limit: a third, over MCP or REST on either node, is refused until one ends', async () => {
    const [a, b] = cluster.nodes as [any, any];
    const onA = await connectHttp(`${a.url}/mcp`, era, bearer);
    const onB = await connectHttp(`${b.url}/mcp`, era, bearer);
    const third = await connectHttp(`${a.url}/mcp`, era, bearer);
    const restIds: string[] = [];
    try {
      for (const connection of [onA, onB]) {
        const started = await connection.client.callTool({ name: 'start', arguments: {} });
        expect(started.isError, text(started)).toBeFalsy();
      }
      const refused = await third.client.callTool({ name: 'start', arguments: {} });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/limit 2/);
      for (const node of [a, b]) {
        const rest = await call(node, 'POST', '/v1/sessions/start', START_BODY, KEYS.beta);
        if (rest.status === 200) restIds.push(rest.body.data.sessionId);
        expect(rest.status).toBe(429);
        expect(rest.body.code).toBe('session_limit');
      }

      // B's MCP session ends its browser session: its slot is free for a start on A.
      expect((await onB.client.callTool({ name: 'end', arguments: {} })).isError).toBeFalsy();
      const again = await third.client.callTool({ name: 'start', arguments: {} });
      expect(again.isError, text(again)).toBeFalsy();
    } finally {
      for (const id of restIds) await call(a, 'POST', `/v1/sessions/${id}/end`, {}, KEYS.beta);
      for (const connection of [onA, onB, third]) {
        await connection.client.callTool({ name: 'end', arguments: {} }).catch(() => undefined);
        await connection.close();
      }
    }
  }, 120_000);
});
