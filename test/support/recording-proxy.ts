// An HTTP proxy that records the bytes clients send it (request lines, CONNECTs, Proxy-Authorization):
// a policy proxy with the open policy, behind a recording relay. Stands in for a session's own proxy.
import { connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { OPEN_LOOPBACK_POLICY } from '../../packages/core/src/network/network-policy.js';
import { startPolicyProxy } from '../../packages/core/src/network/policy-proxy.js';

export interface RecordingProxy {
  url: string;
  /** Everything clients sent, as latin1 text. */
  seen(): string;
  close(): Promise<void>;
}

export async function startRecordingProxy(): Promise<RecordingProxy> {
  const inner = await startPolicyProxy(OPEN_LOOPBACK_POLICY);
  const innerPort = Number(new URL(inner.url).port);
  let seen = '';
  const relay = createServer((client) => {
    const upstream = connect(innerPort, '127.0.0.1');
    client.on('data', (chunk: Buffer) => (seen += chunk.toString('latin1')));
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy()).on('close', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
    seen: () => seen,
    close: async () => {
      await new Promise((resolve) => relay.close(resolve));
      await inner.close();
    },
  };
}
