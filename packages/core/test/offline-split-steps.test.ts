// How the offline agent cuts an instruction into steps, and the other readings it may try for a
// step the page has nothing for (the runs themselves: test/grounding/agent-tasks.test.ts).
import { describe, expect, it } from 'vitest';
import { readingsOf, confirmIn } from '../src/agent/offline-readings.js';
import { splitSteps } from '../src/agent/split-steps.js';

const texts = (instruction: string) => splitSteps(instruction).map((s) => s.text);

describe('splitSteps', () => {
  it('starts a step at each verb, and always after "then" or ";"', () => {
    expect(texts("type 'Ada' into Name, fill %pass% into Password and click Submit")).toEqual(["type 'Ada' into Name", 'fill %pass% into Password', 'click Submit']);
    expect(texts("type 'Ada' into Name, then frobnicate the widget; click Submit")).toEqual(["type 'Ada' into Name", 'frobnicate the widget', 'click Submit']);
  });

  it('keeps a name with "and" or a comma whole: the act reads it as one name, then as a list grounded in full', () => {
    expect(splitSteps('click Yes, I agree')).toEqual([{ text: 'click Yes, I agree' }]);
    expect(splitSteps('sort by price, low to high')).toEqual([{ text: 'sort by price, low to high' }]);
    expect(splitSteps('tick Refunds and Inventory and press OK')).toEqual([{ text: 'tick Refunds and Inventory' }, { text: 'press OK' }]);
  });

  it('keeps a step that copies or finds a value with the step that types it', () => {
    expect(splitSteps('Copy the text in the textarea, paste it into the textbox and press Submit')).toEqual([
      { text: 'Copy the text in the textarea; paste it into the textbox' },
      { text: 'press Submit' },
    ]);
    expect(splitSteps('Click the Notes field and type "ready" into it')).toEqual([{ text: 'Click the Notes field; type "ready" into it' }]);
  });

  it("gives a piece built like the step before it that step's verb", () => {
    expect(texts("Enter 'grace' as the username and 'tr0ub4dor' as the password, then sign in")).toEqual(["Enter 'grace' as the username", "Enter 'tr0ub4dor' as the password", 'sign in']);
    expect(texts('set check-in to 2026-05-01 and check-out to 2026-05-04, then search rooms')).toEqual(['set check-in to 2026-05-01', 'set check-out to 2026-05-04', 'search rooms']);
    expect(texts("fill in the full name with 'Ada Lovelace', the email with 'ada@example.com' and create the account")).toEqual([
      "fill in the full name with 'Ada Lovelace'",
      "fill in the email with 'ada@example.com'",
      'create the account',
    ]);
    // A piece with a verb of its own is its own step, not a gap.
    expect(texts('set the quantity to 3 and click Next to continue')).toEqual(['set the quantity to 3', 'click Next to continue']);
  });

  it('spells out "the first two …" and "log in as … with password …"', () => {
    expect(texts('check the first two boxes, then click OK')).toEqual(['check the first box', 'check the second box', 'click OK']);
    expect(splitSteps('log in as ada with password hunter2')).toEqual([
      { text: 'type "ada" into the username field', or: [['type "ada" into the email field']] },
      { text: 'type "hunter2" into the password field' },
      { text: 'log in' },
    ]);
  });
});

describe('readingsOf', () => {
  const page = (open: boolean, name = 'Delete project?', buttons = ['Cancel', 'Confirm'], text = name) => ({ dialog: async () => (open ? { name, buttons, text } : undefined) });

  it('opens a list before choosing from it', async () => {
    expect(await readingsOf({ text: 'pick Germany from the country list' }, undefined, page(false))).toEqual([['expand the country list', 'pick Germany']]);
    // A step that is already a reading is not read again.
    expect(await readingsOf({ text: 'pick Germany from the list', derived: true }, undefined, page(false))).toEqual([]);
  });

  it('confirms with the verb of the step before, only in an open dialog', async () => {
    expect(await readingsOf({ text: 'confirm' }, 'delete the Gemini project', page(true))).toEqual([['click delete in the dialog']]);
    // No dialog: another Delete button on the page is another item's, never a confirmation.
    expect(await readingsOf({ text: 'confirm' }, 'delete the Gemini project', page(false))).toEqual([]);
    expect(await readingsOf({ text: 'confirm' }, undefined, page(true))).toEqual([]);
  });

  it('confirms only a dialog that asks for the step before it', async () => {
    // A button naming the action is the confirmation, whatever the dialog is called.
    expect(await confirmIn('confirm', 'delete account', page(true, 'Are you sure?', ['Confirm', 'Yes, delete'], 'Are you sure? Your account goes for good.'))).toEqual({ run: 'click delete in the dialog' });
    expect(await confirmIn('confirm', 'click Remove', page(true, 'Sure?', ['Remove it', 'Keep']))).toEqual({ run: 'click Remove in the dialog' });
    // A dialog named for the action and the item: the step runs as written.
    expect(await confirmIn('confirm', 'delete beach.jpg', page(true, 'Delete beach.jpg?'))).toBeUndefined();
    // A dialog about something else, or about another item, is refused, with its name and buttons.
    expect(await confirmIn('confirm', 'delete beach.jpg', page(true, 'Subscribe to Premium?'))).toEqual({
      refused: 'the open dialog ("Subscribe to Premium?"; its buttons: Cancel, Confirm) does not ask to delete beach.jpg, so nothing in it was confirmed',
    });
    expect(await confirmIn('confirm', 'delete report.pdf', page(true, 'Archive file?'))).toHaveProperty('refused');
    expect(await confirmIn('confirm', 'delete notes.txt', page(true, 'Delete photo.png?', ['Cancel', 'Yes, delete']))).toHaveProperty('refused');
    expect(await confirmIn('confirm', 'delete notes.txt', page(true, 'Delete your account?'))).toHaveProperty('refused');
    // No dialog open: nothing asks to confirm (a Confirm button elsewhere is another thing's).
    expect(await confirmIn('confirm', 'delete beach.jpg', page(false))).toEqual({ refused: "no dialog is open to delete, so nothing was confirmed (a Confirm button elsewhere on the page is not the delete's)" });
    // No dialog after a step that deletes nothing: its Confirm is on the page ("switch to monthly billing and confirm").
    expect(await confirmIn('confirm', 'switch to monthly billing', page(false))).toBeUndefined();
    // No step before it: the step runs as written.
    expect(await confirmIn('confirm', undefined, page(true))).toBeUndefined();
  });
});
