// Nodes of a cluster on one machine share a data directory: a node that starts keeps the replay pictures
// and session files of live nodes (an ended session's pictures are served by its node, through any other,
// while it lives; a live session's files too) and removes those of a node that was killed, which nothing
// serves any more (410).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../support/node-process';
import { call, KEYS, startCluster, startSession, type Cluster } from './three-nodes';

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

/** A live session of `node` holding a file sent to it through `via`. */
async function liveWithFile(node: { url: string }, via: { url: string }): Promise<string> {
  const { sessionId } = await startSession(node);
  const sent = await fetch(`${via.url}/v1/sessions/${sessionId}/files?name=sent.txt`, { method: 'POST', headers: { 'x-bb-api-key': KEYS.alpha, 'content-type': 'application/octet-stream' }, body: sessionId });
  expect(sent.status).toBe(200);
  return sessionId;
}

const sentFiles = async (node: { url: string }, sessionId: string) => (await call(node, 'GET', `/v1/sessions/${sessionId}/files`)).body.data?.files.map((file: { name: string }) => file.name);

/** The session directories under one of the project's folders, whatever owner directory holds them. */
function sessionDirs(folder = 'replays'): string[] {
  const top = join(dataDir, 'alpha', folder);
  return readdirSync(top).flatMap((owner) => readdirSync(join(top, owner)));
}

it('a node that starts keeps the pictures and files of live nodes and removes those of a node that was killed', async () => {
  const [a, b] = cluster.nodes as [NodeProcess, NodeProcess];
  const onA = await endedWithPicture(a, b);
  const onB = await endedWithPicture(b, a);
  const filesOnA = await liveWithFile(a, b);
  const filesOnB = await liveWithFile(b, a);
  await expect.poll(async () => (await picture(b, onA)).status, { timeout: 5_000 }).toBe(200);

  const c = await startNode(cluster.env);
  later.push(c);
  expect(sessionDirs().sort()).toEqual([onA, onB].sort());
  expect(sessionDirs('files').sort()).toEqual([filesOnA, filesOnB].sort());
  for (const node of [b, c]) expect((await picture(node, onA)).status).toBe(200);
  for (const node of [a, c]) expect((await picture(node, onB)).status).toBe(200);
  for (const node of [a, b, c]) for (const id of [filesOnA, filesOnB]) expect(await sentFiles(node, id)).toEqual(['sent.txt']);

  await a.stop('SIGKILL');
  const d = await startNode(cluster.env);
  later.push(d);
  expect(sessionDirs()).toEqual([onB]);
  expect(sessionDirs('files')).toEqual([filesOnB]);
  expect((await picture(d, onB)).status).toBe(200);
  expect(await sentFiles(d, filesOnB)).toEqual(['sent.txt']);
}, 300_000);
