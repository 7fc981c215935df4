// URLs on this server as its clients reach it: on DECKHAND_PUBLIC_URL (whose path is a prefix) when the
// operator set one, else on the address the server listens on. Never on a request's Host header: these
// URLs carry tokens, and a Host of the client's choosing would put them on a host of its choosing.
import { hostname } from 'node:os';

/** Where returned URLs are built; `publicUrl` is filled in once the server listens (see listenOrigin). */
export interface PublicOrigin {
  publicUrl?: string;
}

export function publicUrl(requestUrl: string, configured: string | undefined, path: string): URL {
  // startServer sets `configured` before the first request can arrive; the request's own URL is left
  // only for an app served some other way.
  const url = new URL(configured ?? requestUrl);
  const prefix = configured ? url.pathname.replace(/\/$/, '') : '';
  url.pathname = `${prefix}${path}`;
  url.search = '';
  url.hash = '';
  return url;
}

/** The origin of a listener: its bind address, or this machine's name when it listens on every interface. */
export function listenOrigin(host: string, port: number): string {
  const wildcard = host === '0.0.0.0' || host === '::' || host === '[::]';
  const name = wildcard ? hostname() : host;
  return `http://${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}:${port}`;
}
