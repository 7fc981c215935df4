// The page's JavaScript dialogs during one action. Playwright dismisses a dialog nobody listens for,
// so a confirm or prompt an action opens is answered "cancel" behind the caller's back; while nobody
// else listens (the dialog tool's answers, tools/dialog-tool.ts), the watch answers as Playwright would
// and keeps what it dismissed, so the act can say so instead of reporting plain success.
import type { BrowserContext, Dialog } from 'playwright-core';

export interface DismissedDialog {
  type: string;
  message: string;
}

export interface DialogWatch {
  /** Stops watching; the confirms and prompts dismissed because nobody had set an answer. */
  stop(): DismissedDialog[];
}

/** The contexts whose dialogs the dialog tool answers, from its first call on. */
const answered = new WeakSet<BrowserContext>();

/** The dialog tool answers this context's dialogs from now on (as the caller set, or dismissed). */
export function dialogsAnsweredElsewhere(context: BrowserContext): void {
  answered.add(context);
}

export function watchDialogs(context: BrowserContext): DialogWatch {
  const dismissed: DismissedDialog[] = [];
  const listener = (dialog: Dialog) => {
    // The dialog tool answers it as the caller asked.
    if (answered.has(context)) return;
    if (dialog.type() === 'beforeunload') return void dialog.accept().catch(() => undefined);
    // An alert has nothing to decide: dismissing it is accepting it.
    if (dialog.type() !== 'alert') dismissed.push({ type: dialog.type(), message: dialog.message() });
    void dialog.dismiss().catch(() => undefined);
  };
  context.on('dialog', listener);
  return {
    stop: () => {
      context.off('dialog', listener);
      return dismissed;
    },
  };
}
