// The navigation policy's decisions, for every spelling of an address the browser accepts.
import { describe, expect, it } from 'vitest';
import { canonicalHost, formatIp, parseCidr, parseIp } from '../src/network/ip-address.js';
import { decide, OPEN_LOOPBACK_POLICY, parsePolicyRules, type NavigationPolicy } from '../src/network/network-policy.js';
import { resolveHost } from '../src/network/resolve-host.js';
import { loadCoreConfigFromEnv } from '../src/config.js';

const SHARED: NavigationPolicy = { allow: [], deny: [], localNetworks: 'deny' };

/** The decision for a URL's host, resolved as the proxy resolves it. */
async function verdictFor(url: string, policy: NavigationPolicy) {
  const host = canonicalHost(new URL(url).hostname)!;
  return decide(policy, host, await resolveHost(host));
}

describe('address normalisation', () => {
  it('reads every form Chromium accepts as the one address it is', () => {
    const forms: Array<[string, string]> = [
      ['2130706433', '127.0.0.1'],
      ['0x7f.1', '127.0.0.1'],
      ['0177.0.0.1', '127.0.0.1'],
      ['127.1', '127.0.0.1'],
      ['[::ffff:127.0.0.1]', '127.0.0.1'],
      ['::ffff:7f00:1', '127.0.0.1'],
      ['[::1]', '::1'],
      ['0.0.0.0', '0.0.0.0'],
      ['[0:0:0:0:0:0:0:0]', '::'],
      ['0xA9FEA9FE', '169.254.169.254'],
      ['[FD00:EC2:0::254]', 'fd00:ec2::254'],
    ];
    for (const [raw, address] of forms) expect(formatIp(parseIp(canonicalHost(raw)!)!), raw).toBe(address);
    expect(canonicalHost('Example.COM.')).toBe('example.com');
    expect(canonicalHost('example.com:80')).toBeUndefined();
    expect(parseIp('example.com')).toBeUndefined();
    expect(parseCidr('::ffff:10.0.0.0/104')).toEqual({ address: { family: 4, bytes: [10, 0, 0, 0] }, prefix: 8 });
  });
});

describe('defaults', () => {
  it('always denies link-local and cloud metadata addresses, even on an open loopback server and when allowed', async () => {
    const allowingAll = { ...OPEN_LOOPBACK_POLICY, allow: parsePolicyRules('169.254.0.0/16,metadata.google.internal', 'X') };
    for (const policy of [OPEN_LOOPBACK_POLICY, SHARED, allowingAll]) {
      for (const url of [
        'http://169.254.169.254/latest/meta-data/',
        'http://0xA9FEA9FE/',
        'http://[::ffff:169.254.169.254]/',
        'http://[fe80::1]/',
        'http://[fd00:ec2::254]/',
        'http://100.100.100.200/',
        'http://[64:ff9b::a9fe:a9fe]/',
      ]) {
        expect(await verdictFor(url, policy), url).toMatchObject({ allowed: false, reason: expect.stringContaining('link-local or cloud metadata') });
      }
      // Denied by name, whether or not it resolves here.
      expect(decide(policy, canonicalHost('metadata.google.internal.')!, [])).toMatchObject({
        allowed: false,
        reason: 'metadata.google.internal is a cloud metadata host, which sessions may never reach',
      });
    }
  });

  it('denies loopback and private addresses on a shared server, in every spelling', async () => {
    const loopback = [
      'http://127.0.0.1:8080/',
      'http://0.0.0.0/',
      'http://[::ffff:127.0.0.1]/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[::1]/',
      'http://[::]/',
      'http://localhost/',
      'http://app.localhost/',
    ];
    for (const url of loopback) {
      expect(await verdictFor(url, SHARED), url).toMatchObject({ allowed: false, reason: expect.stringContaining('is a loopback address') });
    }
    for (const url of ['http://10.1.2.3/', 'http://172.31.0.1/', 'http://192.168.1.1/', 'http://100.64.0.1/', 'http://[fd12::1]/']) {
      expect(await verdictFor(url, SHARED), url).toMatchObject({ allowed: false, reason: expect.stringContaining('is a private address') });
    }
    expect(await verdictFor('http://localhost/', SHARED)).toEqual({
      allowed: false,
      reason: 'localhost (127.0.0.1) is a loopback address; on a server with API keys those are denied unless DECKHAND_NAV_ALLOW lists them',
    });
  });

  it('allows loopback and private addresses on an open loopback server, and public ones everywhere', async () => {
    for (const url of ['http://127.0.0.1/', 'http://localhost/', 'http://10.0.0.1/', 'http://[::1]/']) {
      expect(await verdictFor(url, OPEN_LOOPBACK_POLICY), url).toEqual({ allowed: true });
    }
    expect(await verdictFor('http://93.184.215.14/', SHARED)).toEqual({ allowed: true });
  });
});

describe('operator lists', () => {
  it('lets an allow entry lift the loopback/private default for what it matches, and nothing else', async () => {
    const policy = { ...SHARED, allow: parsePolicyRules('127.0.0.1, 10.1.2.0/24, *.corp.example', 'DECKHAND_NAV_ALLOW') };
    expect(await verdictFor('http://127.0.0.1:3000/', policy)).toEqual({ allowed: true });
    expect(await verdictFor('http://2130706433/', policy)).toEqual({ allowed: true });
    expect(await verdictFor('http://127.0.0.2/', policy)).toMatchObject({ allowed: false });
    expect(await verdictFor('http://10.1.2.9/', policy)).toEqual({ allowed: true });
    expect(await verdictFor('http://10.1.3.9/', policy)).toMatchObject({ allowed: false });
    // A name the operator allowed may resolve into a private network.
    expect(decide(policy, 'wiki.corp.example', [parseIp('10.9.9.9')!])).toEqual({ allowed: true });
    expect(decide(policy, 'corp.example', [parseIp('10.9.9.9')!])).toMatchObject({ allowed: false });
    // localhost also stands for ::1, which 127.0.0.1 does not cover.
    expect(await verdictFor('http://localhost/', policy)).toMatchObject({ allowed: false, reason: expect.stringContaining('localhost (::1)') });
  });

  it('lets deny win over allow, by name or by any resolved address', async () => {
    const policy: NavigationPolicy = {
      localNetworks: 'allow',
      allow: parsePolicyRules('*.example.com, 203.0.113.0/24', 'DECKHAND_NAV_ALLOW'),
      deny: parsePolicyRules('ads.example.com, 203.0.113.7, 198.51.100.0/24', 'DECKHAND_NAV_DENY'),
    };
    expect(decide(policy, 'ads.example.com', [])).toEqual({ allowed: false, reason: 'ads.example.com matches DECKHAND_NAV_DENY entry ads.example.com' });
    expect(decide(policy, 'cdn.example.com', [parseIp('93.184.215.14')!, parseIp('198.51.100.3')!])).toEqual({
      allowed: false,
      reason: 'cdn.example.com (198.51.100.3) matches DECKHAND_NAV_DENY entry 198.51.100.0/24',
    });
    expect(await verdictFor('http://203.0.113.7/', policy)).toMatchObject({ allowed: false });
    expect(await verdictFor('http://[::ffff:203.0.113.7]/', policy)).toMatchObject({ allowed: false });
    expect(await verdictFor('http://203.0.113.8/', policy)).toEqual({ allowed: true });
  });

  it('reads lists from the environment once, and refuses entries that are none of the forms', () => {
    const config = loadCoreConfigFromEnv({ DECKHAND_NAV_ALLOW: '127.0.0.1,*.Intranet.Example', DECKHAND_NAV_DENY: '0x0a000001' });
    expect(config.navigationPolicy.localNetworks).toBe('deny');
    expect(config.navigationPolicy.allow.map((rule) => rule.entry)).toEqual(['127.0.0.1/32', '*.intranet.example']);
    expect(config.navigationPolicy.deny.map((rule) => rule.entry)).toEqual(['10.0.0.1/32']);
    expect(loadCoreConfigFromEnv({}, { shared: false }).navigationPolicy.localNetworks).toBe('allow');
    for (const bad of ['http://x.example/', 'example.com:80', '10.0.0.0/33', '*', 'a b']) {
      expect(() => loadCoreConfigFromEnv({ DECKHAND_NAV_DENY: bad }), bad).toThrow(/DECKHAND_NAV_DENY: ".*" is not a host/);
    }
  });
});
