// Every token of an agent run: the agent model's own calls, plus whatever the act, observe and
// extract calls inside its tools spent (each reported on the tool call's own record).
import { UsageMeter } from '../models/usage.js';
import type { TokenUsage } from '../types.js';

export interface AgentUsageOutput {
  input_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  cached_input_tokens: number;
  inference_time_ms: number;
}

export class AgentUsage {
  /** The agent model's calls. */
  readonly meter = new UsageMeter();
  readonly #inner: Required<Omit<TokenUsage, 'cost'>> = { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0, timeMs: 0 };

  /** Adds what one tool call's inner model calls spent. */
  addInner(usage: TokenUsage | undefined): void {
    if (!usage) return;
    const inner = this.#inner;
    inner.inputTokens += usage.inputTokens ?? 0;
    inner.outputTokens += usage.outputTokens ?? 0;
    inner.reasoningTokens += usage.reasoningTokens ?? 0;
    inner.cachedInputTokens += usage.cachedInputTokens ?? 0;
    inner.timeMs += usage.timeMs ?? 0;
  }

  /** The run's total, as history records it. */
  get tokenUsage(): Required<Omit<TokenUsage, 'cost'>> {
    const own = this.meter.total;
    const inner = this.#inner;
    return {
      inputTokens: own.inputTokens + inner.inputTokens,
      outputTokens: own.outputTokens + inner.outputTokens,
      reasoningTokens: own.reasoningTokens + inner.reasoningTokens,
      cachedInputTokens: own.cachedInputTokens + inner.cachedInputTokens,
      timeMs: own.inferenceTimeMs + inner.timeMs,
    };
  }

  /** The run's total, in the answer's words. */
  get output(): AgentUsageOutput {
    const total = this.tokenUsage;
    return {
      input_tokens: total.inputTokens,
      output_tokens: total.outputTokens,
      reasoning_tokens: total.reasoningTokens,
      cached_input_tokens: total.cachedInputTokens,
      inference_time_ms: total.timeMs,
    };
  }
}
