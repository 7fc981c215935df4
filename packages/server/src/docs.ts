// The API reference at /docs: Scalar's standalone renderer, served from its npm package (no CDN, so it
// works offline), reading /openapi.yaml next to it. A CSP keeps every request on this server.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './env';

const RENDERER_PATH = createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js');

// Paths are relative to /docs, so the page also works behind a proxy that serves Deckhand under a prefix.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Deckhand API reference</title>
</head>
<body>
<div id="reference"></div>
<script src="docs/api-reference.js"></script>
<script src="docs/init.js"></script>
</body>
</html>`;

// The mount point is not #api-reference: the bundle mounts a reference with its default configuration
// (fonts from Scalar's CDN) on an element of that id as it loads. Its fonts, telemetry, AI agent and
// developer toolbar (Scalar services) are off. "Try it" goes to the server the page came from
// (openapi.yaml's servers entry names the default local address only).
const INIT = `Scalar.createApiReference('#reference', {
  url: new URL('openapi.yaml', location.href).href,
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  servers: [{ url: location.origin, description: 'This Deckhand server' }],
});
`;

/** Scripts only from here, every connection to here: a renderer that reached out would be stopped by the browser. */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

const SCRIPT_HEADERS = { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600' };

export function serveDocs(app: OpenAPIHono<AppEnv>): void {
  let renderer: Promise<string> | undefined;
  app.get('/docs', (c) => c.html(PAGE, 200, PAGE_HEADERS));
  app.get('/docs/init.js', (c) => c.body(INIT, 200, SCRIPT_HEADERS));
  app.get('/docs/api-reference.js', async (c) => {
    renderer ??= readFile(RENDERER_PATH, 'utf8');
    return c.body(await renderer, 200, SCRIPT_HEADERS);
  });
}
