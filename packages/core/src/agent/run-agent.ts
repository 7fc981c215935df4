// An agentExecute run inside its session operation: the model loop, or the offline step runner
// for builtin/… models. The operation's one deadline bounds the run; the loop itself stops a little
// before it (ANSWER_MARGIN_MS) so a run that runs out of time still answers with what it did.
import { createModelClient } from '../models/model-client.js';
import { modelSourcesOf } from '../inference/model-run.js';
import { Deadline } from '../scope/deadline.js';
import type { OperationScope } from '../scope/operation-scope.js';
import type { AgentResultDataOutput } from '../types.js';
import { modelFailure, modelLoop, type LoopState } from './agent-loop.js';
import type { AgentPlan } from './agent-request.js';
import { agentResult, timeoutEnd, type AgentEnd } from './agent-result.js';
import { AgentUsage } from './agent-usage.js';
import { showCursor } from './cursor-overlay.js';
import { computerUseLoop } from './cua-loop.js';
import { offlineRun } from './offline-agent.js';
import { CachedAgentRun } from './cached-agent.js';
import { modelIdentity } from '../models/resolve-model.js';

/** Time kept back from the operation's deadline to stop the loop, wind its tool down and answer. */
export const ANSWER_MARGIN_MS = 3_000;

export async function runAgent(scope: OperationScope, plan: AgentPlan): Promise<AgentResultDataOutput> {
  // Resolved before any page work, so a missing key is the caller's 400, not a failed run.
  const client = plan.target.kind === 'builtin' ? undefined : createModelClient(plan.target, modelSourcesOf(scope));
  // A frameId that names no frame is the caller's 400, not a run whose every step fails.
  await scope.frame(plan.frameId);
  const usage = new AgentUsage();
  const state: LoopState = { actions: [], steps: 0 };
  const total = scope.deadline.remaining(Infinity);
  // A short run keeps back a quarter instead, so it is not all margin.
  const run = new Deadline(scope.signal, Math.max(1, total - Math.min(ANSWER_MARGIN_MS, total / 4)), 'agentExecute');
  const hideCursor = plan.highlightCursor ? await showCursor(scope.page) : undefined;
  // Agent cache: the run's own status is told once, at its end; the acts inside it say nothing.
  // Without the server's cache (caching off, or bypassed) nothing is recorded and no entry is handed back.
  const cached = plan.shouldCache && scope.cache ? new CachedAgentRun(scope, scope.cache, plan, client?.identity ?? modelIdentity(plan.target)) : undefined;
  const inner: OperationScope = cached && scope.cache ? { ...scope, cache: { cache: scope.cache.cache, project: scope.cache.project } } : scope;
  const modelRun = plan.mode === 'cua' ? computerUseLoop : modelLoop;
  const loop = (loopPlan: AgentPlan) => (client ? modelRun(inner, loopPlan, client, run, usage, state) : offlineRun(inner, loopPlan, run, usage, state));
  let end: AgentEnd;
  try {
    end = cached ? await cached.run(run, usage, state, loop) : await loop(plan);
  } catch (error) {
    // The caller left (or the operation's own deadline passed): the operation answers that, not the run.
    if (scope.signal.aborted) throw error;
    end = run.signal.aborted ? timeoutEnd(state.steps) : modelFailure(error);
  } finally {
    await hideCursor?.();
    run.dispose();
    scope.record.tokenUsage = usage.tokenUsage;
  }
  await cached?.finish(end);
  scope.log({ category: 'agent', message: `finished (${end.reason}) after ${state.steps} step(s): ${end.message}`, level: 1 });
  const result = agentResult(end, state.actions, state.steps, usage);
  return cached ? { ...result, metadata: { ...result.metadata, ...cached.metadata } } : result;
}
