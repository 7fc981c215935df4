// Which sessions may share their project's browser: those whose launch options change nothing of the
// browser process. A profile, switches, a proxy, a sandbox choice or another binary make it the
// session's own; so do switches that are context options in Playwright but Chromium switches here
// (locale, touch, scale, certificate errors), which keeps their existing behaviour exactly.
import type { CoreConfig } from '../../config.js';
import type { LaunchOptions } from '../../types.js';

export function isShareable(options: LaunchOptions, config: CoreConfig): boolean {
  return Object.entries(options).every(([key, value]) => {
    if (value === undefined) return true;
    switch (key) {
      // Set per context, or only about the wait.
      case 'viewport':
      case 'connectTimeoutMs':
      case 'acceptDownloads':
        return true;
      case 'headless':
        return value === config.headless;
      case 'args':
        return (value as string[]).length === 0;
      case 'ignoreDefaultArgs':
        return value === false || (Array.isArray(value) && value.length === 0);
      case 'chromiumSandbox':
      case 'devtools':
      case 'preserveUserDataDir':
        return value === false;
      default:
        return false;
    }
  });
}
