// The handler table: one handler per endpoint of openapi.yaml (a missing one fails the typecheck),
// registered on the generated routes. A JSON endpoint's handler must answer with a body its schemas
// allow; a streaming one answers through respond(), whose result is typed by the operation's schema.
import type { OpenAPIHono, RouteHandler } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { endpoints, type EndpointId, type StreamingEndpointId } from '@deckhand/contract';
import type { z } from 'zod';
import { routes } from './gen/routes.gen';
import type { AppEnv } from './env';

type Routes = typeof routes;

export type RouteContext<K extends EndpointId> = Parameters<RouteHandler<Routes[K], AppEnv>>[0];

export type Handlers = {
  [K in EndpointId]: K extends StreamingEndpointId ? (c: RouteContext<K>) => Promise<Response> : RouteHandler<Routes[K], AppEnv>;
};

/** What a streaming operation's `data.result` is, in its JSON answer and in its `finished` event. */
export type ResultOf<K extends StreamingEndpointId> = z.infer<Routes[K]['responses'][200]['content']['application/json']['schema']>['data']['result'];

/** Public endpoints first, then the guards (auth, limits), then the rest: a route answers before later middleware runs. */
export function registerHandlers(app: OpenAPIHono<AppEnv>, handlers: Handlers, guards: Array<MiddlewareHandler<AppEnv>>): void {
  const ids = Object.keys(endpoints) as EndpointId[];
  const register = (id: EndpointId) => app.openapi(routes[id], handlers[id] as never);
  ids.filter((id) => endpoints[id].public).forEach(register);
  for (const guard of guards) app.use('/v1/*', guard);
  ids.filter((id) => !endpoints[id].public).forEach(register);
}
