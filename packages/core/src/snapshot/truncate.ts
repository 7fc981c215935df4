// Cutting an outline to a token budget. The rule (also stated to the model in the cut note):
//  1. lines matching the instruction, best match first (a match scores the rarity of the
//     instruction words it contains), each with its surrounding region (its parent's subtree when
//     small), using at most half the budget;
//  2. then every line in the viewport, top to bottom;
//  3. then the headings, so the model sees what lies beyond the cut;
//  4. then the remaining lines in document order, until the budget is spent.
// A kept line always brings its ancestor lines, so the indentation stays truthful; each run of
// omitted lines is shown as one `…` line.

import { estimateTokens } from './tokens.js';
import { lineCap } from './walk/line-cap.js';

/** The helpers the page's own cut (walk/line-cap.ts) uses too. */
const { MAX_REGION_LINES, hasWord, parentsOf, subtreeEnd } = lineCap();

export interface CutLine {
  depth: number;
  text: string;
  /** Lowercase words the instruction is matched against (name, text, value, href). */
  haystack: string;
  inView: boolean;
  heading: boolean;
  /** A run of lines the page already left out (WalkNode.omitted): never kept, shown as the `…` it is. */
  gap?: boolean;
}

const STOPWORDS = new Set(['the', 'and', 'for', 'with', 'into', 'from', 'that', 'this', 'then', 'click', 'type', 'fill', 'press', 'select', 'enter', 'open', 'find', 'page', 'button', 'link', 'field', 'input', 'on', 'in', 'to', 'of', 'a', 'an']);

/** Indices of the lines to keep, in document order. `budget` is in tokens for the kept lines. */
export function chooseLines(lines: CutLine[], budget: number, instruction?: string): number[] {
  const parent = parentsOf(lines);
  const cost = lines.map((l) => estimateTokens(l.text) + 1);
  const kept = new Uint8Array(lines.length);
  let spent = 0;

  /** Keeps line i and its ancestors if they fit; false when the budget is spent. */
  const keep = (i: number, limit: number): boolean => {
    if (lines[i].gap) return true;
    let extra = 0;
    for (let j = i; j >= 0 && !kept[j]; j = parent[j]) extra += cost[j];
    if (spent + extra > limit) return false;
    for (let j = i; j >= 0 && !kept[j]; j = parent[j]) kept[j] = 1;
    spent += extra;
    return true;
  };

  for (const i of instructionMatches(lines, instruction)) {
    const p = parent[i];
    const [from, to] = p >= 0 && subtreeEnd(lines, p) - p <= MAX_REGION_LINES ? [p, subtreeEnd(lines, p)] : [i, Math.min(subtreeEnd(lines, i), i + MAX_REGION_LINES)];
    let fitted = true;
    for (let j = from; j < to && fitted; j++) fitted = keep(j, budget / 2);
    if (!fitted) break;
  }
  for (let i = 0; i < lines.length; i++) if (lines[i].inView && !keep(i, budget)) break;
  for (let i = 0; i < lines.length; i++) if (lines[i].heading && !keep(i, budget)) break;
  for (let i = 0; i < lines.length; i++) if (!keep(i, budget)) break;

  const out: number[] = [];
  for (let i = 0; i < lines.length; i++) if (kept[i]) out.push(i);
  return out;
}

/** The words of an instruction a line is matched by: lowercase, no stopwords, no short words but numbers. */
export function instructionWords(instruction?: string): string[] {
  return [...new Set((instruction ?? '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].filter((w) => !STOPWORDS.has(w) && (w.length > 2 || /\d/.test(w)));
}

/** Lines containing instruction words, best first; a word scores higher the fewer lines contain it. */
function instructionMatches(lines: CutLine[], instruction?: string): number[] {
  const words = instructionWords(instruction);
  if (!words.length) return [];
  const hits = words.map((w) => lines.map((l, i) => (hasWord(l.haystack, w) ? i : -1)).filter((i) => i >= 0));
  const score = new Map<number, number>();
  hits.forEach((list) => {
    const weight = Math.log(1 + lines.length / list.length);
    for (const i of list) score.set(i, (score.get(i) ?? 0) + weight);
  });
  return [...score.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([i]) => i);
}
