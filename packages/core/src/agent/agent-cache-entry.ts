// The agent cache's record of a run: its deterministic steps, each replayable with no model. An act
// keeps the Actions it resolved to (selectors, methods, arguments with their %name% placeholders)
// and the role and name of each target, so a replay can tell the page changed; page-level steps keep
// the tool's own input. Read-only steps (observe, extract, screenshot, think) are not kept: they do
// not change the page. Versioned and self-contained, so a client can write it to disk as it is.
import { createEntryStores, hashKey, normalizeUrl, type CachedTarget, type EntryStore, type EntryStores } from '../cache/index.js';
import type { CoreConfig } from '../config.js';
import { cacheSignerFor } from '../operations/act-cache-store.js';
import type { Action } from '../types.js';
import type { AgentMode } from './agent-registry.js';

export const AGENT_CACHE_VERSION = 1;

/** A call of a tool that records its Actions (act, fillForm): replayed Action by Action, with no model. */
export interface ActionStep {
  tool: string;
  instruction: string;
  actions: Action[];
  targets: Array<CachedTarget | null>;
}

/** A call of a tool that records its input (navigate, back, scroll…): run again with the same input. */
export interface InputStep {
  tool: string;
  input: Record<string, unknown>;
}

/** A step's tool is a tool's name when it was written; an older entry may hold a name since renamed (`goto`). */
export type AgentCacheStep = ActionStep | InputStep;

export function isActionStep(step: AgentCacheStep): step is ActionStep {
  return 'actions' in step;
}

export interface AgentCacheEntry {
  version: typeof AGENT_CACHE_VERSION;
  kind: 'agent';
  instruction: string;
  /** The normalised URL the run started on. */
  startUrl: string;
  mode: AgentMode;
  modelIdentity: string;
  steps: AgentCacheStep[];
  /** How the recorded run ended: a replay that gets through every step answers the same. */
  result: { success: boolean; message: string };
  createdAt: string;
}

/** What makes two runs the same run: anything that changes which steps are right. */
export interface AgentCacheKeyInput {
  /** The session's project: another project's run never has this key. */
  project: string;
  instruction: string;
  startUrl: string;
  mode: AgentMode;
  /** The agent model's identity (provider/model + endpoint; never a key). */
  modelIdentity: string;
  /** The identity of the model inside act/observe/extract. */
  executionModelIdentity: string;
  systemPrompt?: string;
  variableNames: string[];
  frameId?: string;
  toolNames: string[];
}

export function agentCacheKey(input: AgentCacheKeyInput): string {
  return hashKey({
    kind: 'agent',
    version: AGENT_CACHE_VERSION,
    project: input.project,
    instruction: input.instruction.trim(),
    startUrl: normalizeUrl(input.startUrl),
    mode: input.mode,
    model: input.modelIdentity,
    executionModel: input.executionModelIdentity,
    systemPrompt: input.systemPrompt?.trim() ?? '',
    variables: [...input.variableNames].sort(),
    frameId: input.frameId ?? null,
    tools: [...input.toolNames].sort(),
  });
}

/** One project's agent cache. */
export type AgentCache = EntryStore<AgentCacheEntry>;

const stores = new WeakMap<CoreConfig, EntryStores<AgentCacheEntry>>();

/** One agent cache per server, each project's in an `agent` folder beside its act cache's (memory only when that is). */
export function agentCacheFor(config: CoreConfig): EntryStores<AgentCacheEntry> {
  let store = stores.get(config);
  if (!store) {
    store = createEntryStores<AgentCacheEntry>({
      dir: config.cacheDir,
      kind: 'agent',
      signer: cacheSignerFor(config),
      shared: config.sharedCache,
      maxEntries: config.cacheMaxEntries,
      version: AGENT_CACHE_VERSION,
      texts: entryTexts,
    });
    stores.set(config, store);
  }
  return store;
}

/** Every text of an entry where a variable's value could land (the store refuses an entry holding one). */
export function entryTexts(entry: AgentCacheEntry): string[] {
  return [
    entry.instruction,
    entry.startUrl,
    entry.result.message,
    ...entry.steps.flatMap((step) =>
      isActionStep(step)
        ? [step.instruction, ...step.actions.flatMap((a) => [...(a.arguments ?? []), a.description ?? '', a.selector ?? '']), ...step.targets.map((t) => t?.name ?? '')]
        : [JSON.stringify(step.input)],
    ),
  ];
}
