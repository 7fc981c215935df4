// A slider drawn without an <input> (role=slider, its value in aria-valuenow) takes no fill: a person moves it
// with the arrow keys, as its keyboard contract says. One key press shows its step; a value it cannot stop at
// (off its step, out of aria-valuemin..max) is refused with that press undone, and a slider the keys do not
// move is refused as it stands. What it holds at the end is read again (end-state.ts).
import type { Locator } from 'playwright-core';
import { ActionFailure } from './action-failure.js';
import type { ActionElement } from './action-methods.js';
import { pageFunction } from '../selectors/in-page.js';
import { percentOf } from './slider-percent.js';

/** Most key presses one value may take (a slider of 0..1000 in steps of 1 from one end to the other). */
const MAX_PRESSES = 1000;

/** An ARIA slider's value and range, read in the page (null: no ARIA slider). */
const sliderState = pageFunction((el: Element) => {
  if (el.getAttribute('role') !== 'slider' || el instanceof HTMLInputElement) return null;
  const num = (name: string) => (el.hasAttribute(name) ? Number(el.getAttribute(name)) : Number.NaN);
  return { now: num('aria-valuenow'), min: num('aria-valuemin'), max: num('aria-valuemax') };
});

/** Moves the ARIA slider `element` to `given`, returning the value it holds; undefined when it is no ARIA slider. */
export async function setAriaSlider(element: ActionElement, given: string, timeoutMs: number): Promise<string | undefined> {
  const read = () => (element as Locator).evaluate(sliderState, undefined, { timeout: timeoutMs });
  const start = await read();
  if (!start) return undefined;
  const { min, max } = start;
  if (![start.now, min, max].every(Number.isFinite)) throw new ActionFailure('The slider does not say its value and range (aria-valuenow, aria-valuemin, aria-valuemax); nothing was moved');
  const percent = percentOf(given, min, max);
  if (percent && 'refused' in percent) throw new ActionFailure(`The slider cannot take "${given}": ${percent.refused}; nothing was moved`);
  const want = Number(percent ? percent.value : given.trim());
  if (!/\d/.test(given) || !Number.isFinite(want)) throw new ActionFailure(`The slider cannot take "${given}": it is not a number; nothing was moved`);
  if (want < min || want > max) throw new ActionFailure(`The slider cannot take "${given}": it runs from ${min} to ${max}; nothing was moved`);
  if (want === start.now) return String(want);
  const [toward, back] = want > start.now ? ['ArrowRight', 'ArrowLeft'] : ['ArrowLeft', 'ArrowRight'];
  const now = async () => (await read())?.now ?? Number.NaN;
  await element.press(toward, { timeout: timeoutMs });
  const first = await now();
  const step = first - start.now;
  if (!Number.isFinite(step) || step === 0 || Math.sign(step) !== Math.sign(want - start.now)) {
    if (first !== start.now) await element.press(back, { timeout: timeoutMs });
    throw new ActionFailure(`The slider did not move toward ${want} with the ${toward} key (it holds ${first}); nothing was set`);
  }
  const presses = (want - first) / step;
  if (Math.abs(presses - Math.round(presses)) > 1e-9 || Math.round(presses) > MAX_PRESSES) {
    await element.press(back, { timeout: timeoutMs });
    throw new ActionFailure(`The slider cannot take "${given}": it moves in steps of ${Math.abs(step)} and does not stop at ${want} (it was left at ${start.now})`);
  }
  for (let i = 0; i < Math.round(presses); i++) await element.press(toward, { timeout: timeoutMs });
  const end = await now();
  if (Math.abs(end - want) > 1e-9) throw new ActionFailure(`The slider stopped at ${end}, not ${want}, as the ${toward} key moved it`);
  return String(want);
}
