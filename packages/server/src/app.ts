// The Hono app: request ids, body limit, auth, limits, JSON bounds, the handler table on the generated routes, one error mapping.
import { randomUUID } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import { getPath } from 'hono/utils/url';
import { innerPath } from './cluster/cluster-node';
import type { AppEnv } from './env';
import { authenticate } from './auth';
import { limitsOf } from './config';
import { bodyDeadline } from './body-deadline';
import { bodyLimit } from './body-limit';
import { errorBody, toErrorResponse, validationError } from './errors';
import { boundJsonBody } from './json-bounds';
import { jsonBodyWithin } from './json-body';
import { unknownBodyFields } from './unknown-fields';
import type { Logger } from './logger';
import { registerHandlers } from './route';
import type { RouteDeps } from './routes/deps';
import { compatHandlers } from './routes/compat';
import { liveHandlers } from './routes/live';
import { pictureHandlers } from './routes/pictures';
import { metaHandlers, serveContract } from './routes/meta';
import { operationHandlers } from './routes/operations';
import { sessionHandlers } from './routes/sessions';
import { fileHandlers } from './routes/files';
import { storageHandlers } from './routes/storage';
import { rateLimit, type ProjectRates } from './rate-limit';
import type { McpEndpoint } from '@deckhand/mcp';
import { serveMcp } from './mcp-route';

export interface AppDeps extends RouteDeps {
  logger: Logger;
  /** The hosted MCP endpoint, served at /mcp (outside the handler table: see mcp-route.ts). */
  mcp?: McpEndpoint;
  /** Where projects' request rates are counted (absent: in this process). */
  rates?: ProjectRates;
}

export function createApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    getPath: (request, options) => innerPath(getPath(request), options?.env as AppEnv['Bindings'] | undefined),
    defaultHook: (result, c) => {
      if (!result.success) {
        const unknown = result.target === 'json' ? unknownBodyFields(c.req.method, c.req.routePath, (result as { data?: unknown }).data) : [];
        throw validationError(result.target, result.error, unknown);
      }
    },
  });

  const { cluster } = deps;
  // A cluster's internal requests enter first: their second pass is the one that counts.
  if (cluster) app.use(cluster.internalEntry((request, env) => app.fetch(request, env)));
  app.use(async (c, next) => {
    const requestId = randomUUID();
    c.set('requestId', requestId);
    c.set('logger', deps.logger);
    await next();
    c.res.headers.set('x-request-id', requestId);
  });
  app.use(async (c, next) => {
    await next();
    deps.metrics.countResponse(c.res.status);
  });
  if (cluster) {
    app.use(cluster.refuseInternal);
    app.use('/v1/sessions/*', cluster.routeTokenRequest);
  }
  // Outside /v1/*, so outside the rate limit: a scraper never uses up a project's requests.
  app.use('/metrics', authenticate(deps.config.apiKeys));
  app.use('/v1/sessions/:id/files', bodyDeadline(deps.config.bodyDeadlineMs));
  app.use(bodyLimit(deps.config.bodyLimitBytes));
  app.use(jsonBodyWithin(deps.config.bodyDeadlineMs));
  serveContract(app, deps.specText);
  registerHandlers(
    app,
    { ...metaHandlers(deps), ...sessionHandlers(deps), ...operationHandlers(deps), ...compatHandlers(deps), ...liveHandlers(deps), ...fileHandlers(deps), ...storageHandlers(deps), ...pictureHandlers(deps) },
    [authenticate(deps.config.apiKeys), rateLimit((projectId) => limitsOf(deps.config, projectId), deps.rates), boundJsonBody, ...(cluster ? [cluster.routeRequest] : [])],
  );

  const { mcp } = deps;
  if (mcp) app.all('/mcp', (c) => serveMcp(c, mcp));

  app.notFound((c) => c.json(errorBody('route_not_found', `No route for ${c.req.method} ${c.req.path}`), 404));
  app.onError((error, c) => toErrorResponse(c, error));
  return app;
}
