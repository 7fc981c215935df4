// What a step says to type: a literal value (typed as written), a described one (read from the page
// by a documented rule, or refused) and the transforms it names. A description is never typed as
// words: "type the text of the Learn more link into Name" types the link's text or nothing.

/** Where a typed value comes from. */
export type ValueSource =
  /** The text of the element the phrase names (a field's value, else its name or text). */
  | { kind: 'textOf'; target: string }
  /** The cell of a table found by its row and column headers. */
  | { kind: 'cell'; row: string; column: string }
  /** What an earlier step of the same instruction read ("copy …, paste it into …"). */
  | { kind: 'earlier' };

export type Transform = 'upper' | 'lower';

/** A bare value (not quoted) as the instruction gives it: literal, described, or neither. */
export type BareValue = { literal: string } | { source: ValueSource } | { described: string };

/** Words that start a description rather than a name: "the text below", "its value", "what it says". */
const DESCRIBING = /^(?:the|a|an|this|that|these|those|its|their|his|her|my|your|our|what|whatever|which|some|any|each|every|all|same|whichever)\b/i;
const PRONOUN = /^(?:it|that|this|them|the (?:copied|same) (?:text|value)|the copied one|what (?:you|i) copied|the clipboard(?: contents)?)$/i;
const TEXT_OF = /^(?:the )?(?:text|value|contents?|label|name|wording|number)(?: (?:shown|written|displayed))? (?:of|in|on|inside|from|within|shown in) (.+)$/i;
const WHAT_SAYS = /^what (.+?) (?:says|shows|displays|reads|contains)$/i;
/** "the Age of Bob", "the Age for Bob in the table", "the value in the Age column of the Bob row". */
const CELL = /^(?:the )?(?:value|entry|cell|number|text)? ?(?:in|under) (?:the )?(.+?) column (?:of|for|in) (?:the )?(.+?)(?: row)?$/i;
const CELL_BY_ROW = /^(?:the )?(?:value|entry|cell|number|text)? ?(?:in|of) (?:the )?(.+?) row (?:in|under|of) (?:the )?(.+?)(?: column)?$/i;

/** "Linus's email (in the table)": the row's cell in that column. */
const POSSESSIVE = /^(?:the )?(.+?)['’]s (.+?)(?: (?:in|from) the table)?$/i;
/** "the city of Grace Hopper (from the table)", "the Pro price for Storage": a column, then a row. */
const COLUMN_OF = /^the (.+?) (?:of|for) (.+?)(?: (?:in|from) the table)?$/i;

/** A bare value: a single token, or several words that name no description, are literal. */
export function bareValue(text: string): BareValue {
  const value = text.trim();
  if (PRONOUN.test(value)) return { source: { kind: 'earlier' } };
  const cell = CELL.exec(value);
  if (cell) return { source: { kind: 'cell', column: cell[1]!, row: cell[2]! } };
  const byRow = CELL_BY_ROW.exec(value);
  if (byRow) return { source: { kind: 'cell', row: byRow[1]!, column: byRow[2]! } };
  const of = TEXT_OF.exec(value) ?? WHAT_SAYS.exec(value);
  if (of) return { source: { kind: 'textOf', target: of[1]! } };
  const owned = POSSESSIVE.exec(value);
  if (owned) return { source: { kind: 'cell', row: owned[1]!, column: owned[2]! } };
  const ofRow = COLUMN_OF.exec(value);
  if (ofRow) return { source: { kind: 'cell', column: ofRow[1]!, row: ofRow[2]! } };
  if (!/\s/.test(value) || !DESCRIBING.test(value)) return { literal: value };
  return { described: value };
}

/** "in all upper case letters", "in lowercase", "in capitals": the transforms the model applies. */
const TRANSFORM = /\b(?:in|using|with|as) (?:all )?(?:(upper|lower)[ -]?case|(capital|block|small)(?: letters|s)?)(?: letters| characters| only)?\b/i;
/** Other ways of writing a value the model does not apply: named so they can be refused. */
const UNKNOWN_TRANSFORM = /\b(?:in (?:title|sentence|camel|snake|kebab)[ -]?case|in reverse(?: order)?|reversed|backwards|without (?:spaces|the \S+)|spelled out|in words|in (?:bold|italics?)|twice|\d+ times|three times|only the first \S+|rounded(?: \S+)*)\b/i;

/** The step with its transform words taken out, and the transform (or the unknown one, to refuse). */
export function takeTransform(step: string): { step: string; transform?: Transform; unknown?: string } {
  const masked = maskQuotes(step);
  const unknown = UNKNOWN_TRANSFORM.exec(masked);
  if (unknown) return { step, unknown: unknown[0] };
  const m = TRANSFORM.exec(masked);
  if (!m) return { step };
  const kind = (m[1] ?? m[2])!.toLowerCase();
  const transform: Transform = kind === 'upper' || kind === 'capital' || kind === 'block' ? 'upper' : 'lower';
  return { step: `${step.slice(0, m.index).replace(/[\s,]+$/, '')} ${step.slice(m.index + m[0].length).trim()}`.trim(), transform };
}

export function applyTransform(value: string, transform: Transform | undefined): string {
  return transform === 'upper' ? value.toUpperCase() : transform === 'lower' ? value.toLowerCase() : value;
}

/** The text with quoted parts blanked (same length, with a character that is neither a word nor a space), so words inside a value are never read as modifiers. */
export function maskQuotes(text: string): string {
  return text.replace(/"[^"]*"|“[^”]*”|(?<![\p{L}\p{N}])'[^']*'(?![\p{L}\p{N}])/gu, (q) => '\u0001'.repeat(q.length));
}
