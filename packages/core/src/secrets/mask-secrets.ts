// Masks secret values (what a client sent as variables) in anything read back from a page: snapshot
// lines, page text, operation results. A value of SHORT_SECRET characters or fewer is masked only where
// it stands alone (not inside a longer word or number): masking every "at" inside "cats" would wreck
// the text while hiding nothing, since the word does not tell the value apart from its letters.
// A value is masked in the forms a page or an address gives it too: percent-encoded (a GET form puts
// what was typed into the URL), form-encoded with `+`, and HTML-escaped (a template echoing it).

export const MASK = '••••';

/** Values this long or shorter are masked as whole tokens, longer ones wherever they occur. */
export const SHORT_SECRET = 3;

/** `text` with every occurrence of the secrets replaced by MASK. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  // Longest first, so a value that contains another is masked whole.
  const ordered = [...new Set(secrets.filter((s) => s.length > 0).flatMap(encodedForms))].sort((a, b) => b.length - a.length);
  return ordered.reduce((masked, secret) => replaceSecret(masked, secret, MASK), text);
}

/**
 * `text` with `secret` replaced: everywhere, or only where it stands alone when it is `shortUpTo`
 * characters or fewer (a client masks API keys shorter than a real key's length that way).
 */
export function replaceSecret(text: string, secret: string, replacement: string, shortUpTo = SHORT_SECRET): string {
  if (!text.includes(secret)) return text;
  if (secret.length > shortUpTo) return text.split(secret).join(replacement);
  return text.replace(standalone(secret), () => replacement);
}

/** A copy of `value` with every string in it (deep: arrays, object values) masked; other values as they are. */
export function maskSecretsDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const visit = (item: unknown): unknown => {
    if (typeof item === 'string') return maskSecrets(item, secrets);
    if (Array.isArray(item)) return item.map(visit);
    if (item !== null && typeof item === 'object') return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, visit(inner)]));
    return item;
  };
  return visit(value) as T;
}

/** `secret` as typed and as the encodings a page or address commonly gives it, each once. */
export function encodedForms(secret: string): string[] {
  const component = encodeURIComponent(secret);
  const forms = [
    secret,
    component,
    component.replace(/%20/g, '+'),
    new URLSearchParams([['', secret]]).toString().slice(1), // the browser's form encoding: `+`, and `!'()~` escaped too
    encodeURI(secret),
    ...htmlEscaped(secret),
  ];
  return [...new Set(forms)];
}

/** `secret` HTML-escaped, with the two spellings of an apostrophe templates use. */
function htmlEscaped(secret: string): string[] {
  const escaped = secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return [escaped.replace(/'/g, '&#39;'), escaped.replace(/'/g, '&#x27;')];
}

/** The secret as a whole token: not preceded or followed by a letter or digit. */
function standalone(secret: string): RegExp {
  const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'gu');
}
