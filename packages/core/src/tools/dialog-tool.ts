// The page's JavaScript dialogs (alert, confirm, prompt, beforeunload): `dialog` sets how the next one
// the session's pages open is answered (accepted, with text for a prompt, or dismissed) and tells
// which dialogs opened since the last call and how they were answered. A dialog is never left open:
// an open dialog freezes its page, and the act that opened it would wait out its whole deadline.
import type { BrowserContext, Dialog } from 'playwright-core';
import { z } from 'zod';
import { dialogsAnsweredElsewhere } from '../act/dialog-watch.js';
import { substituteVariables } from '../act/variables.js';
import { maskSecrets } from '../secrets/mask-secrets.js';
import { defineTool } from './tool.js';
import type { ToolOptions } from './tool-options.js';

interface Answer {
  accept: boolean;
  /** The prompt's text with its variables' values: kept only until the dialog is answered. */
  promptText?: string;
}

interface OpenedDialog {
  type: string;
  message: string;
  answer: 'accepted' | 'dismissed';
}

const openedSchema = z.object({ type: z.string(), message: z.string(), answer: z.enum(['accepted', 'dismissed']) });

/** A session's dialogs, from its first dialog call on: the answer set for the next one, and those answered since the last call. */
class DialogDesk {
  next?: Answer;
  opened: OpenedDialog[] = [];

  constructor(context: BrowserContext) {
    context.on('dialog', (dialog) => this.#answer(dialog));
    dialogsAnsweredElsewhere(context);
  }

  #answer(dialog: Dialog): void {
    // With nothing set, as Playwright answers when nobody listens: leaving a page is allowed, the rest dismissed.
    const answer = this.next ?? { accept: dialog.type() === 'beforeunload' };
    this.next = undefined;
    this.opened.push({ type: dialog.type(), message: dialog.message(), answer: answer.accept ? 'accepted' : 'dismissed' });
    // A DevTools client on the relay may have answered it already.
    void (answer.accept ? dialog.accept(answer.promptText) : dialog.dismiss()).catch(() => undefined);
  }
}

const desks = new WeakMap<BrowserContext, DialogDesk>();

function deskOf(context: BrowserContext): DialogDesk {
  let desk = desks.get(context);
  if (!desk) desks.set(context, (desk = new DialogDesk(context)));
  return desk;
}

export function dialogTool(options: ToolOptions) {
  return defineTool({
    name: 'dialog',
    description: 'Set how the next alert, confirm or prompt of the page is answered (accept, with text for a prompt, or dismiss), before the action that opens it; says which dialogs opened since the last call.',
    input: z.object({
      action: z.enum(['accept', 'dismiss']),
      promptText: z.string().max(10_000).optional().describe('What to type into a prompt when accepting it; may be a %variable% placeholder'),
    }),
    output: z.object({ next: z.enum(['accept', 'dismiss']), promptText: z.string().optional(), opened: z.array(openedSchema) }),
    readOnly: false,
    destructive: true,
    capability: 'dialogs',
    record: 'input',
    handle: async ({ action, promptText }, scope) => {
      const desk = deskOf(scope.context);
      const opened = desk.opened.map((dialog) => ({ ...dialog, message: maskSecrets(dialog.message, scope.secrets) }));
      desk.opened = [];
      const accept = action === 'accept';
      desk.next = { accept, ...(accept && promptText !== undefined && { promptText: substituteVariables(promptText, options.variables) }) };
      // The placeholder, never the value, goes back to the caller.
      return { next: action, ...(accept && promptText !== undefined && { promptText }), opened };
    },
    view: (result) => {
      const next = `The next dialog will be ${result.next === 'accept' ? `accepted${result.promptText === undefined ? '' : ` with the text ${JSON.stringify(result.promptText)}`}` : 'dismissed'}.`;
      const opened = result.opened.map((dialog) => `${dialog.type} ${JSON.stringify(dialog.message)} was ${dialog.answer}`);
      return { text: opened.length > 0 ? `${next} Since the last call: ${opened.join('; ')}.` : next, structured: result };
    },
  });
}
