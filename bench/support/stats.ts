// Order statistics for bench tables: medians and tails over a handful of rounds on a shared machine.

function sorted(values: number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** The arithmetic mean (NaN for no values). */
export function mean(values: number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

/** The upper middle value (NaN for no values). */
export function median(values: number[]): number {
  return values.length === 0 ? Number.NaN : sorted(values)[Math.floor(values.length / 2)]!;
}

/** Nearest rank: the smallest value at or below which a share `p` (0–1) of the values fall. */
export function percentile(values: number[], p: number): number {
  return values.length === 0 ? Number.NaN : sorted(values)[Math.max(0, Math.ceil(p * values.length) - 1)]!;
}
