// The API mode: every call through the generated bindings to a Deckhand server, streamed by default.
import { createDeckhandClient, type CallOptions, type DeckhandSession } from './client';
import { DeckhandApiError } from './errors';
import type { Backend, OnLog, Started } from './backend';
import type { ResolvedOptions } from './options';

export function apiBackend(o: ResolvedOptions): Backend {
  const headers: Record<string, string> = { 'x-language': 'typescript' };
  if (o.projectId) headers['x-bb-project-id'] = o.projectId;
  // With useAPI: false the models are called from this process: the model key never goes to the server.
  const modelApiKey = o.useAPI ? o.modelClientOptions?.apiKey : undefined;
  const api = createDeckhandClient({ baseUrl: o.baseURL, apiKey: o.apiKey, modelApiKey, headers });
  let session: DeckhandSession | undefined;
  const live = () => session!;
  const call = (onLog: OnLog): CallOptions => ({ stream: o.streaming, onLog });

  return {
    async start(): Promise<Started> {
      if (o.browserbaseSessionID) {
        const { data, error, response } = await api.ops.getBrowserSession(o.browserbaseSessionID);
        if (!response.ok) throw new DeckhandApiError(response.status, error as never, response.headers.get('x-request-id') ?? undefined);
        session = api.session(o.browserbaseSessionID);
        const found = data as unknown as { connectUrl: string; sessionUrl?: string; debugUrl?: string };
        return { sessionId: session.id, cdpUrl: found.connectUrl, sessionUrl: found.sessionUrl ?? '', debugUrl: found.debugUrl ?? '' };
      }
      const started = await api.start({
        modelName: o.modelName,
        domSettleTimeoutMs: o.domSettleTimeoutMs,
        verbose: o.verbose,
        systemPrompt: o.systemPrompt,
        selfHeal: o.selfHeal,
        experimental: o.experimental,
        waitForCaptchaSolves: o.waitForCaptchaSolves,
        actTimeoutMs: o.actTimeoutMs,
        enableCaching: o.enableCaching,
        browserbaseSessionCreateParams: o.browserbaseSessionCreateParams,
        storageState: o.storageState,
        ...(o.localBrowserLaunchOptions ? { browser: { type: 'local' as const, launchOptions: o.localBrowserLaunchOptions } } : {}),
      });
      session = started.session;
      return { sessionId: started.sessionId, cdpUrl: started.cdpUrl, sessionUrl: started.sessionUrl, debugUrl: started.debugUrl };
    },
    navigate: async (body, onLog) => (await live().navigate(body, call(onLog))).result,
    act: async (body, onLog) => (await live().act(body, call(onLog))).result,
    observe: async (body, onLog) => (await live().observe(body, call(onLog))).result,
    extract: async (body, onLog) => (await live().extract(body, call(onLog))).result,
    agentExecute: (body, onLog) => live().agentExecute(body, call(onLog)),
    screenshot: (body) => live().screenshot(body),
    pdf: (body) => live().pdf(body),
    replay: () => live().replay(),
    data: () => live(),
    listSessions: (page) => api.listSessions(page),
    end: async () => {
      await live().end();
    },
  };
}
