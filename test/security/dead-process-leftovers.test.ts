// What a process killed outright (kill -9, OOM, power loss) leaves in the project's data directory, its
// replay pictures and its sessions' files (uploads and downloads), is served by nobody after it died, yet
// counts toward the project's disk quota: the next process on the data directory (a server, deckhand-mcp)
// removes it (and the pictures of the layout before owner directories), and never a live server's, which
// goes on serving its sessions' files and an ended session's pictures (servers on one machine may share a
// data directory). deckhand-mcp also removes the temporary directories of dead processes, as a server does.
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START_BODY } from '../support/contract';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { startNode, type NodeProcess } from '../support/node-process';
import { connectStdio } from '../mcp/mcp-clients';

let fixtures: FixtureServer;
const dataDirs: string[] = [];
const nodes: NodeProcess[] = [];

beforeAll(async () => {
  fixtures = await startFixtureServer();
});

afterAll(async () => {
  await Promise.all(nodes.map((node) => node.stop('SIGKILL')));
  await fixtures?.close();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'deckhand-dead-leftovers-'));
  dataDirs.push(dir);
  return dir;
}

async function serve(dataDir: string, env: Record<string, string> = {}): Promise<NodeProcess> {
  const node = await startNode({ ...ALLOW_FIXTURES, DECKHAND_DATA_DIR: dataDir, DECKHAND_POOL_SIZE: '0', ...env });
  nodes.push(node);
  return node;
}

async function call(node: NodeProcess, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const raw = body instanceof Blob;
  const response = await fetch(`${node.url}/v1/sessions/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': raw ? 'application/octet-stream' : 'application/json' },
    body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

/** A session that navigated (one replay picture); ended unless `keepOpen`. Its picture 1 is written once this returns. */
async function sessionWithPicture(node: NodeProcess, keepOpen = false): Promise<string> {
  const started = await call(node, 'start', START_BODY);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const id = started.body.data.sessionId as string;
  expect((await call(node, `${id}/navigate`, { url: fixtures.url('pictures.html') })).status).toBe(200);
  if (!keepOpen) expect((await call(node, `${id}/end`, {})).status).toBe(200);
  expect((await pictureStatus(node, id))).toBe(200);
  return id;
}

async function pictureStatus(node: NodeProcess, sessionId: string): Promise<number> {
  return (await fetch(`${node.url}/v1/sessions/${sessionId}/replay/picture?step=1`)).status;
}

/** A live session that holds a file sent to it (`sent.txt`) and a download (`note.txt`). */
async function sessionWithFiles(node: NodeProcess): Promise<string> {
  const started = await call(node, 'start', START_BODY);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const id = started.body.data.sessionId as string;
  expect((await call(node, `${id}/files?name=sent.txt`, new Blob([`sent by ${id}`]))).status).toBe(200);
  expect((await call(node, `${id}/navigate`, { url: fixtures.url('download.html') })).status).toBe(200);
  expect((await call(node, `${id}/act`, { input: { selector: '#save', method: 'click', arguments: [], description: 'Save the note' } })).status).toBe(200);
  await expect.poll(async () => (await call(node, `${id}/downloads`)).body.data?.files.map((file: { name: string }) => file.name), { timeout: 10_000 }).toEqual(['note.txt']);
  expect(await pictureStatus(node, id)).toBe(200);
  return id;
}

/** The names of the files a live session holds, as its server lists them. */
async function heldFiles(node: NodeProcess, id: string): Promise<string[]> {
  const [sent, downloaded] = await Promise.all([call(node, `${id}/files`), call(node, `${id}/downloads`)]);
  return [...sent.body.data.files, ...downloaded.body.data.files].map((file: { name: string }) => file.name).sort();
}

/** Every directory under a project's `folder` that holds a file `holds` accepts (whatever the layout). */
function dirsHolding(dataDir: string, folder: string, holds: (name: string) => boolean, project = 'local'): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true });
    if (entries.some((entry) => entry.isFile() && holds(entry.name))) found.push(dir);
    for (const entry of entries) if (entry.isDirectory()) walk(join(dir, entry.name));
  };
  const top = join(dataDir, project, folder);
  if (existsSync(top)) walk(top);
  return found.sort();
}

const pictureDirs = (dataDir: string) => dirsHolding(dataDir, 'replays', (name) => name.endsWith('.jpg'));
/** The directories holding sessions' files: sent ones, then downloads. */
const fileDirs = (dataDir: string) => [...dirsHolding(dataDir, 'files', (name) => name === 'sent.txt'), ...dirsHolding(dataDir, 'downloads', (name) => name === 'note.txt')];

/** The owner name (host/process-owner.ts) of a process that ran on this machine and is gone. */
async function deadOwner(): Promise<{ owner: string; host: string; boot: string; pidAndStart: string }> {
  const host = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
  const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().replaceAll('-', '');
  const sleeper = spawn('sleep', ['30']);
  const stat = readFileSync(`/proc/${sleeper.pid}/stat`, 'utf8');
  const pidAndStart = `${sleeper.pid}.${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
  sleeper.kill('SIGKILL');
  await once(sleeper, 'exit');
  return { owner: `${host}.${boot}.${pidAndStart}`, host, boot, pidAndStart };
}

/** What a process's start sweep said it removed (its log line's fields), or undefined when it removed nothing. */
function swept(node: NodeProcess): Record<string, number> | undefined {
  const line = node.output().split('\n').find((entry) => entry.includes('removed what processes that are gone left behind'));
  return line === undefined ? undefined : JSON.parse(line);
}

function plant(dir: string, name = '1.jpg'): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), Buffer.alloc(1024));
  return dir;
}

describe('session files left by a server that died', () => {
  it('are removed by the next server on the data directory, and no longer count toward the quota', async () => {
    const dataDir = freshDataDir();
    const dead = await serve(dataDir);
    await sessionWithFiles(dead);
    const left = fileDirs(dataDir);
    expect(left).toHaveLength(2);
    await dead.stop('SIGKILL');
    // Files a client sent before the crash: 2 MiB, over the next server's 1 MB.
    writeFileSync(join(left[0]!, 'big.bin'), Buffer.alloc(2 * 1024 * 1024));

    const next = await serve(dataDir, { DECKHAND_PROJECT_DISK_MB: '1' });
    const started = await call(next, 'start', START_BODY);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect((await call(next, `${started.body.data.sessionId}/end`, {})).status).toBe(200);
    for (const dir of left) expect(existsSync(dir), dir).toBe(false);
    expect(swept(next)).toMatchObject({ replays: 1, files: 1, downloads: 1 });
  }, 240_000);
});

describe('replay pictures left by a server that died', () => {
  it('are removed by the next server on the data directory, and no longer count toward the quota', async () => {
    const dataDir = freshDataDir();
    const dead = await serve(dataDir);
    await sessionWithPicture(dead);
    await sessionWithPicture(dead, true);
    const left = pictureDirs(dataDir);
    expect(left).toHaveLength(2);
    await dead.stop('SIGKILL');
    // A day of such sessions fills a quota: 2 MiB stands in for them, over the next server's 1 MB.
    writeFileSync(join(left[0]!, 'more.jpg'), Buffer.alloc(2 * 1024 * 1024));
    // A session directory of an earlier version (replays/<sessionId>/ directly): unreachable after a restart too.
    const flat = join(dataDir, 'local', 'replays', randomUUID());
    mkdirSync(flat, { recursive: true });
    writeFileSync(join(flat, '1.jpg'), Buffer.alloc(1024));

    const next = await serve(dataDir, { DECKHAND_PROJECT_DISK_MB: '1' });
    // The quota counts only what is there: a start is not refused (429 disk_quota) for files nobody could reach.
    const started = await call(next, 'start', START_BODY);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect((await call(next, `${started.body.data.sessionId}/end`, {})).status).toBe(200);
    for (const dir of [...left, flat]) expect(existsSync(dir), dir).toBe(false);
    expect(swept(next)).toMatchObject({ replays: 1, earlierReplays: 1 });
  }, 240_000);

  it('and session files are told from those of live servers on the same data directory, which each go on serving its own', async () => {
    const dataDir = freshDataDir();
    const first = await serve(dataDir);
    const firstSession = await sessionWithPicture(first);
    const firstFiles = await sessionWithFiles(first);
    const second = await serve(dataDir);
    expect(await pictureStatus(first, firstSession)).toBe(200);
    const secondSession = await sessionWithPicture(second);
    const secondFiles = await sessionWithFiles(second);
    const kept = { pictures: pictureDirs(dataDir), files: fileDirs(dataDir) };
    expect(kept.pictures).toHaveLength(4);
    expect(kept.files).toHaveLength(4);

    // A third server's start sweeps with both alive: it removes nothing, and each still serves its sessions'.
    const third = await serve(dataDir);
    // (Temporary directories are the machine's: other processes' may be swept, but nothing of the data directory.)
    const thirdSwept = swept(third) ?? {};
    for (const folder of ['replays', 'files', 'downloads']) expect(thirdSwept).not.toHaveProperty(folder);
    expect({ pictures: pictureDirs(dataDir), files: fileDirs(dataDir) }).toEqual(kept);
    expect(await pictureStatus(first, firstSession)).toBe(200);
    expect(await pictureStatus(second, secondSession)).toBe(200);
    expect(await heldFiles(first, firstFiles)).toEqual(['note.txt', 'sent.txt']);
    expect(await heldFiles(second, secondFiles)).toEqual(['note.txt', 'sent.txt']);

    // One of them dies: the next start removes its pictures and files only.
    await first.stop('SIGKILL');
    const fourth = await serve(dataDir);
    expect(pictureDirs(dataDir).every((dir) => dir.includes(secondSession) || dir.includes(secondFiles))).toBe(true);
    expect(pictureDirs(dataDir)).toHaveLength(2);
    expect(fileDirs(dataDir)).toHaveLength(2);
    expect(fileDirs(dataDir).every((dir) => dir.endsWith(secondFiles))).toBe(true);
    expect(await pictureStatus(second, secondSession)).toBe(200);
    expect(await heldFiles(second, secondFiles)).toEqual(['note.txt', 'sent.txt']);
    expect((await fetch(`${second.url}/v1/sessions/${secondFiles}/downloads/note.txt`)).status).toBe(200);
    await Promise.all([second, third, fourth].map((node) => node.stop()));
  }, 360_000);

  it('and session files are judged by machine, boot and process, and removed without following a symlink out of the project', async () => {
    const dataDir = freshDataDir();
    const outside = freshDataDir();
    const { owner, host, boot } = await deadOwner();
    const earlierBoots: string[] = [];
    const kept: string[] = [];
    for (const folder of ['replays', 'files', 'downloads']) {
      const top = join(dataDir, 'local', folder);
      earlierBoots.push(plant(join(top, `${host}.${'0'.repeat(32)}.${process.pid}.1`, randomUUID())));
      kept.push(plant(join(top, `${host === 'ffffffff' ? 'eeeeeeee' : 'ffffffff'}.${boot}.1.1`, randomUUID())));
      // A dead owner's name on a symlink to a directory elsewhere, and a project whose folder is one.
      const elsewhere = plant(join(outside, `${folder}-kept`));
      symlinkSync(elsewhere, join(top, owner));
      kept.push(elsewhere);
      kept.push(plant(join(outside, folder, randomUUID())), plant(join(outside, folder, owner, randomUUID())));
      mkdirSync(join(dataDir, 'other'), { recursive: true });
      symlinkSync(join(outside, folder), join(dataDir, 'other', folder));
    }
    // A project directory that is a symlink: nothing under it is removed either.
    mkdirSync(join(outside, 'linked', 'files', owner), { recursive: true });
    kept.push(plant(join(outside, 'linked', 'files', owner, randomUUID())));
    symlinkSync(join(outside, 'linked'), join(dataDir, 'linked'));

    await serve(dataDir);
    for (const dir of earlierBoots) expect(existsSync(dir), dir).toBe(false);
    for (const dir of kept) expect(existsSync(join(dir, '1.jpg')), dir).toBe(true);
  }, 60_000);
});

describe('deckhand-mcp', () => {
  it('removes at start the temporary directories, replay pictures and session files of processes that are gone', async () => {
    const dataDir = freshDataDir();
    const { owner, pidAndStart } = await deadOwner();
    const profile = plant(join(tmpdir(), `deckhand-profile-${pidAndStart}-mcp${randomUUID().slice(0, 6)}`), 'big.bin');
    dataDirs.push(profile);
    const left = ['replays', 'files', 'downloads'].map((folder) => plant(join(dataDir, 'local', folder, owner, randomUUID())));
    const connection = await connectStdio('legacy', [], { ...ALLOW_FIXTURES, DECKHAND_DATA_DIR: dataDir, DECKHAND_CACHE_DIR: '', DECKHAND_POOL_SIZE: '0' });
    try {
      expect((await connection.client.listTools()).tools.length).toBeGreaterThan(0);
      for (const dir of [profile, ...left]) expect(existsSync(dir), dir).toBe(false);
    } finally {
      await connection.close();
    }
  }, 60_000);
});
