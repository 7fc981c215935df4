// Chromium never runs as root: a server running as root launches every browser (a project's shared one
// and a session's own, with a profile in the project's data directory) as the unprivileged user made by
// scripts/setup.sh, with the sandbox on where the kernel allows it, and with none of the server's keys in
// its environment.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { processTree } from '../../packages/core/src/browser/chromium/process-tree';
import { expectOk, useContract } from '../support/contract';

const SECRET = 'sk-server-secret-for-the-browser-user-test';
process.env.DECKHAND_TEST_BROWSER_USER_API_KEY = SECRET;
const ctx = useContract({ DECKHAND_API_KEYS: 'user-key:user-project', DECKHAND_NAV_ALLOW: '127.0.0.1,localhost' }, { 'x-bb-api-key': 'user-key' });

/** This process's Chromium processes (the server runs in it): browser, renderers, utilities. */
function chromiumProcesses(): number[] {
  return processTree(process.pid).filter((pid) => pid !== process.pid && /chrom/.test(readProc(pid, 'cmdline').split('\0')[0] ?? ''));
}

function readProc(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}

/** Real and effective uid of a process. */
function uidsOf(pid: number): number[] {
  const line = readProc(pid, 'status').split('\n').find((entry) => entry.startsWith('Uid:')) ?? '';
  return line.split(/\s+/).slice(1, 3).map(Number);
}

const runningAsRoot = process.getuid?.() === 0;
const browserUid = runningAsRoot ? Number(spawnSync('id', ['-u', 'deckhand-browser'], { encoding: 'utf8' }).stdout.trim()) : process.getuid!();
/** Whether the browser's user can make a user namespace here (what Chromium's sandbox needs). */
const sandboxPossible = spawnSync('unshare', ['--user', '--map-root-user', 'true'], { stdio: 'ignore', ...(runningAsRoot && { uid: browserUid, gid: browserUid }) }).status === 0;

describe('the browser user', () => {
  it('runs every Chromium process as the unprivileged user, sandboxed where the kernel allows, without the server\'s keys', async () => {
    const shared = await ctx.sessionOn('index.html');
    const own = await ctx.sessionOn('index.html', { browser: { type: 'local', launchOptions: { headless: true, userDataDir: 'profiles/own' } } });
    const pids = chromiumProcesses();
    expect(pids.length).toBeGreaterThan(3);
    for (const pid of pids) {
      const argv = readProc(pid, 'cmdline').split('\0');
      expect(uidsOf(pid), argv[0]).toEqual([browserUid, browserUid]);
      expect(readProc(pid, 'environ')).not.toContain(SECRET);
      if (sandboxPossible) expect(argv).not.toContain('--no-sandbox');
    }
    if (runningAsRoot) expect(browserUid).not.toBe(0);
    expect(ctx.server.logs.join('\n')).toContain(sandboxPossible ? 'sandbox on' : 'sandbox off');
    for (const id of [shared, own]) expectOk(await ctx.api.call('endSession', { id }));
  });
});
