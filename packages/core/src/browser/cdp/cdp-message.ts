// The CDP wire message every channel of the relay handles, and the one check of a client's command that
// CDP answers itself (JSON with a numeric id and a method), with the errors Chromium gives.

export interface CdpMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  sessionId?: string;
  result?: Record<string, unknown>;
  error?: { code?: number; message?: string };
}

/** A message from the browser's side, or undefined for one that is not a JSON object (never answered). */
export function parseCdpMessage(text: string): CdpMessage | undefined {
  try {
    const message = JSON.parse(text) as CdpMessage | null;
    return typeof message === 'object' && message !== null ? message : undefined;
  } catch {
    return undefined;
  }
}

/** A client's command with its id and method, or the error reply to send back instead. */
export function parseCdpCommand(text: string): { command: CdpMessage & { id: number; method: string } } | { reply: CdpMessage } {
  let message: CdpMessage | null;
  try {
    message = JSON.parse(text) as CdpMessage | null;
  } catch {
    return { reply: { error: { code: -32700, message: 'Message must be JSON' } } };
  }
  if (typeof message !== 'object' || message === null || typeof message.id !== 'number' || typeof message.method !== 'string') {
    const id = typeof message === 'object' && message !== null ? message.id : undefined;
    return { reply: { id, error: { code: -32600, message: 'Message must have a numeric id and a method' } } };
  }
  return { command: message as CdpMessage & { id: number; method: string } };
}
