// A small batch on contenteditable editors (written and frozen before the act read such an editor back,
// never edited afterwards): each task as an act and as an agentExecute with builtin/offline, judged by
// what the editor holds. Some editors cut, revert, upper-case or strip what is typed: there the only
// right answer is a refusal. It prints the table and holds one line: success: true never without the task done.
import { fileURLToPath } from 'node:url';
import { heldoutSuite } from '../heldout-run.js';
import type { HeldoutTask } from '../tasks.js';

const PAGES = fileURLToPath(new URL('./pages/', import.meta.url));
const t = (page: string, instruction: string): HeldoutTask => ({ page: `${page}.html`, instruction, class: 'plain' });

const TASKS: HeldoutTask[] = [
  t('e-plain', 'Type Meet at noon into the Message box'),
  t('e-rich', 'Type Great work into the Comment box'),
  t('e-plaintext', 'Type I grow tomatoes into the Bio field'),
  t('e-limit', 'Type Thanks for the quick reply into the Reply box'),
  t('e-locked', 'Type Call the bank into the Note'),
  t('e-upper', 'Type spring sale into the Title field'),
  t('e-digits', 'Type Room 42 into the Location field'),
];

heldoutSuite('contenteditable editors with the built-in offline model', TASKS, PAGES);
