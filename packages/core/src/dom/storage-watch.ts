// Storage and blob work an action starts, seen from inside the page: IndexedDB opens and transactions,
// reads of a Blob's or a fetch body's content, FileReader reads and the Cache API, each pending until it
// ends. Installed with the page watch (activity-watch.ts), which decides what counts (docs/decisions.md,
// "Storage and blob work an act starts (settlegaps)").

/** Starts counting one piece of work when the watch counts it now; returns what ends it. */
export type BeginWork = () => (() => void) | undefined;

/**
 * Runs in the page (passed to inPage as a module): wraps the page's methods in place, each calling the
 * original with the same receiver and arguments and returning its result unchanged; events are followed
 * with the page's original addEventListener (`listen`). A method the page lacks is left alone.
 */
export function watchStorage(begin: BeginWork, listen: typeof EventTarget.prototype.addEventListener): void {
  type Follow = (end: () => void, result: unknown, self: unknown) => void;
  // Taken at install: a page that later replaces Promise or its then does not change how a read is followed.
  const NativePromise = Promise;
  const then = Promise.prototype.then;
  // Calls `after` with what each call of the method returned, once the original has run (a call that throws started nothing).
  const onCall = (owner: object | undefined, name: string, after: (result: unknown, self: unknown) => void) => {
    const methods = owner as Record<string, unknown> | undefined;
    const method = methods?.[name];
    if (typeof method !== 'function') return;
    methods![name] = new Proxy(method, {
      apply(target, self, args: unknown[]) {
        const result = Reflect.apply(target, self, args) as unknown;
        // Whatever the page made of the call (a subclass, a strange receiver), following it never fails the call.
        try {
          after(result, self);
        } catch {}
        return result;
      },
    });
  };
  const wrap = (owner: object | undefined, names: string[], follow: Follow) => {
    for (const name of names) {
      onCall(owner, name, (result, self) => {
        const end = begin();
        if (end) follow(end, result, self);
      });
    }
  };
  // A promise-returning read is pending until it settles (the page's own callbacks on it run after ours).
  const settles: Follow = (end, result) => {
    if (result instanceof NativePromise) then.call(result, end, end);
    else end();
  };
  // A request or a transaction (what the call returned) is pending until one of its last events.
  const until = (...events: string[]): Follow => (end, target) => {
    for (const type of events) listen.call(target as EventTarget, type, end, { once: true });
  };
  const proto = (name: string) => (window as unknown as Record<string, { prototype: object } | undefined>)[name]?.prototype;

  // An open waits for its upgrade; one blocked by another tab's connection is that tab's to release.
  wrap(proto('IDBFactory'), ['open', 'deleteDatabase'], until('success', 'error', 'blocked'));
  wrap(proto('IDBFactory'), ['databases'], settles);
  // Every request runs inside a transaction, which completes only after its requests' handlers have run.
  wrap(proto('IDBDatabase'), ['transaction'], until('complete', 'abort'));
  wrap(proto('Blob'), ['arrayBuffer', 'text', 'bytes'], settles);
  for (const body of ['Response', 'Request']) wrap(proto(body), ['arrayBuffer', 'text', 'bytes', 'json', 'blob', 'formData'], settles);
  // A reader (the receiver: its reads return nothing) is pending until its loadend, which an abort fires too.
  wrap(proto('FileReader'), ['readAsArrayBuffer', 'readAsBinaryString', 'readAsDataURL', 'readAsText'], (end, _result, reader) => until('loadend')(end, reader, undefined));
  wrap(proto('CacheStorage'), ['open', 'match', 'has', 'delete', 'keys'], settles);
  wrap(proto('Cache'), ['match', 'matchAll', 'add', 'addAll', 'put', 'delete', 'keys'], settles);

  // A Blob's stream is read chunk by chunk: each read of a reader on it is pending until it settles. Other
  // streams' readers (a fetch body that never ends) are not followed.
  const blobStreams = new WeakSet<object>();
  const blobReaders = new WeakSet<object>();
  const mark = (set: WeakSet<object>) => (result: unknown) => {
    if (typeof result === 'object' && result) set.add(result);
  };
  onCall(proto('Blob'), 'stream', mark(blobStreams));
  onCall(proto('ReadableStream'), 'getReader', (reader, stream) => blobStreams.has(stream as object) && mark(blobReaders)(reader));
  for (const reader of ['ReadableStreamDefaultReader', 'ReadableStreamBYOBReader']) {
    onCall(proto(reader), 'read', (result, self) => {
      if (!blobReaders.has(self as object)) return;
      const end = begin();
      if (end) settles(end, result, self);
    });
  }
}
