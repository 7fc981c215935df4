// Replay pictures of a server killed outright (kill -9, OOM, power loss) are served by nobody after it
// died, yet they count toward the project's disk quota: the next server on the data directory removes
// them (and those of the layout before owner directories), and never a live server's, which goes on
// serving an ended session's pictures (servers on one machine may share a data directory).
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
  const dir = mkdtempSync(join(tmpdir(), 'deckhand-dead-pictures-'));
  dataDirs.push(dir);
  return dir;
}

async function serve(dataDir: string, env: Record<string, string> = {}): Promise<NodeProcess> {
  const node = await startNode({ ...ALLOW_FIXTURES, DECKHAND_DATA_DIR: dataDir, DECKHAND_POOL_SIZE: '0', ...env });
  nodes.push(node);
  return node;
}

async function call(node: NodeProcess, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${node.url}/v1/sessions/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
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

/** Every directory under the project's replays directory that holds pictures (whatever the layout). */
function pictureDirs(dataDir: string, project = 'local'): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true });
    if (entries.some((entry) => entry.isFile() && entry.name.endsWith('.jpg'))) found.push(dir);
    for (const entry of entries) if (entry.isDirectory()) walk(join(dir, entry.name));
  };
  const replays = join(dataDir, project, 'replays');
  if (existsSync(replays)) walk(replays);
  return found.sort();
}

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
    expect(next.output()).toMatch(/removed replay pictures left by servers that are gone/);
  }, 240_000);

  it('are told from those of live servers on the same data directory, which each go on serving its own', async () => {
    const dataDir = freshDataDir();
    const first = await serve(dataDir);
    const firstSession = await sessionWithPicture(first);
    const second = await serve(dataDir);
    expect(await pictureStatus(first, firstSession)).toBe(200);
    const secondSession = await sessionWithPicture(second);
    const kept = pictureDirs(dataDir);
    expect(kept).toHaveLength(2);

    // A third server's start sweeps with both alive: it removes neither, and each still serves its ended session.
    const third = await serve(dataDir);
    expect(third.output()).not.toMatch(/removed replay pictures/);
    expect(pictureDirs(dataDir)).toEqual(kept);
    expect(await pictureStatus(first, firstSession)).toBe(200);
    expect(await pictureStatus(second, secondSession)).toBe(200);

    // One of them dies: the next start removes its pictures only.
    await first.stop('SIGKILL');
    const fourth = await serve(dataDir);
    const remaining = pictureDirs(dataDir);
    expect(remaining).toHaveLength(1);
    expect(remaining[0]).toContain(secondSession);
    expect(await pictureStatus(second, secondSession)).toBe(200);
    await Promise.all([second, third, fourth].map((node) => node.stop()));
  }, 360_000);

  it('are judged by machine, boot and process, and removed without following a symlink out of the replays directory', async () => {
    const dataDir = freshDataDir();
    const outside = freshDataDir();
    const host = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().replaceAll('-', '');
    const sleeper = spawn('sleep', ['30']);
    const stat = readFileSync(`/proc/${sleeper.pid}/stat`, 'utf8');
    const deadOwner = `${host}.${boot}.${sleeper.pid}.${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
    sleeper.kill('SIGKILL');
    await once(sleeper, 'exit');

    const replays = join(dataDir, 'local', 'replays');
    const plant = (dir: string) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, '1.jpg'), Buffer.alloc(1024));
      return dir;
    };
    const earlierBoot = plant(join(replays, `${host}.${'0'.repeat(32)}.${process.pid}.1`, randomUUID()));
    const otherMachine = plant(join(replays, `${host === 'ffffffff' ? 'eeeeeeee' : 'ffffffff'}.${boot}.1.1`, randomUUID()));
    // A dead owner's name on a symlink to a directory elsewhere, and a project whose replays directory is one.
    const elsewhere = plant(join(outside, 'kept'));
    symlinkSync(elsewhere, join(replays, deadOwner));
    const flatElsewhere = plant(join(outside, 'replays', randomUUID()));
    mkdirSync(join(dataDir, 'other'));
    symlinkSync(join(outside, 'replays'), join(dataDir, 'other', 'replays'));

    await serve(dataDir);
    expect(existsSync(earlierBoot)).toBe(false);
    expect(existsSync(join(otherMachine, '1.jpg'))).toBe(true);
    expect(existsSync(join(elsewhere, '1.jpg'))).toBe(true);
    expect(existsSync(join(flatElsewhere, '1.jpg'))).toBe(true);
  }, 60_000);
});
