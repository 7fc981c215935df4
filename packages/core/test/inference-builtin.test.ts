import { describe, expect, it } from 'vitest';
import { DeckhandError } from '../src/errors.js';
import { createInference } from '../src/inference/create-inference.js';
import { GO_BACK, PAGE_ELEMENT_ID, type ChosenAction } from '../src/inference/types.js';
import { UsageMeter } from '../src/models/usage.js';
import { ELEMENTS, snapshot } from './inference-snapshot.js';

const builtin = createInference('builtin/offline', { env: {} });
const variables = [{ name: 'password', description: 'the account password' }];

async function choose(instruction: string) {
  const usage = new UsageMeter();
  const result = await builtin.chooseAction({ instruction, snapshot, variables, signal: new AbortController().signal, usage });
  return { result, usage };
}

type Expected = [elementId: string, method: string, args?: string[]];

const RESOLVES: Array<[string, Expected]> = [
  ['click the Sign in button', ['9', 'click']],
  ['Click Pricing', ['2', 'click']],
  ['go to the pricing page', ['2', 'click']],
  ['type "ada@example.com" into the Email field', ['6', 'fill', ['ada@example.com']]],
  ['fill the password field with %password%', ['7', 'fill', ['%password%']]],
  ['enter "shoes" in the search box', ['3', 'fill', ['shoes']]],
  ["type 'ada' into the you@example.com box", ['6', 'fill', ['ada']]],
  ['type hello world into Notes', ['19', 'fill', ['hello world']]],
  ['select "Germany" from the Country dropdown', ['10', 'selectOptionFromDropdown', ['Germany']]],
  ['choose "united kingdom" from Country', ['10', 'selectOptionFromDropdown', ['United Kingdom']]],
  ['check Remember me', ['8', 'check']],
  ['uncheck the Subscribe to newsletter checkbox', ['13', 'uncheck']],
  ['select the Yearly radio button', ['12', 'check']],
  ['hover over the Pricing link', ['2', 'hover']],
  ['press Enter', [PAGE_ELEMENT_ID, 'press', ['Enter']]],
  ['press Enter in the search box', ['3', 'press', ['Enter']]],
  ['press ctrl+a in Notes', ['19', 'press', ['Control+A']]],
  ['scroll down', [PAGE_ELEMENT_ID, 'nextChunk', []]],
  ['scroll up one page', [PAGE_ELEMENT_ID, 'prevChunk', []]],
  ['scroll to the bottom', [PAGE_ELEMENT_ID, 'scrollTo', ['100%']]],
  ['scroll to 40%', [PAGE_ELEMENT_ID, 'scrollTo', ['40%']]],
  ['scroll down in the Results', ['17', 'nextChunk', []]],
  ['scroll to the Privacy policy', ['22', 'scrollIntoView', []]],
  ['go back', [PAGE_ELEMENT_ID, GO_BACK, []]],
  ['click the Delete button for Bob', ['16', 'click']],
  ['click the second Delete button', ['16', 'click']],
  ['click the Help link', ['21', 'click']],
  ['drag Home to Notes', ['1', 'dragAndDrop', ['19']]],
  ['enter the password "yA"', ['7', 'fill', ['yA']]],
  ['click the button labeled "Sign in"', ['9', 'click']],
  ['remove Bob', ['16', 'click']],
  ['choose Yearly', ['12', 'check']],
  ['turn off the newsletter', ['13', 'uncheck']],
  ['select Germany as the country', ['10', 'selectOptionFromDropdown', ['Germany']]],
];

const FAILS: Array<[string, RegExp]> = [
  ['click Delete', /"Delete" is ambiguous: 2 elements match equally \(\[15\] button "Delete".*\[16\] button "Delete"/],
  ['click Help', /ambiguous.*\[20\] button "Help".*\[21\] link "Help"/],
  ['click the Save button', /\[14\] button "Save" is disabled/],
  ['click the Checkout button', /No button on the page matches "the Checkout button"/],
  ['type "x" into the Phone field', /No text field on the page matches "the Phone field"/],
  ['choose "Spain" from the Country dropdown', /"Spain" is not one of its options \(France, Germany, United States, United Kingdom\)/],
  ['select "united" from Country', /"united" names no option whole \(did you mean "United States" or "United Kingdom"\?\)/],
  // One option holding the words is still not the one named: it is named back, nothing chosen.
  ['select "kingdom" from Country', /"kingdom" names no option whole \(did you mean "United Kingdom"\?\)/],
  ['type %secret% into Email', /Variable %secret% is not defined/],
  ['book a flight to Paris for two', /cannot read "book a flight to Paris for two".*Configure a model/],
  ['check the Pricing link', /No checkbox or radio button on the page matches/],
  // Never the first element of a kind when the name does not match: refused, with the candidates.
  ['click on the link "Careers"', /No link on the page matches "the link "Careers""; candidates: \[1\] link "Home"/],
  ['hover over the Resources menu', /No menu on the page matches "the Resources menu"/],
  ['type "x" into the Phone number field', /No text field on the page matches/],
];

describe('built-in model: chooseAction', () => {
  it.each(RESOLVES)('%s', async (instruction, [elementId, method, args]) => {
    const { result } = await choose(instruction);
    expect(result).not.toHaveProperty('failure');
    const action = result as ChosenAction;
    expect({ elementId: action.elementId, method: action.method }).toEqual({ elementId, method });
    if (args) expect(action.arguments).toEqual(args);
    expect(action.description.length).toBeGreaterThan(0);
  });

  it.each(FAILS)('fails honestly: %s', async (instruction, reason) => {
    const { result } = await choose(instruction);
    expect(result).toHaveProperty('failure');
    expect((result as { failure: string }).failure).toMatch(reason);
  });

  it('chains steps joined by "and": the value typed, then the control the second step names', async () => {
    const { result } = await choose('type "ada@example.com" into the Email field and click the Sign in button');
    expect(result).toMatchObject({ elementId: '6', method: 'fill', arguments: ['ada@example.com'], then: { elementId: '9', method: 'click' } });
  });

  it('records zero tokens and real time, one call per question', async () => {
    const { usage } = await choose('click the Sign in button');
    expect(usage.total).toMatchObject({ inputTokens: 0, outputTokens: 0, calls: 1 });
  });

  it('is the default when nothing is configured', () => {
    expect(createInference(undefined, { env: {} }).identity).toBe('builtin/offline');
  });
});

describe('built-in model: observe', () => {
  const observe = (instruction?: string) =>
    builtin.observe({ instruction, snapshot, signal: new AbortController().signal, usage: new UsageMeter() });

  it('lists every actionable element when asked for nothing in particular', async () => {
    const all = await observe();
    expect(all.map((a) => a.elementId)).not.toContain('5');
    expect(all.find((a) => a.elementId === '13')?.method).toBe('uncheck');
    expect(all).toHaveLength(ELEMENTS.length - 1);
  });

  it('returns the one action an instruction resolves to', async () => {
    expect(await observe('click the Sign in button')).toMatchObject([{ elementId: '9', method: 'click' }]);
  });

  it('lists all good matches when there are several', async () => {
    expect((await observe('find the Delete buttons')).map((a) => a.elementId)).toEqual(['15', '16']);
  });

  it('returns nothing rather than a guess', async () => {
    expect(await observe('the shopping cart')).toEqual([]);
  });
});

describe('built-in model: extract', () => {
  const extract = (input: { instruction?: string; schema?: Record<string, unknown> }) =>
    builtin.extract({ ...input, schema: input.schema as never, snapshot, signal: new AbortController().signal, usage: new UsageMeter() });

  it('reads labelled values, headings, checkbox state and link URLs named in a schema', async () => {
    const result = await extract({
      schema: {
        type: 'object',
        properties: {
          title: { type: 'string' },
          price: { type: 'number' },
          rememberMe: { type: 'boolean' },
          docsUrl: { type: 'string', format: 'uri' },
        },
        required: ['title', 'price', 'docsUrl'],
      },
    });
    expect(result).toEqual({ title: 'Account', price: 19.99, rememberMe: false, docsUrl: 'https://docs.example.com/start' });
  });

  it('reads tables by column header and lists links with absolute URLs', async () => {
    const result = await extract({
      schema: {
        type: 'object',
        properties: {
          users: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string' } } } },
          links: { type: 'array', items: { type: 'object', properties: { text: { type: 'string' }, url: { type: 'string' } } } },
        },
      },
    });
    expect(result).toMatchObject({
      users: [
        { name: 'Alice', email: 'alice@example.com' },
        { name: 'Bob', email: 'bob@example.com' },
      ],
    });
    expect((result as { links: unknown[] }).links).toContainEqual({ text: 'Pricing', url: 'https://shop.example.com/pricing' });
  });

  it('wraps and unwraps a non-object schema', async () => {
    const result = await extract({ instruction: 'links', schema: { type: 'array', items: { type: 'string' } } });
    expect(result).toContain('https://shop.example.com/privacy');
  });

  it('answers simple instructions as {extraction}', async () => {
    expect(await extract({ instruction: 'the page title' })).toEqual({ extraction: 'Account' });
    expect(((await extract({ instruction: 'get all links' })) as { extraction: string }).extraction).toContain('Privacy policy: https://shop.example.com/privacy');
  });

  it('reads the page text when the instruction asks for it', async () => {
    const result = (await extract({ instruction: 'the page text' })) as { extraction: string };
    expect(result.extraction).toContain('Price: $19.99');
    expect(result.extraction).toContain('Sign in');
  });

  it('refuses what it cannot read instead of guessing', async () => {
    await expect(extract({ instruction: 'what is the cheapest plan and why?' })).rejects.toThrow(DeckhandError);
    await expect(
      extract({ schema: { type: 'object', properties: { discountCode: { type: 'string' } }, required: ['discountCode'] } }),
    ).rejects.toThrow(/Could not find discountCode/);
  });

  it('refuses a schema it can fill none of, even with no field required (issue 21), instead of answering {}', async () => {
    await expect(
      extract({ schema: { type: 'object', properties: { discountCode: { type: 'string' }, shipping: { type: 'object', properties: { eta: { type: 'string' } } } } } }),
    ).rejects.toThrow(/Could not find any of discountCode, shipping/);
  });
});
