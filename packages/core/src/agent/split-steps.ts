// A plain multi-step instruction cut into the single steps the offline model can ground one by one:
// "type 'Ada' into Name, choose Express delivery and press Submit" is three steps. Quoted values are
// never cut. A piece after a plain "and" or comma that is not a step on its own ("check the Terms
// and Conditions box", "click Yes, I agree") stays with the step before it; after "then", ";" or a
// full stop a new step always starts, understood or not, so an unknown step is a stop, never a guess.
import { parseInstruction } from '../inference/builtin/parse-instruction.js';

const QUOTED = /"[^"]*"|“[^”]*”|(?<=^|\s)'[^']*'(?=$|[\s,.;:!?])/g;
const SEPARATOR = /\s*(?:;|,\s*(?:and\s+)?(?:then\s+)?|\.\s+|\s+and\s+then\s+|\s+then\s+|\s+and\s+)\s*/i;
/** Separators that also occur inside labels: a piece after one must be a step of its own to split. */
const WEAK = /^\s*(?:,|and)\s*$/i;
const LEAD = /^(?:and\s+)?(?:then|finally|next|after that|afterwards)[,\s]+/i;
const URL_STEP = /^(?:go to|open|navigate to|visit|load)\s+(\S+)$/i;

/** The steps of an instruction, in order; a single step comes back as itself. */
export function splitSteps(instruction: string): string[] {
  const quoted: string[] = [];
  const masked = instruction.replace(QUOTED, (q) => `\u0000${quoted.push(q) - 1}\u0000`);
  const restore = (text: string) => text.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => quoted[Number(i)]!);
  const steps: string[] = [];
  const separators: string[] = [];
  let rest = masked.trim().replace(/[.!]+$/, '');
  while (rest) {
    const m = SEPARATOR.exec(rest);
    const piece = (m ? rest.slice(0, m.index) : rest).replace(LEAD, '').trim();
    if (piece) {
      const weak = WEAK.test(separators.at(-1) ?? '');
      if (steps.length === 0 || !weak || isStep(restore(piece))) steps.push(piece);
      else steps[steps.length - 1] += `${separators.at(-1) ?? ' '}${piece}`;
    }
    separators.push(m ? m[0] : '');
    rest = m ? rest.slice(m.index + m[0].length) : '';
  }
  return steps.map(restore);
}

/** A URL to open, when the step is "go to <url>" (the offline model grounds only steps on the page). */
export function urlOfStep(step: string): string | undefined {
  const url = URL_STEP.exec(step.trim())?.[1];
  return url && /^(https?:\/\/|about:|data:)/i.test(url) ? url : undefined;
}

function isStep(piece: string): boolean {
  return parseInstruction(piece) !== undefined || urlOfStep(piece) !== undefined;
}
