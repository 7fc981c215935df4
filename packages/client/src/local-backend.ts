// The core in this process: on a local Chromium (env LOCAL, no server), or attached to a server
// session's browser (useAPI: false). The core is loaded only when such a session starts, so API-mode
// users never load a browser library.
import type { Backend, OnLog, Started } from './backend';
import type { ResolvedOptions } from './options';

/** The project every local session belongs to (the core keys sessions by project). */
const LOCAL_PROJECT = 'local';

/**
 * `cdpUrl`, when given, names the browser to attach to (a server session's CDP relay, for
 * useAPI: false); otherwise a local Chromium is launched.
 */
export function localBackend(o: ResolvedOptions, cdpUrl?: () => string | undefined): Backend {
  let core: { manager: import('@deckhand/core').SessionManager; session: import('@deckhand/core').Session } | undefined;
  const live = () => core!.session;
  const ctx = (onLog: OnLog) => ({ signal: new AbortController().signal, log: onLog, modelApiKey: o.modelClientOptions?.apiKey });

  return {
    async start(): Promise<Started> {
      const { createSessionManager, loadCoreConfigFromEnv } = await import('@deckhand/core');
      // One developer on their own machine: loopback and private networks are reachable.
      const manager = createSessionManager({ ...loadCoreConfigFromEnv(process.env, { shared: false }), cacheDir: o.enableCaching ? '.deckhand/cache' : '' });
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
          browser: cdpUrl?.() ? { type: 'local', cdpUrl: cdpUrl()! } : { type: 'local', launchOptions: o.localBrowserLaunchOptions ?? { headless: true } },
        },
        { modelApiKey: o.modelClientOptions?.apiKey },
      );
      core = { manager, session };
      // The browser listens on no port (DevTools runs over a pipe): there is no URL to hand out yet.
      return { sessionId: session.id, sessionUrl: '', debugUrl: '' };
    },
    navigate: (body, onLog) => live().navigate(body, ctx(onLog)) as never,
    act: (body, onLog) => live().act(body, ctx(onLog)) as never,
    observe: (body, onLog) => live().observe(body, ctx(onLog)) as never,
    extract: (body, onLog) => live().extract(body, ctx(onLog)) as never,
    agentExecute: (body, onLog) => live().agentExecute(body, ctx(onLog)) as never,
    replay: async () => live().replay() as never,
    end: async () => {
      await core!.manager.end(LOCAL_PROJECT, live().id);
      // The manager is this instance's alone: shutting it down closes its warm pool too, or the pooled browser keeps the process alive.
      await core!.manager.shutdown();
    },
  };
}
