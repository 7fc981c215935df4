// What the route modules need from the outside world.
import type { SessionManager } from '@deckhand/core';
import type { ServerConfig } from '../config';

export interface RouteDeps {
  sessions: SessionManager;
  config: ServerConfig;
  /** The contract as served at /openapi.yaml. */
  specText: string;
  /** Chromium binary in use, or undefined when none was found. */
  chromiumPath: () => string | undefined;
}
