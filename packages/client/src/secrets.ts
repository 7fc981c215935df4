// Values the client must never print: API keys and variable values it was given. Every line it logs
// or writes to a file passes through mask(), whatever the server already masked.
const MASK = '••••';

export class Secrets {
  private readonly values = new Set<string>();

  add(value: unknown): void {
    if (typeof value === 'string' && value.length > 0) this.values.add(value);
  }

  /** Adds the values of an act/agent `variables` map (a string or `{value, description}` each). */
  addVariables(variables: Record<string, unknown> | undefined): void {
    for (const entry of Object.values(variables ?? {})) {
      this.add(typeof entry === 'object' && entry !== null ? (entry as { value?: unknown }).value : entry);
    }
  }

  mask(text: string): string {
    // Longest first, so a secret that contains another is masked whole.
    let out = text;
    for (const value of [...this.values].sort((a, b) => b.length - a.length)) out = out.split(value).join(MASK);
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
