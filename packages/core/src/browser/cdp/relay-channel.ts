// A relayed client's CDP channel: every command passes the relay's allowlist (relay-allowlist.ts) before it
// reaches the browser, in the order the client sent it (a check that waits, for a DNS answer or a path,
// holds the commands behind it). Replies and events pass as they are.
import type { CdpChannel } from './cdp-mux.js';
import { parseCdpCommand } from './cdp-message.js';
import { checkRelayCommand, type RelayScope } from './relay-allowlist.js';

/** CDP's code for a command the server will not run. */
const REFUSED = -32000;

export function relayChannel(inner: CdpChannel, scope: RelayScope): CdpChannel {
  const listeners: Array<(message: string) => void> = [];
  const deliver = (message: unknown) => {
    const text = JSON.stringify(message);
    for (const listener of listeners) listener(text);
  };
  let queue = Promise.resolve();

  async function pass(text: string): Promise<void> {
    const parsed = parseCdpCommand(text);
    if ('reply' in parsed) return deliver(parsed.reply);
    const command = parsed.command;
    const params: unknown = command.params ?? {};
    if (typeof params !== 'object' || Array.isArray(params) || params === null) {
      return deliver({ id: command.id, sessionId: command.sessionId, error: { code: -32602, message: 'params must be an object' } });
    }
    const verdict = await checkRelayCommand(command.method, params as Record<string, unknown>, scope).catch(() => ({ refused: 'its parameters could not be checked' }));
    if ('refused' in verdict) {
      return deliver({ id: command.id, sessionId: command.sessionId, error: { code: REFUSED, message: `${command.method} is not available through the relay: ${verdict.refused}` } });
    }
    inner.send(JSON.stringify({ ...command, params: verdict.params }));
  }

  inner.onMessage((message) => {
    for (const listener of listeners) listener(message);
  });
  return {
    send: (text) => {
      queue = queue.then(() => pass(text)).catch(() => undefined);
    },
    onMessage: (listener) => listeners.push(listener),
    onClose: (listener) => inner.onClose(listener),
    close: () => inner.close(),
  };
}
