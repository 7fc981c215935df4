// Session operations: navigate, act, observe, extract, agentExecute. Validate → look up → core → shape.
import type { AgentCacheEntryOutput, Session } from '@deckhand/core';
import { respond, wantsStream } from '../respond';
import type { Handlers } from '../route';
import type { RouteDeps } from './deps';

const roomIn = (session: Session) => (session.assertRoom(), session);

type CommonHeaders = { 'x-stream-response'?: string; 'x-model-api-key'?: string; 'browserbase-cache-bypass'?: string };

export function operationHandlers({ sessions, config }: RouteDeps): Pick<Handlers, 'navigate' | 'act' | 'observe' | 'extract' | 'agentExecute'> {
  /** Looks the session up (404/410, and 429 for a full queue, before any stream opens) and reads the common headers. */
  const prepare = (projectId: string, id: string, headers: CommonHeaders, streamResponse: boolean | undefined) => ({
    session: roomIn(sessions.get(projectId, id)),
    stream: wantsStream(streamResponse, headers['x-stream-response']),
    modelApiKey: headers['x-model-api-key'] || undefined,
    cacheBypass: headers['browserbase-cache-bypass'] === 'true',
  });

  return {
    navigate: (c) => {
      const body = c.req.valid('json');
      const { session, stream } = prepare(c.get('projectId'), c.req.valid('param').id, c.req.valid('header'), body.streamResponse);
      return respond<'navigate'>(c, config.heartbeatMs, { stream, run: (ctx) => session.navigate(body, ctx) });
    },

    act: (c) => {
      const body = c.req.valid('json');
      const { session, stream, modelApiKey, cacheBypass } = prepare(c.get('projectId'), c.req.valid('param').id, c.req.valid('header'), body.streamResponse);
      let cacheStatus: 'HIT' | 'MISS' | undefined;
      return respond<'act'>(c, config.heartbeatMs, {
        stream,
        run: (ctx) => session.act(body, { ...ctx, modelApiKey, cacheBypass, onCacheStatus: (s: 'HIT' | 'MISS') => (cacheStatus = s) }),
        headers: (): Record<string, string> => (cacheStatus ? { 'browserbase-cache-status': cacheStatus } : {}),
      });
    },

    observe: (c) => {
      const body = c.req.valid('json');
      const { session, stream, modelApiKey } = prepare(c.get('projectId'), c.req.valid('param').id, c.req.valid('header'), body.streamResponse);
      return respond<'observe'>(c, config.heartbeatMs, { stream, run: (ctx) => session.observe(body, { ...ctx, modelApiKey }) });
    },

    extract: (c) => {
      const body = c.req.valid('json');
      const { session, stream, modelApiKey } = prepare(c.get('projectId'), c.req.valid('param').id, c.req.valid('header'), body.streamResponse);
      return respond<'extract'>(c, config.heartbeatMs, { stream, run: (ctx) => session.extract(body, { ...ctx, modelApiKey }) });
    },

    agentExecute: (c) => {
      const body = c.req.valid('json');
      const { session, stream, modelApiKey, cacheBypass } = prepare(c.get('projectId'), c.req.valid('param').id, c.req.valid('header'), body.streamResponse);
      // A mode or option this server cannot honour is refused before a stream opens.
      const plan = session.planAgent(body);
      // With shouldCache: the run's cache status (when the server's cache was used) and its entry.
      let cacheStatus: 'HIT' | 'MISS' | undefined;
      let cacheEntry: AgentCacheEntryOutput | undefined;
      const caching = body.shouldCache ? { onCacheStatus: (s: 'HIT' | 'MISS') => (cacheStatus = s), onCacheEntry: (e: AgentCacheEntryOutput) => (cacheEntry = e) } : {};
      return respond<'agentExecute'>(c, config.heartbeatMs, {
        stream,
        run: (ctx) => session.agentExecute(body, { ...ctx, modelApiKey, cacheBypass, ...caching }, plan),
        headers: (): Record<string, string> => (cacheStatus ? { 'browserbase-cache-status': cacheStatus } : {}),
        data: () => (cacheEntry ? { cacheEntry } : {}),
      });
    },
  };
}
