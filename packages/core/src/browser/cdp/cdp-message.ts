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
export type CdpCommandCheck = { command: CdpMessage & { id: number; method: string } } | { reply: CdpMessage };

/** Checks a client's command given as text (a websocket client). */
export function parseCdpCommand(text: string): CdpCommandCheck {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { reply: { error: { code: -32700, message: 'Message must be JSON' } } };
  }
  return checkCdpCommand(message);
}

/** Checks a client's command given as an object (a transport in this process). */
export function checkCdpCommand(message: unknown): CdpCommandCheck {
  const candidate = typeof message === 'object' && message !== null ? (message as CdpMessage) : undefined;
  if (typeof candidate?.id !== 'number' || typeof candidate.method !== 'string') {
    return { reply: { id: candidate?.id, error: { code: -32600, message: 'Message must have a numeric id and a method' } } };
  }
  return { command: candidate as CdpMessage & { id: number; method: string } };
}
