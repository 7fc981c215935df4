// The per-request variables our middleware sets on the Hono context.
import type { Logger } from './logger';

export interface AppEnv {
  Variables: {
    requestId: string;
    projectId: string;
    logger: Logger;
  };
}
