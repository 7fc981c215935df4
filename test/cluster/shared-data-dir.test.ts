// Nodes of a cluster on one machine share a data directory: a node that starts keeps the replay pictures
// of live nodes (an ended session's pictures are served by its node, through any other, while it lives)
// and removes those of a node that was killed, which nothing serves any more (410).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../support/node-process';
import { call, startCluster, startSession, type Cluster } from './three-nodes';

const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-shared-data-'));
let cluster: Cluster;
const later: NodeProcess[] = [];

beforeAll(async () => {
  cluster = await startCluster(2, { DECKHAND_DATA_DIR: dataDir });
}, 120_000);
afterAll(async () => {
  await Promise.all(later.map((node) => node.stop('SIGKILL')));
  await cluster?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A session of `node` with one replay picture, ended through `via`. */
async function endedWithPicture(node: { url: string }, via: { url: string }): Promise<string> {
  const { sessionId } = await startSession(node);
  expect((await call(node, 'POST', `/v1/sessions/${sessionId}/navigate`, { url: cluster.fixtures.url('pictures.html') })).status).toBe(200);
  expect((await call(via, 'POST', `/v1/sessions/${sessionId}/end`, {})).status).toBe(200);
  return sessionId;
}

const picture = (node: { url: string }, sessionId: string) => call(node, 'GET', `/v1/sessions/${sessionId}/replay/picture?step=1`);

/** The session directories under the project's replays directory, whatever owner directory holds them. */
function sessionDirs(): string[] {
  const replays = join(dataDir, 'alpha', 'replays');
  return readdirSync(replays).flatMap((owner) => readdirSync(join(replays, owner)));
}

it('a node that starts keeps the pictures of live nodes and removes those of a node that was killed', async () => {
  const [a, b] = cluster.nodes as [NodeProcess, NodeProcess];
  const onA = await endedWithPicture(a, b);
  const onB = await endedWithPicture(b, a);
  await expect.poll(async () => (await picture(b, onA)).status, { timeout: 5_000 }).toBe(200);

  const c = await startNode(cluster.env);
  later.push(c);
  expect(sessionDirs().sort()).toEqual([onA, onB].sort());
  for (const node of [b, c]) expect((await picture(node, onA)).status).toBe(200);
  for (const node of [a, c]) expect((await picture(node, onB)).status).toBe(200);

  await a.stop('SIGKILL');
  const d = await startNode(cluster.env);
  later.push(d);
  expect(sessionDirs()).toEqual([onB]);
  expect((await picture(d, onB)).status).toBe(200);
}, 300_000);
