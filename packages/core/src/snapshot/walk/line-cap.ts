// In-page (shipped as source by inPage): a frame's lines cut to a bound before they cross to the server,
// so a page of 60,000 buttons sends what the outline can show, not megabytes the server would parse and
// cut on its event loop. Same priorities as the outline's cut (truncate.ts): instruction matches with
// their region, the viewport, headings, then document order; a kept line brings its ancestors.
import type { WalkNode } from './walk-types.js';

export function lineCap() {
  /** Largest parent subtree kept whole around an instruction match (truncate.ts's region). */
  const MAX_REGION_LINES = 40;

  /** Whether `word` occurs in `haystack` on word boundaries. */
  function hasWord(haystack: string, word: string): boolean {
    for (let at = haystack.indexOf(word); at >= 0; at = haystack.indexOf(word, at + 1)) {
      const before = at === 0 ? '' : haystack[at - 1]!;
      const after = haystack[at + word.length] ?? '';
      if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
    }
    return false;
  }

  /** Each line's parent (the nearest line above it that is less deep), -1 for none. */
  function parentsOf(lines: ArrayLike<{ depth: number }>): Int32Array {
    const parent = new Int32Array(lines.length);
    const stack: number[] = [];
    for (let i = 0; i < lines.length; i++) {
      while (stack.length && lines[stack[stack.length - 1]!]!.depth >= lines[i]!.depth) stack.pop();
      parent[i] = stack.length ? stack[stack.length - 1]! : -1;
      stack.push(i);
    }
    return parent;
  }

  /** One past the last line of i's subtree. */
  function subtreeEnd(lines: ArrayLike<{ depth: number }>, i: number): number {
    let j = i + 1;
    while (j < lines.length && lines[j]!.depth > lines[i]!.depth) j++;
    return j;
  }

  /**
   * At most `max` of `nodes`, in document order, with one gap line (WalkNode.omitted) for each run left
   * out; `words` are the instruction's words (lowercase, stopwords removed by the caller).
   */
  function capLines(nodes: WalkNode[], max: number, words: string[]): WalkNode[] {
    if (nodes.length <= max) return nodes;
    const parent = parentsOf(nodes);
    const end = (i: number) => subtreeEnd(nodes, i);
    const kept = new Uint8Array(nodes.length);
    let count = 0;
    const keep = (i: number, limit: number): boolean => {
      let extra = 0;
      for (let j = i; j >= 0 && !kept[j]; j = parent[j]!) extra++;
      if (count + extra > limit) return false;
      for (let j = i; j >= 0 && !kept[j]; j = parent[j]!) kept[j] = 1;
      count += extra;
      return true;
    };

    // Matches first, the rarest words' best: a word scores higher the fewer lines contain it.
    const score = new Map<number, number>();
    for (const word of words) {
      const hits: number[] = [];
      nodes.forEach((n, i) => {
        if (hasWord([n.name, n.text, n.value, n.href].filter(Boolean).join(' ').toLowerCase(), word)) hits.push(i);
      });
      const weight = Math.log(1 + nodes.length / Math.max(1, hits.length));
      for (const i of hits) score.set(i, (score.get(i) ?? 0) + weight);
    }
    const matches = [...score.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([i]) => i);
    for (const i of matches) {
      const p = parent[i]!;
      const [from, to] = p >= 0 && end(p) - p <= MAX_REGION_LINES ? [p, end(p)] : [i, Math.min(end(i), i + MAX_REGION_LINES)];
      let fitted = true;
      for (let j = from; j < to && fitted; j++) fitted = keep(j, max / 2);
      if (!fitted) break;
    }
    for (let i = 0; i < nodes.length; i++) if (nodes[i]!.inView && !keep(i, max)) break;
    for (let i = 0; i < nodes.length; i++) if (nodes[i]!.role === 'heading' && !keep(i, max)) break;
    for (let i = 0; i < nodes.length; i++) if (!keep(i, max)) break;

    const out: WalkNode[] = [];
    let gap: WalkNode | null = null;
    for (let i = 0; i < nodes.length; i++) {
      if (kept[i]) {
        gap = null;
        out.push(nodes[i]!);
        continue;
      }
      if (!gap) out.push((gap = { depth: nodes[i]!.depth, omitted: 0, omittedRefs: 0 }));
      gap.omitted!++;
      if (nodes[i]!.ref) gap.omittedRefs!++;
    }
    return out;
  }

  return { MAX_REGION_LINES, capLines, hasWord, parentsOf, subtreeEnd };
}
