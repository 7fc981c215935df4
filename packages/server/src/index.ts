// Starts a Deckhand server: configuration from the environment, the session manager, the app, a listener.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createSessionManager, findChromium, loadCoreConfigFromEnv, sweepStaleTempDirs } from '@deckhand/core';
import { createApp } from './app';
import { createCdpProxy } from './cdp-proxy';
import { createDevtoolsLinks } from './devtools-link';
import { relaySockets } from './relay-sockets';
import { createLiveTokens } from './live-tokens';
import { loadServerConfig } from './config';
import { createLogger } from './logger';
import { createHostedMcp } from './mcp-route';
import { listenOrigin, type PublicOrigin } from './public-url';
import { createServerMetrics } from './metrics';
import { listen } from './serve/listen';

export { createApp } from './app';
export { loadServerConfig, parseApiKeys } from './config';

// The contract: beside the bundle in a built package (the build copies it there), else the checkout's.
const specBesideBundle = fileURLToPath(new URL('openapi.yaml', import.meta.url));
const specPath = existsSync(specBesideBundle) ? specBesideBundle : fileURLToPath(new URL('../../../openapi.yaml', import.meta.url));

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startServer(
  env: Record<string, string | undefined> = process.env,
  options: { writeLog?: (line: string) => void } = {},
): Promise<RunningServer> {
  const config = loadServerConfig(env);
  const coreConfig = loadCoreConfigFromEnv(env, { shared: config.apiKeys.size > 0 });
  const logger = createLogger(config.logLevel, options.writeLog);
  const metrics = createServerMetrics();
  // Profiles and downloads of a Deckhand process killed outright (kill -9) would stay on disk for good.
  const swept = await sweepStaleTempDirs();
  if (swept.length > 0) logger.info('removed temporary directories left by processes that are gone', { count: swept.length });
  logger.info(coreConfig.browserIdentity.summary);
  const sessions = createSessionManager(coreConfig, metrics.telemetry);
  metrics.readFrom(() => sessions.stats());
  const chromiumPath = () => {
    try {
      return findChromium(true, coreConfig.chromiumPath);
    } catch {
      return undefined;
    }
  };
  // Returned URLs are built on DECKHAND_PUBLIC_URL, else on the listen address once it is known.
  const origin: PublicOrigin = { publicUrl: config.publicUrl };
  const cdp = createCdpProxy(sessions, origin);
  const live = createLiveTokens(origin);
  const devtools = createDevtoolsLinks(sessions, origin);
  const relayCap = relaySockets(config.relaySocketsPerProject);
  const mcp = createHostedMcp(sessions, config, logger, live);
  const app = createApp({ sessions, config, logger, specText: await readFile(specPath, 'utf8'), chromiumPath, cdp, live, devtools, mcp, metrics });
  const server = await listen({ fetch: app.fetch, host: config.host, port: config.port, upgrade: (path) => relayCap.admit(devtools.route(path) ?? cdp.route(path)) });
  const host = config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${server.port}`;
  origin.publicUrl ??= listenOrigin(config.host, server.port);
  if (!config.publicUrl && origin.publicUrl !== url) {
    logger.warn('DECKHAND_PUBLIC_URL is not set: returned URLs are built on this machine\'s name; set it to the URL clients reach the server at', { url: origin.publicUrl });
  }
  if (config.apiKeys.size === 0) {
    logger.warn('no API keys configured: accepting unauthenticated requests (allowed because the server is bound to loopback)', { host: config.host });
  }
  logger.info('listening', {
    url,
    projects: new Set(config.apiKeys.values()).size,
    localNetworks: coreConfig.navigationPolicy.localNetworks,
  });
  return {
    url,
    port: server.port,
    async close() {
      await mcp.close();
      await sessions.shutdown();
      await server.close();
    },
  };
}
