// A control may sanitise what it is given (a range clamps and snaps, maxlength cuts) or hold it as
// invalid (a number or date outside min/max or off its step). Before a fill the value is tried on a
// detached copy of the control: one it would change or hold as invalid is refused, naming the value
// the control would hold and why, and the page is left untouched (no event fires).
import type { ElementHandle, Locator } from 'playwright-core';
import { ActionFailure } from './action-failure.js';
import { NATIVE_TYPES, nativeValue } from '../inference/builtin/native-values.js';
import { percentOf } from './slider-percent.js';

interface Trial {
  /** What the control would hold. */
  holds: string;
  type: string;
  bounds: string;
  /** min and max as written on the control ('' when absent). */
  min: string;
  max: string;
  maxLength: number;
  /** The validity flags a bound sets, by their DOM names. */
  invalid: string[];
}

/**
 * Fills the control with `given` unless it would not hold it as given and valid; returns the value
 * filled. A native control (date, time, number…) gets the value in its own form ("05/20/2010" is
 * 2010-05-20), whether it came written in the instruction or from a variable; one it cannot read is refused.
 */
export async function fillChecked(element: Locator | ElementHandle<Element>, given: string, timeoutMs: number): Promise<string> {
  let trial = await tryOn(element, given, timeoutMs);
  let meant = given;
  if (trial && NATIVE_TYPES.has(trial.type) && given !== '') {
    const percent = trial.type === 'range' ? percentOf(given, Number(trial.min || 0), Number(trial.max || 100)) : undefined;
    if (percent && 'refused' in percent) throw new ActionFailure(`The field cannot take "${given}": ${percent.refused}; nothing was typed`);
    const native = percent ? percent.value : nativeValue(trial.type, given);
    if (native === undefined) throw new ActionFailure(`The field cannot take "${given}": it is not a ${trial.type} value the field can read; nothing was typed`);
    if (native !== given) [meant, trial] = [native, await tryOn(element, native, timeoutMs)];
  }
  const why = trial && problem(trial, meant);
  if (why) throw new ActionFailure(`The field cannot take "${given}": ${why}; nothing was typed`);
  await element.fill(meant, { timeout: timeoutMs });
  return meant;
}

/** The step a control keeps to when it names none (a time with seconds needs step under 60). */
const DEFAULT_STEP: Record<string, string> = { time: 'step 60 seconds by default', 'datetime-local': 'step 60 seconds by default', number: 'step 1 by default' };

function problem(t: Trial, meant: string): string | undefined {
  // Not the cut value itself: a variable's value is redacted whole from messages, never a piece of it.
  if (t.maxLength >= 0 && meant.length > t.maxLength) return `it takes at most ${t.maxLength} characters (maxlength), so it would hold only the first ${t.maxLength} of its ${meant.length}`;
  if (t.holds !== meant && t.type === 'range') return `a slider keeps to its range and step (${t.bounds || 'min 0, max 100, step 1'}), so it would hold "${t.holds}"`;
  if (t.invalid.length > 0) return `the value is out of its bounds (${t.invalid.join(', ')}; ${t.bounds || DEFAULT_STEP[t.type] || 'its default step'})`;
  return undefined;
}

function tryOn(element: Locator | ElementHandle<Element>, meant: string, timeoutMs: number): Promise<Trial | undefined> {
  // Both kinds of element evaluate alike; their declared overloads do not unite. A locator waits for its
  // element as long as it is told (a missing one must fail as fill would, in time for self-heal).
  return (element as Locator).evaluate((found: Element, value: string): Trial | undefined => {
    // Playwright fills a label's control.
    const el = found instanceof HTMLLabelElement ? found.control : found;
    if (!(el instanceof HTMLInputElement) && !(el instanceof HTMLTextAreaElement)) return undefined;
    const input = el as HTMLInputElement;
    const copy = document.createElement(el.localName) as HTMLInputElement;
    for (const name of ['type', 'min', 'max', 'step']) if (el.hasAttribute(name)) copy.setAttribute(name, el.getAttribute(name)!);
    copy.value = value;
    const flags = ['rangeOverflow', 'rangeUnderflow', 'stepMismatch'] as const;
    const bounds = (['min', 'max', 'step'] as const).filter((b) => input[b]).map((b) => `${b} ${input[b]}`).join(', ');
    return { holds: copy.value, type: copy.type, bounds, min: input.getAttribute('min') ?? '', max: input.getAttribute('max') ?? '', maxLength: el.maxLength, invalid: value === '' ? [] : flags.filter((f) => copy.validity[f]) };
  }, meant, { timeout: timeoutMs });
}
