// The visible text of a frame (or of one element in it) in document order, walking the flat tree:
// shadow roots (open and closed) and slotted content, with each child frame's text spliced in where
// its <iframe> sits. Block boxes become line breaks; runs of whitespace collapse.
import type { ElementHandle, Frame } from 'playwright-core';
import { inPage } from '../selectors/index.js';
import { readFrame, type SkippedFrame } from './frame-read.js';

type TextPart = string | { frame: number };

/**
 * A page's text is read up to this many characters (the text of a 60,000-button page is 770,000): each
 * frame stops reading there, in the page, and the answer says where it was cut.
 */
export const MAX_PAGE_TEXT = 500_000;

/** Child frames that cannot be read (see frame-read.ts) add no text and are reported in `skipped`. */
export async function visibleTextOf(frame: Frame, skipped: SkippedFrame[], scope?: ElementHandle<Element>): Promise<string> {
  const raw = await rawTextOf(frame, skipped, false, scope);
  const text = normaliseWhitespace(raw.text);
  if (!raw.cut && text.length <= MAX_PAGE_TEXT) return text;
  return `${text.slice(0, MAX_PAGE_TEXT)}\n[cut: the text goes on past ${MAX_PAGE_TEXT.toLocaleString('en-US')} characters; extract with options.selector to read a part of the page]`;
}

async function rawTextOf(frame: Frame, skipped: SkippedFrame[], isChild: boolean, scope?: ElementHandle<Element>): Promise<{ text: string; cut: boolean }> {
  const read = () => ownTextOf(frame, scope);
  // Only a frame's own read is bounded: a slow grandchild must not cost its parent's text.
  const own = isChild ? await readFrame(frame, read, { skipped }) : await read();
  if (!own) return { text: '', cut: false };
  let cut = own.cut;
  const texts = await Promise.all(
    own.parts.map((part) =>
      typeof part === 'string'
        ? part
        : rawTextOf(own.frames[part.frame]!, skipped, true).then(
            (inner) => {
              cut ||= inner.cut;
              return `\n${inner.text}\n`;
            },
            () => '',
          ),
    ),
  );
  return { text: texts.join(''), cut };
}

/** The frame's own text runs (up to MAX_PAGE_TEXT characters), and the child frames their frame markers index. */
async function ownTextOf(frame: Frame, scope?: ElementHandle<Element>): Promise<{ parts: TextPart[]; frames: Frame[]; cut: boolean }> {
  const children = frame.childFrames();
  const owners = await Promise.all(children.map((child) => child.frameElement().catch(() => null)));
  try {
    const { parts, cut } = await frame.evaluate(collectTextParts, {
      scope: scope ?? null,
      owners: owners.filter((owner): owner is ElementHandle<HTMLIFrameElement | HTMLFrameElement> => owner !== null),
      max: MAX_PAGE_TEXT,
    });
    return { parts, frames: children.filter((_, index) => owners[index] !== null), cut };
  } finally {
    await Promise.all(owners.map((owner) => owner?.dispose().catch(() => undefined)));
  }
}

function normaliseWhitespace(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/**
 * In-page: the text runs of a subtree in flat-tree order, with a marker where each child frame sits; runs
 * are joined into one string between markers (one value a run would cost the server thousands of values
 * to read back), and reading stops past `max` characters.
 */
const collectTextParts = inPage(({ scope, owners, max }: { scope: Element | null; owners: Element[]; max: number }, lib): { parts: TextPart[]; cut: boolean } => {
  const skipped = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link']);
  const lineBreak = {};
  const parts: TextPart[] = [];
  let run: string[] = [];
  let length = 0;
  const push = (text: string) => {
    run.push(text);
    length += text.length;
  };
  const result = (cut: boolean) => {
    if (run.length) parts.push(run.join(''));
    return { parts, cut };
  };
  // A document the browser has just created for a navigation has no root element yet.
  const root = scope ?? document.documentElement;
  if (!root) return result(false);
  const stack: Array<Node | object | string> = [root];
  while (stack.length > 0) {
    if (length > max) return result(true);
    const item = stack.pop()!;
    if (item === lineBreak) {
      push('\n');
      continue;
    }
    if (item === ' ') {
      push(' ');
      continue;
    }
    const node = item as Node;
    if (node.nodeType === Node.TEXT_NODE) {
      const parent = node.parentElement;
      if (!parent || parent.checkVisibility({ visibilityProperty: true })) {
        push((node.textContent ?? '').replace(/\s+/g, ' '));
      }
      continue;
    }
    if (!(node instanceof Element)) continue;
    const tag = node.localName.toLowerCase();
    if (skipped.has(tag) || !node.checkVisibility()) continue;
    const ownerIndex = owners.indexOf(node);
    if (ownerIndex >= 0) {
      if (run.length) parts.push(run.join(''));
      run = [];
      parts.push({ frame: ownerIndex });
      continue;
    }
    // Inline boxes flow into their neighbours; inline-block ones (buttons, fields) are separate words;
    // anything else is a block on its own line.
    const display = getComputedStyle(node).display;
    const boundary = display === 'inline' || display === 'contents' ? '' : display.startsWith('inline') ? ' ' : lineBreak;
    const root = lib.shadowRootOf(node);
    let children: Node[];
    if (node instanceof HTMLSlotElement) {
      const assigned = node.assignedNodes();
      children = assigned.length > 0 ? assigned : Array.from(node.childNodes);
    } else {
      children = Array.from((root ?? node).childNodes);
    }
    if (boundary) stack.push(boundary);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    if (boundary) stack.push(boundary);
  }
  return result(false);
});
