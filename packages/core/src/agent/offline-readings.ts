// Other readings of a step the page has nothing for, tried in order by the offline agent. Each is a
// list of steps, each grounded on its own fresh snapshot, so a control that only appears after the
// first (the options of a custom dropdown, the days of a date picker, the buttons of a dialog) can
// be found; none is a guess: each of its steps must ground exactly like a step the user wrote.
import type { OpenDialog } from './offline-dialog.js';
import type { PlannedStep } from './split-steps.js';

/** "pick Germany from the country list": the option of a list that only shows its options once opened. */
const PICK_FROM = /^(select|choose|pick) (.+?) (?:from|in|on|as|for) (.+)$/i;
/** "… and confirm", "… and confirm the deletion": the dialog the step before opened asks for it. */
const CONFIRM = /^confirm(?: it| that| this| the (\p{L}+))?$/iu;

/** What a reading may need to know of the page before it is offered. */
export interface PageProbe {
  /** The dialog open (a modal, an alert dialog), if one is. */
  dialog(): Promise<OpenDialog | undefined>;
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
  const verb = before && actionOf(before);
  const confirm = CONFIRM.exec(step.text.trim());
  if (confirm && verb && namesAction(confirm[1], verb) && (await page.dialog())) readings.push([`click ${verb} in the dialog`]);
  return readings;
}

/**
 * "… and confirm" after a step: confirmed only in an open dialog that asks for that step. The dialog must
 * name the step's item when the step named one ("notes.txt" of "delete notes.txt"); then a button naming
 * the action ("Yes, delete") is the confirmation, else the dialog's name must name the action ("Delete
 * file?") and the step runs as written. A dialog about something else ("Subscribe to Premium?", "Delete
 * photo.png?") is refused, and so is no dialog after a deletion (a Confirm button elsewhere on the page is
 * another thing's). Undefined: the step runs as written.
 */
export async function confirmIn(text: string, before: string | undefined, page: PageProbe): Promise<{ run: string } | { refused: string } | undefined> {
  const confirm = CONFIRM.exec(text.trim());
  const verb = before && actionOf(before);
  if (!confirm || !verb || !namesAction(confirm[1], verb)) return undefined;
  const action = verb.toLowerCase();
  const dialog = await page.dialog();
  // With no dialog, "switch to monthly billing and confirm" has its Confirm on the page; a deletion's is never another's.
  if (!dialog) return DESTRUCTIVE.test(action) ? { refused: `no dialog is open to ${action}, so nothing was confirmed (a Confirm button elsewhere on the page is not the ${action}'s)` } : undefined;
  const stem = stemOf(verb);
  const about = itemWords(before).every((word) => `${dialog.name} ${dialog.text}`.toLowerCase().includes(word));
  const buttons = dialog.buttons.length > 0 ? `; its buttons: ${dialog.buttons.slice(0, 6).join(', ')}` : '';
  if (about && dialog.buttons.some((b) => b.toLowerCase().includes(stem))) return { run: `click ${verb} in the dialog` };
  if (about && dialog.name.toLowerCase().includes(stem)) return undefined;
  return { refused: `the open dialog ("${dialog.name || 'unnamed'}"${buttons}) does not ask to ${before}, so nothing in it was confirmed` };
}

/** The words naming a step's item ("notes.txt" of "delete notes.txt", "gemini" and "project" of "delete the Gemini project"). */
function itemWords(step: string): string[] {
  const [, ...rest] = step.toLowerCase().split(/\s+/);
  const named = CLICKS.test(step.split(' ')[0] ?? '') ? rest.slice(1) : rest;
  return named.map((w) => w.replace(/^["'“]+|["'”.,;:!?]+$/g, '')).filter((w) => w.length >= 3 && !ITEM_FILLER.has(w));
}

/** Verbs whose object is the control clicked, not the item acted on. */
const CLICKS = /^(?:click|tap|press|hit|push)$/i;

const DESTRUCTIVE = /^(?:delete|remove|erase|discard|destroy|drop|purge|wipe|trash|clear|reset|cancel|close|unsubscribe|revoke|deactivate)$/;

const ITEM_FILLER = new Set(['the', 'this', 'that', 'these', 'those', 'its', 'all', 'and', 'for', 'from', 'button', 'row', 'item', 'entry']);

/** The action a step did: its verb, or the control it clicked ("click Delete" deletes). */
function actionOf(step: string): string | undefined {
  const [verb, object] = step.split(' ');
  return CLICKS.test(verb ?? '') ? object?.replace(/[^\p{L}]/gu, '') || undefined : verb;
}

function stemOf(verb: string): string {
  return verb.toLowerCase().replace(/e$/, '');
}

/** Whether the noun of "confirm the <noun>" is the action of `verb` ("deletion" of delete, "removal" of remove); no noun says none other. */
function namesAction(noun: string | undefined, verb: string): boolean {
  if (!noun) return true;
  const stem = stemOf(verb);
  return stem.length >= 3 && noun.toLowerCase().startsWith(stem);
}
