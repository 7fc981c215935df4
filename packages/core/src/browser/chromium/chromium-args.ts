// The command line of a launched Chromium. We own all of it (no Playwright launcher in between), so
// what a client may add is decided here and in launch-policy, and the switches that keep the service
// safe (pipe only, no DevTools port, the policy proxy) cannot be dropped. Chromium keeps only the last
// --disable-features (and --enable-features) switch, so ours and the caller's are merged into one each.
import type { LaunchOptions, Viewport } from '../../types.js';
import { isProxyingSwitch, policyProxySwitches } from './proxy-switches.js';

/** Features switched off for automation: the set Playwright 1.65 uses (chromiumSwitches.ts). */
const DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding',
  'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect', 'TcpPortRandomizationWin',
  'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
];
const ENABLED_FEATURES = ['CDPScreenshotNewSurface'];

/** Full Chromium starts a hidden WebUI omnibox renderer per context; these halve its cost. */
const FULL_CHROMIUM_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * Quiet, deterministic automation: nothing phones home (we run without network), no throttling of
 * background pages, no prompts. The headless shell does not isolate sites by default;
 * --site-per-process makes it match full Chromium (cross-site iframes out of process).
 */
const SERVICE_SWITCHES = [
  '--site-per-process',
  '--disable-gpu',
  '--disable-quic',
  '--disable-field-trial-config',
  '--disable-background-networking',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-back-forward-cache',
  '--disable-breakpad',
  '--disable-component-extensions-with-background-pages',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-dev-shm-usage',
  '--disable-extensions',
  '--disable-hang-monitor',
  '--disable-ipc-flooding-protection',
  '--disable-popup-blocking',
  '--disable-prompt-on-repost',
  '--disable-renderer-backgrounding',
  '--disable-search-engine-choice-screen',
  '--disable-sync',
  '--allow-pre-commit-input',
  '--force-color-profile=srgb',
  '--metrics-recording-only',
  '--no-default-browser-check',
  '--no-first-run',
  '--no-service-autorun',
  '--password-store=basic',
  '--use-mock-keychain',
  '--enable-unsafe-swiftshader',
];

const HEADLESS_SWITCHES = [
  '--headless',
  '--hide-scrollbars',
  '--mute-audio',
  '--blink-settings=primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4',
];

export interface LaunchPlan {
  headless: boolean;
  fullChromium: boolean;
  userDataDir: string;
  viewport: Viewport;
  /** The policy proxy every connection goes through (the session's own proxy sits behind it). */
  proxyServer: string;
  /** false: no startup window at all (a shared browser's pages all live in contexts made later). */
  startupPage?: boolean;
  /** The machine allows Chromium's sandbox (browser-user.ts): then no one turns it off. */
  sandbox: boolean;
  /** V8 heap limit of each renderer in MiB; 0 leaves Chromium's own. */
  pageHeapMb: number;
}

/** Switches that turn the sandbox off: a client's are dropped where the sandbox works. */
const SANDBOX_OFF = new Set(['--no-sandbox', '--disable-setuid-sandbox']);

export function buildChromiumArgs(options: LaunchOptions, plan: LaunchPlan): string[] {
  const userArgs = options.args ?? [];
  const dropped = new Set(Array.isArray(options.ignoreDefaultArgs) ? options.ignoreDefaultArgs : []);
  const plain = userArgs.filter(
    (arg) => !isFeatureSwitch(arg, 'disable') && !isFeatureSwitch(arg, 'enable') && !isProxyingSwitch(arg) && !(plan.sandbox && SANDBOX_OFF.has(arg)),
  );
  const disabled = [...DISABLED_FEATURES, ...(plan.fullChromium ? FULL_CHROMIUM_DISABLED_FEATURES : []), ...featuresFrom(userArgs, 'disable')];
  const enabled = [...ENABLED_FEATURES, ...featuresFrom(userArgs, 'enable')];
  return [
    ...[...SERVICE_SWITCHES, ...(plan.headless ? HEADLESS_SWITCHES : [])].filter((arg) => !dropped.has(arg)),
    ...(plan.sandbox || options.chromiumSandbox ? [] : ['--no-sandbox']),
    // A page that allocates past this dies alone (its renderer crashes), instead of holding gigabytes.
    ...(plan.pageHeapMb > 0 ? [`--js-flags=--max-old-space-size=${plan.pageHeapMb}`] : []),
    ...(options.devtools ? ['--auto-open-devtools-for-tabs'] : []),
    `--user-data-dir=${plan.userDataDir}`,
    `--window-size=${plan.viewport.width},${plan.viewport.height}`,
    ...(options.locale ? [`--lang=${options.locale}`, `--accept-lang=${options.locale}`] : []),
    ...(options.deviceScaleFactor ? [`--force-device-scale-factor=${options.deviceScaleFactor}`] : []),
    ...(options.hasTouch ? ['--touch-events=enabled'] : []),
    ...(options.ignoreHTTPSErrors ? ['--ignore-certificate-errors'] : []),
    ...plain,
    ...policyProxySwitches(plan.proxyServer),
    `--disable-features=${[...new Set(disabled)].join(',')}`,
    `--enable-features=${[...new Set(enabled)].join(',')}`,
    // One page to start with: the session's page.
    ...(plan.startupPage === false ? ['--no-startup-window'] : ['about:blank']),
  ];
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
