// Red-team finding: browser sessions started through the hosted /mcp bypassed the project's session
// limit (the key's sessions=). They now take the same project slots as REST starts, in both revisions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';
import { connectHttp, text, type Era } from '../mcp/mcp-clients';

const KEY = 'mcp-limit-key';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ DECKHAND_API_KEYS: `${KEY}:proj-limited:sessions=2` });
});

afterAll(async () => {
  await server?.close();
});

const headers = { 'x-bb-api-key': KEY, 'content-type': 'application/json' };
const restStart = () => fetch(`${server.url}/v1/sessions/start`, { method: 'POST', headers, body: JSON.stringify({ modelName: 'builtin/offline' }) });
const restEnd = (id: string) => fetch(`${server.url}/v1/sessions/${id}/end`, { method: 'POST', headers, body: '{}' });

async function startedId(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { sessionId: string } }).data.sessionId;
}

describe.each<Era>(['legacy', 'modern'])('MCP starts against the project session limit (%s)', (era) => {
  it('refuses an MCP start (and an auto-start) once REST starts hold every slot', async () => {
    const ids = [await startedId(await restStart()), await startedId(await restStart())];
    const connection = await connectHttp(`${server.url}/mcp`, era, { authorization: `Bearer ${KEY}` });
    try {
      const refused = await connection.client.callTool({ name: 'start', arguments: {} });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/limit 2/);
      const autoStarted = await connection.client.callTool({ name: 'extract', arguments: {} });
      expect(autoStarted.isError).toBe(true);
      expect(text(autoStarted)).toMatch(/limit 2/);
    } finally {
      await connection.close();
      for (const id of ids) await restEnd(id);
    }
  });

  it('counts MCP-started sessions against REST starts', async () => {
    const connection = await connectHttp(`${server.url}/mcp`, era, { authorization: `Bearer ${KEY}` });
    const ids: string[] = [];
    try {
      const started = await connection.client.callTool({ name: 'start', arguments: {} });
      expect(started.isError, text(started)).toBeFalsy();
      ids.push(await startedId(await restStart()));
      const refused = await restStart();
      if (refused.status === 200) ids.push(await startedId(refused));
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ code: 'session_limit' });
    } finally {
      for (const id of ids) await restEnd(id);
      await connection.client.callTool({ name: 'end', arguments: {} });
      await connection.close();
    }
  });
});
