// A small batch on page work an act starts and the page finishes later, outside timers (written and
// frozen before the settle counted it, never edited afterwards), from the 14:11 tester's late.html,
// ce.html and revert.html: idle callbacks, a MessageChannel, window.postMessage, a CSS transition and
// animation, a Worker's answer, a navigation after a message loop, a field a message loop clears, and
// a message loop that never ends. Each task as an act and as an agentExecute with builtin/offline,
// judged by what the page holds right after the call answers. It prints the table and holds one line:
// success: true never without the task done.
import { fileURLToPath } from 'node:url';
import { heldoutSuite } from '../heldout-run.js';
import type { HeldoutTask } from '../tasks.js';

const PAGES = fileURLToPath(new URL('./pages/', import.meta.url));
const t = (page: string, instruction: string): HeldoutTask => ({ page: `${page}.html`, instruction, class: 'plain' });

const TASKS: HeldoutTask[] = [
  t('s-idle', 'Click the Save button'),
  t('s-channel', 'Click the Send order button'),
  t('s-transition', 'Click the Close panel button'),
  t('s-animation', 'Click the Build report button'),
  t('s-worker', 'Click the Compute checksum button'),
  t('s-postmessage', 'Click the Mark all read button'),
  t('s-next', 'Click the Continue button'),
  t('s-revert', 'Type Ziggy into the Nickname field'),
  t('s-forever', 'Click the Turn on button'),
];

heldoutSuite('page work outside timers, with the built-in offline model', TASKS, PAGES);
