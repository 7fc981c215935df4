// The disk a project may fill (DECKHAND_PROJECT_DISK_MB): its data directory (client-chosen profiles and
// downloads) plus the directories of the browsers its sessions run in (temporary profiles, downloads).
// Uploads and downloads in flight are reserved against it, so transfers at once never pass it together: a
// start or an operation of a project at its quota is refused, an upload that would pass it is refused
// before a byte is written, and a download that would is cancelled as soon as Chromium reports its size
// (or its bytes so far), and Chromium removes the partial file; one that completes past it is dropped, whether
// Playwright saved it for the session or a relay client had Chromium save it into the session's folder.
import { realpath, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { CoreConfig } from '../../config.js';
import { DeckhandError } from '../../errors.js';
import type { CdpChannel, CdpEvent } from '../cdp/cdp-mux.js';
import { directorySize } from './directory-size.js';
import type { LaunchedChromium } from '../chromium/launch-chromium.js';
import { isInside, projectDataDir, projectDirName } from './project-data-dir.js';

/** A usage figure this fresh is reused by the checks before starts that ask for one (a walk costs a few ms). */
const USAGE_TTL_MS = 2_000;
/**
 * Operations measure a project again in the background at most once per this many times the last walk's
 * duration (and never more often than USAGE_TTL_MS). A walk lstat's every file of the project, about 30 µs
 * each (0.3 s of CPU for a project keeping 9,000), so walks take at most 1% of the server's time.
 */
const WALK_DUTY_INVERSE = 100;

const MIB = 1024 * 1024;

/**
 * A transfer in flight (a file sent, a download), reserved against its project's quota until a walk begun
 * after its end has seen it: `expected` is what it will hold when done (a download's announced size, or
 * what it has received), `onDisk` what it has written so far.
 */
interface Transfer {
  expected: number;
  onDisk: number;
  ended: boolean;
}

/** A walk of a project: its result, what each transfer had written when it began, and how many had ended then. */
interface Walk {
  bytes: Promise<number>;
  at: number;
  tick: number;
  seen: Map<Transfer, number>;
  endings: number;
}

/** How many walks an upload that finds no room takes while other transfers keep ending under them. */
const RESERVE_WALKS = 3;

export class ProjectDiskQuota {
  /** The launched browsers' directories, per project. */
  readonly #dirs = new Map<string, Set<string>>();
  /** The last walk of each project, kept as a promise so operations arriving together share one walk. */
  readonly #recent = new Map<string, Walk>();
  /** The latest walk of each project that has finished, with its result and how long it took. */
  readonly #known = new Map<string, { bytes: number; tookMs: number; walk: Walk }>();
  /** Walks under way, per project: a transfer they have not seen whole stays reserved until they end. */
  readonly #walking = new Map<string, Set<Walk>>();
  /** Downloads (by the browser's guid) that passed the quota as they completed, for their session to drop. */
  readonly #refusedDownloads = new Set<string>();
  /** Transfers in flight (or ended but not yet seen by every walk), per project. */
  readonly #transfers = new Map<string, Set<Transfer>>();
  /** How many transfers of each project have ended: a walk during which one ended may have counted it twice. */
  readonly #endings = new Map<string, number>();
  /** Orders walks (a later walk replaces an earlier one's result only if it began later). */
  #tick = 0;

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
    if (this.config.projectDiskBytes > 0) new DownloadWatch(launched, this, projectId);
  }

  #fresh(projectId: string): Walk {
    const transfers = this.#transfers.get(projectId) ?? new Set();
    const seen = new Map([...transfers].map((t) => [t, t.onDisk]));
    const walk: Walk = { bytes: this.#walk(projectId), at: Date.now(), tick: ++this.#tick, seen, endings: this.#endings.get(projectId) ?? 0 };
    this.#recent.set(projectId, walk);
    const walking = this.#walking.get(projectId) ?? new Set();
    this.#walking.set(projectId, walking);
    walking.add(walk);
    void walk.bytes.then(
      (bytes) => {
        if (walk.tick > (this.#known.get(projectId)?.walk.tick ?? 0)) this.#known.set(projectId, { bytes, walk, tookMs: Date.now() - walk.at });
      },
      () => undefined,
    ).finally(() => {
      walking.delete(walk);
      this.#forgetSeen(projectId);
      // A transfer that ended during the walk may be counted twice (on disk, and still reserved): measure
      // again, so the figure operations and downloads go by is exact again a walk later.
      if (walk.endings !== (this.#endings.get(projectId) ?? 0)) this.remeasure(projectId);
    });
    return walk;
  }

  /** Measures the project again unless a walk of it is under way (downloads ask as they progress). */
  remeasure(projectId: string): void {
    if (!this.#walking.get(projectId)?.size) this.#fresh(projectId);
  }

  /** Drops the ended transfers that the latest result and every walk under way have seen whole. */
  #forgetSeen(projectId: string): void {
    if (this.#walking.get(projectId)?.size === 0) this.#walking.delete(projectId);
    const transfers = this.#transfers.get(projectId);
    const known = this.#known.get(projectId);
    if (!transfers || !known) return;
    const walks = [known.walk, ...(this.#walking.get(projectId) ?? [])];
    for (const transfer of transfers) {
      if (transfer.ended && walks.every((walk) => (walk.seen.get(transfer) ?? 0) >= transfer.expected)) transfers.delete(transfer);
    }
    if (transfers.size === 0) this.#transfers.delete(projectId);
  }

  /** What a walk found plus what the transfers it did not see whole still add. */
  #estimate(projectId: string, bytes: number, walk: Walk | undefined): number {
    let total = bytes;
    for (const transfer of this.#transfers.get(projectId) ?? []) total += Math.max(0, transfer.expected - (walk?.seen.get(transfer) ?? 0));
    return total;
  }

  /** A transfer done: `bytes` is what it left on disk (0: nothing). */
  finish(projectId: string, transfer: Transfer, bytes: number): void {
    transfer.ended = true;
    transfer.expected = transfer.onDisk = bytes;
    this.#endings.set(projectId, (this.#endings.get(projectId) ?? 0) + 1);
    this.#forgetSeen(projectId);
  }

  /** Starts counting a download in flight against the project (DownloadWatch keeps it up to date). */
  track(projectId: string): Transfer {
    const transfer: Transfer = { expected: 0, onDisk: 0, ended: false };
    const transfers = this.#transfers.get(projectId) ?? new Set();
    this.#transfers.set(projectId, transfers);
    transfers.add(transfer);
    return transfer;
  }

  /** Marks a completed download as past the quota: its session drops it instead of keeping it (downloadRefused). */
  refuseDownload(guid: string): void {
    this.#refusedDownloads.add(guid);
  }

  /** Whether the download with this guid passed the quota as it completed (asked once, by the session saving it). */
  downloadRefused(guid: string): boolean {
    return this.#refusedDownloads.delete(guid);
  }

  /**
   * Removes a refused download that a relay client had Chromium save (relay-allowlist.ts sends it into the
   * session's folder in the project's directory), and measures again. A path that does not lead into the
   * project's directory is left alone: only Chromium names it, but the browser's user can write there.
   */
  async removeRelayedDownload(projectId: string, filePath: string): Promise<void> {
    const root = await projectDataDir(this.config.dataDir, projectId);
    const dir = await realpath(dirname(filePath)).catch(() => undefined);
    if (dir && isInside(root, dir)) await rm(join(dir, basename(filePath)), { force: true }).catch(() => undefined);
    this.remeasure(projectId);
  }

  /** Whether the project, by its last measure and every transfer in flight, is past its quota. */
  over(projectId: string): boolean {
    const known = this.#known.get(projectId);
    return this.#estimate(projectId, known?.bytes ?? 0, known?.walk) > this.config.projectDiskBytes;
  }

  /**
   * Reserves `bytes` for a write within the quota (429 disk_quota when the project's files, with the
   * transfers in flight, leave no room); call the returned release once the write has ended, with whether
   * it was written.
   */
  async reserve(projectId: string, bytes: number): Promise<(written: boolean) => void> {
    const limit = this.config.projectDiskBytes;
    if (limit <= 0) return () => undefined;
    for (let walks = 1; ; walks++) {
      const walk = this.#fresh(projectId);
      const used = this.#estimate(projectId, await walk.bytes, walk) + bytes;
      // A transfer that ended during the walk may be counted twice: before refusing, measure again.
      if (used > limit && walk.endings !== (this.#endings.get(projectId) ?? 0) && walks < RESERVE_WALKS) continue;
      // From the walk's result to here nothing awaits: the check and the reservation are one step.
      this.#refuseOver(used, limit, true);
      const transfer = this.track(projectId);
      transfer.expected = bytes;
      return (written) => this.finish(projectId, transfer, written ? bytes : 0);
    }
  }

  /**
   * The browsers' directories are walked before the project's data directory: a session saves a download by
   * copying it from its browser's directory into the data directory and then deleting the browser's copy, so
   * a walk in this order finds it in one or the other (or both), never in neither.
   */
  async #walk(projectId: string): Promise<number> {
    const dirs = [...(this.#dirs.get(projectId) ?? []), resolve(this.config.dataDir, projectDirName(projectId))];
    let bytes = 0;
    for (const dir of dirs) bytes += await directorySize(dir);
    return bytes;
  }

  /**
   * Before an operation: refuses (429 disk_quota) by the project's last finished measure and the transfers
   * in flight, at once. A stale measure (see WALK_DUTY_INVERSE) starts a walk for the operations after it;
   * only a project never measured waits for one.
   */
  async roomForOperation(projectId: string): Promise<void> {
    const limit = this.config.projectDiskBytes;
    const known = this.#known.get(projectId);
    if (limit <= 0 || known === undefined) return this.check(projectId);
    const staleAfter = Math.max(USAGE_TTL_MS, WALK_DUTY_INVERSE * known.tookMs);
    if (Date.now() - this.#recent.get(projectId)!.at > staleAfter) this.#fresh(projectId);
    this.#refuseOver(this.#estimate(projectId, known.bytes, known.walk), limit, false);
  }

  /** Refuses (429 disk_quota) when the project's files and profiles, with the transfers in flight, fill its quota (measured at most `maxAgeMs` ago). */
  async check(projectId: string, maxAgeMs = USAGE_TTL_MS): Promise<void> {
    const limit = this.config.projectDiskBytes;
    if (limit <= 0) return;
    const recent = this.#recent.get(projectId);
    const walk = recent && Date.now() - recent.at <= maxAgeMs ? recent : this.#fresh(projectId);
    this.#refuseOver(this.#estimate(projectId, await walk.bytes, walk), limit, false);
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
 * One browser's downloads in progress, each a transfer of the project (its announced size, or what it has
 * received so far), cancelled once the project with every transfer in flight would be past its quota.
 */
class DownloadWatch {
  readonly #inProgress = new Map<string, Transfer>();
  #channel?: Promise<CdpChannel>;
  #nextId = 1;
  readonly #replies = new Map<number, (result: Record<string, unknown>) => void>();

  constructor(
    private readonly launched: LaunchedChromium,
    private readonly quota: ProjectDiskQuota,
    private readonly projectId: string,
  ) {
    launched.mux.onEvent((event) => this.#onEvent(event));
    void launched.exited.then(() => {
      for (const guid of [...this.#inProgress.keys()]) this.#end(guid, false);
    });
  }

  #onEvent({ method, params = {} }: CdpEvent): void {
    const guid = params.guid;
    if (typeof guid !== 'string') return;
    if (method === 'Browser.downloadWillBegin') {
      this.#inProgress.set(guid, this.quota.track(this.projectId));
      return this.quota.remeasure(this.projectId);
    }
    const download = this.#inProgress.get(guid);
    if (method !== 'Browser.downloadProgress') return;
    // One this watch cancelled: Chromium removed it, or the cancel came too late and it completed anyway (dropped).
    if (!download) {
      if (params.state === 'canceled') this.quota.downloadRefused(guid);
      else if (params.state === 'completed' && this.quota.downloadRefused(guid)) this.#drop(guid, params.filePath);
      return;
    }
    const received = Number(params.receivedBytes) || 0;
    if (params.state !== 'inProgress') return this.#end(guid, params.state === 'completed', received, params.filePath);
    download.onDisk = received;
    download.expected = Math.max(received, Number(params.totalBytes) || 0);
    if (this.quota.over(this.projectId)) return this.#cancel(guid);
    this.quota.remeasure(this.projectId);
  }

  /**
   * A download done: a completed one stays reserved at its size until a walk sees it; any other holds
   * nothing. One that completed past the quota (a download of unknown size that arrived between two
   * progress reports, as a small file on a fast link does) is refused as if cancelled, and dropped (#drop).
   */
  #end(guid: string, completed: boolean, received = 0, filePath?: unknown): void {
    const download = this.#inProgress.get(guid);
    if (!download) return;
    this.#inProgress.delete(guid);
    download.expected = completed ? received : 0;
    const passed = completed && this.quota.over(this.projectId);
    if (passed) this.#drop(guid, filePath);
    this.quota.finish(this.projectId, download, passed ? 0 : download.expected);
    this.quota.remeasure(this.projectId);
  }

  /**
   * A refused download that completed, at `filePath` (Chromium's word for where it saved it). The browser's own
   * copy (Playwright's, in its downloads directory) is the session's to drop as it saves it (downloadRefused);
   * one a relay client had Chromium save elsewhere has no session saving it, and is removed here.
   */
  #drop(guid: string, filePath: unknown): void {
    if (typeof filePath !== 'string' || resolve(dirname(filePath)) === resolve(this.launched.downloadsDir)) return this.quota.refuseDownload(guid);
    void this.quota.removeRelayedDownload(this.projectId, filePath);
  }

  /** Cancelled in whichever context it runs in: the event does not say which. */
  #cancel(guid: string): void {
    this.#end(guid, false);
    this.quota.refuseDownload(guid);
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
