// Who Chromium runs as, and whether its sandbox is on. A server running as root launches Chromium as an
// unprivileged user made by scripts/setup.sh, so whatever reaches the browser reaches nothing of root's;
// the sandbox is on wherever the kernel lets that user make namespaces (or a setuid helper is installed).
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DeckhandError } from '../errors.js';

export interface BrowserUser {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

export interface BrowserIdentity {
  /** Absent: Chromium runs as the server's own user (it is not root, or the operator opted out). */
  user?: BrowserUser;
  sandbox: boolean;
  /** One line for the start-up log: which user, and why the sandbox is on or off. */
  summary: string;
}

export const DEFAULT_BROWSER_USER = 'deckhand-browser';

/**
 * Reads DECKHAND_BROWSER_USER (default deckhand-browser) and DECKHAND_BROWSER_AS_ROOT. As root with no
 * such user, fails closed unless DECKHAND_BROWSER_AS_ROOT=1 says to run Chromium as root.
 */
export function browserIdentityFromEnv(env: Record<string, string | undefined>, chromiumPath: string | undefined, uid = process.getuid?.()): BrowserIdentity {
  if (uid !== 0) {
    const sandbox = sandboxWorks(undefined, chromiumPath);
    return { sandbox, summary: `Chromium runs as this user; sandbox ${sandbox ? 'on' : 'off (no user namespaces and no setuid helper)'}` };
  }
  const name = env.DECKHAND_BROWSER_USER || DEFAULT_BROWSER_USER;
  const user = lookUpUser(name);
  if (!user) {
    if (['1', 'true', 'yes'].includes((env.DECKHAND_BROWSER_AS_ROOT ?? '').toLowerCase())) {
      return { sandbox: false, summary: 'Chromium runs as root without its sandbox (DECKHAND_BROWSER_AS_ROOT=1)' };
    }
    throw new DeckhandError(
      'validation_error',
      `Running as root, Deckhand launches Chromium as the unprivileged user "${name}", which does not exist: run "sh scripts/setup.sh" as root to create it, or set DECKHAND_BROWSER_AS_ROOT=1 to run Chromium as root`,
    );
  }
  if (user.uid === 0) throw new DeckhandError('validation_error', `DECKHAND_BROWSER_USER "${name}" is root; name an unprivileged user`);
  const sandbox = sandboxWorks(user, chromiumPath);
  return { user, sandbox, summary: `Chromium runs as ${name} (uid ${user.uid}); sandbox ${sandbox ? 'on' : 'off (no user namespaces and no setuid helper)'}` };
}

function lookUpUser(name: string): BrowserUser | undefined {
  if (!/^[a-z_][a-z0-9_-]*\$?$/i.test(name)) throw new DeckhandError('validation_error', `DECKHAND_BROWSER_USER "${name}" is not a user name`);
  const found = spawnSync('getent', ['passwd', name], { encoding: 'utf8' });
  const fields = found.status === 0 ? found.stdout.trim().split(':') : [];
  if (fields.length < 7) return undefined;
  return { name, uid: Number(fields[2]), gid: Number(fields[3]), home: fields[5]! };
}

/**
 * Chromium's sandbox needs an unprivileged user namespace (tried here as the browser's user) or its
 * setuid helper next to the binary; with neither it would not start, so it runs with --no-sandbox.
 */
function sandboxWorks(user: BrowserUser | undefined, chromiumPath: string | undefined): boolean {
  const probe = spawnSync('unshare', ['--user', '--map-root-user', 'true'], { stdio: 'ignore', timeout: 5_000, ...(user && { uid: user.uid, gid: user.gid }) });
  if (probe.status === 0) return true;
  const helper = join(dirname(chromiumPath ?? '/usr/lib/chromium/chromium'), 'chrome-sandbox');
  try {
    const stat = statSync(helper);
    return stat.uid === 0 && (stat.mode & 0o4000) !== 0;
  } catch {
    return false;
  }
}
