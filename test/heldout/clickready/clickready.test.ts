// before (cc957a3): `npx vitest run --project heldout test/heldout/clickready`, three runs, the same table each time:
// | mode | episodes | done | refused | false success |
// |---|---|---|---|---|
// | act | 21 | 13 | 8 | 0 |
// | agent | 21 | 13 | 8 | 0 |
// Per page, alike in act and agent in all three runs: refused late, shown, enabled, spinner (not clicked
// once ready), cookie, backdrop, flee (right), rerender (not clicked); done the other 13.
//
// A held-out batch on clicking an element that is not ready, or not plainly reachable, when the act
// begins (written and frozen before the change to how an act clicks, never edited afterwards): a button
// that comes late, is shown late, is enabled late, slides in, waits under a loading overlay (a click once
// it is ready is right); one under a cookie banner or a backdrop for good, one that runs from the pointer
// (only a refusal is right); and one far down under a sticky header, out of a scrollable box's view,
// partly off the left edge, larger than the viewport, in an open and a closed shadow root, with text in
// spans that take no pointer events, a link over two lines, a turned and scaled button, in a same-origin
// iframe, behind display: contents, next to a hidden twin of the same text, replaced every 50 ms (a click
// on it is right). Each page judges itself (pages/clicks.js): done only when exactly one click made by
// real input reached the element named and no click landed anywhere else. Each task runs as an act and
// as an agentExecute with builtin/offline; it prints the table and holds one line: success: true never
// without the task done.
import { fileURLToPath } from 'node:url';
import { heldoutSuite } from '../heldout-run.js';
import type { HeldoutTask } from '../tasks.js';

const PAGES = fileURLToPath(new URL('./pages/', import.meta.url));
const t = (page: string, instruction: string): HeldoutTask => ({ page: `${page}.html`, instruction, class: 'plain' });

const TASKS: HeldoutTask[] = [
  t('late', 'Click the Confirm order button'),
  t('shown', 'Click the Continue button'),
  t('enabled', 'Click the Submit button'),
  t('slide', 'Click the Accept button'),
  t('spinner', 'Click the Save button'),
  t('cookie', 'Click the Download button'),
  t('backdrop', 'Click the Publish button'),
  t('flee', 'Click the Claim prize button'),
  t('sticky', 'Click the Unsubscribe button'),
  t('scrollbox', 'Click the Restore backup button'),
  t('left', 'Click the Next slide button'),
  t('huge', 'Click the Start button'),
  t('shadow-open', 'Click the Place order button'),
  t('shadow-closed', 'Click the Send feedback button'),
  t('inner-span', 'Click the Archive button'),
  t('wrap-link', 'Click the Terms of service link'),
  t('transform', 'Click the Approve button'),
  t('iframe', 'Click the Renew plan button'),
  t('contents', 'Click the Export button'),
  t('twin', 'Click the Checkout button'),
  t('rerender', 'Click the Refresh button'),
];

heldoutSuite('clicks on elements not ready or not plainly reachable, with the built-in offline model', TASKS, PAGES);
