// Values a control takes only in its own form, and choices made the way a person makes them: an ARIA listbox's
// option is clicked (a <select> is not involved), a combobox's option is clicked once typing shows it, a slider drawn with divs is moved by its arrow keys, "30%" is a
// slider's 30 only on a 0..100 range, "72.5 kg" goes into a field that shows kg as 72.5, "6:45 in the morning" is
// 06:45, and a quoted note with a comma and quotes in it is typed whole. Each near miss is refused with the page
// as it was; the confirm step of a dialog is found by the agent once the dialog is open.
import { describe, expect, it } from 'vitest';
import { actResult, expectOk, useContract } from '../support/contract';
import { pageText } from '../support/page-log';

const ctx = useContract();
const json = { 'x-stream-response': 'false', 'browserbase-cache-bypass': 'true' };

const act = (id: string, input: unknown) => actResult(ctx.api, id, input);
const state = async (id: string) => pageText(ctx.api, id, '#state');

describe('act fills and chooses values in the form each control takes', () => {
  it('chooses an ARIA listbox option by clicking it, and refuses an option the list lacks, a disabled one, or a choice the list does not show', async () => {
    const id = await ctx.sessionOn('widget-values.html');
    expect(await act(id, 'Select Oolong in the Tea list')).toMatchObject({ success: true });
    expect(await state(id)).toContain('tea=Oolong');
    expect(await act(id, { selector: '#teas', method: 'selectOptionFromDropdown', arguments: ['assam'], description: 'choose Assam' })).toMatchObject({ success: true });
    expect(await state(id)).toContain('tea=Assam');
    expect(await act(id, 'Select Earl Grey in the Tea list')).toMatchObject({ success: false, message: expect.stringContaining('The list has no option "Earl Grey" (its options: Sencha, Oolong, Assam, Matcha)') });
    expect(await act(id, 'Select Matcha in the Tea list')).toMatchObject({ success: false, message: expect.stringContaining('The option "Matcha" is disabled') });
    expect(await state(id)).toContain('tea=Assam');
    expect(await act(id, 'Select Mint in the Herb list')).toMatchObject({ success: false, message: expect.stringContaining('the list does not show it selected after its option was clicked (it shows "Chamomile")') });
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('chooses a combobox option from the list it shows once typed into, and gives the field back when the list never shows it', async () => {
    const id = await ctx.sessionOn('widget-values.html');
    expect(await act(id, 'Choose Paris as the city')).toMatchObject({ success: false, message: expect.stringContaining('The combobox\'s list never showed an option "Paris"') });
    expect(await state(id)).toContain('city=none: note=');
    expect(await act(id, 'Choose Berlin as the city')).toMatchObject({ success: true });
    expect(await state(id)).toContain('city=BER:Berlin note=');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('types a quoted note with a comma and quotes in it whole, into the field named after it', async () => {
    const id = await ctx.sessionOn('widget-values.html');
    expect(await act(id, `Enter the note 'Leave at door, then ring "twice"' into the Delivery note field`)).toMatchObject({ success: true });
    expect(await state(id)).toContain('note=Leave at door, then ring "twice" weight=');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('reads a number in the unit its field shows, and refuses one in another unit', async () => {
    const id = await ctx.sessionOn('widget-values.html');
    expect(await act(id, 'Enter 160 lb as the weight')).toMatchObject({ success: false, message: expect.stringContaining('"160 lb" is in lb, which [') });
    expect(await state(id)).toContain('weight= ');
    expect(await act(id, 'Enter 72.5 kg as the weight')).toMatchObject({ success: true });
    expect(await state(id)).toContain('weight=72.5 ');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('moves a slider drawn with divs by its keys, reads a percentage only on a 0..100 range, and refuses a value off its step or range', async () => {
    const id = await ctx.sessionOn('widget-values.html');
    expect(await act(id, 'Set Brightness to 30%')).toMatchObject({ success: true });
    expect(await state(id)).toContain('brightness=30 ');
    // Off its step: the one press that showed the step is undone.
    expect(await act(id, 'Set Brightness to 35%')).toMatchObject({ success: false, message: expect.stringContaining('it moves in steps of 10 and does not stop at 35 (it was left at 30)') });
    expect(await state(id)).toContain('brightness=30 ');
    expect(await act(id, 'Set Brightness to 130%')).toMatchObject({ success: false, message: expect.stringContaining('it runs from 0 to 100; nothing was moved') });
    expect(await act(id, 'Set Volume to 40%')).toMatchObject({ success: true });
    expect(await state(id)).toContain('volume=40 ');
    expect(await act(id, 'Set Zoom to 50%')).toMatchObject({ success: false, message: expect.stringContaining('a percentage is read only on a slider from 0 to 100, and this one runs from 0 to 200') });
    expect(await state(id)).toContain('brightness=30 volume=40 zoom=100 ');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('reads "in the morning" and "in the evening" as a time field takes them, and refuses a time they cannot be', async () => {
    const id = await ctx.sessionOn('widget-values.html');
    expect(await act(id, 'Change the Wake-up time to 14:00 in the morning')).toMatchObject({ success: false, message: expect.stringContaining('cannot be read as a time value') });
    expect(await act(id, 'Change the Wake-up time to sometime in the morning')).toMatchObject({ success: false });
    expect(await state(id)).toContain('wake=07:30 ');
    expect(await act(id, 'Change the Wake-up time to 6:45 in the morning')).toMatchObject({ success: true });
    expect(await state(id)).toContain('wake=06:45 ');
    expect(await act(id, 'Set the Wake-up time to 7:15 in the evening')).toMatchObject({ success: true });
    expect(await state(id)).toContain('wake=19:15 ');
    expectOk(await ctx.api.call('endSession', { id }));
  });

  it('confirms the deletion in the dialog the delete opened (agent), and never confirms what the dialog does not ask', async () => {
    const agent = async (id: string, instruction: string) => {
      const reply = await ctx.api.call('agentExecute', { id, body: { agentConfig: {}, executeOptions: { instruction } }, headers: json });
      expectOk(reply);
      return reply.body.data.result as { success: boolean; message: string };
    };
    const id = await ctx.sessionOn('confirm-dialog.html');
    expect(await agent(id, 'Delete the Receipts folder and confirm the order')).toMatchObject({ success: false, message: expect.stringContaining('Stopped at step 2 of 2 ("confirm the order")') });
    expect(await state(id)).toContain('folders=old,receipts');
    expect(await act(id, 'click Cancel')).toMatchObject({ success: true });
    const done = await agent(id, 'Delete the Old drafts folder and confirm the deletion');
    expect(done, done.message).toMatchObject({ success: true });
    expect(await state(id)).toContain('folders=receipts');
    expectOk(await ctx.api.call('endSession', { id }));
  });
});
