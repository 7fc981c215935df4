// Token counting at runtime must be cheap: a character heuristic calibrated on snapshot outlines
// against the o200k tokenizer (bench/snapshot.ts prints both, so drift shows up there).

/** Outline text averages about 3.0 characters per o200k token (indentation, ids, quotes, short words). */
const CHARS_PER_TOKEN = 3.0;

/** Estimated model tokens of a text. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
