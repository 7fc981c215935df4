// IP addresses and CIDR ranges as bytes, so the navigation policy compares addresses, not spellings:
// 2130706433, 0x7f.1, 127.1 and [::ffff:127.0.0.1] are all 127.0.0.1 here, as they are to Chromium.
import { isIPv4, isIPv6 } from 'node:net';

export interface IpAddress {
  family: 4 | 6;
  /** 4 or 16 bytes, network order. */
  bytes: number[];
}

export interface Cidr {
  address: IpAddress;
  prefix: number;
}

/**
 * A host as a URL carries it: lowercased, IDN in punycode, IPv4 in any of the forms browsers accept
 * (decimal, octal, hex, fewer than four parts) made dotted-decimal, IPv6 without brackets, no
 * trailing dot. Undefined when it is no valid URL host.
 */
export function canonicalHost(raw: string): string | undefined {
  const text = raw.trim();
  if (!text || /[/?#@\\\s]/.test(text)) return undefined;
  // A port would be parsed and dropped silently; only an IPv6 literal may hold colons.
  if (text.includes(':') && !isIPv6(text) && !/^\[[^\]]*\]$/.test(text)) return undefined;
  try {
    // The WHATWG parser canonicalises hosts the way Chromium's does.
    const host = new URL(`http://${isIPv6(text) ? `[${text}]` : text}/`).hostname;
    const bare = host.startsWith('[') ? host.slice(1, -1) : host;
    return bare.endsWith('.') ? bare.slice(0, -1) : bare;
  } catch {
    return undefined;
  }
}

/** The address a canonical host (or a resolver's answer) names; undefined for a host name. */
export function parseIp(host: string): IpAddress | undefined {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIPv4(bare)) return { family: 4, bytes: bare.split('.').map(Number) };
  if (!isIPv6(bare)) return undefined;
  const bytes = ipv6Bytes(bare);
  // An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is that IPv4 address on the wire.
  if (bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return { family: 4, bytes: bytes.slice(12) };
  }
  return { family: 6, bytes };
}

/** `a.b.c.d/n`, `x::y/n`, or a single address (a full-length prefix); undefined if it is neither. */
export function parseCidr(text: string): Cidr | undefined {
  const slash = text.indexOf('/');
  const host = canonicalHost(slash < 0 ? text : text.slice(0, slash));
  const address = host === undefined ? undefined : parseIp(host);
  if (!address) return undefined;
  const bits = address.bytes.length * 8;
  if (slash < 0) return { address, prefix: bits };
  const prefixText = text.slice(slash + 1).trim();
  let prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  // ::ffff:0:0/96 and narrower name IPv4 ranges, which parseIp already turned into IPv4.
  if (address.family === 4 && isIPv6(host!)) prefix -= 96;
  if (!(prefix >= 0 && prefix <= bits)) return undefined;
  return { address, prefix };
}

export function inCidr(ip: IpAddress, cidr: Cidr): boolean {
  if (ip.family !== cidr.address.family) return false;
  for (let bit = 0; bit < cidr.prefix; bit += 8) {
    const mask = (0xff << (8 - Math.min(8, cidr.prefix - bit))) & 0xff;
    if ((ip.bytes[bit / 8]! & mask) !== (cidr.address.bytes[bit / 8]! & mask)) return false;
  }
  return true;
}

export function formatIp(ip: IpAddress): string {
  if (ip.family === 4) return ip.bytes.join('.');
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push(((ip.bytes[i]! << 8) | ip.bytes[i + 1]!).toString(16));
  // The URL parser writes IPv6 in its canonical compressed form.
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
}

/** 16 bytes of a valid IPv6 literal (a zone id is dropped: it picks an interface, not an address). */
function ipv6Bytes(text: string): number[] {
  const [head = '', tail] = text.split('%')[0]!.split('::');
  const groups = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const zeros = new Array<number>(8 - front.length - back.length).fill(0);
  return [...front, ...zeros, ...back].flatMap((group) => [group >> 8, group & 0xff]);
}
