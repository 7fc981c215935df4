// Issue 18 for the offline model's grammar: every word of a step is accounted for, a described value
// is read from the page or refused (never typed as words), a transform is applied or refused, and a
// value is put in the form its native control takes. (Runs on real pages: test/heldout, test/grounding.)
import { describe, expect, it } from 'vitest';
import { splitSteps } from '../src/agent/split-steps.js';
import { nativeValue } from '../src/inference/builtin/native-values.js';
import { parseInstruction, type Intent } from '../src/inference/builtin/parse-instruction.js';

const refusal = (instruction: string) => {
  const intent = parseInstruction(instruction);
  const step = intent.kind === 'steps' ? intent.steps.find((s) => s.kind === 'refuse') : intent;
  return step?.kind === 'refuse' ? step.words : undefined;
};

describe('the offline grammar accounts for every word', () => {
  it('refuses a described value, naming it, instead of typing it', () => {
    expect(refusal('Type the text below into the text field')).toBe('the text below');
    // Read as a table cell ("the <column> of <row>"): on a page with no such table, refused when grounded.
    expect(parseInstruction('type the total number of blocks into the Count field')).toMatchObject({ kind: 'fill', value: '', source: { kind: 'cell' } });
  });

  it('types literal values as written: a number, a date, an email, a URL, a single word, words that describe nothing', () => {
    for (const [instruction, value] of [
      ['type 12 Elm Street in the street address field', '12 Elm Street'],
      ['enter 05/20/2010 into the date field', '05/20/2010'],
      ['enter ada@example.com into the Email field', 'ada@example.com'],
      ['type https://example.org/docs into the Website field', 'https://example.org/docs'],
    ]) expect(parseInstruction(instruction!)).toMatchObject({ kind: 'fill', value });
  });

  it('reads a described value from the page by a named rule', () => {
    expect(parseInstruction('type the text of the Learn more link into the Name field')).toMatchObject({ kind: 'fill', source: { kind: 'textOf', target: 'the Learn more link' } });
    expect(parseInstruction("type Linus's email into the To field")).toMatchObject({ kind: 'fill', source: { kind: 'cell', row: 'Linus', column: 'email' } });
    const pasted = parseInstruction('Copy the text in the textarea, paste it into the textbox and press Submit') as Extract<Intent, { kind: 'steps' }>;
    expect(pasted.steps.map((s) => s.kind)).toEqual(['read', 'fill', 'click']);
    expect(pasted.steps[1]).toMatchObject({ source: { kind: 'earlier' } });
  });

  it('applies upper and lower case, and refuses other ways of writing a value', () => {
    expect(parseInstruction('Type "orchid" in all upper case letters into the text field')).toMatchObject({ kind: 'fill', value: 'orchid', transform: 'upper' });
    expect(refusal('Type "orchid" in title case into the text field')).toBe('in title case');
  });

  it('refuses verbs it does not carry out and conditions it would drop', () => {
    expect(refusal('Resize the textarea so that it is at least 300 pixels tall')).toBe('Resize');
    expect(refusal('Double-click report.txt')).toBe('Double-click');
    expect(refusal('Click the Add button 3 times')).toBe('3 times');
    expect(refusal('Press the + button twice and then click Order')).toBe('twice');
  });

  it('reads a list of targets as one step per target, tried as a whole name first', () => {
    const list = parseInstruction('Select Apple, Kiwi, Mango, Pear and Plum');
    expect(list.otherwise?.otherwise ?? list.otherwise).toMatchObject({ kind: 'steps' });
  });

  it('scrolls an element, and gives a spinner its value', () => {
    expect(parseInstruction('Scroll the textarea to the bottom')).toMatchObject({ kind: 'scrollTo', position: '100%', target: 'the textarea' });
    expect(parseInstruction('Select -10 with the spinner')).toMatchObject({ kind: 'set', value: '-10', target: 'the spinner' });
  });

  it('reads "<value> into <field>" pairs as steps of their own, and never lets a bare value swallow another clause', () => {
    const steps = (instruction: string) => {
      const intent = parseInstruction(instruction);
      return intent.kind === 'steps' ? intent.steps.map((s) => (s.kind === 'fill' ? [s.value, s.target] : s.kind)) : intent.kind;
    };
    expect(steps('type Ada into First name and Lovelace into Last name')).toEqual([['Ada', 'First name'], ['Lovelace', 'Last name']]);
    expect(steps('type Ada into First name and Lovelace into Last name, and ada@x.org into Email')).toEqual([['Ada', 'First name'], ['Lovelace', 'Last name'], ['ada@x.org', 'Email']]);
    // The agent keeps the pairs in one step (", and" before a value is no new step).
    expect(splitSteps('type Ada into First name and Lovelace into Last name, and ada@x.org into Email')).toHaveLength(1);
    expect(steps("type 'hello' into Comment and also into Notes")).toEqual([['hello', 'Comment'], ['hello', 'Notes']]);
    // Not pairs: the value is the words before the one "into".
    expect(parseInstruction('type Smith and Jones into Company')).toMatchObject({ kind: 'fill', value: 'Smith and Jones', target: 'Company' });
    expect(refusal('type Ada into First name but Lovelace into Last name')).toBe('Ada into First name but Lovelace');
  });

  it('refuses words after a quoted value that it does not apply, naming them', () => {
    expect(refusal("type 'ada lovelace' capitalized into Name")).toBe('capitalized');
    expect(refusal("type 'ada' with a capital A into Comment")).toBe('with a capital A');
  });

  it('gives one value to every field of a list, one step each, and refuses "A or B"', () => {
    const targets = (instruction: string) => {
      const intent = parseInstruction(instruction);
      return intent.kind === 'steps' ? intent.steps.map((s) => ('target' in s ? `${s.kind} ${s.target}` : s.kind)) : intent.kind;
    };
    expect(targets("type 'Ada' into the first and last name fields")).toEqual(['fill the first name field', 'fill last name field']);
    expect(targets("type 'x@y.z' into Email and Phone")).toEqual(['fill Email', 'fill Phone']);
    expect(targets("type 'secret' into the Password and Confirm password fields")).toEqual(['fill the Password field', 'fill Confirm password field']);
    expect(targets('select Blue in the Color and Trim dropdowns')).toEqual(['select the Color dropdown', 'select Trim dropdown']);
    expect(refusal("type 'Ada' into First name or Last name")).toBe('First name or Last name');
    expect(targets("type 'ada' in upper case into Email and Phone")).toEqual(['fill Email', 'fill Phone']);
    expect(parseInstruction("type 'ada' in upper case into Email and Phone")).toMatchObject({ steps: [{ transform: 'upper' }, { transform: 'upper' }] });
    // Pairs with values of their own do not say which one a change of case is for.
    expect(parseInstruction('type Ada into First name and Lovelace in upper case into Last name').kind).toBe('refuse');
    // The agent's split keeps the list with its step ("Confirm" there is no step of its own).
    expect(splitSteps("type 'secret' into the Password and Confirm password fields").map((s) => s.text)).toEqual(["type 'secret' into the Password and Confirm password fields"]);
  });

  it('parses a 16 KB pathological instruction (linear in its length)', () => {
    const worst = [
      'type ' + 'a '.repeat(8200),
      'x with '.repeat(2400),
      'click a and '.repeat(1400),
      'check a, '.repeat(1900),
      'type "' + 'a, b and '.repeat(1900),
      'select ' + 'a from '.repeat(2400),
      'type ' + 'a into b and '.repeat(1300),
      "type 'x' into " + 'a and '.repeat(2700),
    ].map((s) => s.slice(0, 16384));
    for (const text of worst) {
      expect(parseInstruction(text)).toBeDefined();
      expect(splitSteps(text).length).toBeGreaterThan(0);
    }
  });
});

describe('values in the form a native control takes', () => {
  it('converts what people write', () => {
    expect(nativeValue('date', '05/20/2010')).toBe('2010-05-20');
    expect(nativeValue('date', 'May 20, 2010')).toBe('2010-05-20');
    expect(nativeValue('time', '9:37 PM')).toBe('21:37');
    expect(nativeValue('datetime-local', 'March 3, 2024 at 14:05')).toBe('2024-03-03T14:05');
    expect(nativeValue('month', 'August 2023')).toBe('2023-08');
    expect(nativeValue('week', 'week 12 of 2025')).toBe('2025-W12');
    expect(nativeValue('number', '1,200')).toBe('1200');
    expect(nativeValue('color', 'red')).toBe('#ff0000');
    expect(nativeValue('color', '#F80')).toBe('#ff8800');
  });

  it('refuses what it cannot read for the control', () => {
    expect(nativeValue('date', '31/02/2010')).toBeUndefined();
    expect(nativeValue('time', '25:00')).toBeUndefined();
    expect(nativeValue('number', 'twelve')).toBeUndefined();
  });
});
