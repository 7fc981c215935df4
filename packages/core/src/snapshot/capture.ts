// captureSnapshot: walks the frames, numbers the elements, masks secrets, renders the outline and
// cuts it to the token budget (the rule is in truncate.ts).

import type { Frame, Page } from 'playwright-core';
import { DeckhandError } from '../errors.js';
import type { SkippedFrame } from '../dom/frame-read.js';
import { DocumentNotParsed } from '../dom/read-across-navigation.js';
import { MASK, maskSecrets } from '../secrets/mask-secrets.js';
import { framePrefix, resolveTarget, type ResolvedTarget } from '../selectors/index.js';
import { walkFrameTree } from './frame-tree.js';
import { gapLine, renderLine } from './outline-line.js';
import type { WalkNode, WalkResult } from './page-walker.js';
import { estimateTokens } from './tokens.js';
import { chooseLines, instructionWords, type CutLine } from './truncate.js';
import type { PageSnapshot, SnapshotElement } from './types.js';

export interface SnapshotOptions {
  /** Start from this frame instead of the page's main frame. */
  frame?: Frame;
  /** Only the subtree of this element: CSS or (deep) XPath, resolved from the starting frame. */
  selector?: string;
  /** `selector`, already resolved by the caller (who also releases it): not looked up again. */
  root?: ResolvedTarget;
  /** Token budget of the outline; larger outlines are cut. */
  tokenBudget?: number;
  /** The instruction the snapshot serves: its words pick what survives a cut. */
  instruction?: string;
  /**
   * Read each control's surroundings into the element table (SnapshotElement.context), which the
   * built-in model matches instructions by. A region read per control; by default only for a snapshot
   * that serves an instruction.
   */
  context?: boolean;
  /** Values that came from variables: shown as masked wherever they appear. */
  maskValues?: readonly string[];
  /** Child frames that could not be read are added here (their owner's line stays in the outline). */
  skippedFrames?: SkippedFrame[];
  /**
   * The first this many elements that are not headings get SnapshotElement.backendNodeId, where the walk
   * itself can carry it (a main frame without child frames, not scoped); the caller looks up the rest.
   */
  backendNodeIds?: number;
  /** A starting document still being parsed is refused with DocumentNotParsed (readAcrossNavigation reads it again). */
  whenParsed?: boolean;
}

export const DEFAULT_TOKEN_BUDGET = 20_000;

/**
 * Lines a frame's walk sends at most under a finite budget (20,000 tokens show about 2,000): a page of
 * 60,000 buttons is cut in the page, by the same priorities, instead of on the server's event loop.
 */
export const MAX_WALK_LINES = 5_000;

export async function captureSnapshot(page: Page, options: SnapshotOptions = {}): Promise<PageSnapshot> {
  const start = options.frame ?? page.mainFrame();
  let target = options.root;
  if (!target && options.selector) {
    const found = await resolveTarget(start, options.selector, 0);
    if (!found.found) throw new DeckhandError('unprocessable', found.reason);
    target = found.target;
  }
  const frame = target?.frame ?? start;
  const budget = options.tokenBudget ?? DEFAULT_TOKEN_BUDGET;
  let walk: WalkResult;
  let prefix: string;
  try {
    const context = options.context ?? options.instruction !== undefined;
    const cap = Number.isFinite(budget) ? { maxLines: MAX_WALK_LINES, words: instructionWords(options.instruction) } : {};
    const tree = { skipped: options.skippedFrames ?? [], context, backendNodeIds: options.backendNodeIds, ...cap };
    [walk, prefix] = await Promise.all([walkFrameTree(frame, tree, target?.element), framePrefix(frame)]);
  } finally {
    // A root looked up here is released here; the caller's own root stays the caller's.
    if (target && target !== options.root) await target.element.dispose().catch(() => undefined);
  }

  if (options.whenParsed && !walk.parsed) throw new DocumentNotParsed();
  const secrets = options.maskValues ?? [];
  const elements = new Map<string, SnapshotElement>();
  const ids: (string | undefined)[] = [];
  let next = 1;
  for (const node of walk.nodes) {
    if (node.omitted !== undefined) {
      // The ids after a run the page left out are the ones they would have had.
      next += node.omittedRefs ?? 0;
      ids.push(undefined);
      continue;
    }
    if (node.secret || (node.value !== undefined && maskSecrets(node.value, secrets) !== node.value)) node.value = MASK;
    if (secrets.length > 0) maskNode(node, secrets);
    if (!node.ref) {
      ids.push(undefined);
      continue;
    }
    const id = String(next++);
    ids.push(id);
    elements.set(id, toElement(id, node, prefix));
  }

  const header = headerLine(walk.title, page.url(), walk.scrollY, walk.scrollHeight, walk.viewportHeight, options.selector);
  const lines = walk.nodes.map((n, i) => renderLine(n, ids[i]));
  let text = [header, ...lines].join('\n');
  let truncated = false;
  if (estimateTokens(text) > budget || walk.nodes.some((node) => node.omitted !== undefined)) {
    truncated = true;
    text = cutOutline(header, walk.nodes, lines, ids, elements, budget, options.instruction);
  }
  // The header too: a title or an address may echo what was typed (a search, a GET form).
  text = maskSecrets(text, secrets);
  return { text, elements, truncated, tokens: estimateTokens(text), url: maskSecrets(page.url(), secrets) };
}

/**
 * Variable values must not leak through names or text either (a page may echo what was typed); the
 * nodes are masked, not only the outline, because the element table reaches results (observe).
 */
function maskNode(node: WalkNode, secrets: readonly string[]): void {
  for (const key of ['name', 'text', 'href', 'placeholder', 'selected', 'context'] as const) {
    if (node[key] !== undefined) node[key] = maskSecrets(node[key], secrets);
  }
  if (node.options) node.options = node.options.map((option) => maskSecrets(option, secrets));
}

function toElement(id: string, node: WalkNode, prefix: string): SnapshotElement {
  const el: SnapshotElement = { id, role: node.role ?? 'generic', name: node.name ?? '', tag: node.tag ?? '', xpath: prefix + (node.xpath ?? '') };
  const copy = ['value', 'checked', 'pressed', 'selected', 'options', 'expanded', 'href', 'placeholder', 'level', 'popup', 'context', 'inputType', 'backendNodeId'] as const;
  for (const k of copy) if (node[k] !== undefined) (el as unknown as Record<string, unknown>)[k] = node[k];
  for (const k of ['disabled', 'required', 'scrollable', 'current', 'clickable', 'hoverable', 'covered'] as const) if (node[k]) el[k] = true;
  return el;
}

function headerLine(title: string, url: string, scrollY: number, scrollHeight: number, viewport: number, selector?: string): string {
  let line = `page ${JSON.stringify(title)} ${url}`;
  if (scrollHeight > viewport + 1) line += ` (scrolled ${scrollY} of ${scrollHeight - viewport}px)`;
  if (selector) line += ` scope=${JSON.stringify(selector)}`;
  return line;
}

function cutOutline(header: string, nodes: WalkNode[], lines: string[], ids: (string | undefined)[], elements: Map<string, SnapshotElement>, budget: number, instruction?: string): string {
  const cut: CutLine[] = nodes.map((n, i) => ({
    depth: n.depth,
    text: lines[i],
    haystack: instruction ? [n.name, n.text, n.value, n.href].filter(Boolean).join(' ').toLowerCase() : '',
    // Text has no box of its own here: it counts as visible when a neighbouring element is.
    inView: n.inView === 1 || (n.text !== undefined && (nodes[i - 1]?.inView === 1 || nodes[i + 1]?.inView === 1)),
    heading: n.role === 'heading',
    gap: n.omitted !== undefined,
  }));
  // Room for the header, the note and the `…` markers between kept runs.
  const reserve = estimateTokens(header) + 60 + Math.ceil(budget * 0.05);
  const keep = chooseLines(cut, Math.max(0, budget - reserve), instruction);
  const out: string[] = [];
  let last = -1;
  for (const i of keep) {
    if (i > last + 1) out.push(gapLine(nodes[last + 1].depth));
    out.push(lines[i]);
    last = i;
  }
  if (last < nodes.length - 1) out.push(gapLine(nodes[last + 1].depth));
  const shown = new Set(keep.map((i) => ids[i]).filter(Boolean));
  // Runs the page left out count with what is cut here.
  let omitted = 0;
  let omittedLines = nodes.length - keep.length;
  for (const node of nodes) {
    if (node.omitted === undefined) continue;
    omitted += node.omittedRefs ?? 0;
    omittedLines += node.omitted - 1;
  }
  for (const id of [...elements.keys()]) {
    if (!shown.has(id)) {
      elements.delete(id);
      omitted++;
    }
  }
  const note = `[cut: ${omitted} elements and ${omittedLines} lines omitted (…); the outline exceeded the budget of ${budget} tokens. Kept first: lines matching the instruction, then the viewport, then headings, then the page from the top. Scroll, or snapshot with a selector, to see the rest.]`;
  return [header, note, ...out].join('\n');
}
