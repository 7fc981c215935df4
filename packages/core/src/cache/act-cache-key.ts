// The act cache key: the same instruction on the same page with the same options and model, in the
// same project, gives the same key. Variable values, the timeout and any credential never take part.
import { createHash } from 'node:crypto';
import type { Variables } from '../types.js';

export interface ActCacheKeyInput {
  /** The session's project: another project's act never has this key. */
  project: string;
  instruction: string;
  url: string;
  /** The act options as sent; `timeout` and `model` are left out (the model counts by identity). */
  options?: { variables?: Variables; timeout?: number; model?: unknown } & Record<string, unknown>;
  /** provider/model (+ endpoint) from Inference.identity; never a key. */
  modelIdentity: string;
  frameId?: string | null;
}

export function actCacheKey({ project, instruction, url, options = {}, modelIdentity, frameId }: ActCacheKeyInput): string {
  const { timeout: _timeout, model: _model, variables, ...rest } = options;
  const material = {
    project,
    instruction: instruction.trim(),
    url: normalizeUrl(url),
    options: { ...rest, variables: Object.keys(variables ?? {}).sort() },
    model: modelIdentity,
    frameId: frameId ?? null,
  };
  return hashKey(material);
}

/** A cache key: the SHA-256 of the material as stable JSON (hex, the form entry stores accept). */
export function hashKey(material: unknown): string {
  return createHash('sha256').update(stableJson(material)).digest('hex');
}

/** Origin and path, query parameters sorted, fragment dropped: the same page however it was reached. */
export function normalizeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  parsed.hash = '';
  parsed.searchParams.sort();
  const query = parsed.searchParams.toString();
  return `${parsed.origin}${parsed.pathname}${query ? `?${query}` : ''}`;
}

/** JSON with object keys sorted at every level, so key order in a request never changes the hash. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
