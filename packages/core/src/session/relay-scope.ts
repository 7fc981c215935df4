// What a session's CDP relay checks against: the server's navigation policy, the project's directory
// (the only place host paths may be) and the session's downloads directory inside it.
import type { RelayScope } from '../browser/relay-allowlist.js';
import { confinedDirectory, projectDataDir, projectDirName } from '../browser/project-data-dir.js';
import type { CoreConfig } from '../config.js';

export function relayScopeOf(config: CoreConfig, projectId: string, sessionId: string): RelayScope {
  let projectDir: Promise<string> | undefined;
  let downloadsDir: Promise<string> | undefined;
  const project = () => (projectDir ??= projectDataDir(config.dataDir, projectId));
  return {
    policy: config.navigationPolicy,
    projectDir: project,
    downloadsDir: () =>
      (downloadsDir ??= project().then(async (root) => {
        const made = await confinedDirectory(root, `downloads/${projectDirName(sessionId)}`);
        if ('problem' in made) throw new Error(`The session's downloads directory ${made.problem}`);
        return made.path;
      })),
  };
}
