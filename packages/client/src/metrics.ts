// `metrics`: tokens and time per operation, summed per method the way Stagehand reports them, from the
// session's replay (the server measures each operation and its model calls).
import type { components } from '@deckhand/contract';

type Replay = components['schemas']['ReplayResponse']['data'];

export interface OperationMetrics {
  method: string;
  /** Wall time of the operation on the server, ms. */
  durationMs?: number;
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  cachedInputTokens: number;
  /** Time spent in model calls, ms. */
  inferenceTimeMs: number;
}

type Totals = Record<`${'act' | 'extract' | 'observe' | 'agent' | 'total'}${'PromptTokens' | 'CompletionTokens' | 'ReasoningTokens' | 'CachedInputTokens' | 'InferenceTimeMs'}`, number>;

export type DeckhandMetrics = Totals & { operations: OperationMetrics[] };

export function metricsOf(replay: Replay): DeckhandMetrics {
  const operations: OperationMetrics[] = replay.pages.flatMap((page) =>
    page.actions.map((action) => ({
      method: action.method.toLowerCase(),
      durationMs: action.endTime !== undefined ? action.endTime - action.timestamp : undefined,
      inputTokens: action.tokenUsage?.inputTokens ?? 0,
      outputTokens: action.tokenUsage?.outputTokens ?? 0,
      reasoningTokens: action.tokenUsage?.reasoningTokens ?? 0,
      cachedInputTokens: action.tokenUsage?.cachedInputTokens ?? 0,
      inferenceTimeMs: action.tokenUsage?.timeMs ?? 0,
    })),
  );
  const totals = {} as Totals;
  for (const prefix of ['act', 'extract', 'observe', 'agent', 'total'] as const) {
    const mine = operations.filter((op) => prefix === 'total' || op.method === prefix || (prefix === 'agent' && op.method === 'agentexecute'));
    const sum = (pick: (op: OperationMetrics) => number) => mine.reduce((acc, op) => acc + pick(op), 0);
    totals[`${prefix}PromptTokens`] = sum((op) => op.inputTokens);
    totals[`${prefix}CompletionTokens`] = sum((op) => op.outputTokens);
    totals[`${prefix}ReasoningTokens`] = sum((op) => op.reasoningTokens);
    totals[`${prefix}CachedInputTokens`] = sum((op) => op.cachedInputTokens);
    totals[`${prefix}InferenceTimeMs`] = sum((op) => op.inferenceTimeMs);
  }
  return { ...totals, operations };
}
