// "30%" on a slider: a percentage is the slider's own value only on a slider from 0 to 100, where a value and
// its share of the range are the same number. On another range it could mean either (a zoom slider from 0 to
// 200 marked in per cent), so it is refused rather than guessed (docs/decisions.md, "A value in a control's own form").

/** The value `given` says when it is a percentage; undefined when it is none. */
export function percentOf(given: string, min: number, max: number): { value: string } | { refused: string } | undefined {
  const m = /^\s*([-+]?(?:\d+(?:\.\d+)?|\.\d+))\s*%\s*$/.exec(given);
  if (!m) return undefined;
  if (min !== 0 || max !== 100) return { refused: `a percentage is read only on a slider from 0 to 100, and this one runs from ${min} to ${max}: give its value` };
  return { value: String(Number(m[1])) };
}
