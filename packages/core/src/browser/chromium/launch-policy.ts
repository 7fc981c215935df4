// What a client may ask of the Chromium launched for its session. It never chooses what the server
// executes or where it writes: switches pass an allowlist, the executable is the operator's, and
// profile and download paths stay in the project's data directory. A refusal is a 400 naming the field.
import { realpath } from 'node:fs/promises';
import type { CoreConfig } from '../../config.js';
import { DeckhandError } from '../../errors.js';
import type { LaunchOptions } from '../../types.js';
import { operatorChromiumPaths } from './chromium-path.js';
import { checkSwitch, parseSwitch } from './chromium-switch-allowlist.js';
import { confinedDirectory, giveToBrowserUser, projectDataDir } from '../project-data/project-data-dir.js';

/** Playwright defaults a client may drop: none of them keeps the browser safe or manageable. */
const DROPPABLE_DEFAULTS = new Set(['--enable-automation', '--hide-scrollbars', '--mute-audio', '--disable-extensions']);

const MAX_ARGS = 100;

/** The options with switches normalised and paths resolved, or a validation_error naming what is refused. */
export async function checkLaunchOptions(options: LaunchOptions, projectId: string, config: CoreConfig): Promise<LaunchOptions> {
  const checked: LaunchOptions = { ...options };
  if (options.args) checked.args = checkArgs(options.args);
  if (options.ignoreDefaultArgs !== undefined) checked.ignoreDefaultArgs = checkIgnoredDefaults(options.ignoreDefaultArgs);
  // The DevTools endpoint is the server's business: a client may not pick where it listens.
  if (options.port) refuse('port', 'cannot be chosen; leave it out (or 0)');
  if (options.executablePath !== undefined) checked.executablePath = await checkExecutable(options.executablePath, config);
  for (const field of ['userDataDir', 'downloadsPath'] as const) {
    const requested = options[field];
    if (requested === undefined) continue;
    const root = await projectDataDir(config.dataDir, projectId);
    const result = await confinedDirectory(root, requested);
    if ('problem' in result) refuse(field, result.problem);
    const { user } = config.browserIdentity;
    if (user) await giveToBrowserUser(root, result.path, user);
    checked[field] = result.path;
  }
  return checked;
}

function checkArgs(args: string[]): string[] {
  if (args.length > MAX_ARGS) refuse('args', `has more than ${MAX_ARGS} switches`);
  return args.map((arg, i) => {
    const result = checkSwitch(arg);
    if ('problem' in result) refuse(`args.${i}`, result.problem);
    return result.normalised;
  });
}

/** `true` would drop the service's own switches (sandboxing choices, the DevTools endpoint, isolation). */
function checkIgnoredDefaults(ignore: boolean | string[]): boolean | string[] {
  if (ignore === true) refuse('ignoreDefaultArgs', `cannot be true; list the defaults to drop (allowed: ${[...DROPPABLE_DEFAULTS].join(', ')})`);
  if (ignore === false) return false;
  return ignore.map((arg, i) => {
    const parsed = /[\x00-\x1f\x7f]/.test(arg) ? undefined : parseSwitch(arg);
    const normalised = typeof parsed === 'object' ? parsed.normalised : undefined;
    if (!normalised || !DROPPABLE_DEFAULTS.has(normalised)) {
      refuse(`ignoreDefaultArgs.${i}`, `"${arg.slice(0, 80)}" may not be dropped (allowed: ${[...DROPPABLE_DEFAULTS].join(', ')})`);
    }
    return normalised;
  });
}

/**
 * Accepted only when it is one of the operator's binaries after resolving symlinks, so clients that
 * send the standard path keep working; the operator's own spelling of the path is what runs.
 */
async function checkExecutable(requested: string, config: CoreConfig): Promise<string> {
  const real = await realpath(requested).catch(() => undefined);
  if (real) {
    for (const allowed of operatorChromiumPaths(config.chromiumPath)) {
      if ((await realpath(allowed).catch(() => undefined)) === real) return allowed;
    }
  }
  return refuse('executablePath', "is not the server's Chromium: the operator chooses the browser binary (DECKHAND_CHROMIUM_PATH)");
}

function refuse(field: string, problem: string): never {
  const path = `browser.launchOptions.${field}`;
  throw new DeckhandError('validation_error', `${path}: ${problem}`, [{ path, message: problem }]);
}
