// Many CDP clients over the one pipe of a launched browser. The browser has no DevTools port: Playwright
// (in this process, messages as objects) and every relayed client (JSON text) get a channel here, and each channel is its own browser-target session
// (Target.attachToBrowserTarget), so to Chromium each is an independent client, exactly as separate
// websocket clients would be. The mux renumbers command ids and routes replies by id and events by the
// session they belong to; a channel only ever sees, and can only address, its own sessions.

import { checkCdpCommand, parseCdpCommand, parseCdpMessage, type CdpCommandCheck, type CdpMessage } from './cdp-message.js';
import { CrashGate } from './crash-gate.js';

/** One CDP client's end: JSON messages as text, in both directions. */
export interface CdpChannel {
  send(message: string): void;
  onMessage(listener: (message: string) => void): void;
  onClose(listener: () => void): void;
  close(): void;
}

/** The browser's end of the pipe, message-framed. */
export interface CdpTransport {
  send(message: string): void;
  onMessage(listener: (message: string) => void): void;
  onClose(listener: () => void): void;
}

/** An event from the browser, as any session received it. */
export interface CdpEvent {
  method?: string;
  params?: Record<string, unknown>;
}

/** A client's end as objects, the shape of Playwright's `ConnectOverCDPTransport`. */
export interface CdpObjectTransport {
  send(message: object): void;
  close(): void;
  onmessage?: (message: object) => void;
  onclose?: (reason?: string) => void;
}

interface Client {
  /** The channel's browser-target session: its commands without a sessionId go there. */
  root: string;
  deliver(message: CdpMessage): void;
  closed: boolean;
  onClose(listener: () => void): void;
  close(): void;
}

export class CdpMux {
  #nextId = 1;
  #closed = false;
  /** Our id on the pipe → who asked, with the id they used (internal requests have no client). */
  readonly #pending = new Map<number, { client?: Client; id?: number; resolve?: (message: CdpMessage) => void }>();
  /** Every session a client opened, directly or by auto-attach under one of its sessions. */
  readonly #owners = new Map<string, Client>();
  readonly #clients = new Set<Client>();
  readonly #eventListeners: Array<(event: CdpEvent) => void> = [];
  /** A page is not crashed while a screenshot is taken, nor the other way round (crash-gate.ts). */
  readonly #gate = new CrashGate();

  constructor(private readonly transport: CdpTransport) {
    transport.onMessage((text) => this.#receive(text));
    transport.onClose(() => {
      this.#closed = true;
      for (const client of [...this.#clients]) client.close();
      for (const { resolve } of this.#pending.values()) resolve?.({ error: { message: 'Browser closed' } });
      this.#pending.clear();
    });
  }

  /** A new client speaking JSON text: resolves once its browser-target session is attached. */
  async open(): Promise<CdpChannel> {
    const listeners: Array<(message: string) => void> = [];
    const client = await this.#attach((message) => {
      const text = JSON.stringify(message);
      for (const listener of listeners) listener(text);
    });
    return {
      send: (text) => {
        this.#fromClient(client, parseCdpCommand(text));
      },
      onMessage: (listener) => listeners.push(listener),
      onClose: (listener) => client.onClose(listener),
      close: () => client.close(),
    };
  }

  /**
   * A new client in this process speaking messages as objects (Playwright's `connectOverCDP` transport):
   * nothing is serialized between it and the mux, only once on the pipe. Each message is handed over in
   * a task of its own, as Playwright's own pipe and websocket transports do (what one message's promises
   * start runs before the next message arrives), and a client that throws on one is closed, as there.
   */
  async openTransport(): Promise<CdpObjectTransport> {
    const transport: CdpObjectTransport = {
      send: (message) => this.#fromClient(client, checkCdpCommand(message)),
      close: () => client.close(),
    };
    const client = await this.#attach((message) =>
      setImmediate(() => {
        try {
          transport.onmessage?.(message);
        } catch {
          client.close();
        }
      }),
    );
    client.onClose(() => setImmediate(() => transport.onclose?.()));
    return transport;
  }

  async #attach(deliver: (message: CdpMessage) => void): Promise<Client> {
    const reply = await this.#request('Target.attachToBrowserTarget', {});
    const root = reply.result?.sessionId;
    if (typeof root !== 'string') throw new Error('The browser refused a DevTools session');
    const closeListeners: Array<() => void> = [];
    const client: Client = {
      root,
      closed: false,
      deliver,
      onClose: (listener) => (client.closed ? listener() : closeListeners.push(listener)),
      close: () => {
        if (client.closed) return;
        client.closed = true;
        this.#forget(client);
        if (!this.#closed) this.#send({ id: this.#nextId++, method: 'Target.detachFromTarget', params: { sessionId: root } });
        for (const listener of closeListeners) listener();
      },
    };
    this.#clients.add(client);
    this.#owners.set(root, client);
    return client;
  }

  /** Sees every event the browser sends, whichever client's session it is for (the disk quota's download watch). */
  onEvent(listener: (event: CdpEvent) => void): void {
    this.#eventListeners.push(listener);
  }

  /** Closes the browser over the pipe (it exits; the transport then closes). */
  closeBrowser(): void {
    if (!this.#closed) this.#send({ id: this.#nextId++, method: 'Browser.close' });
  }

  #fromClient(client: Client, parsed: CdpCommandCheck): void {
    if (client.closed) return;
    if ('reply' in parsed) return client.deliver(parsed.reply);
    const message = parsed.command;
    const sessionId = message.sessionId ?? client.root;
    if (this.#owners.get(sessionId) !== client) {
      return client.deliver({ id: message.id, sessionId: message.sessionId, error: { code: -32001, message: `Session with given id not found.` } });
    }
    const id = this.#nextId++;
    this.#pending.set(id, { client, id: message.id });
    this.#gate.pass(id, message.method, sessionId, () => {
      if (client.closed) return this.#gate.answered(id);
      this.#send({ id, method: message.method, params: message.params, sessionId });
    });
  }

  #receive(text: string): void {
    const message = parseCdpMessage(text);
    if (!message) return;
    if (typeof message.id === 'number') return this.#reply(message.id, message);
    for (const listener of this.#eventListeners) listener(message);
    this.#gate.event(message.method, message.sessionId, message.params?.sessionId as string | undefined);
    const owner = message.sessionId === undefined ? undefined : this.#owners.get(message.sessionId);
    if (!owner) return;
    if (message.method === 'Target.attachedToTarget') this.#adopt(owner, message.params?.sessionId);
    if (message.method === 'Target.detachedFromTarget' && typeof message.params?.sessionId === 'string') {
      this.#owners.delete(message.params.sessionId);
    }
    owner.deliver(this.#asSeenBy(owner, message));
  }

  #reply(id: number, message: CdpMessage): void {
    this.#gate.answered(id);
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    if (pending.resolve) return pending.resolve(message);
    const client = pending.client!;
    if (client.closed) return;
    // Sessions a client attaches to by command (attachToTarget, attachToBrowserTarget) are its own.
    this.#adopt(client, message.result?.sessionId);
    client.deliver(this.#asSeenBy(client, { ...message, id: pending.id }));
  }

  /** A client addresses its root session as "no session", as it would on its own connection. */
  #asSeenBy(client: Client, message: CdpMessage): CdpMessage {
    if (message.sessionId !== client.root) return message;
    const { sessionId: _root, ...rest } = message;
    return rest;
  }

  #adopt(client: Client, sessionId: unknown): void {
    if (typeof sessionId === 'string') this.#owners.set(sessionId, client);
  }

  #forget(client: Client): void {
    this.#clients.delete(client);
    for (const [sessionId, owner] of this.#owners) if (owner === client) this.#owners.delete(sessionId);
    for (const [id, pending] of this.#pending) if (pending.client === client) this.#pending.delete(id);
  }

  #request(method: string, params: Record<string, unknown>): Promise<CdpMessage> {
    if (this.#closed) return Promise.reject(new Error('Browser closed'));
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, { resolve });
      this.#send({ id, method, params });
    });
  }

  #send(message: CdpMessage): void {
    this.transport.send(JSON.stringify(message));
  }
}
