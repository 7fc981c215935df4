// What the route modules need from the outside world.
import type { SessionManager } from '@deckhand/core';
import type { CdpProxy } from '../cdp-proxy';
import type { ClusterNode } from '../cluster/cluster-node';
import type { ServerConfig } from '../config';
import type { DevtoolsLinks } from '../live-page/devtools-link';
import type { LiveTokens } from '../live-page/live-tokens';
import type { ServerMetrics } from '../metrics';
import type { EndedSessions } from '../cluster/ended-sessions';

export interface RouteDeps {
  sessions: SessionManager;
  config: ServerConfig;
  /** The contract as served at /openapi.yaml. */
  specText: string;
  /** Chromium binary in use, or undefined when none was found. */
  chromiumPath: () => string | undefined;
  /** The CDP URLs handed to clients. */
  cdp: CdpProxy;
  /** The live session page's URLs and their view tokens. */
  live: LiveTokens;
  /** Where debugUrl leads: a DevTools front end on a one-time page-level connection. */
  devtools: DevtoolsLinks;
  /** What /metrics serves. */
  metrics: ServerMetrics;
  /** This process as a node of a cluster (DECKHAND_REDIS_URL); absent: one process. */
  cluster?: ClusterNode;
  /** A cluster's records of sessions ended on any node, for their live page (absent: this process's own, in the session manager). */
  ended?: EndedSessions;
}
