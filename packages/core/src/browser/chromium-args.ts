// Command-line switches for a launched Chromium. Chromium keeps only the last --disable-features (and
// --enable-features) switch, so ours, Playwright's and the caller's are merged into one of each.
import type { LaunchOptions } from '../types.js';

/**
 * Playwright 1.65's own feature switches (chromiumSwitches.ts); a test checks the launched command
 * line holds exactly one of each, with these and ours, so a Playwright upgrade that changes them shows.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding',
  'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect', 'TcpPortRandomizationWin',
  'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
  'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion',
];
const PLAYWRIGHT_ENABLED_FEATURES = ['CDPScreenshotNewSurface', 'SkipListAccountsWithoutGaiaCookies'];

/** Full Chromium starts a hidden WebUI omnibox renderer per context; these halve its cost. */
const FULL_CHROMIUM_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * We run as root without network: nothing that phones home. The headless shell does not isolate
 * sites by default; --site-per-process makes it match full Chromium (cross-site iframes out of process).
 */
const SERVICE_SWITCHES = [
  '--site-per-process',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface ChromiumArgs {
  args: string[];
  /** Playwright defaults to drop: its feature switches, plus whatever the caller asked to drop. */
  ignoreDefaultArgs: boolean | string[];
}

export function buildChromiumArgs(options: LaunchOptions, fullChromium: boolean): ChromiumArgs {
  const userArgs = options.args ?? [];
  const plain = userArgs.filter((arg) => !isFeatureSwitch(arg, 'disable') && !isFeatureSwitch(arg, 'enable'));
  const disable = featureSwitch('disable', PLAYWRIGHT_DISABLED_FEATURES, [
    ...(fullChromium ? FULL_CHROMIUM_DISABLED_FEATURES : []),
    ...featuresFrom(userArgs, 'disable'),
  ]);
  const enable = featureSwitch('enable', PLAYWRIGHT_ENABLED_FEATURES, featuresFrom(userArgs, 'enable'));
  const args = [
    ...SERVICE_SWITCHES,
    ...(options.chromiumSandbox ? [] : ['--no-sandbox']),
    ...(options.devtools ? ['--auto-open-devtools-for-tabs'] : []),
    // A browser-level DevTools endpoint beside Playwright's pipe: this is the session's cdpUrl.
    `--remote-debugging-port=${options.port ?? 0}`,
    '--remote-debugging-address=127.0.0.1',
    ...plain,
    ...disable.add,
    ...enable.add,
  ];
  const ignore = options.ignoreDefaultArgs;
  return {
    args,
    ignoreDefaultArgs: ignore === true ? true : [...disable.ignore, ...enable.ignore, ...(Array.isArray(ignore) ? ignore : [])],
  };
}

/**
 * Playwright's switch stays when nothing is added to it. Otherwise it is dropped and replaced by the
 * merged one (ignoreDefaultArgs filters every argument equal to it, so ours must differ, and does).
 */
function featureSwitch(kind: 'disable' | 'enable', defaults: string[], extra: string[]) {
  const added = extra.filter((feature) => !defaults.includes(feature));
  if (added.length === 0) return { add: [], ignore: [] };
  return {
    add: [`--${kind}-features=${[...defaults, ...new Set(added)].join(',')}`],
    ignore: [`--${kind}-features=${defaults.join(',')}`],
  };
}

function isFeatureSwitch(arg: string, kind: 'disable' | 'enable'): boolean {
  return arg.startsWith(`--${kind}-features=`);
}

function featuresFrom(args: string[], kind: 'disable' | 'enable'): string[] {
  return args
    .filter((arg) => isFeatureSwitch(arg, kind))
    .flatMap((arg) => arg.slice(arg.indexOf('=') + 1).split(','))
    .map((feature) => feature.trim())
    .filter(Boolean);
}
