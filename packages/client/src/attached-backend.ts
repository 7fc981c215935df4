// env BROWSERBASE with useAPI: false: the session (its browser) is started through the API, and the
// core runs in this process over the session's CDP relay URL, calling models from here.
import type { OnModelCall } from '@deckhand/core';
import { apiBackend } from './api-backend';
import type { Backend, Started } from './backend';
import { localBackend } from './local-backend';
import type { ResolvedOptions } from './options';

export function attachedBackend(o: ResolvedOptions, onModelCall?: OnModelCall): Backend {
  const remote = apiBackend(o);
  let started: Started | undefined;
  const local = localBackend(o, { cdpUrl: () => started?.cdpUrl, onModelCall });
  return {
    async start() {
      started = await remote.start();
      try {
        await local.start();
      } catch (error) {
        await remote.end().catch(() => undefined);
        throw error;
      }
      return started;
    },
    navigate: local.navigate,
    act: local.act,
    observe: local.observe,
    extract: local.extract,
    agentExecute: local.agentExecute,
    screenshot: local.screenshot,
    pdf: local.pdf,
    replay: local.replay,
    // Files and cookies are the server session's, wherever the core runs.
    data: remote.data,
    listSessions: remote.listSessions,
    async end() {
      await local.end();
      await remote.end();
    },
  };
}
