// The per-session settings a start request carries, normalised once.
import type { CoreConfig } from '../config.js';
import type { LanguageModelV3 } from '../models/model-config.js';
import type { ModelSampling } from '../models/language-model.js';
import type { OnModelCall } from '../models/model-calls.js';
import { DEFAULT_MODEL } from '../models/resolve-model.js';
import type { StartRequest } from '../types.js';

export interface SessionSettings {
  modelName: string;
  /** Upper bound on waiting for the page to settle after an action. */
  domSettleTimeoutMs: number;
  /** 0 errors only, 1 info, 2 debug: log lines above this level are not emitted. */
  verbose: 0 | 1 | 2;
  systemPrompt?: string;
  selfHeal: boolean;
  actTimeoutMs?: number;
  /** Deadline of an operation when neither the request nor (for act) actTimeoutMs gives one. */
  defaultTimeoutMs: number;
  experimental: boolean;
  waitForCaptchaSolves: boolean;
  enableCaching: boolean;
  /** Temperature and output token limit of every model call: set only in-process (StartOptions), never from the wire. */
  modelSampling?: ModelSampling;
  /** The session's model when a call names none, instead of modelName: set only in-process (StartOptions). */
  languageModel?: LanguageModelV3;
  /** Sees every model request and answer of the session: set only in-process (StartOptions). */
  onModelCall?: OnModelCall;
}

export function settingsFrom(req: StartRequest, config: CoreConfig): SessionSettings {
  return {
    modelName: req.modelName ?? DEFAULT_MODEL,
    domSettleTimeoutMs: req.domSettleTimeoutMs ?? config.defaultDomSettleTimeoutMs,
    verbose: req.verbose === undefined ? 1 : (Number(req.verbose) as 0 | 1 | 2),
    systemPrompt: req.systemPrompt,
    selfHeal: req.selfHeal ?? true,
    actTimeoutMs: req.actTimeoutMs,
    defaultTimeoutMs: config.defaultTimeoutMs,
    experimental: req.experimental ?? false,
    waitForCaptchaSolves: req.waitForCaptchaSolves ?? false,
    enableCaching: req.enableCaching ?? true,
  };
}
