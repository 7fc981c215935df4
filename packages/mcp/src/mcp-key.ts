// The key an MCP request presents, in the spec's order: Authorization: Bearer, then x-bb-api-key, then
// the deprecated browserbaseApiKey query parameter (for clients that cannot set headers).
export interface PresentedKey {
  key: string;
  /** Came in the query string: accepted, and the caller logs it as deprecated. */
  deprecated: boolean;
}

export function presentedMcpKey(request: Request): PresentedKey | undefined {
  const bearer = request.headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
  if (bearer) return { key: bearer, deprecated: false };
  const header = request.headers.get('x-bb-api-key');
  if (header) return { key: header, deprecated: false };
  const query = new URL(request.url).searchParams.get('browserbaseApiKey');
  return query ? { key: query, deprecated: true } : undefined;
}
