// The values a session was sent as variables. Each is a secret for the rest of the session's life,
// whichever request sent it: every read-back masks them all (see mask-secrets.ts). Kept in memory
// only, never logged, recorded or cached.
import { variableValues } from '../act/variables.js';
import type { Variables } from '../types.js';
import { REQUEST_BOUNDS, refuse } from '../request-bounds.js';

export class SessionSecrets {
  readonly #values = new Set<string>();

  /** Past REQUEST_BOUNDS.sessionSecrets values a request that adds more is refused (400): every read-back masks them all. */
  remember(variables: Variables | undefined, path: string): void {
    const fresh = variableValues(variables).filter((value) => !this.#values.has(value));
    const max = REQUEST_BOUNDS.sessionSecrets;
    if (this.#values.size + fresh.length > max) {
      refuse(path, `this session already holds ${this.#values.size} variable values and keeps at most ${max.toLocaleString('en-US')}; start a new session`);
    }
    for (const value of fresh) this.#values.add(value);
  }

  get values(): readonly string[] {
    return [...this.#values];
  }
}
