// The one parser of deep XPaths (docs/selectors.md): a selector becomes frame pieces, each an XPath
// for its frame's document followed by the steps walked through shadow roots, where XPath cannot go.
// Both readers (resolve-target.ts, backend-node.ts) hand the pieces to the in-page walker (walk-piece.ts).

/** One frame's share of a deep XPath. Each piece after the first continues in the content document of the element the previous piece reaches. */
export interface FramePiece {
  /** Evaluated against the frame's document with XPath's own rules. */
  xpath: string;
  /** Then, for each `#shadow-root`, the steps walked from the shadow root of the element reached so far. */
  shadow: ShadowStep[][];
}

/** A step inside a shadow root: the `index`-th child element that the name test matches, as XPath would count it. */
export interface ShadowStep {
  /** `tag`: an HTML element with this tag name in any letter case (`name` is lower case). `name()`: any element whose name is exactly `name` (SVG, MathML). */
  test: 'tag' | 'name()';
  name: string;
  index: number;
}

/** A selector that cannot be read; its message says what is wrong. */
export class SelectorSyntaxError extends Error {}

export function isXPath(selector: string): boolean {
  return selector.startsWith('/') || selector.startsWith('(') || selector.startsWith('xpath=');
}

const SHADOW_ROOT = '#shadow-root';
const FRAME_OWNER = /^i?frame(\[|$)/i;
const FRAME_DOCUMENT = /^html(\[|$)/i;
/** A name: anything but XPath's punctuation and white space (custom element names may hold any letters), not starting like a number or `..`. */
const NAME = String.raw`(?![-.\d])[^\s/[\]()@*'"=|,:!<>$]+`;
const SHADOW_STEP = new RegExp(String.raw`^(?:(${NAME})|\*\[name\(\)=(?:'([^']+)'|"([^"]+)")\])(?:\[(\d+)\])?$`);

/** The frame pieces of a deep XPath (with or without the `xpath=` prefix); throws SelectorSyntaxError. */
export function parseDeepXPath(selector: string): FramePiece[] {
  const path = selector.startsWith('xpath=') ? selector.slice('xpath='.length) : selector;
  if (!path.trim()) throw new SelectorSyntaxError('the path is empty');
  const steps = splitSteps(path);
  const pieces: FramePiece[] = [];
  let xpath: string[] = [];
  let shadow: ShadowStep[][] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const walking = shadow.at(-1);
    if (step === SHADOW_ROOT) {
      if (walking ? walking.length === 0 : xpath.every((s) => s === '')) throw new SelectorSyntaxError('#shadow-root must follow an element');
      shadow.push([]);
      continue;
    }
    if (walking) walking.push(shadowStep(step));
    else xpath.push(step);
    if (FRAME_OWNER.test(step) && FRAME_DOCUMENT.test(steps[i + 1] ?? '')) {
      pieces.push({ xpath: xpath.join('/'), shadow });
      // The next piece starts at its document: `/html…`.
      xpath = [''];
      shadow = [];
    }
  }
  if (shadow.at(-1)?.length === 0) throw new SelectorSyntaxError('the path ends at #shadow-root, not at an element');
  pieces.push({ xpath: xpath.join('/'), shadow });
  return pieces;
}

function shadowStep(step: string): ShadowStep {
  if (step === '') throw new SelectorSyntaxError("an empty step ('//' or a trailing '/') is inside a shadow root, where each step names a child");
  const match = SHADOW_STEP.exec(step);
  if (!match) {
    throw new SelectorSyntaxError(`step '${step}' is inside a shadow root, where a step is tag, tag[n], *[name()='name'] or *[name()='name'][n]`);
  }
  const [, tag, single, double, index] = match;
  const position = Number(index ?? 1);
  // XPath compares HTML tag names in ASCII lower case.
  if (tag) return { test: 'tag', name: tag.replace(/[A-Z]/g, (c) => c.toLowerCase()), index: position };
  return { test: 'name()', name: (single ?? double)!, index: position };
}

/** Splits on "/" outside predicates, parentheses and string literals ("//" yields an empty step). */
function splitSteps(path: string): string[] {
  const steps: string[] = [];
  const open: string[] = [];
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < path.length; i++) {
    const ch = path[i]!;
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '[' || ch === '(') {
      open.push(ch);
    } else if (ch === ']' || ch === ')') {
      const opened = open.pop();
      if (opened !== (ch === ']' ? '[' : '(')) throw new SelectorSyntaxError(opened ? `'${opened}' is closed by '${ch}'` : `'${ch}' closes nothing`);
    } else if (ch === '/' && open.length === 0) {
      steps.push(path.slice(start, i));
      start = i + 1;
    }
  }
  if (quote) throw new SelectorSyntaxError('a string is not closed');
  if (open.length) throw new SelectorSyntaxError(`'${open.at(-1)}' is not closed`);
  steps.push(path.slice(start));
  return steps;
}
