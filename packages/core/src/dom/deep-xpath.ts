// Parses a deep XPath (docs/selectors.md) into pieces, each evaluated in one frame or shadow root.

export interface XPathPiece {
  /** The steps of this piece; the first piece and each piece after a frame are absolute. */
  steps: string[];
  /** What the last step's element leads into. */
  enters: 'frame' | 'shadow' | null;
}

export function isXPath(selector: string): boolean {
  return selector.startsWith('/') || selector.startsWith('(') || selector.startsWith('xpath=');
}

/** Pieces of a deep XPath; a parenthesised expression is a single plain piece. */
export function parseDeepXPath(selector: string): XPathPiece[] {
  const path = selector.startsWith('xpath=') ? selector.slice('xpath='.length) : selector;
  if (path.startsWith('(')) return [{ steps: [path], enters: null }];
  const steps = splitSteps(path);
  const pieces: XPathPiece[] = [];
  let current: string[] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    if (step === '#shadow-root') {
      pieces.push({ steps: current, enters: 'shadow' });
      current = [];
    } else if (/^(iframe|frame)(\[|$)/i.test(step) && /^html(\[|$)/i.test(steps[i + 1] ?? '')) {
      pieces.push({ steps: [...current, step], enters: 'frame' });
      current = [''];
    } else {
      current.push(step);
    }
  }
  pieces.push({ steps: current, enters: null });
  return pieces;
}

/** Splits on "/" outside predicates and string literals ("//" yields an empty step). */
function splitSteps(path: string): string[] {
  const steps: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < path.length; i++) {
    const ch = path[i]!;
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || ch === ')') depth--;
    else if (ch === '/' && depth === 0) {
      steps.push(path.slice(start, i));
      start = i + 1;
    }
  }
  steps.push(path.slice(start));
  return steps;
}
