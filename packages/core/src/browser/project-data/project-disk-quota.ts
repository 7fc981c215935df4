// The disk a project may fill (DECKHAND_PROJECT_DISK_MB): its data directory (client-chosen profiles and
// downloads) plus the directories of the browsers its sessions run in (temporary profiles, downloads).
// A start or an operation of a project at its quota is refused; a download that would take it past the
// quota is cancelled as soon as Chromium reports its size (or its bytes so far), and Chromium removes
// the partial file.
import { resolve } from 'node:path';
import type { CoreConfig } from '../../config.js';
import { DeckhandError } from '../../errors.js';
import type { CdpChannel, CdpEvent } from '../cdp/cdp-mux.js';
import { directorySize } from './directory-size.js';
import type { LaunchedChromium } from '../chromium/launch-chromium.js';
import { projectDirName } from './project-data-dir.js';

/** A usage figure this fresh is reused by the checks before starts that ask for one (a walk costs a few ms). */
const USAGE_TTL_MS = 2_000;
/**
 * Operations measure a project again in the background at most once per this many times the last walk's
 * duration (and never more often than USAGE_TTL_MS). A walk lstat's every file of the project, about 30 µs
 * each (0.3 s of CPU for a project keeping 9,000), so walks take at most 1% of the server's time.
 */
const WALK_DUTY_INVERSE = 100;

const MIB = 1024 * 1024;

export class ProjectDiskQuota {
  /** The launched browsers' directories, per project. */
  readonly #dirs = new Map<string, Set<string>>();
  /** The last walk of each project, kept as a promise so operations arriving together share one walk. */
  readonly #recent = new Map<string, { bytes: Promise<number>; at: number; tick: number }>();
  /** The result of the latest walk of each project that has finished, and how long it took. */
  readonly #known = new Map<string, { bytes: number; tick: number; tookMs: number }>();
  /**
   * Bytes promised to writes (uploads) per project: counted until the write ends and a walk begun after
   * its end has seen the file, so writes checked together can never together pass the quota.
   */
  readonly #reserved = new Map<string, Set<{ bytes: number; endedAt?: number }>>();
  /** Orders walks and ends of writes (a walk sees a write only if it began after the write ended). */
  #tick = 0;
  /** The ticks of the walks reservations are waiting for. */
  readonly #walking = new Set<number>();

  constructor(private readonly config: CoreConfig) {}

  /** Counts a launched browser's directory toward the project while it runs, and watches its downloads. */
  watch(projectId: string, launched: LaunchedChromium): void {
    const dirs = this.#dirs.get(projectId) ?? new Set<string>();
    this.#dirs.set(projectId, dirs);
    dirs.add(launched.runDir);
    void launched.exited.then(() => {
      dirs.delete(launched.runDir);
      if (dirs.size === 0 && this.#dirs.get(projectId) === dirs) this.#dirs.delete(projectId);
    });
    if (this.config.projectDiskBytes > 0) new DownloadWatch(launched, () => this.usage(projectId, 0), this.config.projectDiskBytes);
  }

  /** Bytes the project holds on disk now (a figure up to `maxAgeMs` old will do). */
  async usage(projectId: string, maxAgeMs = USAGE_TTL_MS): Promise<number> {
    const recent = this.#recent.get(projectId);
    if (recent && Date.now() - recent.at <= maxAgeMs) return recent.bytes;
    return this.#fresh(projectId).bytes;
  }

  #fresh(projectId: string): { bytes: Promise<number>; tick: number } {
    const walk = { bytes: this.#walk(projectId), at: Date.now(), tick: ++this.#tick };
    this.#recent.set(projectId, walk);
    void walk.bytes.then(
      (bytes) => {
        if (walk.tick > (this.#known.get(projectId)?.tick ?? 0)) this.#known.set(projectId, { bytes, tick: walk.tick, tookMs: Date.now() - walk.at });
      },
      () => undefined,
    );
    return walk;
  }

  /**
   * Promises `bytes` to a write within the quota (429 disk_quota when the project's files, with the writes
   * already promised, leave no room); call the returned release once the write has ended, written or not.
   */
  async reserve(projectId: string, bytes: number): Promise<() => void> {
    const limit = this.config.projectDiskBytes;
    if (limit <= 0) return () => undefined;
    const walk = this.#fresh(projectId);
    this.#walking.add(walk.tick);
    const measured = await walk.bytes.finally(() => this.#walking.delete(walk.tick));
    const reserved = this.#reserved.get(projectId) ?? new Set();
    this.#reserved.set(projectId, reserved);
    // A write ended before every walk still under way has been seen by all of them: its promise can go.
    const oldestWalk = Math.min(walk.tick, ...this.#walking);
    let promised = 0;
    for (const write of reserved) {
      if (write.endedAt !== undefined && write.endedAt < oldestWalk) reserved.delete(write);
      else if (write.endedAt === undefined || write.endedAt > walk.tick) promised += write.bytes;
    }
    // From the walk's result to here nothing awaits: the check and the promise are one step.
    this.#refuseOver(measured + promised + bytes, limit, true);
    const write: { bytes: number; endedAt?: number } = { bytes };
    reserved.add(write);
    return () => {
      write.endedAt = ++this.#tick;
    };
  }

  async #walk(projectId: string): Promise<number> {
    const dirs = [resolve(this.config.dataDir, projectDirName(projectId)), ...(this.#dirs.get(projectId) ?? [])];
    let bytes = 0;
    for (const dir of dirs) bytes += await directorySize(dir);
    return bytes;
  }

  /**
   * Before an operation: refuses (429 disk_quota) by the project's last finished measure, at once. A stale
   * measure (see WALK_DUTY_INVERSE) starts a walk for the operations after it; only a project never
   * measured waits for one.
   */
  async roomForOperation(projectId: string): Promise<void> {
    const limit = this.config.projectDiskBytes;
    const known = this.#known.get(projectId);
    if (limit <= 0 || known === undefined) return this.check(projectId);
    const staleAfter = Math.max(USAGE_TTL_MS, WALK_DUTY_INVERSE * known.tookMs);
    if (Date.now() - this.#recent.get(projectId)!.at > staleAfter) this.#fresh(projectId);
    this.#refuseOver(known.bytes, limit, false);
  }

  /** Refuses (429 disk_quota) when the project's files and profiles fill its quota (measured at most `maxAgeMs` ago). */
  async check(projectId: string, maxAgeMs = USAGE_TTL_MS): Promise<void> {
    const limit = this.config.projectDiskBytes;
    if (limit <= 0) return;
    this.#refuseOver(await this.usage(projectId, maxAgeMs), limit, false);
  }

  #refuseOver(used: number, limit: number, adding: boolean): void {
    if (used < limit || (adding && used <= limit)) return;
    throw new DeckhandError(
      'disk_quota',
      `The project's files and browser profiles ${adding ? 'would hold' : 'hold'} ${Math.ceil(used / MIB)} MB, its disk quota is ${Math.round(limit / MIB)} MB (DECKHAND_PROJECT_DISK_MB): end sessions to free their downloads, or free the project's data directory`,
    );
  }
}

/**
 * One browser's downloads in progress, each cancelled once it would take the project past `limit`: what
 * the project held at the last measure (partial files included), plus what each download has received
 * since, plus what it still announces (its size, when the server sent one).
 */
class DownloadWatch {
  /** Bytes received so far by each download in progress, and the size it announced (0: unknown). */
  readonly #inProgress = new Map<string, { received: number; total: number }>();
  /** The last measure of the project, with what each download had received when it began. */
  #measured: { bytes: number; received: Map<string, number> } = { bytes: 0, received: new Map() };
  #measuring = false;
  #channel?: Promise<CdpChannel>;
  #nextId = 1;
  readonly #replies = new Map<number, (result: Record<string, unknown>) => void>();

  constructor(
    private readonly launched: LaunchedChromium,
    private readonly usage: () => Promise<number>,
    private readonly limit: number,
  ) {
    launched.mux.onEvent((event) => this.#onEvent(event));
  }

  #onEvent({ method, params = {} }: CdpEvent): void {
    const guid = params.guid;
    if (typeof guid !== 'string') return;
    if (method === 'Browser.downloadWillBegin') {
      this.#inProgress.set(guid, { received: 0, total: 0 });
      return this.#measure();
    }
    const download = this.#inProgress.get(guid);
    if (method !== 'Browser.downloadProgress' || !download) return;
    if (params.state !== 'inProgress') return void this.#inProgress.delete(guid);
    download.received = Number(params.receivedBytes) || 0;
    download.total = Number(params.totalBytes) || 0;
    let expected = this.#measured.bytes;
    for (const [id, { received, total }] of this.#inProgress) {
      expected += received - (this.#measured.received.get(id) ?? 0) + Math.max(0, total - received);
    }
    if (expected > this.limit) return this.#cancel(guid);
    this.#measure();
  }

  /** Measures the project again unless a measure is under way (a walk takes a few milliseconds). */
  #measure(): void {
    if (this.#measuring) return;
    this.#measuring = true;
    const received = new Map([...this.#inProgress].map(([id, download]) => [id, download.received]));
    void this.usage().then(
      (bytes) => {
        this.#measured = { bytes, received };
        this.#measuring = false;
      },
      () => (this.#measuring = false),
    );
  }

  /** Cancelled in whichever context it runs in: the event does not say which. */
  #cancel(guid: string): void {
    this.#inProgress.delete(guid);
    void (async () => {
      const contexts = await this.#send('Target.getBrowserContexts', {});
      const ids = (contexts.browserContextIds as string[] | undefined) ?? [];
      await Promise.all([undefined, ...ids].map((browserContextId) => this.#send('Browser.cancelDownload', { guid, ...(browserContextId && { browserContextId }) })));
    })().catch(() => undefined);
  }

  async #send(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const channel = await (this.#channel ??= this.#open());
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#replies.set(id, resolve);
      channel.send(JSON.stringify({ id, method, params }));
    });
  }

  async #open(): Promise<CdpChannel> {
    const channel = await this.launched.mux.open();
    channel.onMessage((text) => {
      const reply = JSON.parse(text) as { id?: number; result?: Record<string, unknown> };
      const resolve = reply.id === undefined ? undefined : this.#replies.get(reply.id);
      this.#replies.delete(reply.id!);
      resolve?.(reply.result ?? {});
    });
    channel.onClose(() => {
      for (const resolve of this.#replies.values()) resolve({});
      this.#replies.clear();
    });
    return channel;
  }
}
