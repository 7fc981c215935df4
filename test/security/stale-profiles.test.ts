// Temporary profiles of a Deckhand process killed outright (kill -9) do not stay in /tmp for good: a
// server sweeps, at start, the directories whose owner process is gone, and keeps those of live ones
// (many servers share /tmp).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../support/test-server';

function startTimeOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

function profileOf(owner: string): string {
  const dir = join(tmpdir(), `deckhand-profile-${owner}-stale${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(join(dir, 'downloads'), { recursive: true });
  writeFileSync(join(dir, 'downloads', 'big.bin'), Buffer.alloc(1024 * 1024));
  return dir;
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('stale temporary profiles', () => {
  it('removes at start the profile of a process that is gone, and keeps one of a live process', async () => {
    // A process that ran and was killed, as a server killed with kill -9 would be.
    const child = spawn('sleep', ['30']);
    const deadOwner = `${child.pid}.${startTimeOf(child.pid!)}`;
    child.kill('SIGKILL');
    await once(child, 'exit');
    // A live process whose pid is reused later would have another start time: that counts as gone too.
    const reused = `${process.pid}.1`;
    const live = `${process.ppid}.${startTimeOf(process.ppid)}`;
    const [dead, reusedDir, liveDir] = [deadOwner, reused, live].map(profileOf);
    made.push(dead!, reusedDir!, liveDir!);

    const server = await startTestServer();
    try {
      expect(existsSync(dead!)).toBe(false);
      expect(existsSync(reusedDir!)).toBe(false);
      expect(existsSync(join(liveDir!, 'downloads', 'big.bin'))).toBe(true);
      expect(server.logs.join('\n')).toMatch(/removed what processes that are gone left behind.*"temporaryDirectories"/);
    } finally {
      await server.close();
    }
  });
});
