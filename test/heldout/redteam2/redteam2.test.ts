// A batch from the 20:46 outside tester's attack pages (2026-11-27), written and frozen before any fix
// for them, never edited afterwards: a click the page takes away as it is pressed (a promotion slid
// over the box, the box wrapped in a link, in a link to a new tab), a menu button that opens on
// mousedown (done, not refused), and page work an act starts and the page finishes later (timers three
// links deep, a 60 MB IndexedDB write, a 120 MB Blob read). The tester's other late work (eight animation
// frames, timers four links deep) is past the watch's documented chain of three links and not in it.
// Each task as an act and as an agentExecute with builtin/offline, judged by what the page holds right
// after the call answers. It prints the table and holds one line: success: true never without the task done.
import { fileURLToPath } from 'node:url';
import { heldoutSuite } from '../heldout-run.js';
import type { HeldoutTask } from '../tasks.js';

const PAGES = fileURLToPath(new URL('./pages/', import.meta.url));
const t = (page: string, instruction: string): HeldoutTask => ({ page: `${page}.html`, instruction, class: 'plain' });

const TASKS: HeldoutTask[] = [
  t('r-cover', 'Click the Approve button'),
  t('r-relink', 'Click the Open report button'),
  t('r-linkblank', 'Click the Download invoice button'),
  t('r-menu-down', 'Click the Options button'),
  t('r-chain3', 'Click the Pay now button'),
  t('r-idb', 'Click the Save offline button'),
  t('r-blob', 'Click the Export data button'),
];

heldoutSuite('the 20:46 tester: clicks taken away on press, late page work', TASKS, PAGES);
