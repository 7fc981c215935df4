// A plain multi-step instruction cut into the single steps the offline model can ground one by one:
// "type 'Ada' into Name, choose Express delivery and press Submit" is three steps. Quoted values are
// never cut. After "then", ";" or a full stop a new step always starts, understood or not, so an
// unknown step is a stop, never a guess. After a plain "and" or comma:
// - a piece that starts with a verb of its own is a step;
// - a piece built like the step before it ("enter 'x' as the username and 'y' as the password",
//   "set check-in to 2026-05-01 and check-out to 2026-05-04") is a step with that step's verb;
// - any other piece may belong to the name the step before it uses ("check the Terms and
//   Conditions box", "sort by price, low to high") or be one more target of its verb ("tick
//   Refunds and Inventory"): the whole goes to act, which tries it as one name first and then as a
//   list, every item grounded before any is acted on.
// A step that copies a value and the step after it that uses it ("paste it into …"), or a step and
// the one after it that acts on "it", are one act.
import { STEP_START, TARGET_LIST_END } from '../inference/builtin/parse-instruction.js';

/** One step: its words, and the readings tried in order when they ground nothing on the page. */
export interface PlannedStep {
  text: string;
  /** Each reading is a list of steps run in order in place of `text`. */
  or?: string[][];
}

const QUOTED = /"[^"]*"|“[^”]*”|(?<=^|\s)'[^']*'(?=$|[\s,.;:!?])/g;
const SEPARATOR = /\s*(?:;|,\s*(?:and\s+)?(?:then\s+)?|\.\s+|\s+and\s+then\s+|\s+then\s+|\s+and\s+)\s*/i;
/** Separators that also occur inside names: what follows one may continue the step before it. */
const WEAK = /^\s*(?:,|and|,\s*and)\s*$/i;
const LEAD = /^(?:and\s+)?(?:then|finally|next|after that|afterwards)[,\s]+/i;
const URL_STEP = /^(?:go to|open|navigate to|visit|load)\s+(\S+)$/i;
/** A masked quote or a %variable%: a value that is never part of a name. */
const MASK = String.raw`\u0000\d+\u0000|%[\w.-]+%`;
/** A value in a gapped step: quoted, or one run of characters ("2026-05-04", "3", "Express"). */
const VALUE = String.raw`(?:${MASK}|[^\s,]+)`;
/** "enter 'x' as the username": verb, value, linking word, field. */
const VALUE_FIRST = new RegExp(String.raw`^(\S+(?: in)?) (${MASK}) (as|into|in|to|for) (.+)$`, 'i');
/** "set check-in to 2026-05-01", "fill the street with '1 Main St'": verb, field, linking word, value. */
const FIELD_FIRST = new RegExp(String.raw`^(\S+(?: in| out)?) (.+?) (to|with|as) (${VALUE})$`, 'i');
const NUMBERS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, '2': 2, '3': 3, '4': 4, '5': 5 };
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth'];
/** "check the first two boxes": one step per box, in order. */
const FIRST_N = /^(\S+) (?:the )?first (two|three|four|five|[2-5]) (.+)$/i;
/** "log in as ada with password hunter2": a user name, a password and the sign-in control. */
const LOGIN = new RegExp(
  String.raw`^(?:log ?in|sign ?in)(?: to \S+)? (?:as|with (?:the )?(?:user ?name|user|e-?mail|login)) (${VALUE}) (?:with|using|and)(?: the| a)? password (${VALUE})$`,
  'i',
);

/** The steps of an instruction, in order; a single step comes back as itself. */
export function splitSteps(instruction: string): PlannedStep[] {
  const quoted: string[] = [];
  const masked = instruction.replace(QUOTED, (q) => `\u0000${quoted.push(q) - 1}\u0000`);
  const restore = (text: string) => text.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => quoted[Number(i)]!);
  const groups: string[][] = [];
  let joint = '';
  let rest = masked.trim().replace(/[.!]+$/, '');
  while (rest) {
    const m = SEPARATOR.exec(rest);
    const piece = (m ? rest.slice(0, m.index) : rest).replace(LEAD, '').trim();
    if (piece) {
      const last = groups.at(-1);
      // "… into the Password and Confirm password fields": a piece ending a list of targets continues the step.
      if (!last || !WEAK.test(joint) || (startsStep(piece) && !TARGET_LIST_END.test(piece))) groups.push([piece]);
      else {
        const gapped = gap(last[0]!, piece);
        if (gapped) groups.push([gapped]);
        else last.push(joint, piece);
      }
    }
    joint = m ? m[0] : '';
    rest = m ? rest.slice(m.index + m[0].length) : '';
  }
  const steps = groups.flatMap((group) => expand(group).map((step) => ({ text: restore(step.text), ...(step.or && { or: step.or.map((r) => r.map(restore)) }) })));
  return withReads(steps);
}

/** A step that only reads ("copy the text of …"), or finds what the next step calls "it" ("read the order number"). */
const READS = /^(?:copy|remember|memori[sz]e|note)\b/i;
const FINDS = /^(?:read|find|look up|locate|get|see|check)\b/i;
const USES = /\b(?:it|that|this)\b/i;
/** A step whose target is the element the step before acted on: "type "ready" into it". */
const INTO_IT = /\b(?:into|in|on|to) (?:it|there)$/i;

/** "copy X" and the step that uses what it read ("paste it into Y") are one act, so the value read is at hand. */
function withReads(steps: PlannedStep[]): PlannedStep[] {
  const out: PlannedStep[] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const next = steps[i + 1];
    if (next && (READS.test(step.text) || (FINDS.test(step.text) && USES.test(next.text.replace(QUOTED, ''))) || INTO_IT.test(next.text.replace(QUOTED, '')))) {
      out.push({ text: `${step.text}; ${next.text}` });
      i += 1;
    } else out.push(step);
  }
  return out;
}

/** A URL to open, when the step is "go to <url>" (the offline model grounds only steps on the page). */
export function urlOfStep(step: string): string | undefined {
  const url = URL_STEP.exec(step.trim())?.[1];
  return url && /^(https?:\/\/|about:|data:)/i.test(url) ? url : undefined;
}

/** "check-out to …" is a noun, not the verb "check". */
function startsStep(piece: string): boolean {
  return (STEP_START.test(piece) && !/^[^\s-]+-/.test(piece)) || urlOfStep(piece) !== undefined;
}

/** The piece with the verb of the step before it, when both are built alike; else undefined. */
function gap(before: string, piece: string): string | undefined {
  const valueFirst = VALUE_FIRST.exec(before);
  if (valueFirst) {
    const m = new RegExp(String.raw`^(${MASK}) ${valueFirst[3]} (.+)$`, 'i').exec(piece);
    if (m) return `${valueFirst[1]} ${piece}`;
  }
  const fieldFirst = FIELD_FIRST.exec(before);
  if (fieldFirst && new RegExp(String.raw`^(?!${MASK}).+? ${fieldFirst[3]} ${VALUE}$`, 'i').test(piece)) return `${fieldFirst[1]} ${piece}`;
  return undefined;
}

/** A group (a step and the pieces that may continue it, with their joints) as planned steps. */
function expand(group: string[]): PlannedStep[] {
  const [first, ...more] = group as [string, ...string[]];
  if (more.length === 0) return single(first);
  // The act reads a list of targets itself, all grounded before any is acted on ("tick Refunds and Inventory").
  return [{ text: group.reduce((text, part, i) => (i % 2 === 1 ? text + (part.trim().startsWith(',') ? `${part.trim()} ` : ` ${part.trim()} `) : text + part), '') }];
}

/** A step as written, or the steps it stands for ("the first two boxes", "log in as … with password …"). */
function single(step: string): PlannedStep[] {
  const login = LOGIN.exec(step);
  if (login) {
    const [user, password] = [login[1]!, login[2]!].map(asValue);
    return [
      { text: `type ${user} into the username field`, or: [[`type ${user} into the email field`]] },
      { text: `type ${password} into the password field` },
      { text: 'log in' },
    ];
  }
  const firstN = FIRST_N.exec(step);
  if (firstN) {
    const count = NUMBERS[firstN[2]!.toLowerCase()]!;
    return ORDINALS.slice(0, count).map((ordinal) => ({ text: `${firstN[1]} the ${ordinal} ${singular(firstN[3]!)}` }));
  }
  return [{ text: step }];
}

/** "boxes" → "box", "items" → "item": the name of one of them. */
function singular(noun: string): string {
  return noun.replace(/(x|ch|sh|ss)es$/i, '$1').replace(/([^s])s$/i, '$1');
}

/** A bare value quoted, so the step's grammar reads it whole; a quoted one or a %variable% as it is. */
function asValue(value: string): string {
  return /^\u0000\d+\u0000$|^%[\w.-]+%$/.test(value) ? value : `"${value}"`;
}
