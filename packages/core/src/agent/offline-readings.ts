// Other readings of a step the page has nothing for, tried in order by the offline agent. Each is a
// list of steps, each grounded on its own fresh snapshot, so a control that only appears after the
// first (the options of a custom dropdown, the days of a date picker, the buttons of a dialog) can
// be found; none is a guess: each of its steps must ground exactly like a step the user wrote.
import type { PlannedStep } from './split-steps.js';

/** "pick Germany from the country list": the option of a list that only shows its options once opened. */
const PICK_FROM = /^(select|choose|pick) (.+?) (?:from|in|on|as|for) (.+)$/i;
/** "… and confirm", "… and confirm the deletion": the dialog the step before opened asks for it. */
const CONFIRM = /^confirm(?: it| that| this| the (\p{L}+))?$/iu;

/** What a reading may need to know of the page before it is offered. */
export interface PageProbe {
  /** Whether a dialog is open (a modal, an alert dialog). */
  dialogOpen(): Promise<boolean>;
}

/** The step's own readings (from the way it was written), then the ones its words allow. */
export async function readingsOf(step: PlannedStep & { derived?: true }, before: string | undefined, page: PageProbe): Promise<string[][]> {
  const readings = [...(step.or ?? [])];
  if (step.derived) return readings;
  const pick = PICK_FROM.exec(step.text.trim());
  // Opened by expanding it (a control that says it expands, never a link), then the option chosen on the page it opened.
  if (pick) readings.push([`expand ${pick[3]}`, `${pick[1]} ${pick[2]}`]);
  // The confirming control names the action of the step before it ("Delete project" after "delete …") and sits in
  // the dialog that step opened; with no dialog open there is nothing to confirm (the same verb elsewhere on the page
  // would be another item's).
  const verb = before?.split(' ')[0];
  const confirm = CONFIRM.exec(step.text.trim());
  if (confirm && verb && namesAction(confirm[1], verb) && (await page.dialogOpen())) readings.push([`click ${verb} in the dialog`]);
  return readings;
}

/** Whether the noun of "confirm the <noun>" is the action of `verb` ("deletion" of delete, "removal" of remove); no noun says none other. */
function namesAction(noun: string | undefined, verb: string): boolean {
  if (!noun) return true;
  const stem = verb.toLowerCase().replace(/e$/, '');
  return stem.length >= 3 && noun.toLowerCase().startsWith(stem);
}
