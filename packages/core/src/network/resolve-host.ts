// The addresses a destination host stands for, checked by the navigation policy before any connection.
import { lookup } from 'node:dns/promises';
import { parseIp, type IpAddress } from './ip-address.js';

/** localhost and *.localhost are loopback whatever DNS says, as in Chromium. */
const LOCALHOST = [parseIp('127.0.0.1')!, parseIp('::1')!];

/** Every address of a canonical host (an IP literal is its own one address); rejects when it does not resolve. */
export async function resolveHost(host: string): Promise<IpAddress[]> {
  const literal = parseIp(host);
  if (literal) return [literal];
  if (host === 'localhost' || host.endsWith('.localhost')) return LOCALHOST;
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.flatMap((answer) => parseIp(answer.address) ?? []);
}
