// A small batch on clicks the page keeps from landing (written and frozen before the act checked that
// its click reached the element, never edited afterwards), built from an outside tester's pages: each
// task as an act and as an agentExecute with builtin/offline, judged by what the page's own handlers
// did. Where the page replaces or moves the button as it is pressed, the only right answer is a
// refusal; pages that act on the press, on the release, nudge the button or stop the click at the
// window must still count as done. It prints the table and holds one line: success: true never without the task done.
import { fileURLToPath } from 'node:url';
import { heldoutSuite } from '../heldout-run.js';
import type { HeldoutTask } from '../tasks.js';

const PAGES = fileURLToPath(new URL('./pages/', import.meta.url));
const t = (page: string, instruction: string): HeldoutTask => ({ page: `${page}.html`, instruction, class: 'plain' });

const TASKS: HeldoutTask[] = [
  t('c-replace', 'Click the Replace button'),
  t('c-mover', 'Click the Open drawer button'),
  t('c-inner', 'Click the Save draft button'),
  t('c-plain', 'Click the Send message button'),
  t('c-mousedown', 'Click the Start timer button'),
  t('c-release', 'Click the Archive menu item'),
  t('c-nudge', 'Click the Add to cart button'),
  t('c-stopped', 'Click the Upvote button'),
];

heldoutSuite('clicks the page keeps from landing, with the built-in offline model', TASKS, PAGES);
