// A fetch for endpoints a request names itself (a model baseURL): the navigation policy decides each
// destination, as for navigate, so a client cannot point the server at its own loopback, private
// networks or a cloud metadata service, nor learn what listens there from the error. The connection
// goes only to the addresses checked, so a second DNS answer (rebinding) never gets a say.
import { Agent, fetch as undiciFetch } from 'undici';
import { DeckhandError } from '../errors.js';
import { canonicalHost, type IpAddress } from './ip-address.js';
import { decide, type NavigationPolicy } from './network-policy.js';
import { pinnedLookup } from './pinned-connection.js';
import { resolveHost } from './resolve-host.js';

/** Idle connections to a checked endpoint are dropped soon: each call checks and connects afresh. */
const KEEP_ALIVE_MS = 1_000;

/** A fetch that checks every request against `policy` and connects only to the addresses it checked. */
export function policyCheckedFetch(policy: NavigationPolicy): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const addresses = await assertEndpointAllowed(url, policy);
    const dispatcher = new Agent({ connect: { lookup: pinnedLookup(addresses) }, keepAliveTimeout: KEEP_ALIVE_MS });
    const send = undiciFetch as unknown as (input: RequestInfo | URL, init: RequestInit & { dispatcher: Agent }) => Promise<Response>;
    return send(input, { ...init, dispatcher });
  };
}

/**
 * 403 destination_blocked naming the endpoint's origin (never its userinfo, path or query) and the
 * rule; else the addresses the policy passed.
 */
export async function assertEndpointAllowed(url: string, policy: NavigationPolicy): Promise<IpAddress[]> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new DeckhandError('destination_blocked', `Model endpoint ${parsed.protocol} URLs are not allowed: use http or https`);
  }
  const host = canonicalHost(parsed.hostname) ?? parsed.hostname;
  // A name that does not resolve is checked by name alone; the call then fails to connect anyway.
  const addresses = await resolveHost(host).catch(() => []);
  const verdict = decide(policy, host, addresses);
  if (!verdict.allowed) {
    throw new DeckhandError('destination_blocked', `Model endpoint ${parsed.origin} is blocked by the navigation policy: ${verdict.reason}`);
  }
  return addresses;
}
