// A small batch built from the outside tester's editor pages (ce.html: an editor that upper-cases on
// input, one that moves its text away), with the re-renders and deferred rewrites around them; written
// and frozen before the fill read-back was changed for them, never edited afterwards. Each task as an
// act and as an agentExecute with builtin/offline, judged by what the page holds. Where the page rewrites
// what is typed, the only right answer is a refusal. Holds one line: success: true never without the task done.
import { fileURLToPath } from 'node:url';
import { heldoutSuite } from '../heldout-run.js';
import type { HeldoutTask } from '../tasks.js';

const PAGES = fileURLToPath(new URL('./pages/', import.meta.url));
const t = (page: string, instruction: string): HeldoutTask => ({ page: `${page}.html`, instruction, class: 'plain' });

const TASKS: HeldoutTask[] = [
  t('r-upper', 'type hello into the Body field'),
  t('r-move', 'type hello into the Notes field'),
  t('r-plain', 'type hello into the Body field'),
  t('r-swap', 'Type hello into the Draft field'),
  t('r-swap-same', 'Type weekly report into the Summary field'),
  t('r-input-swap', 'Type abc into the Code field'),
  t('r-microtask', 'Type see you into the Comment box'),
  t('r-channel', 'Type sunset into the Caption field'),
  t('r-bold', 'Type big news into the Headline field'),
];

heldoutSuite('editors that rewrite, move or re-render what is typed, with the built-in offline model', TASKS, PAGES);
