// The per-request variables our middleware sets on the Hono context.
import type { Logger } from './logger';

export interface AppEnv {
  /** What the runtime adapter passes, and `internal` on a request another node of the cluster forwarded (cluster/cluster-node.ts). */
  Bindings: { internal?: { projectId?: string } } & Record<string, unknown>;
  Variables: {
    requestId: string;
    projectId: string;
    logger: Logger;
  };
}
