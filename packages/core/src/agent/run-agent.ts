// An agentExecute run inside its session operation: the one loop (loop.ts) with the driver of the
// run's mode (dom and hybrid: model-driver, cua: cua-driver, builtin/… models: offline-driver), behind
// the agent cache's replay when the run uses the cache. The operation's one deadline bounds the run;
// the loop stops a little before it (ANSWER_MARGIN_MS) so a run out of time still answers what it did.
import { createModelClient } from '../models/model-client.js';
import { modelSourcesOf } from '../inference/model-run.js';
import { Deadline } from '../scope/deadline.js';
import type { OperationScope } from '../scope/operation-scope.js';
import type { AgentResultDataOutput } from '../types.js';
import type { AgentPlan } from './agent-request.js';
import { agentResult, type AgentEnd } from './agent-result.js';
import { AgentUsage } from './agent-usage.js';
import { CachedAgentRun, type DriverFor } from './cached-agent.js';
import { CuaDriver } from './cua-driver.js';
import { showCursor } from './cursor-overlay.js';
import { AgentLoop } from './loop.js';
import { ModelDriver } from './model-driver.js';
import { OfflineDriver } from './offline-driver.js';
import { modelIdentity } from '../models/resolve-model.js';

/** Time kept back from the operation's deadline to stop the loop, wind its tool down and answer. */
export const ANSWER_MARGIN_MS = 3_000;

export async function runAgent(scope: OperationScope, plan: AgentPlan): Promise<AgentResultDataOutput> {
  // Resolved before any page work, so a missing key is the caller's 400, not a failed run.
  const client = plan.target.kind === 'builtin' ? undefined : createModelClient(plan.target, modelSourcesOf(scope));
  // A frameId that names no frame is the caller's 400, not a run whose every step fails.
  await scope.frame(plan.frameId);
  const usage = new AgentUsage();
  const total = scope.deadline.remaining(Infinity);
  // A short run keeps back a quarter instead, so it is not all margin.
  const run = new Deadline(scope.signal, Math.max(1, total - Math.min(ANSWER_MARGIN_MS, total / 4)), 'agentExecute');
  const hideCursor = plan.highlightCursor ? await showCursor(scope.page) : undefined;
  // Agent cache: the run's own status is told once, at its end; the acts inside it say nothing.
  // Without the server's cache (caching off, or bypassed) nothing is recorded and no entry is handed back.
  const cached = plan.shouldCache && scope.cache ? new CachedAgentRun(scope, scope.cache, plan, client?.identity ?? modelIdentity(plan.target)) : undefined;
  const inner: OperationScope = cached && scope.cache ? { ...scope, cache: { cache: scope.cache.cache, project: scope.cache.project } } : scope;
  const loop = new AgentLoop({ scope: inner, run, usage, maxSteps: plan.maxSteps, toolTimeoutMs: plan.toolTimeoutMs });
  const driverFor: DriverFor = (modePlan, { wrap, resumeNote }) => {
    if (!client) return new OfflineDriver({ scope: inner, plan: modePlan, wrap });
    return modePlan.mode === 'cua' ? new CuaDriver({ scope: inner, plan: modePlan, client, wrap }) : new ModelDriver({ scope: inner, plan: modePlan, client, wrap, resumeNote });
  };
  let end: AgentEnd;
  try {
    end = cached ? await cached.run(loop, driverFor) : await loop.drive(driverFor(plan, { wrap: (tool) => tool }));
  } finally {
    await hideCursor?.();
    run.dispose();
    scope.record.tokenUsage = usage.tokenUsage;
  }
  await cached?.finish(end);
  scope.log({ category: 'agent', message: `finished (${end.reason}) after ${loop.steps} step(s): ${end.message}`, level: 1 });
  const result = agentResult(end, [...loop.actions], loop.steps, usage);
  return cached ? { ...result, metadata: { ...result.metadata, ...cached.metadata } } : result;
}
