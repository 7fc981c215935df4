// A page-level DevTools connection made from a browser-level one, for a DevTools front end (which
// speaks to one page as if it were the whole connection, the way Chromium's /devtools/page/<id>
// endpoint does). It attaches to the page with flatten sessions through the browser channel (so it
// goes through the same mux, and the same target filtering, as every relayed client) and translates:
// what the front end sends without a sessionId goes to the page's session, what that session sends
// back loses its sessionId, and child sessions the front end attaches itself (iframes, workers) pass
// through as they are. Browser-level traffic is the relay's own and never reaches the front end.
import { parseCdpCommand, type CdpChannel, type CdpMessage as Message } from '@deckhand/core';

/** The id of the relay's own attach command; a front end's ids are on the page session, so they never meet it. */
const ATTACH_ID = 1;

export function pageChannel(browser: CdpChannel, targetId: string): Promise<CdpChannel> {
  return new Promise((resolve, reject) => {
    let page: string | undefined;
    let closed = false;
    const messageListeners: Array<(message: string) => void> = [];
    const closeListeners: Array<() => void> = [];
    const close = () => {
      if (closed) return;
      closed = true;
      browser.close();
      for (const listener of closeListeners) listener();
    };

    browser.onClose(() => {
      if (!page) reject(new Error('The browser closed before the page could be attached'));
      close();
    });
    browser.onMessage((text) => {
      const message = JSON.parse(text) as Message;
      if (message.sessionId === undefined) {
        if (message.id === ATTACH_ID) attached(message);
        // The page went away (closed tab, crash): so does this connection.
        else if (message.method === 'Target.detachedFromTarget' && message.params?.sessionId === page) close();
        return;
      }
      if (message.sessionId === page) {
        const { sessionId: _page, ...asPage } = message;
        return deliver(JSON.stringify(asPage));
      }
      deliver(text);
    });
    browser.send(JSON.stringify({ id: ATTACH_ID, method: 'Target.attachToTarget', params: { targetId, flatten: true } }));

    function attached(reply: Message): void {
      const sessionId = reply.result?.sessionId;
      if (typeof sessionId !== 'string') {
        reject(new Error(`The page could not be attached: ${reply.error?.message ?? 'no session'}`));
        return close();
      }
      page = sessionId;
      resolve({
        send: (text) => {
          if (closed) return;
          const parsed = parseCdpCommand(text);
          if ('reply' in parsed) return deliver(JSON.stringify(parsed.reply));
          const message = parsed.command;
          browser.send(JSON.stringify(message.sessionId === undefined ? { ...message, sessionId: page } : message));
        },
        onMessage: (listener) => messageListeners.push(listener),
        onClose: (listener) => (closed ? listener() : closeListeners.push(listener)),
        close,
      });
    }

    function deliver(text: string): void {
      for (const listener of messageListeners) listener(text);
    }
  });
}
