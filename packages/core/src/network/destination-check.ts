// navigate's own check of a destination, before the browser sends anything: the same policy the
// browser's proxy enforces, so a refused navigation is a clear error rather than a proxy's 403 page.
import { DeckhandError } from '../errors.js';
import { canonicalHost } from './ip-address.js';
import { decide, type NavigationPolicy } from './network-policy.js';
import { resolveHost } from './resolve-host.js';

export async function assertDestinationAllowed(url: string, policy: NavigationPolicy): Promise<void> {
  const { protocol, hostname } = new URL(url);
  if (protocol !== 'http:' && protocol !== 'https:') return;
  const host = canonicalHost(hostname) ?? hostname;
  // A host that does not resolve here is the browser's to fail (its proxy checks the name too).
  const addresses = await resolveHost(host).catch(() => []);
  const verdict = decide(policy, host, addresses);
  if (!verdict.allowed) throw destinationBlocked(url, verdict.reason);
}

export function destinationBlocked(url: string, reason: string): DeckhandError {
  return new DeckhandError('destination_blocked', `Navigation to ${url} is blocked by the navigation policy: ${reason}`);
}
