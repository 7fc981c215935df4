// The Chromium switches a client may add to a launch: ones that change how pages look or what the
// browser does in the background, never what runs, where it writes, or how it is isolated. Chromium
// reads `--name`, `-name` and `--name=value` alike (and lower-cases nothing on Linux), so a switch is
// parsed and normalised to `--name[=value]` before the lookup; anything not listed is refused.

/** A rule answers what is wrong with a switch's value (undefined = no value given), or undefined when nothing is. */
type SwitchRule = (value: string | undefined) => string | undefined;

const flag: SwitchRule = (value) => (value === undefined ? undefined : 'takes no value');

function matching(pattern: RegExp, expected: string): SwitchRule {
  return (value) => (value !== undefined && pattern.test(value) ? undefined : `needs ${expected}`);
}

function oneOf(...values: string[]): SwitchRule {
  return matching(new RegExp(`^(${values.join('|')})$`), `one of ${values.join(', ')}`);
}

/** A comma-separated list of names, each from `allowed` (Chromium's feature lists). */
function namesFrom(allowed: ReadonlySet<string>): SwitchRule {
  return (value) => {
    if (!value) return 'needs a comma-separated list of names';
    const refused = value.split(',').map((name) => name.trim()).find((name) => !allowed.has(name));
    return refused === undefined ? undefined : `may not name "${refused}" (allowed: ${[...allowed].join(', ')})`;
  };
}

/**
 * Features whose state only changes rendering, UI or the browser's own background traffic (Google
 * services, translation, media routing, preloading). Process model, sandbox and network security
 * features are absent on purpose. Playwright's own feature switches are in it, so repeating them is harmless.
 */
const HARMLESS_FEATURES = new Set([
  'AcceptCHFrame', 'AimEnabled', 'AutofillServerCommunication', 'AvoidUnnecessaryBeforeUnloadCheckSync',
  'BackForwardCache', 'CalculateNativeWinOcclusion', 'CDPScreenshotNewSurface', 'DestroyProfileOnBrowserClose',
  'DialMediaRouteProvider', 'GlobalMediaControls', 'HttpsFirstBalancedModeAutoEnable', 'HttpsUpgrades',
  'InterestFeedContentSuggestions', 'LazyFrameLoading', 'LazyImageLoading', 'LensOverlay', 'MediaRouter',
  'NetworkTimeServiceQuerying', 'OptimizationHints', 'OverlayScrollbar', 'PaintHolding', 'PreconnectToSearch',
  'Prerender2', 'PrivacySandboxSettings4', 'SkipListAccountsWithoutGaiaCookies', 'Translate', 'TranslateUI',
  'UserAgentClientHint', 'WebUIDarkMode', 'WebUIOmniboxAimPopup', 'WebUIOmniboxPopup',
]);

/** Blink settings about media, input devices and colour scheme; not the ones that relax web security. */
const HARMLESS_BLINK_SETTINGS = new Set([
  'imagesEnabled', 'loadsImagesAutomatically', 'preferredColorScheme', 'forceDarkModeEnabled', 'hideScrollbars',
  'primaryPointerType', 'availablePointerTypes', 'primaryHoverType', 'availableHoverTypes',
]);

const blinkSettings: SwitchRule = (value) => {
  if (!value) return 'needs name=value pairs';
  for (const pair of value.split(',')) {
    const [name = '', setting] = pair.split('=');
    if (!HARMLESS_BLINK_SETTINGS.has(name)) return `may not set "${name}" (allowed: ${[...HARMLESS_BLINK_SETTINGS].join(', ')})`;
    if (setting !== undefined && !/^[A-Za-z0-9]{1,16}$/.test(setting)) return `needs a plain value for "${name}"`;
  }
  return undefined;
};

const TAG = '[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*';
const WEIGHTED_TAG = `${TAG}(;q=[01](\\.\\d{1,3})?)?`;
const LANGUAGE_TAG = new RegExp(`^${TAG}$`);
const LANGUAGE_LIST = new RegExp(`^${WEIGHTED_TAG}(,${WEIGHTED_TAG})*$`);

const ALLOWED_SWITCHES: Readonly<Record<string, SwitchRule>> = {
  // Window and display.
  'window-size': matching(/^\d{1,5},\d{1,5}$/, 'WIDTH,HEIGHT'),
  'window-position': matching(/^-?\d{1,5},-?\d{1,5}$/, 'X,Y'),
  'start-maximized': flag,
  'force-device-scale-factor': matching(/^\d{1,2}(\.\d{1,3})?$/, 'a number such as 2 or 1.5'),
  'hide-scrollbars': flag,
  'force-dark-mode': flag,
  'force-color-profile': oneOf('srgb', 'display-p3-d65', 'generic-rgb', 'color-spin-gamma24'),
  // Language and identity.
  lang: matching(LANGUAGE_TAG, 'a language tag such as en-GB'),
  'accept-lang': matching(LANGUAGE_LIST, 'a list of language tags such as en-GB,en;q=0.8'),
  'user-agent': matching(/^[\x20-\x7e]{1,512}$/, 'printable text of at most 512 characters'),
  'disable-blink-features': namesFrom(new Set(['AutomationControlled'])),
  // Media, notifications, WebRTC (only the policies that reveal fewer local addresses).
  'mute-audio': flag,
  'autoplay-policy': oneOf('no-user-gesture-required', 'user-gesture-required', 'document-user-activation-required'),
  'disable-notifications': flag,
  'force-webrtc-ip-handling-policy': oneOf('default_public_interface_only', 'disable_non_proxied_udp'),
  // Features and Blink settings, from the lists above.
  'disable-features': namesFrom(HARMLESS_FEATURES),
  'enable-features': namesFrom(HARMLESS_FEATURES),
  'blink-settings': blinkSettings,
  // Quieter or lighter browsers (most are on already).
  'disable-extensions': flag,
  'disable-dev-shm-usage': flag,
  'disable-gpu': flag,
  'disable-infobars': flag,
  'disable-popup-blocking': flag,
  'disable-default-apps': flag,
  'disable-sync': flag,
  'disable-translate': flag,
  'disable-background-networking': flag,
  'disable-background-timer-throttling': flag,
  'disable-backgrounding-occluded-windows': flag,
  'disable-renderer-backgrounding': flag,
  'disable-breakpad': flag,
  'disable-component-update': flag,
  'no-default-browser-check': flag,
  'no-first-run': flag,
  // The same as launchOptions.chromiumSandbox: false (the default), which copied launch recipes spell this way.
  'no-sandbox': flag,
  'disable-setuid-sandbox': flag,
};

export interface ParsedSwitch {
  /** Lower-case name without dashes. */
  name: string;
  value?: string;
  /** `--name` or `--name=value`. */
  normalised: string;
}

/** Parses one argument (free of control characters) the way Chromium does on Linux; a problem is a string. */
export function parseSwitch(arg: string): ParsedSwitch | string {
  // Chromium strips one `--` or `-`; whatever follows up to the first `=` is the name.
  const match = /^--?([^=]*)(?:=([\s\S]*))?$/.exec(arg);
  if (!match) return `"${shorten(arg)}" is not a switch (positional arguments such as URLs or paths are not allowed)`;
  if (arg === '--') return '"--" (the end of switches) is not allowed';
  const name = match[1]!.toLowerCase();
  if (!/^[a-z0-9][a-z0-9-]{0,99}$/.test(name)) return `"${shorten(arg)}" is not a switch name Deckhand accepts`;
  const value = match[2];
  return { name, value, normalised: value === undefined ? `--${name}` : `--${name}=${value}` };
}

/** The normalised switch, or the reason it is refused (naming the switch). */
export function checkSwitch(arg: string): { normalised: string } | { problem: string } {
  if (arg.length > 1024) return { problem: 'is longer than 1024 characters' };
  if (/[\x00-\x1f\x7f]/.test(arg)) return { problem: 'contains a control character' };
  const parsed = parseSwitch(arg);
  if (typeof parsed === 'string') return { problem: parsed };
  const rule = ALLOWED_SWITCHES[parsed.name];
  if (!rule) return { problem: `the switch --${parsed.name} is not allowed (the README lists the switches a session may add)` };
  const problem = rule(parsed.value);
  return problem ? { problem: `--${parsed.name} ${problem}` } : { normalised: parsed.normalised };
}

function shorten(arg: string): string {
  return arg.length > 80 ? `${arg.slice(0, 80)}…` : arg;
}
