// Values the client must never print: API keys and variable values it was given. Every line it logs
// or writes to a file passes through mask(), whatever the server already masked.
import { MASK, SHORT_SECRET, replaceSecret } from '@deckhand/core/secrets';

/**
 * A key shorter than this is no real credential ("x" on a keyless loopback server) and is masked
 * only where it stands alone, so that "vertex" and "prefixed" stay readable with `apiKey: 'x'`.
 */
export const KEY_MASKED_ANYWHERE_FROM = 8;

export class Secrets {
  /** Each value with the length up to which it is masked only as a whole token. */
  private readonly values = new Map<string, number>();

  /** An API key or a model key. */
  addKey(value: unknown): void {
    if (typeof value === 'string' && value.length > 0) this.values.set(value, Math.max(this.values.get(value) ?? 0, KEY_MASKED_ANYWHERE_FROM - 1));
  }

  /** Adds the values of an act/agent `variables` map (a string or `{value, description}` each), masked as the server masks them. */
  addVariables(variables: Record<string, unknown> | undefined): void {
    for (const entry of Object.values(variables ?? {})) {
      const value = typeof entry === 'object' && entry !== null ? (entry as { value?: unknown }).value : entry;
      if (typeof value === 'string' && value.length > 0 && !this.values.has(value)) this.values.set(value, SHORT_SECRET);
    }
  }

  mask(text: string): string {
    // Longest first, so a secret that contains another is masked whole.
    let out = text;
    for (const [value, shortUpTo] of [...this.values].sort(([a], [b]) => b.length - a.length)) out = replaceSecret(out, value, MASK, shortUpTo);
    return out;
  }

  /**
   * A JSON value with every secret masked inside its strings (keys included). It walks the value
   * rather than its JSON text: a secret with a quote or a backslash is escaped in JSON and would
   * not be found there.
   */
  maskValue<T>(value: T): T {
    const visit = (item: unknown): unknown => {
      if (typeof item === 'string') return this.mask(item);
      if (Array.isArray(item)) return item.map(visit);
      if (item !== null && typeof item === 'object') return Object.fromEntries(Object.entries(item).map(([key, inner]) => [this.mask(key), visit(inner)]));
      return item;
    };
    return visit(value) as T;
  }
}
