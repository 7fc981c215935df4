// Issue 17: one request stalled every project. An act with a 0.5–1 MB instruction held the event loop
// (and /healthz) for 9–18 s, a 3.9 MB one about 80 s; an extract schema with 3,000 properties about
// 2.8 s. Instructions, system prompts, variables and extract schemas are bounded (a 400 naming the
// bound, before any work), and a request at the bounds leaves /healthz answering. What is asserted is
// the server's own CPU over the request (from /proc, so a loaded machine does not move it): under 1 s,
// where the failure it guards against spent 9–80 s (the measured number is in docs/decisions.md); the
// slowest /healthz answer is printed. The server runs in a process of its own, so its CPU is not this
// test's sending of megabytes.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverFor, type Driver, type Reply } from '../support/drivers';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { START_BODY, expectError, expectOk } from '../support/contract';

const ctx = {} as { server: { url: string }; api: Driver; fixtures: FixtureServer; sessionOn(fixture: string): Promise<string> };
let child: ChildProcess;

beforeAll(async () => {
  ctx.fixtures = await startFixtureServer();
  child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DECKHAND_LOG_LEVEL: 'error', DECKHAND_CACHE_DIR: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  while (!/listening on (\S+)/.test(out)) await once(child.stdout!, 'data');
  ctx.server = { url: /listening on (\S+)/.exec(out)![1]! };
  ctx.api = driverFor(ctx.server.url);
  ctx.sessionOn = async (fixture) => {
    const started = await ctx.api.call('startSession', { body: START_BODY });
    expectOk(started);
    const id = started.body.data.sessionId as string;
    expectOk(await ctx.api.call('navigate', { id, body: { url: ctx.fixtures.url(fixture) } }));
    return id;
  };
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
  await ctx.fixtures?.close();
});
const SERVER_CPU_BOUND_MS = 1_000;

/** The server process's CPU so far (user + system; /proc counts clock ticks, 100 a second on Linux). */
function serverCpuMs(): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The server's CPU while `work` runs, with /healthz probed every 20 ms (for at least 300 ms): every probe must answer 200. */
async function serverCpuDuring<T>(work: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const probes: Array<Promise<number>> = [];
  let done = false;
  const cpuBefore = serverCpuMs();
  const started = performance.now();
  const pending = work().finally(() => (done = true));
  while (!done || performance.now() - started < 300) {
    const t0 = performance.now();
    probes.push(fetch(`${ctx.server.url}/healthz`).then(async (r) => (await r.text(), expect(r.status).toBe(200), performance.now() - t0)));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const result = await pending;
  const slowestHealthz = Math.max(...(await Promise.all(probes)));
  const cpuMs = serverCpuMs() - cpuBefore;
  console.log(`server CPU ${cpuMs} ms; slowest /healthz ${slowestHealthz.toFixed(1)} ms over ${probes.length} probes`);
  return { result, cpuMs };
}

/** A 400 whose message names the bound (the number and what it counts) and the field. */
function expectBound(reply: Reply, field: RegExp, bound: RegExp): void {
  // The body may quote a megabyte of instruction: check the status before it is printed whole.
  expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(400);
  const body = expectError(reply, 400, 'validation_error');
  expect(body.message).toMatch(field);
  expect(body.message).toMatch(bound);
}

async function post(path: string, body: string): Promise<Reply> {
  const response = await fetch(`${ctx.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const words = (chars: number) => 'click the very '.repeat(Math.ceil(chars / 15)).slice(0, chars);
/** The offline model's slowest reading we found: quoted names and kinds, over and over. */
const quoted = (chars: number) => 'type "a" into "b" '.repeat(Math.ceil(chars / 18)).slice(0, chars);

describe('one request cannot stall the server', () => {
  it('an act with a 1 MB or 3.9 MB instruction is refused naming the bound, and /healthz keeps answering', async () => {
    const id = await ctx.sessionOn('forms.html');
    for (const size of [1_000_000, 3_900_000]) {
      // Serialised before the probes start: the test shares its event loop with the server.
      const body = JSON.stringify({ input: words(size) });
      const { result, cpuMs } = await serverCpuDuring(() => post(`/v1/sessions/${id}/act`, body));
      expectBound(result, /input/, /2,000 characters/);
      expect(cpuMs).toBeLessThan(SERVER_CPU_BOUND_MS);
    }
  });

  it('an extract schema of 3,000 properties is refused naming the bound, and /healthz keeps answering', async () => {
    const id = await ctx.sessionOn('forms.html');
    const properties = Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`field${i}`, { type: 'string' }]));
    const body = JSON.stringify({ instruction: 'the fields', schema: { type: 'object', properties } });
    const { result, cpuMs } = await serverCpuDuring(() => post(`/v1/sessions/${id}/extract`, body));
    expectBound(result, /schema/, /500 properties/);
    expect(cpuMs).toBeLessThan(SERVER_CPU_BOUND_MS);
  });

  it('requests at the bounds are served without stalling /healthz', async () => {
    const id = await ctx.sessionOn('forms.html');
    const atBound = [
      () => ctx.api.call('act', { id, body: { input: words(2_000) } }),
      () => ctx.api.call('observe', { id, body: { instruction: words(2_000) } }),
      () => ctx.api.call('act', { id, body: { input: quoted(2_000) } }),
      () => ctx.api.call('observe', { id, body: { instruction: quoted(2_000) } }),
      () => ctx.api.call('extract', { id, body: { instruction: words(2_000), schema: { type: 'object', properties: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`field${i}`, { type: 'string' }])) } } }),
    ];
    for (const call of atBound) {
      const { result, cpuMs } = await serverCpuDuring(call);
      expect(result.status, JSON.stringify(result.body).slice(0, 300)).toBeLessThan(500);
      expect(cpuMs).toBeLessThan(SERVER_CPU_BOUND_MS);
    }
  });

  it('names each bound: instructions, system prompts, variables, schema depth', async () => {
    const id = await ctx.sessionOn('forms.html');
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`v${i}`, 'x']));
    const nested = (depth: number): Record<string, unknown> => (depth === 0 ? { type: 'string' } : { type: 'object', properties: { inner: nested(depth - 1) } });
    const cases: Array<[Promise<Reply>, RegExp, RegExp]> = [
      [ctx.api.call('observe', { id, body: { instruction: words(2_001) } }), /instruction/, /2,000 characters/],
      [ctx.api.call('extract', { id, body: { instruction: words(2_001) } }), /instruction/, /2,000 characters/],
      [ctx.api.call('extract', { id, body: { schema: nested(20) } }), /schema/, /nested deeper than 16/],
      [ctx.api.call('agentExecute', { id, body: { agentConfig: {}, executeOptions: { instruction: words(20_001) } } }), /instruction/, /20,000 characters/],
      [ctx.api.call('agentExecute', { id, body: { agentConfig: { systemPrompt: words(20_001) }, executeOptions: { instruction: 'go' } } }), /systemPrompt/, /20,000 characters/],
      [ctx.api.call('startSession', { body: { modelName: 'builtin/offline', systemPrompt: words(20_001), browser: { type: 'local', launchOptions: { headless: true } } } }), /systemPrompt/, /20,000 characters/],
      [ctx.api.call('act', { id, body: { input: 'type %v0% into Name', options: { variables: many } } }), /variables/, /100 variables/],
      [ctx.api.call('act', { id, body: { input: 'type %v% into Name', options: { variables: { v: 'x'.repeat(10_001) } } } }), /variables\.v/, /10,000 characters/],
      [ctx.api.call('act', { id, body: { input: 'type %v% into Name', options: { variables: { v: { value: 'x', description: words(2_001) } } } } }), /variables\.v/, /2,000 characters/],
      [ctx.api.call('agentExecute', { id, body: { agentConfig: {}, executeOptions: { instruction: 'type %v0%', variables: many } } }), /variables/, /100 variables/],
    ];
    for (const [reply, field, bound] of cases) expectBound(await reply, field, bound);
  });
});

// Red team R2: an extract schema's `pattern` compiled into a JS RegExp and run on the page's text;
// `^(a+)+$` against a run of a's and a "!" backtracks exponentially (34 a's held every tenant for
// 7 minutes). The fixture has 25: seconds before the fix, so the probe catches it without a hang.
describe('a schema pattern never runs on the event loop', () => {
  it('an extract whose schema pattern backtracks catastrophically leaves /healthz answering', async () => {
    const id = await ctx.sessionOn('regex-bait.html');
    for (const schema of [
      { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } }, required: ['code'] },
      { type: 'object', properties: { code: { type: 'array', items: { type: 'string', pattern: '^(a+)+$' } } } },
      { type: 'object', properties: { code: { type: 'string' } }, patternProperties: { '^(c|co|cod|code|o|d|e)+$': { type: 'string', pattern: '^(a+)+$' } } },
    ]) {
      const body = JSON.stringify({ instruction: 'the code', schema });
      const { result, cpuMs } = await serverCpuDuring(() => post(`/v1/sessions/${id}/extract`, body));
      expect(result.status, JSON.stringify(result.body).slice(0, 300)).toBeLessThan(500);
      expect(cpuMs).toBeLessThan(SERVER_CPU_BOUND_MS);
    }
  });
});
