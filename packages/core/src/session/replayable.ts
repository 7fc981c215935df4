// What history keeps of a request or a result: a bounded, plain-JSON copy. Replay serialises the
// whole history on every call for the life of the session, so whatever an operation was given or
// produced (a schema nested thousands deep, a cycle, a BigInt, a 300 KB string) must never make it
// throw or grow without bound.

/** Deeper nesting is kept as a marker string. */
export const MAX_RECORDED_DEPTH = 32;
/** Longer strings are cut, with a note of how much was left out. */
export const MAX_RECORDED_STRING = 16_384;
/** Longer arrays and objects keep their first entries and a note of how many were left out. */
export const MAX_RECORDED_ENTRIES = 200;

export function replayable(value: unknown): unknown {
  try {
    return copy(value, 0, new Set());
  } catch {
    // A getter or proxy that throws: nothing of it can be kept faithfully.
    return '[not recordable]';
  }
}

function copy(value: unknown, depth: number, ancestors: Set<object>): unknown {
  switch (typeof value) {
    case 'string':
      return value.length > MAX_RECORDED_STRING ? `${value.slice(0, MAX_RECORDED_STRING)}… (${value.length - MAX_RECORDED_STRING} more characters)` : value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    default:
      // undefined, functions and symbols have no JSON form.
      return null;
  }
  if (value === null) return null;
  if (ancestors.has(value)) return '[circular]';
  if (depth >= MAX_RECORDED_DEPTH) return `[nested deeper than ${MAX_RECORDED_DEPTH} levels]`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Error) return { error: value.message };
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const kept = value.slice(0, MAX_RECORDED_ENTRIES).map((item) => copy(item, depth + 1, ancestors));
      if (value.length > MAX_RECORDED_ENTRIES) kept.push(`… ${value.length - MAX_RECORDED_ENTRIES} more items`);
      return kept;
    }
    const entries = Object.entries(value);
    const out: Record<string, unknown> = {};
    for (const [key, item] of entries.slice(0, MAX_RECORDED_ENTRIES)) {
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      // defineProperty, so a key named __proto__ stays data instead of becoming the prototype.
      Object.defineProperty(out, key, { value: copy(item, depth + 1, ancestors), enumerable: true, writable: true, configurable: true });
    }
    if (entries.length > MAX_RECORDED_ENTRIES) out['…'] = `${entries.length - MAX_RECORDED_ENTRIES} more properties`;
    return out;
  } finally {
    ancestors.delete(value);
  }
}
