// A fetch for endpoints a request names itself (a model baseURL): the navigation policy decides each
// destination, as for navigate, so a client cannot point the server at its own loopback, private
// networks or a cloud metadata service, nor learn what listens there from the error.
import { DeckhandError } from '../errors.js';
import { canonicalHost } from './ip-address.js';
import { decide, type NavigationPolicy } from './network-policy.js';
import { resolveHost } from './resolve-host.js';

/** Wraps `base` so that every request is checked against `policy` before it is sent. */
export function policyCheckedFetch(policy: NavigationPolicy, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    await assertEndpointAllowed(input instanceof Request ? input.url : String(input), policy);
    return base(input, init);
  };
}

/** 403 destination_blocked naming the endpoint's origin (never its userinfo, path or query) and the rule. */
export async function assertEndpointAllowed(url: string, policy: NavigationPolicy): Promise<void> {
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
}
