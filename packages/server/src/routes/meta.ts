// Health, readiness, and the contract itself (raw at /openapi.yaml, rendered at /docs).
import type { OpenAPIHono } from '@hono/zod-openapi';
import { DeckhandError } from '@deckhand/core';
import { getHealth, getReadiness } from '../gen/routes.gen';
import type { AppEnv } from '../env';
import { handle } from '../route';
import { renderDocs } from '../docs';
import type { RouteDeps } from './deps';

export function metaRoutes(app: OpenAPIHono<AppEnv>, { sessions, specText, chromiumPath }: RouteDeps): void {
  handle(app, getHealth, (c) => c.json({ ok: true, sessions: sessions.count() }));

  handle(app, getReadiness, (c) => {
    const chromium = chromiumPath();
    if (!chromium) throw new DeckhandError('browser_unavailable', 'No Chromium binary found; set DECKHAND_CHROMIUM_PATH');
    return c.json({ ok: true, sessions: sessions.count(), chromium });
  });

  app.get('/openapi.yaml', (c) => c.body(specText, 200, { 'content-type': 'application/yaml; charset=utf-8' }));
  const docs = renderDocs(specText);
  app.get('/docs', (c) => c.html(docs));
}
