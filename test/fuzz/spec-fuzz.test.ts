// Spec-derived fuzzing: for every operation in openapi.yaml, requests generated from its schemas
// (valid ones, and ones broken in body, headers, path or encoding) against a real server with a real
// session. Every answer must be in the contract: no 500, the one error shape with an x-request-id
// on every non-2xx, 5xx only where the contract gives one a reason (an unreachable model, page or
// cdpUrl), event streams that end with exactly one terminal event; and the
// server must be healthy afterwards. Reproducible: FUZZ_SEED picks the seed (printed on failure).
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointId } from '@deckhand/contract';
import { ERROR_STATUS } from '@deckhand/core';
import { closedPortUrl } from '../support/closed-port';
import { START_BODY } from '../support/contract';
import { parseEventText } from '../support/drivers';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { startTestServer, type TestServer } from '../support/test-server';
import { brokenText, mutation, type Body } from './mutations';
import { jsonSchema, SchemaArbitraries, type Schema } from './schema-arbitrary';

const SEED = Number(process.env.FUZZ_SEED ?? 1_867_530);
const spec = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
const schemas = new SchemaArbitraries(spec, { 'ExtractRequest.schema': jsonSchema() });

/** Requests per operation: valid ones (bounded where they drive the browser) and broken ones. */
const BUDGET: Record<EndpointId, { valid: number; broken: number }> = {
  getHealth: { valid: 5, broken: 80 },
  getDemo: { valid: 3, broken: 30 },
  getReadiness: { valid: 5, broken: 80 },
  getMetrics: { valid: 5, broken: 80 },
  startSession: { valid: 4, broken: 100 },
  navigate: { valid: 25, broken: 300 },
  act: { valid: 15, broken: 200 },
  observe: { valid: 8, broken: 150 },
  extract: { valid: 15, broken: 200 },
  agentExecute: { valid: 20, broken: 250 },
  endSession: { valid: 3, broken: 150 },
  replaySession: { valid: 20, broken: 200 },
  getBrowserSession: { valid: 20, broken: 200 },
  updateBrowserSession: { valid: 3, broken: 150 },
  getBrowserSessionDebug: { valid: 20, broken: 200 },
  connectCdp: { valid: 10, broken: 150 },
  getLivePage: { valid: 5, broken: 60 },
  getLiveState: { valid: 5, broken: 60 },
  getLiveFrame: { valid: 5, broken: 60 },
  getDevtools: { valid: 5, broken: 60 },
  listSessions: { valid: 10, broken: 100 },
  listDownloads: { valid: 5, broken: 60 },
  getDownload: { valid: 5, broken: 60 },
  deleteDownload: { valid: 5, broken: 60 },
  listFiles: { valid: 5, broken: 60 },
  uploadFile: { valid: 5, broken: 60 },
  deleteFile: { valid: 5, broken: 60 },
  getCookies: { valid: 5, broken: 60 },
  setCookies: { valid: 10, broken: 100 },
  getStorageState: { valid: 5, broken: 60 },
  setStorageState: { valid: 10, broken: 100 },
  screenshot: { valid: 10, broken: 150 },
  pdf: { valid: 5, broken: 100 },
  getReplayPicture: { valid: 10, broken: 100 },
  getLivePicture: { valid: 5, broken: 60 },
};

/** Operations whose token rides in the query string. */
const TOKEN_IN_QUERY = new Set(['connectCdp', 'getLivePage', 'getLiveState', 'getLiveFrame', 'getDevtools', 'getLivePicture']);

/** Per-operation 5xx answers the contract gives a reason for (an unreachable upstream or capability). */
const UPSTREAM_CODES: Record<string, string[]> = {
  navigate: ['navigation_failed'],
  act: ['model_error'],
  observe: ['model_error'],
  extract: ['model_error'],
  agentExecute: ['model_error'],
};

/** Browser-driving waits are capped so a few hundred of them fit in the test's time. */
const MAX_WAIT_MS = 1_000;

interface Operation {
  id: string;
  method: 'get' | 'post';
  path: string;
  headers: Array<{ name: string; schema: Schema }>;
  body?: Schema;
}

interface FuzzRequest {
  op: string;
  valid: boolean;
  method: string;
  /** `{id}` still in place; filled at send time from the id pool. */
  path: string;
  idChoice: IdChoice;
  headers: Record<string, string>;
  body?: Body;
  query?: string;
}

type IdChoice = { kind: 'session' } | { kind: 'victim' } | { kind: 'ended' } | { kind: 'literal'; id: string };

const operations: Operation[] = Object.entries<any>(spec.paths).flatMap(([path, item]) =>
  (['get', 'post'] as const)
    .filter((method) => item[method])
    .map((method) => {
      const op = item[method];
      const params = (op.parameters ?? []).map((p: Schema) => schemas.resolve(p));
      return {
        id: op.operationId as string,
        method,
        path,
        headers: params.filter((p: Schema) => p.in === 'header').map((p: Schema) => ({ name: p.name as string, schema: p.schema as Schema })),
        body: op.requestBody?.content?.['application/json']?.schema,
      };
    }),
);

const validHeaders = (op: Operation): fc.Arbitrary<Record<string, string>> =>
  fc.record(Object.fromEntries(op.headers.map((h) => [h.name, schemas.valueOf(h.schema).map(headerSafe)])), { requiredKeys: [] }) as fc.Arbitrary<Record<string, string>>;

/** Header values fetch can send: printable Latin-1, no CR/LF. */
const headerSafe = (value: unknown) => String(value).replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

const oddIds = fc.constantFrom('00000000-0000-4000-8000-000000000000', 'x', '..', '%2e%2e', 'a'.repeat(3_000), '😀', ' ', '%00', 'null', 'undefined', '__proto__');

const idChoice: fc.Arbitrary<IdChoice> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<IdChoice>({ kind: 'session' }) },
  { weight: 2, arbitrary: oddIds.map((id): IdChoice => ({ kind: 'literal', id })) },
  { weight: 1, arbitrary: fc.uuid().map((id): IdChoice => ({ kind: 'literal', id })) },
);

const brokenHeaders = (op: Operation): fc.Arbitrary<Record<string, string>> =>
  fc.tuple(
    validHeaders(op),
    fc.constantFrom('x-stream-response', 'x-language', 'x-model-api-key', 'x-sdk-version', 'browserbase-cache-bypass', 'content-type', 'x-bb-api-key', 'authorization', 'x-huge'),
    fc.oneof(fc.constantFrom('yes', 'TRUE', '', ' true', 'cobol', 'text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'Bearer '), fc.string({ maxLength: 30 }), fc.constantFrom(9_000, 20_000).map((n) => 'h'.repeat(n))),
  ).map(([headers, name, value]) => ({ ...headers, [name]: headerSafe(value) }));

/**
 * Ending the fuzz session would end the fuzzing: valid endings aim at a victim session (replaced
 * after each), broken ones at an ended session (a broken request that still passes is a 410).
 */
const ENDS = new Set(['endSession', 'updateBrowserSession']);

function requestsFor(op: Operation, index: number): FuzzRequest[] {
  // Every endpoint has a budget (the table is keyed by the generated endpoint list); the spec read here is the same file.
  const budget = BUDGET[op.id as EndpointId];
  if (!budget) throw new Error(`no fuzz budget for operation ${op.id}: add one`);
  const body = op.body ? schemas.valueOf(op.body) : fc.constant(undefined);
  const query = TOKEN_IN_QUERY.has(op.id) ? fc.oneof(fc.constant('token=x'), fc.string({ maxLength: 20 }).map((t) => `token=${encodeURIComponent(t)}`), fc.constant('')) : fc.constant(undefined);
  const base = { op: op.id, method: op.method.toUpperCase(), path: op.path };
  const valid = fc.record({ headers: validHeaders(op), body, query }).map(
    ({ headers, body: value, query: q }): FuzzRequest => ({
      ...base,
      valid: true,
      idChoice: ENDS.has(op.id) ? { kind: 'victim' } : { kind: 'session' },
      headers,
      body: value === undefined ? undefined : { kind: 'json', value },
      query: q,
    }),
  );
  const broken = fc
    .record({
      headers: validHeaders(op),
      badHeaders: brokenHeaders(op),
      value: body,
      mutate: mutation,
      pick: fc.nat(),
      text: brokenText,
      id: idChoice,
      how: fc.constantFrom('body', 'body', 'body', 'headers', 'id', 'text'),
      query,
    })
    .map(({ headers, badHeaders, value, mutate, pick, text, id, how, query: q }): FuzzRequest => {
      const json: Body | undefined = value === undefined ? undefined : { kind: 'json', value };
      const idFor = ENDS.has(op.id) && id.kind === 'session' ? ({ kind: 'ended' } as const) : id;
      const request: FuzzRequest = { ...base, valid: false, idChoice: idFor, headers, body: json, query: q };
      if (how === 'headers') return { ...request, headers: badHeaders };
      if (how === 'id') return request;
      if (how === 'text') return { ...request, body: { kind: 'text', text } };
      return { ...request, body: { kind: 'json', value: mutate.apply(value ?? {}, pick) } };
    });
  return [
    ...fc.sample(valid, { seed: SEED + index, numRuns: budget.valid }),
    ...fc.sample(broken, { seed: SEED + 1_000 + index, numRuns: budget.broken }),
  ];
}

interface Outcome {
  status: number;
  /** The error code of an error answer, or of a stream's error event. */
  code?: string;
  stream?: 'finished' | 'error';
}

interface Failure {
  request: string;
  problem: string;
}

const ERROR_CODES: string[] = spec.components.schemas.ErrorResponse.properties.code.enum;

describe('spec fuzz', () => {
  let server: TestServer;
  let fixtures: FixtureServer;
  let closed: string;
  const counts = new Map<string, number>();
  let resets = 0;
  const failures: Failure[] = [];

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    server = await startTestServer({ DECKHAND_MAX_SESSIONS: '8' });
    closed = await closedPortUrl();
  });
  afterAll(async () => {
    await server?.close();
    await fixtures?.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-stream-response': 'false', ...headers }, body: JSON.stringify(body) });

  async function startSession(): Promise<string> {
    const response = await post('/v1/sessions/start', START_BODY);
    const json = (await response.json()) as { data: { sessionId: string } };
    return json.data.sessionId;
  }

  /** Keeps generated requests away from the outside world and from long browser waits. */
  function tamed(op: string, value: unknown): unknown {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const body = { ...(value as Record<string, any>) };
    if (op === 'navigate' && typeof body.url === 'string' && /^(https?|wss?):/i.test(body.url)) {
      const pages = ['forms.html', 'iframe.html', 'cross-iframe.html', 'shadow.html', 'select.html', 'slow.html', 'self-redirect.html?ms=5'];
      body.url = body.url.length % 8 === 7 ? closed : fixtures.url(pages[body.url.length % pages.length]!);
    }
    for (const holder of [body.options, body.agentConfig, body.executeOptions]) {
      if (!holder || typeof holder !== 'object') continue;
      for (const key of ['timeout', 'toolTimeout']) if (typeof holder[key] === 'number' && holder[key] > MAX_WAIT_MS && holder[key] <= 3_600_000) holder[key] = MAX_WAIT_MS;
      // A model config object is sent to a closed port, never to a provider.
      if (holder.model && typeof holder.model === 'object' && !Array.isArray(holder.model)) holder.model = { ...holder.model, baseURL: `${closed}v1` };
    }
    if (op === 'act' && (!body.options || typeof body.options !== 'object')) body.options = { ...(body.options === undefined ? {} : { bad: body.options }), timeout: MAX_WAIT_MS };
    if (op === 'act' && body.options && typeof body.options === 'object' && body.options.timeout === undefined) body.options.timeout = MAX_WAIT_MS;
    if (op === 'startSession') {
      for (const key of ['actTimeoutMs', 'domSettleTimeoutMs']) if (typeof body[key] === 'number' && body[key] > MAX_WAIT_MS && body[key] <= 3_600_000) body[key] = MAX_WAIT_MS;
      const browser = body.browser;
      if (browser && typeof browser === 'object') {
        body.browser = { ...browser };
        if (typeof browser.cdpUrl === 'string') body.browser.cdpUrl = closed;
        const launch = browser.launchOptions;
        if (launch && typeof launch === 'object' && !Array.isArray(launch)) {
          // What a client may make the server execute or write is another suite's subject (launch policy).
          const { args: _a, executablePath: _e, userDataDir: _u, downloadsPath: _d, ignoreDefaultArgs: _i, port: _p, devtools: _t, chromiumSandbox: _s, ...rest } = launch;
          body.browser.launchOptions = { ...rest, headless: true, ...(typeof launch.cdpUrl === 'string' && { cdpUrl: closed }) };
        }
      }
    }
    return body;
  }

  function describeRequest(r: FuzzRequest, path: string): string {
    const body = r.body === undefined ? '' : r.body.kind === 'text' ? `text ${JSON.stringify(r.body.text.slice(0, 120))}` : JSON.stringify(r.body.value)?.slice(0, 300);
    const headers = JSON.stringify(Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, v.slice(0, 40)])));
    return `${r.valid ? 'valid' : 'broken'} ${r.method} ${path.slice(0, 120)} ${headers} ${body}`;
  }

  async function send(r: FuzzRequest, ids: { session: string; victim: string; ended: string }): Promise<{ outcome?: Outcome; problems: string[]; path: string; startedId?: string }> {
    const id = r.idChoice.kind === 'literal' ? r.idChoice.id : ids[r.idChoice.kind];
    const path = r.path.replace('{id}', encodeURIComponent(id)) + (r.query === undefined ? '' : `?${r.query}`);
    let text: string | undefined;
    const headers: Record<string, string> = { ...r.headers };
    if (r.body?.kind === 'json') {
      text = JSON.stringify(tamed(r.op, r.body.value));
      headers['content-type'] ??= 'application/json';
    } else if (r.body?.kind === 'text') {
      text = r.body.text;
      headers['content-type'] ??= 'application/json';
    }
    const attempt = () => fetch(server.url + path, { method: r.method, headers, body: r.method === 'GET' ? undefined : text });
    let response: Response;
    try {
      // A reset on reuse of a kept-alive connection is the client's race with the server closing an idle
      // one; a reset the request itself causes happens again on a fresh connection.
      response = await attempt().catch((error: { cause?: { code?: string } }) => {
        if (error.cause?.code !== 'ECONNRESET') throw error;
        resets++;
        return attempt();
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      return { problems: [`no answer: ${cause ?? (error as Error).message}`], path };
    }
    return { ...(await check(r, response)), path };
  }

  async function check(r: FuzzRequest, response: Response): Promise<{ outcome: Outcome; problems: string[]; startedId?: string }> {
    const problems: string[] = [];
    const raw = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const outcome: Outcome = { status: response.status };
    if (!response.headers.get('x-request-id')) problems.push('no x-request-id');
    if (response.status === 500) problems.push('a 500');
    if (response.status < 200 || response.status >= 300) {
      let body: any;
      try {
        body = JSON.parse(raw);
      } catch {
        problems.push(`error body is not JSON (${type}): ${JSON.stringify(raw.slice(0, 80))}`);
      }
      if (body !== undefined) {
        outcome.code = body.code;
        const keys = Object.keys(body).filter((k) => !['success', 'message', 'code', 'issues'].includes(k));
        if (body.success !== false || typeof body.message !== 'string' || !body.message || !ERROR_CODES.includes(body.code) || keys.length > 0) {
          problems.push(`not the error shape: ${raw.slice(0, 160)}`);
        } else if (ERROR_STATUS[body.code as keyof typeof ERROR_STATUS] !== response.status) {
          problems.push(`code ${body.code} with status ${response.status}`);
        }
      }
      if (response.status >= 500 && response.status !== 500) {
        const allowed = UPSTREAM_CODES[r.op] ?? [];
        const cdpAttach = r.op === 'startSession' && /cdpUrl/.test(JSON.stringify(r.body ?? ''));
        if (!allowed.includes(outcome.code ?? '') && !(cdpAttach && outcome.code === 'browser_unavailable')) problems.push(`an unexplained ${response.status} ${outcome.code}: ${raw.slice(0, 160)}`);
      }
    } else if (r.op === 'startSession' && type.startsWith('application/json')) {
      return { outcome, problems, startedId: (JSON.parse(raw) as { data?: { sessionId?: string } }).data?.sessionId };
    } else if (type.startsWith('text/event-stream')) {
      const events = parseEventText(raw) ?? [];
      const statuses = events.map((e) => e.data.status);
      const terminals = statuses.filter((s) => s === 'finished' || s === 'error');
      if (statuses[0] !== 'starting' || statuses[1] !== 'connected') problems.push(`stream opens with ${statuses.slice(0, 2).join(',')}`);
      if (terminals.length !== 1 || !['finished', 'error'].includes(statuses.at(-1))) problems.push(`stream ends with ${terminals.length} terminal events: ${statuses.join(',')}`);
      const last = events.at(-1)?.data;
      outcome.stream = last?.status;
      if (last?.status === 'error') {
        outcome.code = last.code;
        if (last.code === 'internal_error') problems.push(`stream error internal_error: ${last.error}`);
        else if (!ERROR_CODES.includes(last.code)) problems.push(`stream error code ${last.code}`);
        else if (ERROR_STATUS[last.code as keyof typeof ERROR_STATUS] >= 500 && !(UPSTREAM_CODES[r.op] ?? []).includes(last.code)) problems.push(`an unexplained stream ${last.code}: ${last.error}`);
      }
    }
    return { outcome, problems };
  }

  it(`answers every generated request in the contract (seed ${SEED})`, { timeout: 300_000 }, async () => {
    const ids = { session: await startSession(), victim: await startSession(), ended: await startSession() };
    await post(`/v1/sessions/${ids.ended}/end`, {});
    await post(`/v1/sessions/${ids.session}/navigate`, { url: fixtures.url('forms.html') });
    const requests = operations.flatMap((op, i) => requestsFor(op, i));
    // Interleaved, so the session sees every kind of operation between the others.
    const order = fc.sample(fc.shuffledSubarray(requests.map((_, i) => i), { minLength: requests.length }), { seed: SEED, numRuns: 1 })[0]!;
    const started = Date.now();
    const timeByOp = new Map<string, number>();
    const byOp = new Map<string, Map<number | string, number>>();
    for (const index of order) {
      const request = requests[index]!;
      const before = Date.now();
      const { outcome, problems, path, startedId } = await send(request, ids);
      timeByOp.set(request.op, (timeByOp.get(request.op) ?? 0) + Date.now() - before);
      const key = outcome ? `${outcome.status}${outcome.stream ? ` stream ${outcome.stream}` : ''}${outcome.code ? ` ${outcome.code}` : ''}` : 'no answer';
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const perOp = byOp.get(request.op) ?? new Map<number | string, number>();
      perOp.set(outcome?.status ?? 'none', (perOp.get(outcome?.status ?? 'none') ?? 0) + 1);
      byOp.set(request.op, perOp);
      if (problems.length > 0) failures.push({ request: describeRequest(request, path), problem: problems.join('; ') });
      // A session the fuzz started is ended at once; an ended victim is replaced.
      if (request.op === 'startSession' && outcome?.status === 200 && startedId) await post(`/v1/sessions/${startedId}/end`, {});
      if (ENDS.has(request.op) && request.idChoice.kind === 'victim' && outcome?.status === 200) ids.victim = await startSession();
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const table = [...counts.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `  ${k.padEnd(40)} ${n}`);
    const opTable = [...byOp].map(([op, statuses]) => `  ${op.padEnd(24)} ${[...statuses].map(([status, n]) => `${status}×${n}`).join(' ')} (${((timeByOp.get(op) ?? 0) / 1000).toFixed(1)} s)`);
    console.log(`spec fuzz (seed ${SEED}): ${requests.length} requests in ${seconds} s\n${table.join('\n')}\nby operation:\n${opTable.join('\n')}\n${failures.length} outside the contract; ${resets} connection resets retried`);

    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true });
    const fresh = await startSession();
    const navigated = await post(`/v1/sessions/${fresh}/navigate`, { url: fixtures.url('forms.html') });
    expect(navigated.status).toBe(200);
    const text = (await (await post(`/v1/sessions/${fresh}/extract`, {})).json()) as { data: { result: { pageText: string } } };
    expect(text.data.result.pageText).toContain('Sign up');
    expect((await post(`/v1/sessions/${fresh}/end`, {})).status).toBe(200);

    // One example of each kind of problem first, then more of them.
    const kinds = new Map<string, Failure[]>();
    for (const failure of failures) {
      const kind = failure.problem.replace(/:.*$/s, '');
      kinds.set(kind, [...(kinds.get(kind) ?? []), failure]);
    }
    const examples = [...kinds.values()].flatMap((group) => group.slice(0, Math.max(1, Math.floor(25 / kinds.size))));
    const shown = [...[...kinds.entries()].map(([kind, group]) => `${group.length} × ${kind}`), ...examples.map((f) => `- ${f.problem}\n    ${f.request}`)];
    expect(failures.length, `seed ${SEED} (rerun with FUZZ_SEED=${SEED}): ${failures.length} answers outside the contract\n${shown.join('\n')}`).toBe(0);
  });
});

