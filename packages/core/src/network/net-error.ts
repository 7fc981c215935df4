// Connection failures of the policy proxy, named as Chromium names them (net::ERR_…), so a navigation
// that fails behind the proxy reports what it would have reported without it.

/** A failure that already has its Chromium name (a refused tunnel, a SOCKS reply). */
export class NetError extends Error {
  constructor(readonly netError: string) {
    super(`net::${netError}`);
    this.name = 'NetError';
  }
}

const BY_ERRNO: Record<string, string> = {
  ECONNREFUSED: 'ERR_CONNECTION_REFUSED',
  ECONNRESET: 'ERR_CONNECTION_RESET',
  ETIMEDOUT: 'ERR_CONNECTION_TIMED_OUT',
  EHOSTUNREACH: 'ERR_ADDRESS_UNREACHABLE',
  ENETUNREACH: 'ERR_ADDRESS_UNREACHABLE',
  ENOTFOUND: 'ERR_NAME_NOT_RESOLVED',
  EAI_AGAIN: 'ERR_NAME_NOT_RESOLVED',
};

export function netErrorOf(error: unknown): string {
  if (error instanceof NetError) return error.netError;
  const code = (error as { code?: unknown } | undefined)?.code;
  return (typeof code === 'string' && BY_ERRNO[code]) || 'ERR_CONNECTION_FAILED';
}
