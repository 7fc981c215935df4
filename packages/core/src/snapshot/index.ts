// The page snapshot: what the model reads of a page, and the element table its ids point into.

export { captureSnapshot, DEFAULT_TOKEN_BUDGET } from './capture.js';
export { estimateTokens } from './tokens.js';
export type { PageSnapshot, SnapshotElement } from './types.js';
