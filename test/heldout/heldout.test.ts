// Issue 18's held-out batch: every task run as an act and as an agentExecute with builtin/offline,
// judged by what its page recorded. It prints the table and holds one line only: success: true
// never without the task done (no score is asserted).
import { heldoutSuite } from './heldout-run.js';
import { TASKS } from './tasks.js';

heldoutSuite('the held-out batch with the built-in offline model', TASKS);
