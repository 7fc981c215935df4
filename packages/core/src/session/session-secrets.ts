// The values a session was sent as variables. Each is a secret for the rest of the session's life,
// whichever request sent it: every read-back masks them all (see mask-secrets.ts). Kept in memory
// only, never logged, recorded or cached.
import { variableValues } from '../actions/variables.js';
import type { Variables } from '../types.js';

export class SessionSecrets {
  readonly #values = new Set<string>();

  remember(variables: Variables | undefined): void {
    for (const value of variableValues(variables)) this.#values.add(value);
  }

  get values(): readonly string[] {
    return [...this.#values];
  }
}
