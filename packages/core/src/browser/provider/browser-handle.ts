// What a session holds of its browser, whether Deckhand launched it or attached to it.
import type { BrowserContext } from 'playwright-core';
import type { CdpChannel } from '../cdp/cdp-mux.js';
import type { PolicyProxy } from '../../network/policy-proxy.js';

export interface BrowserHandle {
  /** The context the session drives; its first page is the session's page. */
  readonly context: BrowserContext;
  /** A browser-level DevTools connection for another client (the server relays it to a websocket). */
  openCdp(): Promise<CdpChannel>;
  /** The browser process, when Deckhand launched it. */
  readonly pid?: number;
  /** The proxy a launched browser's connections go through (an attached browser has none). */
  readonly policyProxy?: PolicyProxy;
  isConnected(): boolean;
  /** Runs once if the browser goes away without close() (crash, kill, remote end). */
  onLost(listener: () => void): void;
  /** Kills a launched browser (and its temp profile); only disconnects from an attached one. */
  close(): Promise<void>;
}
