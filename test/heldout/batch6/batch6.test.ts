// before (a949532): `npx vitest run --project heldout test/heldout/batch6`, three runs (load average 16-19 on
// 2 cores), the same table each time (and a fourth pass that printed every reply agreed):
// | mode | episodes | done | refused | false success |
// |---|---|---|---|---|
// | act | 40 | 18 | 22 | 0 |
// | agent | 40 | 21 | 19 | 0 |
// Done in both modes: f-date-checkin, o-plan-select, o-radio-delivery, f-uncheck, f-two-fields, f-search-enter,
// f-textarea, f-placeholder, f-aria-label, f-far-label, w-switch, w-editor, w-div-checkbox, t-second-delete,
// t-row-person, t-link-vs-button, t-icon-button, t-next-page. Done as agent, refused as act: w-combobox,
// w-tabs, w-accordion. Refused in both: the six where only a refusal is right (h-missing-coupon, h-two-reports,
// h-disabled, h-gift-wrap, h-not-given, m-saturday), and doable ones: f-time-alarm ("6:45 in the morning"
// not read as a time), f-weight-unit ("72.5 kg" not read as a number), f-quoted-comma (the quoted note not
// found), w-listbox ("Element is not a <select> element"), w-slider ("30%" not read as a range value),
// w-modal-confirm ("confirm the deletion" not understood), d-total-shown, g-except-xl, g-any-but-delete,
// i-express, k-guests, l-shopping, x-backwards (each refused with the reason it cannot do that kind).
//
// after (a0be542): `npx vitest run --project heldout` once (all batches, 496 passed) then `npx vitest run
// --project heldout test/heldout/batch6` twice (load average 1-5 on 2 cores), the same table each time:
// | mode | episodes | done | refused | false success |
// |---|---|---|---|---|
// | act | 40 | 24 | 16 | 0 |
// | agent | 40 | 27 | 13 | 0 |
// Now done in both modes: f-time-alarm, f-weight-unit, f-quoted-comma, w-listbox, w-slider, w-combobox. Done
// as agent, refused as act: w-tabs, w-accordion, w-modal-confirm (act grounds every step on one snapshot, and
// the tab's box, the section's button and the dialog's confirm are not on it). Refused in both: the six where
// only a refusal is right (as before) and the seven kinds refused by design (d-total-shown, g-except-xl,
// g-any-but-delete, i-express, k-guests, l-shopping, x-backwards).
//
// A held-out batch written by an outsider to the product's source (frozen before it was first run, never
// edited afterwards): forms (a date, a time, a number with a unit, a select chosen by its text where the
// values differ, a radio group, an uncheck, two fields in one instruction, a value with a comma and
// quotes, a search sent with Enter, a textarea, fields known only by placeholder, by aria-label or by a
// label far away), widgets (an ARIA listbox and combobox, tabs, an accordion, switches, a keyboard
// slider, a contenteditable editor, a checkbox drawn with divs, a delete that asks to confirm), targets
// (the second of three Delete buttons, Edit in a named person's row, a button beside a link of the same
// text, an icon button known by its label, the next page), and tasks where only a refusal is right (a
// field that does not exist, two equal Download buttons, a button disabled for good, a clause the page
// cannot satisfy, a value nowhere on the page, an option the dropdown lacks). Each page judges itself
// (pages/judge.js); each task runs as an act and as an agentExecute with builtin/offline; it prints the
// table and holds one line: success: true never without the task done.
import { fileURLToPath } from 'node:url';
import { heldoutSuite } from '../heldout-run.js';
import type { HeldoutTask, TaskClass } from '../tasks.js';

const PAGES = fileURLToPath(new URL('./pages/', import.meta.url));
const t = (cls: TaskClass, page: string, instruction: string): HeldoutTask => ({ page: `${page}.html`, instruction, class: cls });

const TASKS: HeldoutTask[] = [
  t('native control', 'f-date-checkin', 'Set the Check-in date to 14 July 2026 and click Search'),
  t('native control', 'f-time-alarm', 'Change the Wake-up time to 6:45 in the morning and press Save alarm'),
  t('native control', 'f-weight-unit', 'Enter 72.5 kg as the weight and press Next'),
  t('option', 'o-plan-select', 'Choose Family (up to 6 people) in the Plan dropdown and click Continue'),
  t('option', 'o-radio-delivery', 'Pick Evening delivery and press Confirm'),
  t('plain', 'f-uncheck', 'Uncheck Send me product news and click Save preferences'),
  t('clause', 'f-two-fields', 'Type Lisbon into From and Porto into To, then press Find trains'),
  t('plain', 'f-quoted-comma', `Enter the note 'Leave at door, ring "twice"' into the Delivery note field and press Save`),
  t('plain', 'f-search-enter', 'Type refund policy into the Search help articles box and press Enter'),
  t('plain', 'f-textarea', 'Write "Arrived damaged, box was wet" in the Comments box and click Send feedback'),
  t('plain', 'f-placeholder', 'Type 90210 into the ZIP code field and press Check availability'),
  t('plain', 'f-aria-label', 'Enter 4242 4242 4242 4242 as the card number and click Pay'),
  t('plain', 'f-far-label', 'Type Marie into the Middle name field and press Save'),

  t('option', 'w-listbox', 'Select Oolong in the Tea list and press Order'),
  t('option', 'w-combobox', 'Choose Berlin as the city and click Go'),
  t('clause', 'w-tabs', 'Open the Security tab, tick Require two-factor login, then click Save'),
  t('clause', 'w-accordion', 'Open the question "Can I change my order?" and click Start a chat'),
  t('plain', 'w-switch', 'Turn off Location sharing'),
  t('native control', 'w-slider', 'Set Brightness to 30% and click Apply'),
  t('plain', 'w-editor', 'Write "Meeting moved to Friday" in the message box and press Send'),
  t('clause', 'w-div-checkbox', 'Tick I agree to the Terms and click Create account'),
  t('clause', 'w-modal-confirm', 'Delete the Old drafts folder and confirm the deletion'),

  t('ordinal', 't-second-delete', 'Click the second Delete button'),
  t('plain', 't-row-person', 'Click Edit in the row for Priya Natarajan'),
  t('plain', 't-link-vs-button', 'Click the Details button'),
  t('plain', 't-icon-button', 'Click the Print button'),
  t('plain', 't-next-page', 'Go to the next page of results'),

  t('missing', 'h-missing-coupon', 'Type SAVE20 into the Coupon code field and click Apply'),
  t('ambiguous', 'h-two-reports', 'Download the report'),
  t('missing', 'h-disabled', 'Click the Withdraw funds button'),
  t('clause', 'h-gift-wrap', 'Set the quantity to 3, choose gift wrapping and click Add to cart'),
  t('described value', 'd-total-shown', 'Type the total shown above into the Amount field and click Pay'),
  t('described value', 'h-not-given', 'Type the order number from my confirmation email into the Reference field and click Track'),
  t('missing', 'm-saturday', 'Choose Saturday in the Delivery day dropdown and click Save'),
  t('negation', 'g-except-xl', 'Tick every size except XL and click Save'),
  t('negation', 'g-any-but-delete', 'Click any button except Delete'),
  t('condition', 'i-express', 'If Express shipping is available choose it, otherwise choose Standard; then click Continue'),
  t('count', 'k-guests', 'Press + until the number of guests is 4'),
  t('list', 'l-shopping', 'Add Milk, Eggs, Bread and Butter to the shopping list'),
  t('transform', 'x-backwards', 'Type the word "kitten" backwards into the Answer field and press Check'),
];

heldoutSuite('an outsider\'s held-out batch (forms, widgets, targets, refusals) with the built-in offline model', TASKS, PAGES);
