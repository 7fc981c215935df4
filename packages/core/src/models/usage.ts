// Token and time accounting for one operation: every model call inside it adds to the same meter,
// so act/observe/extract/agent can report complete usage (including inner calls).
import type { LanguageModelUsage } from 'ai';

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  cachedInputTokens: number;
  inferenceTimeMs: number;
  /** Number of model calls (retries included). */
  calls: number;
}

export class UsageMeter {
  private totals: Usage = { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0, inferenceTimeMs: 0, calls: 0 };

  /** Adds one call: the SDK's usage (absent for the built-in model) and the wall time it took. */
  record(usage: LanguageModelUsage | undefined, inferenceTimeMs: number): void {
    const t = this.totals;
    t.inputTokens += usage?.inputTokens ?? 0;
    t.outputTokens += usage?.outputTokens ?? 0;
    t.reasoningTokens += usage?.outputTokenDetails?.reasoningTokens ?? 0;
    t.cachedInputTokens += usage?.inputTokenDetails?.cacheReadTokens ?? 0;
    t.inferenceTimeMs += Math.round(inferenceTimeMs);
    t.calls += 1;
  }

  get total(): Usage {
    return { ...this.totals };
  }
}
