// What a red-team pass (issue 22) found act and the agent reporting as done when they were not: a value no
// option holds clicked into the list's middle, a list that selected another option, a word of an option taken
// for the option, a combobox typed into instead of chosen from, a second field's clause typed into the first,
// a unit the label refuses, a day-first date read month-first, a slider's own range forgotten when read
// back, and a dialog about something else confirmed. Each is now done whole or refused with the page as it was.
import { describe, expect, it } from 'vitest';
import { actResult, expectOk, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const ctx = useContract();
const json = { 'x-stream-response': 'false', 'browserbase-cache-bypass': 'true' };

const act = (id: string, input: unknown) => actResult(ctx.api, id, input);
const state = async (id: string) => pageText(ctx.api, id, '#state');

describe('act and the agent on near misses', () => {
  it('chooses only an option named whole, and refuses one the list does not then show selected', async () => {
    const id = await ctx.sessionOn('near-misses.html');
    expect(await act(id, 'Choose New as the condition')).toMatchObject({ success: false, message: expect.stringContaining('The list has no option "New" (its options: Like new, Used, For parts)') });
    expect(await act(id, 'Choose the Condition')).toMatchObject({ success: false, message: expect.stringContaining('say which option to choose') });
    expect(await act(id, 'Choose green')).toMatchObject({ success: false, message: expect.stringContaining('"green" names no option whole (did you mean [') });
    expect(await act(id, 'Select blue from Paint')).toMatchObject({ success: false, message: expect.stringContaining('"blue" names no option whole (did you mean "Sky blue"?)') });
    expect(await act(id, 'Choose Small as the size')).toMatchObject({ success: false, message: expect.stringContaining('the list does not show it selected after its option was clicked (it shows "Medium")') });
    expect(await state(id)).toContain('cond=none size=Medium shade=none paint=Sky blue ');
    // A <select>'s option by its label before its value, and exactly before but for case; two alike but for case are refused.
    expect(await act(id, 'Choose Pro as the Tier')).toMatchObject({ success: true });
    expect(await act(id, 'Choose Blue as the Tone')).toMatchObject({ success: true });
    expect(await act(id, 'Choose blue as the Tone')).toMatchObject({ success: false, message: expect.stringContaining('"blue" names 3 options but for case (BLUE, bLue, Blue)') });
    expect(await act(id, { selector: '#tone', method: 'selectOptionFromDropdown', arguments: ['blue'], description: 'the blue tone' })).toMatchObject({ success: false, message: expect.stringContaining('The dropdown has 3 options named "blue"') });
    expect(await state(id)).toContain('tier=p2 tone=c ');
    expect(await act(id, 'Choose Used as the condition')).toMatchObject({ success: true });
    expect(await act(id, 'Choose Light blue')).toMatchObject({ success: true });
    expect(await state(id)).toContain('cond=Used size=Medium shade=Light blue ');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('picks from a combobox only an option its list shows, naming what it showed', async () => {
    const id = await ctx.sessionOn('near-misses.html');
    expect(await act(id, 'Pick Paris from the City')).toMatchObject({ success: false, message: expect.stringContaining('never showed an option "Paris" (it showed Paris, Texas, Parisville)') });
    expect(await state(id)).toContain('city=none ');
    expect(await act(id, 'Pick Berlin from the City')).toMatchObject({ success: true });
    expect(await state(id)).toContain('city=Berlin ');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('types each field its own value when one act names two, quoted or not', async () => {
    const id = await ctx.sessionOn('near-misses.html');
    expect(await act(id, "Fill Note with 'fragile', Tags with 'glass, gift'")).toMatchObject({ success: true });
    expect(await state(id)).toContain('note=fragile tags=glass, gift ');
    expect(await act(id, 'Set Note to urgent and Tags to paper')).toMatchObject({ success: true });
    expect(await state(id)).toContain('note=urgent tags=paper ');
    // The last value's comma stays in it; "x and y" stays one value.
    expect(await act(id, 'Fill Note with hello, Tags with red, blue')).toMatchObject({ success: true });
    expect(await state(id)).toContain('note=hello tags=red, blue ');
    expect(await act(id, 'Set Note to salt and pepper and Tags to spice')).toMatchObject({ success: true });
    expect(await state(id)).toContain('note=salt and pepper tags=spice ');
    // A comma inside one value with no second field after it stays the one value.
    expect(await act(id, 'Fill Note with 1 Main St, Springfield')).toMatchObject({ success: true });
    expect(await state(id)).toContain('note=1 Main St, Springfield tags=spice ');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('reads units, dates and percentages as the label says, and a slider back on its own range', async () => {
    const id = await ctx.sessionOn('near-misses.html');
    expect(await act(id, 'Set the Weight to 72.5 kg')).toMatchObject({ success: false, message: expect.stringContaining('"72.5 kg" is in kg') });
    expect(await act(id, 'Set the Weight to 160 lb')).toMatchObject({ success: true });
    expect(await act(id, 'Enter 70 kg into Mass')).toMatchObject({ success: false, message: expect.stringContaining('"70 kg" is in kg') });
    expect(await act(id, 'Set the Birthday to 03/04/2025')).toMatchObject({ success: true });
    expect(await act(id, 'Set the Speed to 150%')).toMatchObject({ success: true });
    expect(await state(id)).toContain('weight=160 bday=2025-04-03 speed=150 ');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('confirms (agent) only a dialog that asks for the step before it', async () => {
    const agent = async (id: string, instruction: string) => {
      const reply = await ctx.api.call('agentExecute', { id, body: { agentConfig: {}, executeOptions: { instruction } }, headers: json });
      expectOk(reply);
      return reply.body.data.result as { success: boolean; message: string };
    };
    const id = await ctx.sessionOn('near-misses.html');
    expect(await agent(id, 'Delete beach.jpg and confirm')).toMatchObject({
      success: false,
      message: expect.stringContaining('the open dialog ("Subscribe to Premium?"; its buttons: Confirm, Cancel) does not ask to Delete beach.jpg'),
    });
    expect(await state(id)).toContain('plan=free files=beach.jpg,notes.txt');
    expect(await act(id, 'click Cancel')).toMatchObject({ success: true });
    const done = await agent(id, 'Delete notes.txt and confirm');
    expect(done, done.message).toMatchObject({ success: true });
    expect(await state(id)).toContain('plan=free files=beach.jpg');
    expectOk(await ctx.api.call('endSession', { id }));
  });
});
