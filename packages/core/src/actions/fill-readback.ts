// A control may sanitise what it is given (a range clamps and snaps, maxlength cuts, a number or date
// outside its bounds is kept but invalid): after a fill the value is read back, and a value the
// control changed or holds as invalid is a failure naming why. The value it had before is put back.
import type { ActionElement } from './action-methods.js';
import { ActionFailure } from './action-failure.js';

interface Reading {
  value: string;
  type: string;
  min: string;
  max: string;
  step: string;
  maxLength: number;
  /** The validity flags that are true, by their DOM names. */
  invalid: string[];
}

const BOUND_FLAGS = ['rangeOverflow', 'rangeUnderflow', 'stepMismatch', 'badInput', 'tooLong'];

/** Fills the control, then fails (restoring its earlier value) when it does not hold `meant` as a valid value. */
export async function fillAndCheck(element: ActionElement, meant: string, timeoutMs: number): Promise<void> {
  const before = await read(element);
  await element.fill(meant, { timeout: timeoutMs });
  const after = await read(element);
  // Not an input or textarea (a contenteditable): nothing the browser sanitises.
  if (!before || !after) return;
  const why = problem(after, meant);
  if (!why) return;
  // A page's own script may have changed the value since: only a value still as the fill left it is put back.
  await element.fill(before.value, { timeout: timeoutMs }).catch(() => undefined);
  throw new ActionFailure(`The field did not take "${meant}": ${why}; its earlier value "${before.value}" was put back`);
}

function problem(r: Reading, meant: string): string | undefined {
  const bounds = [r.min && `min ${r.min}`, r.max && `max ${r.max}`, r.step && `step ${r.step}`].filter(Boolean).join(', ');
  if (r.value !== meant) {
    if (r.maxLength >= 0 && meant.length > r.maxLength) return `it holds "${r.value}" because it takes at most ${r.maxLength} characters (maxlength)`;
    if (r.type === 'range') return `it holds "${r.value}" because a slider snaps a value to its range and step (${bounds || 'min 0, max 100, step 1'})`;
  }
  const flags = r.invalid.filter((f) => BOUND_FLAGS.includes(f));
  if (flags.length > 0) return `the value is invalid for it (${flags.join(', ')}; ${bounds || 'its default step'})`;
  return undefined;
}

function read(element: ActionElement): Promise<Reading | undefined> {
  return (element as ActionElement & { evaluate: (fn: (el: Element) => Reading | undefined) => Promise<Reading | undefined> }).evaluate((el) => {
    if (!(el instanceof HTMLInputElement) && !(el instanceof HTMLTextAreaElement)) return undefined;
    const input = el as HTMLInputElement;
    const invalid: string[] = [];
    for (const key in el.validity) if (key !== 'valid' && el.validity[key as keyof ValidityState]) invalid.push(key);
    return {
      value: el.value,
      type: el instanceof HTMLInputElement ? el.type : 'textarea',
      min: input.min ?? '',
      max: input.max ?? '',
      step: input.step ?? '',
      maxLength: el.maxLength,
      invalid,
    };
  });
}
