// The server's Prometheus metrics (/metrics), in a registry of its own (several servers may share a
// process). Every label value comes from a fixed set: no session ids, URLs, instructions or keys.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { knownProviderOf, type ModelCallRecord, type OperationMeasure, type SessionStats, type SessionTelemetry } from '@deckhand/core';

export interface ServerMetrics {
  readonly registry: Registry;
  /** What the session manager tells the metrics. */
  readonly telemetry: SessionTelemetry;
  /** Counts one HTTP response by its status. */
  countResponse(status: number): void;
  /** Where the gauges read the sessions and browsers of the moment, at each scrape. */
  readFrom(stats: () => SessionStats): void;
}

/** Seconds; operations run from milliseconds (a structured act) to minutes (an agent). */
const OPERATION_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 180, 600];
const QUEUE_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60];
const MODEL_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

const LIVE_STATES = ['ready', 'busy'] as const;

/** Live sessions outside the shared browsers: each has a browser (and one context) of its own. */
function ownBrowsers(now: SessionStats | undefined): number {
  const live = LIVE_STATES.reduce((total, state) => total + (now?.states[state] ?? 0), 0);
  return Math.max(0, live - (now?.sharedContexts ?? 0));
}

export function createServerMetrics(): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  let stats: () => SessionStats | undefined = () => undefined;

  new Gauge({
    name: 'deckhand_sessions',
    help: 'Live sessions by state (starting: holding a slot while its browser opens)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const now = stats();
      for (const state of LIVE_STATES) this.set({ state }, now?.states[state] ?? 0);
      this.set({ state: 'starting' }, now?.starting ?? 0);
    },
  });
  const started = new Counter({ name: 'deckhand_sessions_started_total', help: 'Sessions started', registers: [registry] });
  const stopped = new Counter({
    name: 'deckhand_sessions_stopped_total',
    help: 'Sessions that stopped, by reason (ended by a client, crashed, expired)',
    labelNames: ['reason'],
    registers: [registry],
  });
  new Gauge({
    name: 'deckhand_browsers',
    help: 'Running browsers: shared (a project\'s, holding its sessions as contexts) or session (launched for, or attached by, one session)',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      const now = stats();
      this.set({ kind: 'shared' }, now?.sharedBrowsers ?? 0);
      this.set({ kind: 'session' }, ownBrowsers(now));
    },
  });
  new Gauge({
    name: 'deckhand_browser_contexts',
    help: 'Browser contexts sessions drive, by the kind of browser they are in (one per session)',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      const now = stats();
      this.set({ kind: 'shared' }, now?.sharedContexts ?? 0);
      this.set({ kind: 'session' }, ownBrowsers(now));
    },
  });
  new Gauge({
    name: 'deckhand_warm_pool_browsers',
    help: 'Browsers in the warm pool: ready to take, or launching',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = stats()?.pool;
      this.set({ state: 'ready' }, pool?.ready ?? 0);
      this.set({ state: 'launching' }, pool?.launching ?? 0);
    },
  });
  const operations = new Histogram({
    name: 'deckhand_operation_duration_seconds',
    help: 'Session operations by kind and outcome (success, failure, or the error code), from their turn to their answer',
    labelNames: ['kind', 'outcome'],
    buckets: OPERATION_BUCKETS,
    registers: [registry],
  });
  const queueWaits = new Histogram({
    name: 'deckhand_operation_queue_wait_seconds',
    help: 'Time an operation waited for its session\'s turn (operations on one session run one at a time)',
    labelNames: ['kind'],
    buckets: QUEUE_BUCKETS,
    registers: [registry],
  });
  const modelTokens = new Counter({
    name: 'deckhand_model_tokens_total',
    help: 'Model tokens by provider and type (input, output; reasoning and cached_input are parts of them)',
    labelNames: ['provider', 'type'],
    registers: [registry],
  });
  const modelCalls = new Histogram({
    name: 'deckhand_model_call_duration_seconds',
    help: 'Model calls by provider and outcome (success, error), with their time',
    labelNames: ['provider', 'outcome'],
    buckets: MODEL_BUCKETS,
    registers: [registry],
  });
  const responses = new Counter({
    name: 'deckhand_http_responses_total',
    help: 'HTTP responses by status code',
    labelNames: ['status'],
    registers: [registry],
  });

  const onModelCall = (call: ModelCallRecord) => {
    const provider = knownProviderOf(call.model);
    modelCalls.observe({ provider, outcome: call.error ? 'error' : 'success' }, call.durationMs / 1000);
    const usage = call.usage ?? {};
    const types = { input: usage.inputTokens, output: usage.outputTokens, reasoning: usage.reasoningTokens, cached_input: usage.cachedInputTokens };
    for (const [type, tokens] of Object.entries(types)) if (tokens) modelTokens.inc({ provider, type }, tokens);
  };

  return {
    registry,
    telemetry: {
      onSessionStart: () => started.inc(),
      onSessionStop: (reason) => stopped.inc({ reason }),
      onOperation: ({ kind, outcome, queueWaitMs, durationMs }: OperationMeasure) => {
        operations.observe({ kind, outcome }, durationMs / 1000);
        queueWaits.observe({ kind }, queueWaitMs / 1000);
      },
      onModelCall,
    },
    countResponse: (status) => responses.inc({ status: String(status) }),
    readFrom: (read) => {
      stats = read;
    },
  };
}
