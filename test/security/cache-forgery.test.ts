// Attack: the act and agent caches were one store for every project, on disk as plain JSON. A file
// planted in DECKHAND_CACHE_DIR (through a download path) was replayed as if the server had resolved
// it: an act typed the attacker's account number, an agent run took another project's login, with its
// secret variable, to the attacker's page. And project B got, and could prime, project A's entries.
import { readdirSync, readFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverFor, type Driver } from '../support/drivers';
import { expectOk, START_BODY } from '../support/contract';
import { ALLOW_FIXTURES, startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { pageText } from '../support/page-log';
import { startTestServer, type TestServer } from '../support/test-server';

const cacheDir = mkdtempSync(join(tmpdir(), 'deckhand-cache-forgery-'));
const ENV = { DECKHAND_API_KEYS: 'key-a:project-a,key-b:project-b', DECKHAND_CACHE_DIR: cacheDir, ...ALLOW_FIXTURES };
const json = { 'x-stream-response': 'false' };

let fixtures: FixtureServer;
let server: TestServer;
let a: Driver;
let b: Driver;

async function start(): Promise<void> {
  server = await startTestServer(ENV);
  a = driverFor(server.url, { 'x-bb-api-key': 'key-a' });
  b = driverFor(server.url, { 'x-bb-api-key': 'key-b' });
}

beforeAll(async () => {
  fixtures = await startFixtureServer();
  await start();
});
afterAll(async () => {
  await server?.close();
  await fixtures?.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

async function sessionOn(api: Driver, fixture: string): Promise<string> {
  const reply = await api.call('startSession', { body: START_BODY });
  expectOk(reply);
  const id = reply.body.data.sessionId as string;
  expectOk(await api.call('navigate', { id, body: { url: fixtures.url(fixture) } }));
  return id;
}

async function act(api: Driver, id: string, input: string) {
  const reply = await api.call('act', { id, body: { input }, headers: json });
  expectOk(reply);
  return { result: reply.body.data.result, status: reply.headers.get('browserbase-cache-status') };
}

async function agent(api: Driver, id: string, instruction: string) {
  const body = { agentConfig: {}, executeOptions: { instruction, variables: { pw: { value: SECRET, description: 'the password' } } }, shouldCache: true };
  const reply = await api.call('agentExecute', { id, body, headers: json });
  expectOk(reply);
  return { result: reply.body.data.result, status: reply.headers.get('browserbase-cache-status') };
}

/** Every file under the cache directory, wherever the server keeps them. */
function cacheFiles(dir = cacheDir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? cacheFiles(path) : [path];
  });
}

/** What an attacker with write access to the cache directory does: rewrites the entries it finds there. */
function forgeEntries(from: string, to: string): number {
  let forged = 0;
  for (const file of cacheFiles()) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes(from)) continue;
    writeFileSync(file, text.split(from).join(to));
    forged++;
  }
  return forged;
}

const SECRET = 'pw-victim-9431';

describe('a cache entry the server did not write is not replayed', () => {
  it("a forged act-cache entry in DECKHAND_CACHE_DIR does not type the attacker's account number", async () => {
    const first = await sessionOn(a, 'forms.html');
    const stored = await act(a, first, 'type Acct4711 into the Name field');
    expect(stored.result.success, stored.result.message).toBe(true);
    expect(stored.status).toBe('MISS');
    expect((await act(a, first, 'click the Go button')).status).toBe('MISS');

    expect(forgeEntries('Acct4711', 'Evil6666')).toBeGreaterThan(0);
    // A restart: the server reads what is on disk (the memory tier would hide the file until then).
    await server.close();
    await start();

    const victim = await sessionOn(a, 'forms.html');
    const replayed = await act(a, victim, 'type Acct4711 into the Name field');
    expect(replayed.result.success, replayed.result.message).toBe(true);
    expect(replayed.status).toBe('MISS');
    expectOk(await a.call('act', { id: victim, body: { input: { selector: '#submit', method: 'click' } }, headers: json }));
    expect(await pageText(a, victim, '#result')).toContain('submitted: Acct4711 /');
    // Logged at debug, without the entry's content.
    expect(server.logs.join('\n')).toContain('this server did not sign');
    expect(server.logs.join('\n')).not.toContain('Evil6666');
    // What the server wrote itself still replays after the restart.
    expect((await act(a, victim, 'click the Go button')).status).toBe('HIT');
  });

  it("a forged agent-cache entry does not take the victim's secret to the attacker's page", async () => {
    const instruction = `go to ${fixtures.url('agent-cache.html')}; type %pw% into the Name field; click Save`;
    const first = await sessionOn(a, 'forms.html');
    const stored = await agent(a, first, instruction);
    expect(stored.result.success, stored.result.message).toBe(true);
    expect(stored.status).toBe('MISS');

    // The attacker's page: the same form, on an address the victim never asked for.
    expect(forgeEntries('agent-cache.html', 'agent-cache.html?to=attacker')).toBeGreaterThan(0);
    await server.close();
    await start();

    const victim = await sessionOn(a, 'forms.html');
    const replayed = await agent(a, victim, instruction);
    expect(replayed.result.success, replayed.result.message).toBe(true);
    expect(replayed.status).toBe('MISS');
    const visited = replayed.result.actions.map((step: { pageUrl?: string }) => step.pageUrl ?? '');
    expect(visited.join('\n')).not.toContain('attacker');
    expect(await pageText(a, victim, '#result')).toMatch(new RegExp(`saved ${SECRET.length} chars starting p`));
  });
});

describe('caches are per project', () => {
  it("project B neither gets nor primes project A's act entries", async () => {
    const bSession = await sessionOn(b, 'forms.html');
    expect((await act(b, bSession, 'click the Submit button')).status).toBe('MISS');
    expect((await act(b, bSession, 'click the Submit button')).status).toBe('HIT');

    const aSession = await sessionOn(a, 'forms.html');
    expect((await act(a, aSession, 'click the Submit button')).status).toBe('MISS');
    expect((await act(a, aSession, 'click the Submit button')).status).toBe('HIT');
  });

  it("project B neither gets nor primes project A's agent entries", async () => {
    const instruction = 'type %pw% into the Name field; click Save';
    const bSession = await sessionOn(b, 'agent-cache.html');
    expect((await agent(b, bSession, instruction)).status).toBe('MISS');
    expect((await agent(b, await sessionOn(b, 'agent-cache.html'), instruction)).status).toBe('HIT');

    const aSession = await sessionOn(a, 'agent-cache.html');
    const own = await agent(a, aSession, instruction);
    expect(own.status).toBe('MISS');
    expect(own.result.metadata).toMatchObject({ cacheHit: false, replayedSteps: 0 });
  });
});
