// Health, readiness, metrics, the demo page, and the contract itself (raw at /openapi.yaml, rendered at /docs).
import type { OpenAPIHono } from '@hono/zod-openapi';
import { DeckhandError } from '@deckhand/core';
import type { AppEnv } from '../env';
import type { Handlers } from '../route';
import { DEMO_PAGE } from '../demo-page';
import { serveDocs } from '../docs';
import type { RouteDeps } from './deps';

export function metaHandlers({ sessions, chromiumPath, metrics, cluster }: RouteDeps): Pick<Handlers, 'getHealth' | 'getReadiness' | 'getDemo' | 'getMetrics'> {
  return {
    getMetrics: async (c) => c.text(await metrics.registry.metrics(), 200, { 'content-type': metrics.registry.contentType }),
    getDemo: (c) => c.html(DEMO_PAGE, 200),
    getHealth: (c) => c.json({ ok: true, sessions: sessions.count() }, 200),
    getReadiness: (c) => {
      const draining = cluster?.notReady();
      if (draining) throw draining;
      const chromium = chromiumPath();
      if (!chromium) throw new DeckhandError('browser_unavailable', 'No Chromium binary found; set DECKHAND_CHROMIUM_PATH');
      return c.json({ ok: true, sessions: sessions.count(), chromium }, 200);
    },
  };
}

/** The contract, outside the operation table (it describes the table). */
export function serveContract(app: OpenAPIHono<AppEnv>, specText: string): void {
  app.get('/openapi.yaml', (c) => c.body(specText, 200, { 'content-type': 'application/yaml; charset=utf-8' }));
  serveDocs(app);
}
