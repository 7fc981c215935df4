// The built-in model's grammar: plain single-step instructions ("click Sign in", "type "x" into
// Email", "select "Blue" from Colour", "go back"). Anything else is not understood, and said so.

export type Intent =
  | { kind: 'click' | 'hover' | 'check' | 'uncheck' | 'scrollIntoView'; target: string }
  | { kind: 'fill'; value: string; target: string }
  | { kind: 'select'; option: string; target: string }
  | { kind: 'press'; key: string; target?: string }
  | { kind: 'scrollTo'; position: string; target?: string }
  | { kind: 'chunk'; direction: 'next' | 'prev'; target?: string }
  | { kind: 'drag'; target: string; destination: string }
  | { kind: 'goBack' };

/** A value: quoted ("…", '…', “…”) or a %variable%. */
const VALUE = String.raw`(?:"([^"]*)"|'([^']*)'|“([^”]*)”|(%[\w.-]+%))`;
/** The same, or a bare run of words (only where a keyword such as "into" ends it). */
const LOOSE_VALUE = String.raw`(?:${VALUE}|(.+?))`;

const KEYS: Record<string, string> = {
  enter: 'Enter',
  return: 'Enter',
  tab: 'Tab',
  escape: 'Escape',
  esc: 'Escape',
  backspace: 'Backspace',
  delete: 'Delete',
  space: 'Space',
  spacebar: 'Space',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  'page up': 'PageUp',
  'page down': 'PageDown',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  home: 'Home',
  end: 'End',
};
const MODIFIERS: Record<string, string> = { ctrl: 'Control', control: 'Control', shift: 'Shift', alt: 'Alt', option: 'Alt', cmd: 'Meta', command: 'Meta', meta: 'Meta' };

type Rule = [RegExp, (m: RegExpExecArray) => Intent | undefined];

const RULES: Rule[] = [
  [/^(?:go|navigate|head) back(?: to the previous page)?$|^(?:go|navigate) to the previous page$/i, () => ({ kind: 'goBack' })],
  [
    /^scroll (?:the page )?(down|up)(?: (?:by )?(?:one|a) (?:page|screen))?(?: (?:in|within|inside) (.+))?$/i,
    (m) => ({ kind: 'chunk', direction: m[1]!.toLowerCase() === 'down' ? 'next' : 'prev', target: m[2] }),
  ],
  [
    /^scroll (?:the page )?to (?:the )?(top|bottom)(?: of (?:the page|(.+)))?$/i,
    (m) => ({ kind: 'scrollTo', position: m[1]!.toLowerCase() === 'top' ? '0%' : '100%', target: m[2] }),
  ],
  [/^scroll (?:the page )?to (\d{1,3})\s?%$/i, (m) => (Number(m[1]) <= 100 ? { kind: 'scrollTo', position: `${Number(m[1])}%` } : undefined)],
  [/^scroll (.+?) into view$|^scroll (?:down |up )?to (.+)$/i, (m) => ({ kind: 'scrollIntoView', target: (m[1] ?? m[2])! })],
  [
    /^(?:press|hit|tap) (?:the )?(.+?)(?: key)?(?: (?:in|on|into|inside) (.+))?$/i,
    (m) => {
      const key = keyName(m[1]!);
      return key ? { kind: 'press', key, target: m[2] } : undefined;
    },
  ],
  [new RegExp(`^(?:type|enter|input|write|put|fill in|fill) ${LOOSE_VALUE} (?:in|into|inside|on) (.+)$`, 'i'), (m) => ({ kind: 'fill', value: valueOf(m), target: m[6]! })],
  [
    new RegExp(`^(?:fill(?: in| out)?|set|populate) (.+?) (?:with|to|as) ${LOOSE_VALUE}$`, 'i'),
    (m) => ({ kind: 'fill', value: valueOf(m, 2), target: m[1]! }),
  ],
  [
    new RegExp(`^(?:select|choose|pick) ${LOOSE_VALUE} (?:from|in|on) (.+)$`, 'i'),
    (m) => ({ kind: 'select', option: valueOf(m), target: m[6]! }),
  ],
  [/^(?:uncheck|untick|deselect|unselect) (.+)$/i, (m) => ({ kind: 'uncheck', target: m[1]! })],
  [/^(?:check|tick) (.+)$/i, (m) => ({ kind: 'check', target: m[1]! })],
  [/^(?:hover|mouse)(?: over| on)? (.+)$/i, (m) => ({ kind: 'hover', target: m[1]! })],
  [/^drag (.+?) (?:to|onto|into|over) (.+)$/i, (m) => ({ kind: 'drag', target: m[1]!, destination: m[2]! })],
  [
    /^(?:click|click on|tap|tap on|press|hit|push|open|follow|select|choose|activate|submit|toggle) (.+)$/i,
    (m) => ({ kind: 'click', target: m[1]! }),
  ],
  [/^(?:go|navigate) to (?:the )?(.+?)(?: page| section| tab)?$/i, (m) => (looksLikeUrl(m[1]!) ? undefined : { kind: 'click', target: m[1]! })],
];

export function parseInstruction(instruction: string): Intent | undefined {
  const text = instruction.trim().replace(/\s+/g, ' ').replace(/[.!]+$/, '');
  for (const [pattern, build] of RULES) {
    const m = pattern.exec(text);
    const intent = m && build(m);
    if (intent) return intent;
  }
  return undefined;
}

/** "Enter", "the tab key", "ctrl+a", "Shift + Tab" → Playwright key names; undefined for non-keys. */
function keyName(phrase: string): string | undefined {
  const parts = phrase.toLowerCase().split(/\s*\+\s*/);
  const last = parts.pop()!;
  const key = KEYS[last] ?? (/^f([1-9]|1[0-2])$/.test(last) ? last.toUpperCase() : parts.length > 0 && /^[a-z0-9]$/.test(last) ? last.toUpperCase() : undefined);
  if (!key) return undefined;
  const mods = parts.map((p) => MODIFIERS[p]);
  if (mods.some((m) => !m)) return undefined;
  return [...mods, key].join('+');
}

/** The value captured by the VALUE groups starting at `first`. */
function valueOf(m: RegExpExecArray, first = 1): string {
  for (let i = first; i < first + 5; i++) if (m[i] !== undefined) return m[i]!;
  return '';
}

function looksLikeUrl(text: string): boolean {
  return /^(https?:\/\/|www\.)|\.[a-z]{2,}(\/|$)/i.test(text);
}
