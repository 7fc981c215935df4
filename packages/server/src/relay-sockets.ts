// A cap on the DevTools websockets (cdpUrl and debugUrl connections) a project holds open at once: each
// is a DevTools session in a browser, and one client opening hundreds would weigh on every session of
// that browser. Past the cap an upgrade is answered 429 naming the bound; closing one frees its place.
import { DeckhandError, KeyedCounts, type CdpChannel } from '@deckhand/core';
import { reject } from './serve/adapter';
import type { UpgradeDecision } from './serve/adapter';

export interface RelaySockets {
  /** The decision as it stands, or a 429 when the project is at its cap; an admitted socket is counted until it closes. */
  admit(decision: UpgradeDecision): UpgradeDecision;
}

/** `limit` 0: no cap. */
export function relaySockets(limit: number): RelaySockets {
  const open = new KeyedCounts();
  const full = (projectId: string) => limit > 0 && open.get(projectId) >= limit;
  const refusal = () =>
    new DeckhandError('rate_limited', `This project has ${limit} DevTools connections open, its most at once (DECKHAND_PROJECT_RELAY_SOCKETS); close one and retry`);

  return {
    admit(decision) {
      if (!('open' in decision)) return decision;
      const { projectId } = decision;
      if (full(projectId)) return reject(refusal());
      return {
        projectId,
        // Counted from the moment the socket is joined: upgrades racing past the check above stop here.
        open: async (): Promise<CdpChannel> => {
          if (full(projectId)) throw refusal();
          open.add(projectId);
          let channel: CdpChannel;
          try {
            channel = await decision.open();
          } catch (error) {
            open.release(projectId);
            throw error;
          }
          let released = false;
          channel.onClose(() => {
            if (!released) open.release(projectId);
            released = true;
          });
          return channel;
        },
      };
    },
  };
}
