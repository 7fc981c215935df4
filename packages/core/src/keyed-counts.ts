// How many of something each key holds at once (a project's relay sockets, MCP sessions being opened,
// live pictures being taken): counted up when one starts, down when it ends, forgotten at zero.
export class KeyedCounts {
  readonly #counts = new Map<string, number>();

  get(key: string): number {
    return this.#counts.get(key) ?? 0;
  }

  add(key: string): void {
    this.#counts.set(key, this.get(key) + 1);
  }

  release(key: string): void {
    const left = this.get(key) - 1;
    if (left > 0) this.#counts.set(key, left);
    else this.#counts.delete(key);
  }
}
