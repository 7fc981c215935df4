// A session's view of a browser it shares with other sessions of its project: a CDP channel that shows
// and reaches only the session's browser context. It is an allowlist. On browser-level sessions (the
// channel's own, and any it opens with Target.attachToBrowserTarget) only the commands below pass,
// rewritten to the session's context where they name one; target lists and Target events are filtered
// to the context; targets of other contexts cannot be attached to, activated or closed; what would affect
// every context (closing or crashing the browser, making or disposing contexts, tracing) is refused. On
// the sessions of its own targets (pages, their frames and workers) a client may do anything, as with a
// browser of its own, except Target and Browser commands and those naming a context: those reach past
// the target, so they follow the browser-level rules there too. The relay's allowlist (relay-allowlist.ts)
// applies on top, to every session's channel.
import type { CdpChannel } from './cdp-mux.js';
import { parseCdpCommand, parseCdpMessage, type CdpMessage } from './cdp-message.js';


interface TargetInfo {
  targetId?: string;
  type?: string;
  browserContextId?: string;
}

/** Browser-level commands that pass as they are: they read nothing of other contexts. */
const PASS = new Set([
  'Browser.getVersion',
  'Target.setDiscoverTargets',
  'Target.setAutoAttach',
]);

/** Browser-level commands that name a context (absent means the default one): always the session's. */
const IN_CONTEXT = new Set([
  'Target.createTarget',
  'Browser.setDownloadBehavior',
  'Browser.grantPermissions',
  'Browser.resetPermissions',
  'Browser.setPermission',
  'Storage.getCookies',
  'Storage.setCookies',
  'Storage.clearCookies',
]);

/** Browser-level commands on a target: only the context's own. */
const ON_TARGET = new Set([
  'Target.attachToTarget',
  'Target.activateTarget',
  'Target.closeTarget',
  'Target.getTargetInfo',
  'Target.autoAttachRelated',
  'Browser.getWindowForTarget',
]);

const REFUSED = -32000;

export function contextChannel(channel: CdpChannel, browserContextId: string): CdpChannel {
  return new ContextChannel(channel, browserContextId).channel;
}

class ContextChannel {
  readonly channel: CdpChannel;
  #nextId = 1;
  /** Our id → the client's id, and what to do with the reply. */
  readonly #pending = new Map<number, { id?: number; internal?: (reply: CdpMessage) => void; onReply?: (reply: CdpMessage) => CdpMessage }>();
  /** Browser-level sessions of the client: "" is its own (no sessionId), others from attachToBrowserTarget. */
  readonly #browserSessions = new Set<string>(['']);
  /** Sessions of the context's targets the client holds. */
  readonly #targetSessions = new Set<string>();
  /** Targets of the context the client has been told of. */
  readonly #targets = new Set<string>();
  readonly #windows = new Set<number>();
  readonly #downloads = new Set<string>();
  readonly #listeners: Array<(message: string) => void> = [];

  constructor(
    private readonly inner: CdpChannel,
    private readonly contextId: string,
  ) {
    inner.onMessage((text) => this.#fromBrowser(text));
    this.channel = {
      send: (text) => void this.#fromClient(text),
      onMessage: (listener) => this.#listeners.push(listener),
      onClose: (listener) => inner.onClose(listener),
      close: () => inner.close(),
    };
  }

  async #fromClient(text: string): Promise<void> {
    const parsed = parseCdpCommand(text);
    if ('reply' in parsed) return this.#deliver(parsed.reply);
    const message = parsed.command;
    const session = message.sessionId ?? '';
    const refuse = (why: string) => this.#deliver({ id: message.id, sessionId: message.sessionId, error: { code: REFUSED, message: why } });
    const onTarget = this.#targetSessions.has(session);
    if (!onTarget && !this.#browserSessions.has(session)) {
      return this.#deliver({ id: message.id, sessionId: message.sessionId, error: { code: -32001, message: 'Session with given id not found.' } });
    }
    // On its own targets' sessions a client may do anything but what reaches past the target: Target
    // and Browser commands, and those naming a context, are held to the browser-level rules below.
    if (onTarget && !/^(Target|Browser)\./.test(message.method) && !IN_CONTEXT.has(message.method)) return this.#forward(message);
    const params = message.params ?? {};
    const method = message.method;
    if (PASS.has(method)) return this.#forward(message);
    if (method === 'Target.getTargets') return this.#forward(message, (reply) => this.#filterTargets(reply));
    if (method === 'Target.getBrowserContexts') return this.#deliver({ id: message.id, sessionId: message.sessionId, result: { browserContextIds: [this.contextId] } });
    if (method === 'Target.attachToBrowserTarget') {
      return this.#forward(message, (reply) => {
        if (typeof reply.result?.sessionId === 'string') this.#browserSessions.add(reply.result.sessionId);
        return reply;
      });
    }
    if (method === 'Target.detachFromTarget') {
      const detached = typeof params.sessionId === 'string' ? params.sessionId : undefined;
      if (!detached || !(this.#targetSessions.has(detached) || this.#browserSessions.has(detached))) return refuse('No session with given id');
      return this.#forward(message);
    }
    if (IN_CONTEXT.has(method)) {
      if (params.browserContextId !== undefined && params.browserContextId !== this.contextId) return refuse('Only the session\'s own browser context can be used');
      return this.#forward({ ...message, params: { ...params, browserContextId: this.contextId } }, method === 'Target.createTarget' ? (reply) => this.#noteTarget(reply) : undefined);
    }
    if (ON_TARGET.has(method)) {
      if (method === 'Target.getTargetInfo' && params.targetId === undefined) return this.#forward(message);
      // A known target is checked without waiting, so commands keep their order unless a lookup is needed.
      if (typeof params.targetId !== 'string' || !(this.#targets.has(params.targetId) || (await this.#inContext(params.targetId)))) {
        return refuse('No target with given id found');
      }
      const onReply =
        method === 'Target.attachToTarget'
          ? (reply: CdpMessage) => this.#noteSession(reply)
          : method === 'Browser.getWindowForTarget'
            ? (reply: CdpMessage) => this.#noteWindow(reply)
            : undefined;
      return this.#forward(message, onReply);
    }
    if (method === 'Browser.getWindowBounds' || method === 'Browser.setWindowBounds') {
      if (!this.#windows.has(params.windowId as number)) return refuse('Browser window not found');
      return this.#forward(message);
    }
    return refuse(`${method} is not available through a session's cdpUrl: the browser is shared by other sessions of the project`);
  }

  #fromBrowser(text: string): void {
    const message = parseCdpMessage(text);
    if (!message) return;
    if (typeof message.id === 'number') return this.#reply(message);
    const session = message.sessionId ?? '';
    const params = message.params ?? {};
    const onTarget = this.#targetSessions.has(session);
    if (!onTarget && !this.#browserSessions.has(session)) return;
    const info = params.targetInfo as TargetInfo | undefined;
    switch (message.method) {
      case 'Target.targetCreated':
      case 'Target.targetInfoChanged':
        if (info?.browserContextId !== this.contextId) return;
        if (info.targetId) this.#targets.add(info.targetId);
        return this.#deliver(message);
      case 'Target.targetDestroyed':
      case 'Target.targetCrashed': {
        const targetId = params.targetId as string;
        if (!this.#targets.has(targetId)) return;
        if (message.method === 'Target.targetDestroyed') this.#targets.delete(targetId);
        return this.#deliver(message);
      }
      case 'Target.attachedToTarget': {
        const attached = params.sessionId as string;
        // The client's own Target.attachToBrowserTarget: another browser-level session, held to the same rules.
        if (info?.type === 'browser') {
          this.#browserSessions.add(attached);
          return this.#deliver(message);
        }
        // A page's own children (frames, workers) are the context's too, whether or not they say so.
        if (info?.browserContextId === this.contextId || (onTarget && info && info.browserContextId === undefined)) {
          if (info.targetId) this.#targets.add(info.targetId);
          this.#targetSessions.add(attached);
          return this.#deliver(message);
        }
        // Auto-attach reaches every context's targets: let go of another's at once (a target waiting for
        // its debugger resumes when its last waiting session detaches).
        void this.#internal({ method: 'Target.detachFromTarget', params: { sessionId: attached }, sessionId: message.sessionId });
        return;
      }
      case 'Target.detachedFromTarget':
        if (!this.#targetSessions.delete(params.sessionId as string) && !this.#browserSessions.delete(params.sessionId as string)) return;
        return this.#deliver(message);
      case 'Browser.downloadWillBegin':
        if (!this.#targets.has(params.frameId as string)) return;
        this.#downloads.add(params.guid as string);
        return this.#deliver(message);
      case 'Browser.downloadProgress':
        if (!this.#downloads.has(params.guid as string)) return;
        if (params.state !== 'inProgress') this.#downloads.delete(params.guid as string);
        return this.#deliver(message);
      default:
        // A target's own events are the client's; other browser-wide events may concern any context.
        if (onTarget) this.#deliver(message);
        return;
    }
  }

  #reply(message: CdpMessage): void {
    const pending = this.#pending.get(message.id!);
    if (!pending) return;
    this.#pending.delete(message.id!);
    if (pending.internal) return pending.internal(message);
    const reply = { ...message, id: pending.id };
    this.#deliver(pending.onReply && !reply.error ? pending.onReply(reply) : reply);
  }

  #forward(message: CdpMessage, onReply?: (reply: CdpMessage) => CdpMessage): void {
    const id = this.#nextId++;
    this.#pending.set(id, { id: message.id, onReply });
    this.inner.send(JSON.stringify({ ...message, id }));
  }

  #internal(message: CdpMessage): Promise<CdpMessage> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, { internal: resolve });
      this.inner.send(JSON.stringify({ ...message, id }));
    });
  }

  async #inContext(targetId: string): Promise<boolean> {
    const reply = await this.#internal({ method: 'Target.getTargetInfo', params: { targetId } });
    return (reply.result?.targetInfo as TargetInfo | undefined)?.browserContextId === this.contextId;
  }

  #filterTargets(reply: CdpMessage): CdpMessage {
    const infos = ((reply.result?.targetInfos as TargetInfo[] | undefined) ?? []).filter((info) => info.browserContextId === this.contextId);
    for (const info of infos) if (info.targetId) this.#targets.add(info.targetId);
    return { ...reply, result: { ...reply.result, targetInfos: infos } };
  }

  #noteTarget(reply: CdpMessage): CdpMessage {
    if (typeof reply.result?.targetId === 'string') this.#targets.add(reply.result.targetId);
    return reply;
  }

  #noteSession(reply: CdpMessage): CdpMessage {
    if (typeof reply.result?.sessionId === 'string') this.#targetSessions.add(reply.result.sessionId);
    return reply;
  }

  #noteWindow(reply: CdpMessage): CdpMessage {
    if (typeof reply.result?.windowId === 'number') this.#windows.add(reply.result.windowId);
    return reply;
  }

  #deliver(message: CdpMessage): void {
    const text = JSON.stringify(message);
    for (const listener of this.#listeners) listener(text);
  }
}
