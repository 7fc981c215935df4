// Registers a generated route with a handler that may answer with any Response (JSON or a stream).
// The request side stays fully typed from the generated schemas.
import type { OpenAPIHono, RouteConfig, RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from './env';

type RouteContext<R extends RouteConfig> = Parameters<RouteHandler<R, AppEnv>>[0];

export function handle<R extends RouteConfig>(
  app: OpenAPIHono<AppEnv>,
  definition: R,
  handler: (c: RouteContext<R>) => Promise<Response> | Response,
): void {
  app.openapi(definition, handler as unknown as RouteHandler<R, AppEnv>);
}
