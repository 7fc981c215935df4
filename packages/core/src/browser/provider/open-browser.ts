// Picks the browser for a new session: attach when the request names a cdpUrl; else a context in the
// project's shared browser when the launch options change nothing of the browser process; else a
// browser of the session's own.
import type { CoreConfig } from '../../config.js';
import type { StartRequest } from '../../types.js';
import { attachOverCdp } from './attach-cdp.js';
import type { BrowserHandle } from './browser-handle.js';
import { launchLocalBrowser } from './launch-local.js';
import { checkLaunchOptions } from '../chromium/launch-policy.js';
import type { ProjectBrowsers } from './project-browsers.js';
import type { ProjectDiskQuota } from '../project-data/project-disk-quota.js';
import { isShareable } from './shareable.js';
import { DEFAULT_VIEWPORT } from './shared-browser.js';

export async function openBrowser(req: StartRequest, projectId: string, config: CoreConfig, shared: ProjectBrowsers, disk: ProjectDiskQuota): Promise<BrowserHandle> {
  // What the client may not choose (switches, executable, paths) is refused before any browser work.
  const launchOptions = await checkLaunchOptions(req.browser?.launchOptions ?? {}, projectId, config);
  const cdpUrl = req.browser?.cdpUrl ?? launchOptions.cdpUrl;
  if (cdpUrl) return attachOverCdp(cdpUrl, config, launchOptions.connectTimeoutMs);
  const viewport =
    launchOptions.viewport ?? req.browserbaseSessionCreateParams?.browserSettings?.viewport ?? DEFAULT_VIEWPORT;
  if (config.contextsPerBrowser > 1 && isShareable(launchOptions, config)) {
    return shared.open(projectId, { viewport, acceptDownloads: launchOptions.acceptDownloads });
  }
  return launchLocalBrowser(launchOptions, viewport, config, (launched) => disk.watch(projectId, launched));
}
