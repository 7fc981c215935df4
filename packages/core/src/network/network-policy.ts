// Where a session's browser may connect. Link-local and cloud metadata addresses never; loopback and
// private networks as the operator's default says (denied on a shared server); then the operator's
// DECKHAND_NAV_DENY and DECKHAND_NAV_ALLOW lists of hosts, *.domains, addresses and CIDR ranges.
import { DeckhandError } from '../errors.js';
import { canonicalHost, formatIp, inCidr, parseCidr, parseIp, type Cidr, type IpAddress } from './ip-address.js';

/** Loopback and private networks: allowed for one developer on an open loopback server, denied on a shared one. */
export type LocalNetworks = 'allow' | 'deny';

export interface NavigationPolicy {
  /** Lifts the loopback/private default for what it matches; never the link-local and metadata denial. */
  allow: PolicyRule[];
  /** Wins over allow. */
  deny: PolicyRule[];
  localNetworks: LocalNetworks;
}

/** One list entry; `entry` is its canonical spelling, used in reasons. */
export type PolicyRule =
  | { kind: 'host'; entry: string; host: string }
  | { kind: 'domain'; entry: string; domain: string }
  | { kind: 'cidr'; entry: string; cidr: Cidr };

export type Verdict = { allowed: true } | { allowed: false; reason: string };

export const OPEN_LOOPBACK_POLICY: NavigationPolicy = { allow: [], deny: [], localNetworks: 'allow' };

const ALWAYS_DENIED = ranges(
  '169.254.0.0/16', // IPv4 link-local, home of most clouds' metadata services (169.254.169.254, 169.254.170.2)
  'fe80::/10', // IPv6 link-local
  'fd00:ec2::254', // AWS instance metadata over IPv6
  'fd00:ec2::23', // AWS EKS pod identity over IPv6
  '100.100.100.200', // Alibaba Cloud metadata
  '192.0.0.192', // Oracle Cloud Classic metadata
);
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);
const LOCAL_RANGES: Array<[string, Cidr[]]> = [
  // The unspecified address (0.0.0.0, ::) connects to this machine, so it counts as loopback.
  ['loopback', ranges('127.0.0.0/8', '0.0.0.0/8', '::1/128', '::/128')],
  ['private', ranges('10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7', 'fec0::/10')],
];
/** NAT64's well-known prefix carries an IPv4 address that its gateway connects to. */
const NAT64 = ranges('64:ff9b::/96')[0]!;

/** Parses a comma-separated list (an env variable's value); an entry that is none of the forms is an error naming it. */
export function parsePolicyRules(text: string, variable: string): PolicyRule[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const rule = parseRule(entry);
      if (!rule) throw new DeckhandError('validation_error', `${variable}: "${entry}" is not a host, *.domain, IP address or CIDR range`);
      return rule;
    });
}

/**
 * The decision for a canonical host and the addresses it resolved to (an IP literal is its own one
 * address; no addresses means only the name can be checked). Every address must pass.
 */
export function decide(policy: NavigationPolicy, host: string, addresses: IpAddress[]): Verdict {
  const name = parseIp(host) ? undefined : host;
  const subject = (ip: IpAddress) => (name ? `${name} (${formatIp(ip)})` : formatIp(ip));
  const checked = addresses.flatMap(withEmbedded);
  if (name && METADATA_HOSTS.has(name)) return denied(`${name} is a cloud metadata host, which sessions may never reach`);
  const always = checked.find((ip) => ALWAYS_DENIED.some((range) => inCidr(ip, range)));
  if (always) return denied(`${subject(always)} is a link-local or cloud metadata address, which sessions may never reach`);

  const nameDenied = name && policy.deny.find((rule) => matchesName(rule, name));
  if (nameDenied) return denied(`${name} matches DECKHAND_NAV_DENY entry ${nameDenied.entry}`);
  for (const ip of checked) {
    const rule = policy.deny.find((candidate) => matchesIp(candidate, ip));
    if (rule) return denied(`${subject(ip)} matches DECKHAND_NAV_DENY entry ${rule.entry}`);
  }

  if (policy.localNetworks === 'allow' || (name && policy.allow.some((rule) => matchesName(rule, name)))) return { allowed: true };
  for (const ip of checked) {
    const local = LOCAL_RANGES.find(([, cidrs]) => cidrs.some((range) => inCidr(ip, range)));
    if (local && !policy.allow.some((rule) => matchesIp(rule, ip))) {
      return denied(
        `${subject(ip)} is a ${local[0]} address; on a server with API keys those are denied unless DECKHAND_NAV_ALLOW lists them`,
      );
    }
  }
  return { allowed: true };
}

function parseRule(entry: string): PolicyRule | undefined {
  const cidr = parseCidr(entry);
  if (cidr) return { kind: 'cidr', entry: `${formatIp(cidr.address)}/${cidr.prefix}`, cidr };
  const wildcard = entry.startsWith('*.');
  const host = canonicalHost(wildcard ? entry.slice(2) : entry);
  if (host === undefined || parseIp(host) || host.includes('*')) return undefined;
  return wildcard ? { kind: 'domain', entry: `*.${host}`, domain: host } : { kind: 'host', entry: host, host };
}

function matchesName(rule: PolicyRule, name: string): boolean {
  if (rule.kind === 'host') return rule.host === name;
  return rule.kind === 'domain' && name.endsWith(`.${rule.domain}`);
}

function matchesIp(rule: PolicyRule, ip: IpAddress): boolean {
  return rule.kind === 'cidr' && inCidr(ip, rule.cidr);
}

function withEmbedded(ip: IpAddress): IpAddress[] {
  return inCidr(ip, NAT64) ? [ip, { family: 4, bytes: ip.bytes.slice(12) }] : [ip];
}

function denied(reason: string): Verdict {
  return { allowed: false, reason };
}

function ranges(...texts: string[]): Cidr[] {
  return texts.map((text) => parseCidr(text)!);
}
