// The visible text of a frame (or of one element in it) in document order, walking the flat tree:
// shadow roots (open and closed) and slotted content, with each child frame's text spliced in where
// its <iframe> sits. Block boxes become line breaks; runs of whitespace collapse.
import type { ElementHandle, Frame } from 'playwright-core';
import { inPage } from '../selectors/index.js';
import { readFrame, type SkippedFrame } from './frame-read.js';

type TextPart = string | { frame: number };

/** Child frames that cannot be read (see frame-read.ts) add no text and are reported in `skipped`. */
export async function visibleTextOf(frame: Frame, skipped: SkippedFrame[], scope?: ElementHandle<Element>): Promise<string> {
  return normaliseWhitespace(await rawTextOf(frame, skipped, false, scope));
}

async function rawTextOf(frame: Frame, skipped: SkippedFrame[], isChild: boolean, scope?: ElementHandle<Element>): Promise<string> {
  const read = () => ownTextOf(frame, scope);
  // Only a frame's own read is bounded: a slow grandchild must not cost its parent's text.
  const own = isChild ? await readFrame(frame, read, { skipped }) : await read();
  if (!own) return '';
  const texts = await Promise.all(
    own.parts.map((part) =>
      typeof part === 'string' ? part : rawTextOf(own.frames[part.frame]!, skipped, true).then((text) => `\n${text}\n`, () => ''),
    ),
  );
  return texts.join('');
}

/** The frame's own text runs, and the child frames their frame markers index. */
async function ownTextOf(frame: Frame, scope?: ElementHandle<Element>): Promise<{ parts: TextPart[]; frames: Frame[] }> {
  const children = frame.childFrames();
  const owners = await Promise.all(children.map((child) => child.frameElement().catch(() => null)));
  try {
    const parts = await frame.evaluate(collectTextParts, {
      scope: scope ?? null,
      owners: owners.filter((owner): owner is ElementHandle<HTMLIFrameElement | HTMLFrameElement> => owner !== null),
    });
    return { parts, frames: children.filter((_, index) => owners[index] !== null) };
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

/** In-page: the text runs of a subtree in flat-tree order, with a marker where each child frame sits. */
const collectTextParts = inPage(({ scope, owners }: { scope: Element | null; owners: Element[] }, lib): TextPart[] => {
  const skipped = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link']);
  const lineBreak = {};
  const parts: TextPart[] = [];
  // A document the browser has just created for a navigation has no root element yet.
  const root = scope ?? document.documentElement;
  if (!root) return parts;
  const stack: Array<Node | object | string> = [root];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item === lineBreak) {
      parts.push('\n');
      continue;
    }
    if (item === ' ') {
      parts.push(' ');
      continue;
    }
    const node = item as Node;
    if (node.nodeType === Node.TEXT_NODE) {
      const parent = node.parentElement;
      if (!parent || parent.checkVisibility({ visibilityProperty: true })) {
        parts.push((node.textContent ?? '').replace(/\s+/g, ' '));
      }
      continue;
    }
    if (!(node instanceof Element)) continue;
    const tag = node.localName.toLowerCase();
    if (skipped.has(tag) || !node.checkVisibility()) continue;
    const ownerIndex = owners.indexOf(node);
    if (ownerIndex >= 0) {
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
  return parts;
});
