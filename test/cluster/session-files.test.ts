// Issue 20: a session's files and pictures through a node that does not hold it. While A lives, B
// answers every session-scoped route of A's session (downloads, files sent, screenshot, PDF, cookies,
// storage state, replay and live pictures); once the session ended, its replay pictures still come
// through B from A; once A is gone, they are gone with it (410).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, KEYS, startCluster, startSession, type Cluster } from './three-nodes';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster(2);
}, 120_000);
afterAll(async () => cluster?.close());

/** A raw call on a node with the project's key: the answer's bytes, status and headers. */
async function raw(node: { url: string }, method: string, path: string, body?: BodyInit, headers: Record<string, string> = {}) {
  const response = await fetch(`${node.url}${path}`, { method, headers: { 'x-bb-api-key': KEYS.alpha, ...headers }, ...(body === undefined ? {} : { body }) });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

it('serves every session-scoped route of A\'s session through B, and its pictures after it ended while A lives', async () => {
  const [a, b] = cluster.nodes as [any, any];
  const { sessionId, sessionUrl } = await startSession(a);
  const base = `/v1/sessions/${sessionId}`;
  const json = { 'content-type': 'application/json' };

  expect((await call(b, 'POST', `${base}/navigate`, { url: cluster.fixtures.url('download.html') })).status).toBe(200);
  expect((await call(b, 'POST', `${base}/act`, { input: { selector: '#save', method: 'click', arguments: [], description: 'Save the note' } })).status).toBe(200);

  // Downloads.
  const downloads = await call(b, 'GET', `${base}/downloads`);
  expect(downloads.status).toBe(200);
  expect(downloads.body.data.files.map((file: { name: string }) => file.name)).toEqual(['note.txt']);
  const download = await raw(b, 'GET', `${base}/downloads/note.txt`);
  expect(download.status).toBe(200);
  expect(download.bytes.toString()).toBe('relay-download');
  expect(download.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''note.txt");
  expect((await raw(b, 'DELETE', `${base}/downloads/note.txt`)).status).toBe(200);

  // Files sent to the session: a raw body and a multipart one, listed and deleted.
  expect((await raw(b, 'POST', `${base}/files?name=report.pdf`, '%PDF-1.4 twelve', { 'content-type': 'application/octet-stream' })).status).toBe(200);
  const form = new FormData();
  form.append('file', new Blob(['a,b\n1,2\n']), 'data.csv');
  expect((await raw(b, 'POST', `${base}/files`, form)).status).toBe(200);
  const files = await call(b, 'GET', `${base}/files`);
  expect(files.body.data.files.map((file: { name: string; size: number }) => [file.name, file.size]).sort()).toEqual([['data.csv', 8], ['report.pdf', 15]]);
  expect((await raw(b, 'DELETE', `${base}/files/data.csv`)).status).toBe(200);
  expect((await call(a, 'GET', `${base}/files`)).body.data.files.map((file: { name: string }) => file.name)).toEqual(['report.pdf']);

  // Pictures of the page: bytes as the owner took them.
  const shot = await raw(b, 'POST', `${base}/screenshot`, JSON.stringify({}), json);
  expect(shot.status).toBe(200);
  expect(shot.headers.get('content-type')).toBe('image/png');
  expect(shot.bytes.subarray(0, 4)).toEqual(PNG);
  const pdf = await raw(b, 'POST', `${base}/pdf`, JSON.stringify({}), json);
  expect(pdf.status).toBe(200);
  expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');

  // Cookies and storage state.
  const url = cluster.fixtures.url('download.html');
  const cookies = await call(b, 'POST', `${base}/cookies`, { cookies: [{ name: 'theme', value: 'dark', url }] });
  expect(cookies.status).toBe(200);
  expect((await call(b, 'GET', `${base}/cookies`)).body.data.cookies.map((cookie: { name: string }) => cookie.name)).toEqual(['theme']);
  const state = await call(b, 'GET', `${base}/storage-state`);
  expect(state.status).toBe(200);
  expect(JSON.stringify(state.body.data)).toContain('theme');
  expect((await call(b, 'POST', `${base}/storage-state`, state.body.data)).status).toBe(200);

  // The replay's pictures, by key and by the live page's token.
  const replay = await call(b, 'GET', `${base}/replay`);
  const pictures = replay.body.data.pages.flatMap((page: { actions: Array<{ picture?: number }> }) => page.actions.map((action) => action.picture)).filter(Boolean) as number[];
  expect(pictures.length).toBeGreaterThan(0);
  const step = pictures.at(-1)!;
  const token = encodeURIComponent(new URL(sessionUrl).searchParams.get('token')!);
  const pictureOn = (node: { url: string }) => raw(node, 'GET', `${base}/replay/picture?step=${step}`);
  const livePictureOn = (node: { url: string }) => fetch(`${node.url}${base}/live/picture?token=${token}&step=${step}`);
  const picture = await pictureOn(b);
  expect(picture.status).toBe(200);
  expect(picture.bytes.subarray(0, 3)).toEqual(JPEG);
  expect((await livePictureOn(b)).status).toBe(200);

  // Ended: A keeps its pictures, and B reaches them; its files went with it (410 on both).
  expect((await call(b, 'POST', `${base}/end`, {})).status).toBe(200);
  await expect.poll(async () => (await pictureOn(b)).status, { timeout: 5_000 }).toBe(200);
  expect((await pictureOn(b)).bytes).toEqual(picture.bytes);
  expect((await livePictureOn(b)).status).toBe(200);
  for (const node of [a, b]) {
    const files = await call(node, 'GET', `${base}/downloads`);
    expect(files.status).toBe(410);
    expect(files.body.code).toBe('session_gone');
  }

  // A is gone: so are the pictures it kept.
  await a.stop('SIGKILL');
  const lost = await call(b, 'GET', `${base}/replay/picture?step=${step}`);
  expect(lost.status).toBe(410);
  expect(lost.body.code).toBe('session_gone');
}, 120_000);
