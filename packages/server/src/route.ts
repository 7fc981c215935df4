// The handler table: one handler per operation of openapi.yaml (a missing one fails the typecheck),
// registered on the generated routes. A JSON operation's handler must answer with a body its schemas
// allow; a streaming one answers through respond(), whose result is typed by the operation's schema.
import type { OpenAPIHono, RouteHandler } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { operationList, type OperationId, type StreamingOperationId } from '@deckhand/contract';
import type { z } from 'zod';
import { routes } from './gen/routes.gen';
import type { AppEnv } from './env';

type Routes = typeof routes;

export type RouteContext<K extends OperationId> = Parameters<RouteHandler<Routes[K], AppEnv>>[0];

export type Handlers = {
  [K in OperationId]: K extends StreamingOperationId ? (c: RouteContext<K>) => Promise<Response> : RouteHandler<Routes[K], AppEnv>;
};

/** What a streaming operation's `data.result` is, in its JSON answer and in its `finished` event. */
export type ResultOf<K extends StreamingOperationId> = z.infer<Routes[K]['responses'][200]['content']['application/json']['schema']>['data']['result'];

/** Public operations first, then `auth`, then the rest: a route answers before later middleware runs. */
export function registerHandlers(app: OpenAPIHono<AppEnv>, handlers: Handlers, auth: MiddlewareHandler<AppEnv>): void {
  const ids = Object.keys(operationList) as OperationId[];
  const register = (id: OperationId) => app.openapi(routes[id], handlers[id] as never);
  ids.filter((id) => operationList[id].public).forEach(register);
  app.use('/v1/*', auth);
  ids.filter((id) => !operationList[id].public).forEach(register);
}
