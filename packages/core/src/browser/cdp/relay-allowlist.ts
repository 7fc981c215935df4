// What a client may send through the CDP relay, for every session (shared browser, own browser, debugUrl):
// the domains and methods automation clients use (Playwright's connectOverCDP, Puppeteer-style clients,
// the Stagehand client, a DevTools front end), with the parameters that reach outside the page checked.
// Every URL the browser is made to load passes the navigation policy and must be a network (or in-memory)
// address; download paths become the session's downloads directory; host paths must lie in the project's
// directory; contexts with their own proxy, tracing, system information and everything not listed are refused.
import { realpath, stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { assertDestinationAllowed } from '../../network/destination-check.js';
import type { NavigationPolicy } from '../../network/network-policy.js';

/** What a session's relay needs to know to check parameters. */
export interface RelayScope {
  policy: NavigationPolicy;
  /** The project's directory (a real path): the only place host paths a client names may be. */
  projectDir(): Promise<string>;
  /** Where this session's downloads go, whatever path a client names. */
  downloadsDir(): Promise<string>;
  /** Lets the browser's own user read a checked file of the project (Chromium opens it, not the server). */
  shareFile(path: string): Promise<void>;
}

/** A command as it may be forwarded (parameters possibly rewritten), or why it is refused. */
export type RelayVerdict = { params: Record<string, unknown> } | { refused: string };

type Check = (params: Record<string, unknown>, scope: RelayScope) => Promise<RelayVerdict> | RelayVerdict;

/** Whole domains: they act on the page or target they are sent to, and name no host path or URL to load. */
const DOMAINS = new Set([
  'Accessibility', 'Ads', 'Animation', 'Audits', 'Autofill', 'CacheStorage', 'Console', 'CSS', 'Debugger',
  'DeviceAccess', 'DeviceOrientation', 'DOM', 'DOMDebugger', 'DOMSnapshot', 'DOMStorage', 'Emulation',
  'EventBreakpoints', 'Fetch', 'HeadlessExperimental', 'HeapProfiler', 'IndexedDB', 'Input', 'Inspector', 'IO',
  'LayerTree', 'Log', 'Media', 'Network', 'Overlay', 'Page', 'Performance', 'PerformanceTimeline', 'Preload', 'Profiler',
  'Runtime', 'Schema', 'Security', 'ServiceWorker', 'Storage', 'WebAudio', 'WebAuthn',
]);

/** Methods of the listed domains that are refused, and why. */
const REFUSED_IN_DOMAINS: Record<string, string> = {
  // It may load file: URLs (DevTools uses it for source maps), and it fetches on the browser's behalf.
  'Network.loadNetworkResource': 'it loads resources outside any page',
  'Network.setCookieControls': 'it changes cookie settings of the whole browser',
};

/** Methods of other domains that pass. */
const METHODS = new Set([
  'Browser.getVersion',
  'Browser.setPermission',
  'Browser.grantPermissions',
  'Browser.resetPermissions',
  'Browser.setDownloadBehavior',
  'Browser.cancelDownload',
  'Browser.getWindowForTarget',
  'Browser.getWindowBounds',
  'Browser.setWindowBounds',
  'Browser.setContentsSize',
  // A session's own browser only: a shared browser's context channel refuses these.
  'Browser.close',
  'Browser.crash',
  'Browser.crashGpuProcess',
  'Target.activateTarget',
  'Target.attachToTarget',
  'Target.attachToBrowserTarget',
  'Target.autoAttachRelated',
  'Target.closeTarget',
  'Target.createBrowserContext',
  'Target.createTarget',
  'Target.detachFromTarget',
  'Target.disposeBrowserContext',
  'Target.getBrowserContexts',
  'Target.getDevToolsTarget',
  'Target.getTargetInfo',
  'Target.getTargets',
  'Target.setAutoAttach',
  'Target.setDiscoverTargets',
  'FedCm.enable',
  'FedCm.disable',
  'FedCm.selectAccount',
  'FedCm.clickDialogButton',
  'FedCm.dismissDialog',
  'FedCm.resetCooldown',
  'Memory.getDOMCounters',
  'Memory.getDOMCountersForLeakDetection',
  'Memory.prepareForLeakDetection',
  'Memory.forciblyPurgeJavaScriptMemory',
  'Memory.startSampling',
  'Memory.stopSampling',
  'Memory.getSamplingProfile',
]);

/** Why a whole domain is refused, where a reason says more than "not needed by automation". */
const DOMAIN_REASONS: Record<string, string> = {
  Tracing: "a trace records every process of the browser, other sessions' pages included",
  SystemInfo: "it describes the server's machine and processes",
  Tethering: 'it opens ports on the server',
  Extensions: 'it loads extensions from host paths',
  PWA: 'it installs and launches apps from URLs and host files',
  FileSystem: 'automation clients do not need it',
  Cast: 'it reaches devices outside the browser',
};

/** Parameter checks: run before the command is forwarded, and may rewrite it. */
const CHECKS: Record<string, Check> = {
  'Page.navigate': (params, scope) => loadable(params, 'url', scope),
  'Target.createTarget': (params, scope) => loadable(params, 'url', scope, true),
  'Fetch.continueRequest': (params, scope) => loadable(params, 'url', scope, false, true),
  'Network.continueInterceptedRequest': (params, scope) => loadable(params, 'url', scope, false, true),
  'Browser.setDownloadBehavior': downloadsHere,
  'Page.setDownloadBehavior': downloadsHere,
  'DOM.setFileInputFiles': async (params, scope) => {
    const files = await confinedFiles(params.files, 'files', scope);
    return 'refused' in files ? files : { params: { ...params, files: files.paths } };
  },
  'Input.dispatchDragEvent': async (params, scope) => {
    const data = params.data as { files?: unknown } | undefined;
    if (data?.files === undefined) return { params };
    const files = await confinedFiles(data.files, 'data.files', scope);
    return 'refused' in files ? files : { params: { ...params, data: { ...data, files: files.paths } } };
  },
  'Target.createBrowserContext': (params) => {
    for (const field of ['proxyServer', 'proxyBypassList', 'originsWithUniversalNetworkAccess']) {
      if (params[field] !== undefined) return { refused: `${field} is not allowed: every connection of the browser goes through the server's navigation policy` };
    }
    return { params };
  },
};

const ALWAYS_REFUSED: Record<string, string> = {
  'Target.exposeDevToolsProtocol': 'it hands a page the DevTools protocol',
  'Target.sendMessageToTarget': 'only flattened sessions (sessionId on each message) are relayed',
  'Target.setRemoteLocations': 'it makes the browser connect to other hosts',
  'Target.openDevTools': 'it opens a DevTools window in the browser',
  'Browser.getBrowserCommandLine': "it describes the server's machine",
  'Browser.getHistograms': "it describes the server's machine",
  'Browser.getHistogram': "it describes the server's machine",
  'Browser.executeBrowserCommand': 'it drives the browser UI',
};

/** The command as it may be forwarded, or why not. */
export async function checkRelayCommand(method: string, params: Record<string, unknown>, scope: RelayScope): Promise<RelayVerdict> {
  const domain = method.slice(0, method.indexOf('.'));
  const why = ALWAYS_REFUSED[method] ?? REFUSED_IN_DOMAINS[method];
  if (why) return { refused: why };
  if (!DOMAINS.has(domain) && !METHODS.has(method)) {
    return { refused: DOMAIN_REASONS[domain] ?? 'automation clients do not need it, and the relay forwards only what they do' };
  }
  const check = CHECKS[method];
  return check ? check(params, scope) : { params };
}

/** Schemes that load nothing from the server's machine: network addresses, and in-memory documents. */
const IN_MEMORY = new Set(['data:', 'blob:']);

/**
 * `params[field]` must be a URL the session may open: http(s) allowed by the navigation policy (the same
 * check as the navigate operation), about:blank, data: or blob: (`http` only: a request's URL stays a
 * network one). Absent is fine where the method has a default (about:blank, or the request's own URL).
 */
async function loadable(params: Record<string, unknown>, field: string, scope: RelayScope, emptyIsBlank = false, optional = false): Promise<RelayVerdict> {
  const raw = params[field];
  if (raw === undefined && optional) return { params };
  if (typeof raw !== 'string') return { refused: `${field} must be a string` };
  if (raw === '' && emptyIsBlank) return { params };
  const problem = await urlProblem(raw, scope.policy, !optional);
  return problem ? { refused: `${field} ${problem}` } : { params };
}

async function urlProblem(raw: string, policy: NavigationPolicy, documentsToo: boolean): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    return assertDestinationAllowed(url.href, policy).then(
      () => undefined,
      (error: Error) => error.message,
    );
  }
  if (documentsToo && url.protocol === 'about:' && url.pathname === 'blank') return undefined;
  if (documentsToo && IN_MEMORY.has(url.protocol)) return undefined;
  if (documentsToo && url.protocol === 'view-source:') {
    const inner = await urlProblem(raw.slice('view-source:'.length), policy, false);
    return inner && `(view-source of a URL that ${inner})`;
  }
  return `uses ${url.protocol}, which is not a network address (only http(s), about:blank, data: and blob: load through the relay)`;
}

/** Downloads go to the session's own directory, whatever path the client named. */
async function downloadsHere(params: Record<string, unknown>, scope: RelayScope): Promise<RelayVerdict> {
  if (params.behavior === 'deny') return { params: withoutPath(params) };
  // "default" would be the browser's own downloads folder, on the server's disk: the session's is its default.
  const behavior = params.behavior === 'default' ? 'allow' : params.behavior;
  return { params: { ...params, behavior, downloadPath: await scope.downloadsDir() } };
}

function withoutPath(params: Record<string, unknown>): Record<string, unknown> {
  const { downloadPath: _ignored, ...rest } = params;
  return rest;
}

/** Every path must name an existing file inside the project's directory (relative paths are relative to it); Chromium gets the real paths. */
export async function confinedFiles(files: unknown, field: string, scope: Pick<RelayScope, 'projectDir' | 'shareFile'>): Promise<{ paths: string[] } | { refused: string }> {
  if (!Array.isArray(files) || files.some((file) => typeof file !== 'string')) return { refused: `${field} must be a list of paths` };
  const root = await scope.projectDir();
  const paths: string[] = [];
  for (const file of files as string[]) {
    const real = /[\x00-\x1f\x7f]/.test(file) ? undefined : await realpath(resolve(root, file)).catch(() => undefined);
    if (!real || !real.startsWith(root + sep)) {
      return { refused: `${field}: ${JSON.stringify(file.slice(0, 200))} is not a file in the project's data directory` };
    }
    if (!(await stat(real)).isFile()) return { refused: `${field}: ${JSON.stringify(file.slice(0, 200))} is a directory, not a file: name the files in it` };
    await scope.shareFile(real);
    paths.push(real);
  }
  return { paths };
}
