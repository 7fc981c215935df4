// Starts a Deckhand server: configuration from the environment, the session manager, the app, a listener.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createSessionManager, findChromium, loadCoreConfigFromEnv, startLeftoverSweeps } from '@deckhand/core';
import { createApp } from './app';
import { createCdpProxy } from './cdp-proxy';
import { createDevtoolsLinks } from './live-page/devtools-link';
import { relaySockets } from './relay-sockets';
import { createLiveTokens } from './live-page/live-tokens';
import { loadServerConfig } from './config';
import { createLogger } from './logger';
import { createHostedMcp } from './mcp-route';
import { listenOrigin, type PublicOrigin } from './public-url';
import { createServerMetrics } from './metrics';
import { listen } from './serve/listen';
import { connectRedis } from './cluster/redis';
import { createClusterNode, type ClusterNode } from './cluster/cluster-node';
import { sharedState } from './cluster/shared-state';

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
  // What a process killed outright (kill -9) left would stay on disk for good, counting toward quotas.
  const leftoverSweeps = await startLeftoverSweeps(coreConfig, { repeat: true, onSwept: (removed) => logger.info('removed what processes that are gone left behind', removed) });
  logger.info(coreConfig.browserIdentity.summary);
  // Only a node of a cluster connects anywhere; the embedded default holds everything in memory.
  const redis = config.cluster ? connectRedis(config.cluster.redisUrl, logger) : undefined;
  const node: { url?: string } = { url: config.cluster?.nodeUrl };
  const shared = sharedState(coreConfig, config.cluster, redis, logger, { url: () => node.url, mcpIdleMs: config.mcp.idleMs });
  let cluster: ClusterNode | undefined;
  const sessions = createSessionManager(
    shared.coreConfig,
    {
      ...metrics.telemetry,
      onSessionStop: (reason, sessionId) => {
        // 'crashed' is a session whose browser was lost: a shared one takes every session in it, one line each.
        if (reason === 'crashed') logger.warn('session ended: its browser was lost (crashed, killed or closed)', { sessionId });
        metrics.telemetry.onSessionStop?.(reason, sessionId);
        cluster?.sessionStopped(sessionId, reason);
      },
    },
    // Every session started here is in the cluster's registry (or was not started), whichever way it came.
    { ...shared.sessions, ...(config.cluster && { onStarted: (session) => cluster!.registerStart(session.id, session.projectId) }) },
  );
  // The internal URL: DECKHAND_NODE_URL, else the listen address (known below, once listening).
  if (config.cluster && redis) {
    cluster = createClusterNode({ config: config.cluster, redis, sessions, capacity: coreConfig.maxSessions, maxSessionMs: coreConfig.maxSessionMs, logger }, () => node.url ?? '');
  }
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
  const live = createLiveTokens(origin, shared.liveSecret);
  const devtools = createDevtoolsLinks(sessions, origin);
  const relayCap = relaySockets(config.relaySocketsPerProject);
  const mcp = createHostedMcp(sessions, config, logger, live, shared.rates, { records: shared.mcpSessions, remote: cluster?.remoteSessions });
  const app = createApp({ sessions, config, logger, specText: await readFile(specPath, 'utf8'), chromiumPath, cdp, live, devtools, mcp, metrics, cluster, rates: shared.rates, ended: shared.ended });
  const local = (path: string) => relayCap.admit(devtools.route(path) ?? cdp.route(path));
  const upgrade = cluster ? (path: string, header: (name: string) => string | undefined) => cluster!.routeUpgrade(path, header, local) : local;
  const server = await listen({ fetch: app.fetch, host: config.host, port: config.port, upgrade });
  const host = config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${server.port}`;
  node.url ??= url;
  cluster?.join();
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
      leftoverSweeps.stop();
      // A node of a cluster lets running operations finish first (drain), and leaves the registry once its sessions ended.
      await cluster?.drain();
      await mcp.close();
      await sessions.shutdown();
      await server.close();
      await cluster?.leave();
      shared.close();
      await redis?.close();
    },
  };
}
