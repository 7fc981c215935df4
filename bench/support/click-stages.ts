// Cuts a traced click (a raw Playwright click or a Deckhand act, cdp-trace.ts) into stages at the CDP
// messages both send: the first command, the first mouse event, the release's reply, Playwright's
// epilogue (`Page.enable`, its last command of a click) answered, and the end; plus the page's push.
import type { CdpTraceEntry } from './cdp-trace.js';
import { median, percentile } from './stats.js';

export interface ClickStages {
  /** Request (or call) → the first command. */
  toFirstCommand: number;
  /** First command → the first mouse event: Playwright's lookup, scrolling, stable and hit-target checks. */
  toInput: number;
  /** First mouse event sent → the release answered. */
  input: number;
  /** Release answered → the epilogue's `Page.enable` answered (the click returns). */
  epilogue: number;
  /** The click returned → the operation answered (the first look and the answer). */
  after: number;
  /** The page's push (`Runtime.bindingCalled`) after the click returned (negative: before it); NaN: none. */
  push: number;
  /** Commands sent before the first mouse event. */
  commandsBeforeInput: number;
  /** Commands sent after the click returned. */
  commandsAfter: number;
  /** A replay picture's capture answered inside the window (the operation waited for the last one). */
  pictureInWindow: boolean;
  /** Offsets from the first command of each command before the input (method, sent, answered). */
  preInput: Array<{ method: string; sent: number; answered: number }>;
}

export function clickStages({ start, end, entries }: { start: number; end: number; entries: CdpTraceEntry[] }): ClickStages | undefined {
  const commands = entries.filter((e) => e.kind === 'command');
  const firstInput = entries.findIndex((e) => e.kind === 'command' && e.method === 'Input.dispatchMouseEvent');
  if (commands.length === 0 || firstInput < 0) return undefined;
  const first = commands[0]!.at;
  const releases = entries.filter((e) => e.kind === 'reply' && e.method === 'Input.dispatchMouseEvent');
  const released = releases.at(-1)!.at;
  const epilogue = entries.find((e) => e.kind === 'reply' && e.method === 'Page.enable' && e.at >= released)?.at ?? released;
  const push = entries.find((e) => e.kind === 'event' && e.method === 'Runtime.bindingCalled');
  // Each command before the input with its reply, in order (replies matched by method, first unanswered first).
  const before = entries.slice(0, firstInput);
  const answered = new Set<CdpTraceEntry>();
  const preInput = before
    .filter((e) => e.kind === 'command')
    .map((command) => {
      const reply = entries.find((e) => e.kind === 'reply' && e.method === command.method && e.at >= command.at && !answered.has(e));
      if (reply) answered.add(reply);
      return { method: command.method, sent: command.at - first, answered: (reply?.at ?? Number.NaN) - first };
    });
  return {
    toFirstCommand: first - start,
    toInput: entries[firstInput]!.at - first,
    input: released - entries[firstInput]!.at,
    epilogue: epilogue - released,
    after: end - epilogue,
    push: push ? push.at - epilogue : Number.NaN,
    commandsBeforeInput: preInput.length,
    commandsAfter: commands.filter((e) => e.at > epilogue).length,
    pictureInWindow: entries.some((e) => e.kind === 'reply' && e.method === 'Page.captureScreenshot'),
    preInput,
  };
}

const cell = (values: number[]) => (values.length === 0 ? 'n/a' : `${median(values).toFixed(1)} (${percentile(values, 0.9).toFixed(1)})`);

/** A markdown table of the stages' medians (p90), one column per traced operation. */
export function describeStages(columns: Array<[string, ClickStages[]]>): string {
  const row = (name: string, pick: (s: ClickStages) => number) => `| ${name} | ${columns.map(([, all]) => cell(all.map(pick).filter((v) => !Number.isNaN(v)))).join(' | ')} |`;
  const lines = [
    `| stage, ms median (p90) | ${columns.map(([name, all]) => `${name} (${all.length})`).join(' | ')} |`,
    `|---|${columns.map(() => '---:').join('|')}|`,
    row('call → first command', (s) => s.toFirstCommand),
    row('first command → first mouse event (lookup, scroll, stable, hit target)', (s) => s.toInput),
    row('mouse events sent → release answered', (s) => s.input),
    row('release answered → epilogue answered (click returns)', (s) => s.epilogue),
    row('click returned → answer', (s) => s.after),
    row('total', (s) => s.toFirstCommand + s.toInput + s.input + s.epilogue + s.after),
    row('page push after the click returned', (s) => s.push),
    row('commands before the first mouse event', (s) => s.commandsBeforeInput),
    row('commands after the click returned', (s) => s.commandsAfter),
    `| operations whose page push came before the click returned | ${columns.map(([, all]) => all.filter((s) => s.push < 0).length).join(' | ')} |`,
    `| operations that saw the last picture's capture answered | ${columns.map(([, all]) => all.filter((s) => s.pictureInWindow).length).join(' | ')} |`,
  ];
  // Playwright's own commands before the input, aligned by position (the same sequence in each column).
  const longest = Math.max(...columns.map(([, all]) => Math.min(...all.map((s) => s.preInput.length))));
  lines.push('', `| before the input: command, sent → answered, ms from the first command (medians) | ${columns.map(([name]) => name).join(' | ')} |`, `|---|${columns.map(() => '---:').join('|')}|`);
  for (let i = 0; i < longest; i++) {
    const method = columns.map(([, all]) => all[0]?.preInput[i]?.method ?? '').find(Boolean);
    const at = (all: ClickStages[]) => {
      const same = all.map((s) => s.preInput[i]).filter((c) => c?.method === method);
      return same.length === 0 ? 'n/a' : `${median(same.map((c) => c!.sent)).toFixed(1)} → ${median(same.map((c) => c!.answered).filter((v) => !Number.isNaN(v))).toFixed(1)}`;
    };
    lines.push(`| ${i + 1}. ${method} | ${columns.map(([, all]) => at(all)).join(' | ')} |`);
  }
  return lines.join('\n');
}
