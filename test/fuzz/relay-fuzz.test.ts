// Relay fuzzing: sequences of CDP commands, methods drawn from the protocol's own domain list
// (devtools-protocol) and parameters from each method's declared ones, with URL- and path-like values
// drawn from hostile ones (file: URLs of a canary secret, host directories, the server's own loopback
// API, browser-internal schemes), sent at browser level and on the page through the cdpUrl of a shared-
// browser session, the cdpUrl of a session with a browser of its own, and the debugUrl's page socket;
// mixed with probes that set a download directory, click a download link and read the page. After every
// sequence: nothing was written into the canary directories, no reply, event or page holds the canary
// file's secret, and /healthz answers. Bounded in time; FUZZ_SEED picks the seed (printed on failure).
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START_BODY } from '../support/contract';
import { startTestServer, type TestServer } from '../support/test-server';

const SEED = Number(process.env.FUZZ_SEED ?? 4_211_017);
/** The whole property's budget; the test's own timeout leaves room for setup and teardown. */
const TIME_LIMIT_MS = 35_000;
/** A command the browser does not answer in this long is left behind (a paused page, a waiting target). */
const REPLY_TIMEOUT_MS = 2_000;

interface Parameter {
  name: string;
  type?: string;
  $ref?: string;
  optional?: boolean;
  enum?: string[];
}
interface Domain {
  domain: string;
  commands: Array<{ name: string; parameters?: Parameter[] }>;
}
const load = createRequire(import.meta.url);
const protocol = [
  ...(load('devtools-protocol/json/browser_protocol.json') as { domains: Domain[] }).domains,
  ...(load('devtools-protocol/json/js_protocol.json') as { domains: Domain[] }).domains,
];

/**
 * Left out: commands that end the fuzzed session at once (closing or crashing its page or browser) or
 * freeze its page for the rest of the run, which would leave later sequences nothing to probe.
 */
const ENDS_THE_RUN = new Set([
  'Browser.close',
  'Browser.crash',
  'Browser.crashGpuProcess',
  'Page.crash',
  'Page.close',
  'Page.setWebLifecycleState',
  'Debugger.pause',
  'Emulation.setVirtualTimePolicy',
]);

// Open to Chromium's unprivileged user (it may pass the canary directory, read the secret and write the
// drop directory), so what keeps them out is the relay, not the file modes.
const canary = mkdtempSync(join(tmpdir(), 'deckhand-fuzz-canary-'));
chmodSync(canary, 0o711);
const drop = join(canary, 'drop');
mkdirSync(drop);
chmodSync(drop, 0o777);
const SECRET = `fuzz-secret-${Math.random().toString(36).slice(2)}`;
const secretFile = join(canary, 'secret.txt');
writeFileSync(secretFile, SECRET);
const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-fuzz-data-'));
const DOWNLOAD_PAGE = `data:text/html,${encodeURIComponent('<a href="data:text/plain,fuzz-download" download="f.txt">get</a>')}`;

interface Command {
  method: string;
  params: Record<string, unknown>;
  /** On the page's session rather than at browser level. */
  onPage: boolean;
}

interface Way {
  name: string;
  sessionId: string;
  send(command: Command): Promise<void>;
  close(): void;
}

let server: TestServer;
const ways: Way[] = [];
/** Every message any relay sent back, checked for the secret. */
const received: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ DECKHAND_API_KEYS: 'key-f:project-f', DECKHAND_PROJECT_MAX_SESSIONS: '0', DECKHAND_DATA_DIR: dataDir });
  ways.push(await overCdpUrl('shared browser', START_BODY));
  ways.push(await overCdpUrl('own browser', { ...START_BODY, browser: { type: 'local', launchOptions: { headless: true, locale: 'fr-FR' } } }));
  ways.push(await overDebugUrl());
}, 60_000);

afterAll(async () => {
  for (const way of ways) way.close();
  await server?.close();
  rmSync(canary, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

async function startSession(body: unknown): Promise<{ sessionId: string; cdpUrl: string; debugUrl: string }> {
  const reply = await fetch(`${server.url}/v1/sessions/start`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-bb-api-key': 'key-f' }, body: JSON.stringify(body) });
  expect(reply.status).toBe(200);
  return ((await reply.json()) as { data: { sessionId: string; cdpUrl: string; debugUrl: string } }).data;
}

/** A websocket CDP client that records everything it is sent and waits a bounded time for each reply. */
async function client(url: string) {
  const socket = new WebSocket(url, { maxPayload: 256 * 1024 * 1024 });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let nextId = 1;
  const waiting = new Map<number, (reply: { result?: Record<string, unknown> }) => void>();
  socket.on('message', (data: Buffer) => {
    const text = data.toString();
    received.push(text);
    const message = JSON.parse(text);
    if (typeof message.id === 'number') waiting.get(message.id)?.(message);
  });
  return {
    send(method: string, params: Record<string, unknown>, sessionId?: string): Promise<{ result?: Record<string, unknown> }> {
      const id = nextId++;
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve({}), REPLY_TIMEOUT_MS);
        waiting.set(id, (reply) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(reply);
        });
        socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      });
    },
    close: () => socket.close(),
  };
}

async function overCdpUrl(name: string, body: unknown): Promise<Way> {
  const { sessionId, cdpUrl } = await startSession(body);
  const cdp = await client(cdpUrl);
  const targets = (await cdp.send('Target.getTargets', {})).result!.targetInfos as Array<{ targetId: string; type: string }>;
  const page = targets.find((target) => target.type === 'page')!;
  const pageSession = (await cdp.send('Target.attachToTarget', { targetId: page.targetId, flatten: true })).result!.sessionId as string;
  return { name, sessionId, send: async ({ method, params, onPage }) => void (await cdp.send(method, params, onPage ? pageSession : undefined)), close: cdp.close };
}

async function overDebugUrl(): Promise<Way> {
  const { sessionId, debugUrl } = await startSession(START_BODY);
  const location = new URL((await fetch(debugUrl, { redirect: 'manual' })).headers.get('location')!);
  const cdp = await client(`ws://${location.searchParams.get('ws')}`);
  return { name: 'debugUrl', sessionId, send: async ({ method, params }) => void (await cdp.send(method, params)), close: cdp.close };
}

function hostileStrings(): fc.Arbitrary<string> {
  const secretUrl = pathToFileURL(secretFile).href;
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(
      secretUrl, secretFile, `view-source:${secretUrl}`, `filesystem:${secretUrl}`, 'file:///etc/passwd', 'file:///etc/shadow', pathToFileURL(drop).href,
      drop, `${drop}/x.txt`, canary, '/etc', '/etc/passwd', '/tmp', '/', '../../../../../etc/passwd', `../../../../../..${secretFile}`,
      `${server.url}/healthz`, `${server.url}/v1/sessions/start`, `ws://127.0.0.1:${server.port}/`, 'http://127.0.0.1:9/', 'http://169.254.169.254/latest/meta-data/',
      'chrome://version', 'chrome://settings', 'devtools://devtools/bundled/inspector.html', 'chrome-extension://aaaa/x.html', 'javascript:alert(1)',
      'about:blank', 'about:version', DOWNLOAD_PAGE, 'direct://', '<-loopback>', '*', 'allow', 'allowAndName', 'default', 'deny',
    ) },
    { weight: 1, arbitrary: fc.string({ maxLength: 16 }) },
  );
}

function valueOf(parameter: Parameter, strings: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  if (parameter.enum) return fc.constantFrom(...parameter.enum);
  const anything = fc.oneof(strings, fc.integer({ min: -1, max: 100_000 }), fc.boolean(), fc.array(strings, { maxLength: 3 }), fc.record({ files: fc.array(strings, { maxLength: 2 }), url: strings }));
  switch (parameter.type) {
    case 'string':
      return strings;
    case 'integer':
      return fc.integer({ min: -1, max: 100_000 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1, max: 100_000 });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(strings, { maxLength: 3 });
    default:
      return anything;
  }
}

function commands(): fc.Arbitrary<Command> {
  const strings = hostileStrings();
  const generated = protocol.flatMap((domain) =>
    domain.commands
      .map((command) => ({ method: `${domain.domain}.${command.name}`, parameters: command.parameters ?? [] }))
      .filter(({ method }) => !ENDS_THE_RUN.has(method)),
  );
  const fromProtocol = fc
    .constantFrom(...generated)
    .chain(({ method, parameters }) =>
      fc.record({
        method: fc.constant(method),
        params: fc.record(Object.fromEntries(parameters.map((parameter) => [parameter.name, valueOf(parameter, strings)])), {
          requiredKeys: parameters.filter((parameter) => !parameter.optional).map((parameter) => parameter.name),
        }),
        onPage: fc.boolean(),
      }),
    );
  // What an attack needs besides the random command: a page with a download link, a click, a read.
  const probes = fc.constantFrom<Command>(
    { method: 'Browser.setDownloadBehavior', params: { behavior: 'allow', downloadPath: drop, eventsEnabled: true }, onPage: false },
    { method: 'Page.setDownloadBehavior', params: { behavior: 'allow', downloadPath: drop }, onPage: true },
    { method: 'Page.navigate', params: { url: DOWNLOAD_PAGE }, onPage: true },
    { method: 'Runtime.evaluate', params: { expression: 'document.querySelector("a") && document.querySelector("a").click()', userGesture: true }, onPage: true },
    { method: 'Runtime.evaluate', params: { expression: 'document.documentElement && document.documentElement.outerHTML', returnByValue: true }, onPage: true },
    { method: 'DOM.getDocument', params: { depth: -1, pierce: true }, onPage: true },
  );
  return fc.oneof({ weight: 3, arbitrary: fromProtocol as fc.Arbitrary<Command> }, { weight: 1, arbitrary: probes });
}

/** Everything in the canary directory besides the secret and the (empty) drop directory. */
function strayFiles(): string[] {
  return [...readdirSync(canary).filter((name) => name !== 'secret.txt' && name !== 'drop'), ...readdirSync(drop).map((name) => `drop/${name}`)];
}

async function healthy(): Promise<boolean> {
  const reply = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
  return reply?.status === 200;
}

describe('relay fuzz', () => {
  it('writes nothing outside the project, reads no host file, and keeps the server healthy', async () => {
    let sequences = 0;
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: ways.length - 1 }), fc.array(commands(), { minLength: 1, maxLength: 8 }), async (wayIndex, sequence) => {
        const way = ways[wayIndex]!;
        for (const command of sequence) {
          await way.send(command);
          sent++;
        }
        sequences++;
        expect(strayFiles()).toEqual([]);
        expect(received.filter((text) => text.includes(SECRET))).toEqual([]);
        expect(await healthy()).toBe(true);
      }),
      { seed: SEED, numRuns: 400, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false, endOnFailure: true },
    );
    // The budget ran out long before 400, or all ran: either way it must have done real work.
    expect(sent).toBeGreaterThan(50);
    console.log(`relay fuzz: ${sequences} sequences, ${sent} commands, ${received.length} messages received (seed ${SEED})`);
    // Downloads the probes caused landed in the sessions' own directories, if anywhere.
    expect(strayFiles()).toEqual([]);
    expect(received.join('\n')).not.toContain(SECRET);
  }, 90_000);
});
