// Creates, finds and ends sessions. A project sees only its own sessions: another project's id is
// reported as unknown (404), an ended one of its own as gone (410).
import { openBrowser } from '../browser/provider/open-browser.js';
import { ProjectBrowsers, type BrowserStats } from '../browser/provider/project-browsers.js';
import { ProjectDiskQuota } from '../browser/project-data/project-disk-quota.js';
import { PictureSlots } from '../pictures/picture-slots.js';
import type { CoreConfig } from '../config.js';
import { DeckhandError, isDeckhandError } from '../errors.js';
import { checkModelName } from '../models/resolve-model.js';
import type { LanguageModelV3 } from '../models/model-config.js';
import type { ModelSampling } from '../models/language-model.js';
import type { OnModelCall } from '../models/model-calls.js';
import type { StartRequest } from '../types.js';
import { goneError, Session, type SessionState } from './session.js';
import { settingsFrom, type SessionSettings } from '../scope/session-settings.js';
import { boundStart } from '../request-bounds.js';
import { InMemorySessionStore, type SessionStore } from './session-store.js';
import { FinishedSessions } from './finished-sessions.js';
import { ClosingSessions } from './closing-sessions.js';
import { bothModelObservers, type SessionTelemetry } from './telemetry.js';
import { inMemorySharedState, type SharedSessionState } from './shared-state.js';
import type { ProjectSlot } from './project-slots.js';
import { pageOfSessions, type SessionPage } from './session-list.js';
import { writeStorageState } from './storage-state.js';

export interface StartOptions {
  /** From the x-model-api-key header; kept on the session, never logged. */
  modelApiKey?: string;
  /** Live sessions this project may have at once (the server-wide limit applies as well). */
  projectMaxSessions?: number;
  /** An in-process caller's temperature and output token limit for the session's model calls. */
  modelSampling?: ModelSampling;
  /**
   * An in-process caller's AI SDK model object (the client's llmClient): the session's model for
   * every call that names none (act, observe, extract, the agent), instead of modelName.
   */
  languageModel?: LanguageModelV3;
  /** An in-process observer of every model request and answer (the client's logInferenceToFile). */
  onModelCall?: OnModelCall;
}

export interface SessionStats extends BrowserStats {
  /** Live sessions by state. */
  states: Partial<Record<SessionState, number>>;
  /** Sessions being started (holding a slot, not yet live). */
  starting: number;
  /** Operations called and not yet answered, across sessions (a drain waits for them). */
  operations: number;
}

/** A slot frees only when a client ends a session or one expires, so this is a hint, not a promise. */
const SESSION_LIMIT_RETRY_AFTER_SECONDS = 5;

export class SessionManager {
  /** Sessions being started, per project: they hold a slot before they are in the store. */
  private readonly starting = new Map<string, number>();
  /** Recently ended sessions, for their live page. */
  private readonly finishedSessions = new FinishedSessions();
  /** Browsers shared by the sessions of a project, and the warm pool they come from. */
  private readonly browsers: ProjectBrowsers;
  /** What each project's downloads and profiles hold on disk, against DECKHAND_PROJECT_DISK_MB. */
  private readonly disk: ProjectDiskQuota;
  /** Screenshots and PDFs being taken, per project. */
  private readonly pictures = new PictureSlots();
  /** Ended sessions whose browser is still closing: they hold their slots until it is freed. */
  private readonly closing = new ClosingSessions();
  /** The project slot's release of each stopped session, which its end waits for. */
  private readonly slotReleases = new WeakMap<Session, Promise<void>>();
  /** Sessions on a client's own profile (`userDataDir`): their end waits until the browser released it. */
  private readonly ownProfiles = new WeakSet<Session>();

  constructor(
    private readonly config: CoreConfig,
    private readonly store: SessionStore = new InMemorySessionStore(config.tombstoneLimit),
    private readonly telemetry: SessionTelemetry = {},
    private readonly shared: SharedSessionState = inMemorySharedState(),
  ) {
    this.disk = new ProjectDiskQuota(config);
    this.browsers = new ProjectBrowsers(config, this.disk);
  }

  async start(projectId: string, req: StartRequest, opts: StartOptions = {}): Promise<Session> {
    if (req.modelName !== undefined) checkModelName(req.modelName);
    boundStart(req);
    const full = () => this.store.size + sum(this.starting.values()) + this.closing.size >= this.config.maxSessions;
    // A session that ended a moment ago holds its slot until its browser is closed: wait for that rather than refuse.
    if (full() && this.closing.size > 0) await this.closing.closed();
    if (full()) throw limitError(`Too many sessions (limit ${this.config.maxSessions}); end one and retry`);
    this.starting.set(projectId, (this.starting.get(projectId) ?? 0) + 1);
    const { projectMaxSessions } = opts;
    let slot: ProjectSlot | undefined;
    try {
      if (projectMaxSessions !== undefined) {
        slot = await this.shared.slots.take(projectId, projectMaxSessions);
        if (!slot) throw limitError(`Too many sessions for this project (limit ${projectMaxSessions}); end one and retry`);
      }
      await this.disk.check(projectId, 0);
      const browser = await openBrowser(req, projectId, this.config, this.browsers, this.disk);
      if (req.storageState) await writeStorageState(browser.context, req.storageState, 'body.storageState').catch(async (error: unknown) => {
        await browser.close();
        throw error;
      });
      const session = new Session({
        projectId,
        settings: { ...settingsFrom(req, this.config), ...inProcessSettings(opts, this.telemetry) },
        browser,
        config: this.config,
        modelApiKey: opts.modelApiKey || undefined,
        keepBrowserDownloads: Boolean(req.browser?.launchOptions?.downloadsPath),
        diskRoom: () => this.disk.roomForOperation(projectId),
        reserveDisk: (bytes) => this.disk.reserve(projectId, bytes),
        downloadRefused: (guid) => this.disk.downloadRefused(guid),
        pictureSlot: () => this.pictures.take(projectId),
        onStop: (stopped, reason, closed) => {
          // The project's slot is free once the session is unreachable (any node may start the next one at
          // once); the browser closing in the background still counts against this server's capacity.
          if (slot) this.slotReleases.set(stopped, slot.release());
          this.closing.add(closed);
          const { onFinished } = this.shared;
          // stop() takes the last look just after telling us; the record waits for it.
          if (onFinished) void Promise.resolve().then(() => stopped.finalLook()).then(() => onFinished(stopped), () => undefined);
          this.store.bury(stopped, { projectId: stopped.projectId, reason, startedAt: stopped.createdAt, endedAt: Date.now() });
          this.finishedSessions.keep(stopped);
          this.telemetry.onSessionStop?.(reason, stopped.id);
        },
        telemetry: this.telemetry,
      });
      if (req.browser?.launchOptions?.userDataDir) this.ownProfiles.add(session);
      this.store.add(session);
      this.telemetry.onSessionStart?.();
      // A cluster's registry must know it before anyone is told of it: if it cannot, the start did not happen.
      await this.shared.onStarted?.(session).catch(async (error: unknown) => {
        await session.stop('ended').catch(() => undefined);
        throw error;
      });
      return session;
    } catch (error) {
      void slot?.release();
      throw error;
    } finally {
      const left = (this.starting.get(projectId) ?? 1) - 1;
      if (left === 0) this.starting.delete(projectId);
      else this.starting.set(projectId, left);
    }
  }

  get(projectId: string, sessionId: string): Session {
    const session = this.store.find(sessionId);
    if (session && session.projectId === projectId) return session;
    const tombstone = this.store.findTombstone(sessionId);
    if (tombstone && tombstone.projectId === projectId) {
      throw goneError(tombstone.reason);
    }
    throw new DeckhandError('session_not_found', `Session ${sessionId} not found`);
  }

  /** Whether this project's session runs here (`live`), ended here (`ended`, its tombstone kept), or neither: get without the throw. */
  whereIs(projectId: string, sessionId: string): 'live' | 'ended' | undefined {
    if (this.store.find(sessionId)?.projectId === projectId) return 'live';
    return this.store.findTombstone(sessionId)?.projectId === projectId ? 'ended' : undefined;
  }

  /** A session of this project that ended recently (its history and last look), for its live page. */
  finished(projectId: string, sessionId: string): Session | undefined {
    return this.finishedSessions.find(projectId, sessionId);
  }

  /** The project's sessions, live and remembered ended ones, newest first, a page at a time. */
  list(projectId: string, page: { limit?: number; cursor?: string }): SessionPage {
    const live = this.store.all().filter((session) => session.projectId === projectId);
    return pageOfSessions(
      [
        ...live.map((session) => ({ sessionId: session.id, state: session.state, startedAt: session.createdAt })),
        ...this.store.tombstonesOf(projectId).map(([sessionId, { reason, startedAt, endedAt }]) => ({ sessionId, state: reason, startedAt, endedAt })),
      ],
      page,
    );
  }

  /** A live session of this project, or one that ended recently (get's 404 and 410 otherwise). */
  recent(projectId: string, sessionId: string): Session {
    try {
      return this.get(projectId, sessionId);
    } catch (error) {
      const finished = isDeckhandError(error) && error.code === 'session_gone' ? this.finished(projectId, sessionId) : undefined;
      if (finished) return finished;
      throw error;
    }
  }

  /**
   * Ends a session. It answers once the session is unreachable and its project slot is free; its browser
   * closes in the background (counted in the server's capacity until then), unless the session holds
   * files (deleted before the answer) or runs on the client's own profile (released before the answer).
   */
  async end(projectId: string, sessionId: string): Promise<void> {
    const session = this.get(projectId, sessionId);
    const holdsFiles = session.holdsFiles;
    const closed = session.stop('ended');
    // A start on any node right after this answer finds the project's slot free.
    await this.slotReleases.get(session);
    // Files are deleted, and a profile released for the next session, before the answer.
    if (holdsFiles || this.ownProfiles.has(session)) await closed;
  }

  /** Live sessions, across projects. */
  count(): number {
    return this.store.size;
  }

  /** What runs now, across projects, for the server's metrics: no ids, only counts. */
  stats(): SessionStats {
    const states: Partial<Record<SessionState, number>> = {};
    let operations = 0;
    for (const session of this.store.all()) {
      states[session.state] = (states[session.state] ?? 0) + 1;
      operations += session.operationsCalled;
    }
    return { states, starting: sum(this.starting.values()), operations, ...this.browsers.stats() };
  }

  /** Ends every session and closes every browser, pooled ones included (server shutdown). */
  async shutdown(): Promise<void> {
    await Promise.all(this.store.all().map((session) => session.stop('ended')));
    await this.closing.all();
    await this.browsers.close();
  }
}

/** The settings only an in-process caller gives (never from the wire), those it gave; the manager's model-call observer joins the caller's. */
function inProcessSettings({ modelSampling, languageModel, onModelCall: callers }: StartOptions, telemetry: SessionTelemetry): Partial<SessionSettings> {
  const onModelCall = bothModelObservers(callers, telemetry.onModelCall);
  return { ...(modelSampling && { modelSampling }), ...(languageModel && { languageModel }), ...(onModelCall && { onModelCall }) };
}

function limitError(message: string): DeckhandError {
  return new DeckhandError('session_limit', message, undefined, { retryAfterSeconds: SESSION_LIMIT_RETRY_AFTER_SECONDS });
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

export function createSessionManager(config: CoreConfig, telemetry?: SessionTelemetry, shared?: SharedSessionState): SessionManager {
  return new SessionManager(config, undefined, telemetry, shared);
}
