// URLs on this server as its clients reach it: on DECKHAND_PUBLIC_URL (whose path is a prefix) when
// the operator set one, else on the origin the request came in on.
export function publicUrl(requestUrl: string, configured: string | undefined, path: string): URL {
  const url = new URL(configured ?? requestUrl);
  const prefix = configured ? url.pathname.replace(/\/$/, '') : '';
  url.pathname = `${prefix}${path}`;
  url.search = '';
  url.hash = '';
  return url;
}
