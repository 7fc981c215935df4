// What a session's CDP relay checks against: the server's navigation policy, the project's directory
// (the only place host paths may be) and the session's downloads directory inside it (under this process's
// owner directory, host/process-owner.ts, so the next process removes it if this one is killed). That directory is
// the browser user's (Chromium writes there) and goes with the session, as the browser's own downloads do;
// a project file a client hands the page becomes the browser user's too, since Chromium opens it.
import { lchown, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { RelayScope } from '../browser/cdp/relay-allowlist.js';
import { confinedDirectory, giveToBrowserUser, projectDataDir, projectDirName } from '../browser/project-data/project-data-dir.js';
import type { CoreConfig } from '../config.js';
import { PROCESS_OWNER } from '../host/process-owner.js';

export interface SessionRelayScope extends RelayScope {
  /** Whether the session's downloads directory was made (something was downloaded or is being). */
  madeDownloads(): boolean;
  /** Removes the session's downloads directory, if a relay client made one. */
  dispose(): Promise<void>;
}

export function relayScopeOf(config: CoreConfig, projectId: string, sessionId: string): SessionRelayScope {
  let projectDir: Promise<string> | undefined;
  let downloadsDir: Promise<string> | undefined;
  const project = () => (projectDir ??= projectDataDir(config.dataDir, projectId));
  return {
    policy: config.navigationPolicy,
    projectDir: project,
    downloadsDir: () =>
      (downloadsDir ??= project().then(async (root) => {
        const made = await confinedDirectory(root, `downloads/${PROCESS_OWNER}/${projectDirName(sessionId)}`);
        if ('problem' in made) throw new Error(`The session's downloads directory ${made.problem}`);
        const { user } = config.browserIdentity;
        if (user) await giveToBrowserUser(root, made.path, user);
        return made.path;
      })),
    async shareFile(path) {
      const { user } = config.browserIdentity;
      if (!user) return;
      await giveToBrowserUser(await project(), dirname(path), user);
      await lchown(path, user.uid, user.gid);
    },
    madeDownloads: () => downloadsDir !== undefined,
    async dispose() {
      const made = await downloadsDir?.catch(() => undefined);
      if (made) await rm(made, { recursive: true, force: true });
    },
  };
}
