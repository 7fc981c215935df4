// The core in this process: on a local Chromium (env LOCAL, no server), or attached to a server
// session's browser (useAPI: false). The core is loaded only when such a session starts, so API-mode
// users never load a browser library.
import type { OnModelCall } from '@deckhand/core';
import type { Backend, OnLog, SessionData, Started } from './backend';
import type { ResolvedOptions } from './options';

/** The project every local session belongs to (the core keys sessions by project). */
const LOCAL_PROJECT = 'local';

type Core = typeof import('@deckhand/core');

export interface LocalHooks {
  /** Names the browser to attach to (a server session's CDP relay, for useAPI: false); otherwise a local Chromium is launched. */
  cdpUrl?: () => string | undefined;
  /** Sees every model request made in this process and its answer (logInferenceToFile). */
  onModelCall?: OnModelCall;
}

/** The session's files, cookies and storage state, straight from the core. */
function localSessionData(session: import('@deckhand/core').Session): SessionData {
  return {
    listDownloads: () => session.files.listDownloads(),
    getDownload: async (name) => new Uint8Array(await new Response((await session.files.downloads.open(name)).body).arrayBuffer()),
    deleteDownload: (name) => session.files.downloads.remove(name),
    listFiles: () => session.files.uploads.list(),
    uploadFile: (name, bytes) => session.files.upload(name, bytes),
    deleteFile: (name) => session.files.uploads.remove(name),
    getCookies: () => session.cookies(),
    setCookies: (body) => session.setCookies(body),
    getStorageState: () => session.storageState(),
    setStorageState: (state) => session.setStorageState(state),
  };
}

export function localBackend(o: ResolvedOptions, { cdpUrl, onModelCall }: LocalHooks = {}): Backend {
  let core: { manager: import('@deckhand/core').SessionManager; session: import('@deckhand/core').Session; endpoint?: import('@deckhand/core').PrivateCdpEndpoint } | undefined;
  const live = () => core!.session;
  const ctx = (onLog: OnLog) => ({ signal: new AbortController().signal, log: onLog, modelApiKey: o.modelClientOptions?.apiKey });
  const { temperature, maxTokens } = o.modelClientOptions ?? {};
  const modelSampling = temperature === undefined && maxTokens === undefined ? undefined : { temperature, maxOutputTokens: maxTokens };

  return {
    async start(): Promise<Started> {
      const { createSessionManager, loadCoreConfigFromEnv, servePrivateCdp, startLeftoverSweeps }: Core = await import('@deckhand/core');
      // One developer on their own machine: loopback and private networks are reachable.
      const config = loadCoreConfigFromEnv(process.env, { shared: false });
      await startLeftoverSweeps(config);
      const manager = createSessionManager({ ...config, cacheDir: o.enableCaching ? o.cacheDir : '' });
      const attachTo = cdpUrl?.();
      const session = await manager.start(
        LOCAL_PROJECT,
        {
          modelName: o.modelName,
          domSettleTimeoutMs: o.domSettleTimeoutMs,
          verbose: o.verbose,
          systemPrompt: o.systemPrompt,
          selfHeal: o.selfHeal,
          experimental: o.experimental,
          actTimeoutMs: o.actTimeoutMs,
          enableCaching: o.enableCaching,
          storageState: o.storageState,
          browser: attachTo ? { type: 'local', cdpUrl: attachTo } : { type: 'local', launchOptions: o.localBrowserLaunchOptions ?? { headless: true } },
        },
        { modelApiKey: o.modelClientOptions?.apiKey, modelSampling, languageModel: o.llmClient, onModelCall },
      );
      if (attachTo) {
        core = { manager, session };
        return { sessionId: session.id, sessionUrl: '', debugUrl: '' };
      }
      // The local browser listens on no port: Playwright gets a websocket on a unix socket only this
      // user can reach. A live page and DevTools link would need an HTTP server, which LOCAL has none of.
      const endpoint = await servePrivateCdp(() => session.openCdp());
      core = { manager, session, endpoint };
      return { sessionId: session.id, cdpUrl: endpoint.url, sessionUrl: '', debugUrl: '' };
    },
    navigate: (body, onLog) => live().navigate(body, ctx(onLog)) as never,
    act: (body, onLog) => live().act(body, ctx(onLog)) as never,
    observe: (body, onLog) => live().observe(body, ctx(onLog)) as never,
    extract: (body, onLog) => live().extract(body, ctx(onLog)) as never,
    agentExecute: async (body, onLog) => ({ result: (await live().agentExecute(body, ctx(onLog))) as never }),
    screenshot: async (body) => (await live().screenshot(body, ctx(() => undefined))).bytes,
    pdf: (body) => live().pdf(body, ctx(() => undefined)),
    replay: async () => {
      await live().picturesNumbered();
      return live().replay() as never;
    },
    data: () => localSessionData(live()),
    listSessions: async (page) => core!.manager.list(LOCAL_PROJECT, page),
    end: async () => {
      await core!.endpoint?.close();
      await core!.manager.end(LOCAL_PROJECT, live().id);
      // The manager is this instance's alone: shutting it down closes its warm pool too, or the pooled browser keeps the process alive.
      await core!.manager.shutdown();
    },
  };
}
