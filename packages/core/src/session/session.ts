// A browser session: its browser, settings, active page, operation queue, history and secrets. Every
// operation takes the session's turn, is recorded for replay, has the session's secrets masked in
// whatever it reads back, and fails with session_gone once the session has ended, crashed or expired.
import type { CdpChannel } from '../browser/cdp/cdp-mux.js';
import { randomUUID } from 'node:crypto';
import type { Frame, Page } from 'playwright-core';
import type { BrowserHandle } from '../browser/provider/browser-handle.js';
import type { CoreConfig } from '../config.js';
import { findFrameById, frameIdOf } from '../dom/frame-lookup.js';
import { DeckhandError, isDeckhandError, pageScriptFailure } from '../errors.js';
import { planAgent, type AgentPlan } from '../agent/agent-request.js';
import { runAgent } from '../agent/run-agent.js';
import { act } from '../act/act.js';
import { actCacheFor } from '../operations/act-cache-store.js';
import { extractText } from '../operations/extract-text.js';
import { extractWithModel } from '../operations/model-extract.js';
import { NAVIGATE_TIMEOUT_MS, navigate } from '../operations/navigate.js';
import { Deadline } from '../scope/deadline.js';
import type { Tool } from '../tools/tool.js';
import type { z } from 'zod';
import { observe } from '../operations/observe.js';
import { maskSecrets, maskSecretsDeep } from '../secrets/mask-secrets.js';
import { printPdf, type PdfOptions } from '../pictures/pdf.js';
import { ReplayPictures } from '../pictures/replay-pictures.js';
import { checkScreenshotOptions, takeScreenshot, type Screenshot, type ScreenshotOptions } from '../pictures/screenshot.js';
import type {
  ActRequest,
  ActResult,
  Action,
  AgentExecuteRequest,
  AgentResultDataOutput,
  ExtractRequest,
  FrameId,
  LogLine,
  NavigateRequest,
  NavigateResult,
  ObserveRequest,
  ReplayResult,
  Cookie,
  SetCookiesRequest,
  StorageState,
} from '../types.js';
import { ActivePage, type LostPage } from './active-page.js';
import { pageResponds } from './page-responds.js';
import { relayChannel } from '../browser/cdp/relay-channel.js';
import { relayScopeOf, type SessionRelayScope } from './relay-scope.js';
import { SessionHistory } from './history.js';
import type { OpContext, OperationScope } from '../scope/operation-scope.js';
import { OperationQueue } from './operation-queue.js';
import { recordedAgentParameters, recordedParameters } from './recorded-parameters.js';
import { boundAct, boundAgent, boundExtract, boundObserve } from '../request-bounds.js';
import { SessionSecrets } from './session-secrets.js';
import { SessionFiles } from './session-files.js';
import { readCookies, readStorageState, writeCookies, writeStorageState } from './storage-state.js';
import type { SessionSettings } from '../scope/session-settings.js';
import type { EndReason } from './tombstones.js';
import { outcomeOf, type SessionTelemetry } from './telemetry.js';

export type SessionState = 'ready' | 'busy' | EndReason;

export interface SessionInit {
  projectId: string;
  settings: SessionSettings;
  browser: BrowserHandle;
  config: CoreConfig;
  modelApiKey?: string;
  /** Refuses an operation while the project's disk quota is full. */
  diskRoom?: () => Promise<void>;
  /** Reserves files' bytes within the project's disk quota, or refuses (429 disk_quota); the release, told whether they were written, ends it. */
  reserveDisk?: (bytes: number) => Promise<(written: boolean) => void>;
  /** Whether a download (by its browser guid) completed past the project's quota. */
  downloadRefused?: (guid: string) => boolean;
  /** Counts a screenshot or PDF against the project's bound at a time, or refuses (429); returns the release. */
  pictureSlot?: () => () => void;
  /** The client chose where the browser keeps its downloads (launchOptions.downloadsPath): they stay there too. */
  keepBrowserDownloads?: boolean;
  /** Told once when the session stops for any reason (end, crash, expiry); `closed` settles once its browser and files are freed. */
  onStop: (session: Session, reason: EndReason, closed: Promise<void>) => void;
  /** Told of each operation's outcome and times. */
  telemetry?: SessionTelemetry;
}

const GONE_MESSAGES: Record<EndReason, string> = {
  ended: 'Session has ended',
  // Sessions of a project share a browser (DECKHAND_CONTEXTS_PER_BROWSER): a Chromium bug lets one page that runs
  // out of memory while a picture is taken kill it, which ends them all; the message says so rather than a bare crash.
  crashed: "Session is gone: its browser was lost (it crashed, was killed or closed). Sessions sharing a browser end together: one session's page that runs out of memory while a screenshot, PDF or replay picture is taken can take the browser down",
  expired: 'Session expired (idle or maximum duration reached)',
};

/** Operations that only read the page: they need not wait for the last operation's replay picture. */
const PAGE_READS = new Set(['observe', 'extract']);

/** A live-page picture that takes longer than this (a frozen page) fails instead of piling up. */
const LIVE_PICTURE_TIMEOUT_MS = 5_000;

/** A session's last look (title, and picture if watched), taken as it ends, holds its end up this long at most. */
const FINAL_LOOK_TIMEOUT_MS = 1_000;

/** What the live page shows of a session that has ended: where it was, and its last picture if it was watched. */
export interface FinalLook {
  url: string;
  title: string;
  picture?: Buffer;
}

/** A page whose renderer died was replaced by a blank one (active-page.ts). */
function pageCrashed({ url, cause }: LostPage): DeckhandError {
  const what = cause === 'hung' ? 'stopped responding (a script of its own never yields)' : 'crashed (its renderer died: out of memory, or Page.crash)';
  return new DeckhandError('unprocessable', `The page ${what} at ${url || 'about:blank'}; the session goes on in a blank page: navigate to continue`);
}

/** Tabs opened after the last action had settled (active-page.ts): where they are (the first few), and how to get there. */
function unfollowedTabs(urls: string[], current: string): string {
  const named = urls.slice(0, 3).map((url) => url || 'about:blank').join(', ') + (urls.length > 3 ? ` and ${urls.length - 3} more` : '');
  const what = urls.length === 1 ? 'a tab' : `${urls.length} tabs`;
  return `The page opened ${what} on its own after the last action had settled (${named}); the session stays on ${current || 'about:blank'}: select a tab (the MCP tabs tool) or navigate to its address to work there`;
}

/** What history records for an unexpected error: its detail is for the server log only. */
const UNEXPECTED_RECORD = 'Unexpected error (the detail is in the server log)';

/** A live-page picture: the viewport as a person sees it. */
function jpeg(page: Page, timeout: number): Promise<Buffer> {
  return page.screenshot({ type: 'jpeg', quality: 60, timeout, animations: 'allow', caret: 'initial' });
}

/** The 410 for a session that stopped for `reason`, asked about live or from its tombstone. */
export function goneError(reason: EndReason): DeckhandError {
  return new DeckhandError('session_gone', GONE_MESSAGES[reason]);
}

export class Session {
  readonly id = randomUUID();
  readonly createdAt = Date.now();
  readonly projectId: string;
  readonly settings: SessionSettings;
  readonly #modelApiKey?: string;
  #state: SessionState = 'ready';
  /** Operations called and not yet answered. */
  #called = 0;
  readonly #browser: BrowserHandle;
  readonly #config: CoreConfig;
  readonly #onStop: SessionInit['onStop'];
  readonly #diskRoom: SessionInit['diskRoom'];
  readonly #pictureSlot: SessionInit['pictureSlot'];
  readonly #telemetry?: SessionTelemetry;
  readonly #queue: OperationQueue;
  readonly #history = new SessionHistory();
  readonly #secrets = new SessionSecrets();
  readonly #pages: ActivePage;
  readonly #relayScope: SessionRelayScope;
  readonly #files: SessionFiles;
  readonly #pictures: ReplayPictures;
  #idleTimer?: NodeJS.Timeout;
  readonly #lifetimeTimer: NodeJS.Timeout;
  #closing?: Promise<void>;
  /** The live page asked for a picture: the session gets a last one as it ends (finalLook). */
  #watched = false;
  #finalLook?: Promise<FinalLook>;

  constructor(init: SessionInit) {
    this.projectId = init.projectId;
    this.settings = init.settings;
    this.#modelApiKey = init.modelApiKey;
    this.#browser = init.browser;
    this.#config = init.config;
    this.#onStop = init.onStop;
    this.#diskRoom = init.diskRoom;
    this.#pictureSlot = init.pictureSlot;
    this.#queue = new OperationQueue(init.config.sessionQueueMax);
    this.#telemetry = init.telemetry;
    this.#pages = new ActivePage(init.browser.context);
    this.#relayScope = relayScopeOf(init.config, init.projectId, this.id);
    this.#files = new SessionFiles(init.config, this.#relayScope, this.id, async (bytes) => (await init.reserveDisk?.(bytes)) ?? (() => undefined), (guid) => init.downloadRefused?.(guid) ?? false, init.keepBrowserDownloads === true);
    this.#files.watchDownloads(init.browser.context);
    this.#pictures = new ReplayPictures(this.#relayScope.projectDir, this.id, init.config.replayPictures);
    init.browser.onLost(() => void this.stop('crashed'));
    this.#lifetimeTimer = setTimeout(() => void this.stop('expired'), init.config.maxSessionMs);
    this.#lifetimeTimer.unref();
    this.#armIdleTimer();
  }

  get state(): SessionState {
    return this.#state;
  }

  /** A 429 when the session's queue is full: a streamed request hears it before its stream opens. */
  assertRoom(): void {
    this.#queue.assertRoom();
  }

  /** A browser-level DevTools connection to this session's browser, for the server's relay: its allowlist applies. */
  async openCdp(): Promise<CdpChannel> {
    return relayChannel(await this.#browser.openCdp(), this.#relayScope);
  }

  /** The session's downloads and the files sent to it (they go with the session when it ends). */
  get files(): SessionFiles {
    this.#assertLive();
    this.#stillUsed();
    return this.#files;
  }

  /** Cookies and storage state are read and set in the session's turn (not recorded: they hold logins). */
  cookies(): Promise<Cookie[]> {
    return this.#inTurn(readCookies);
  }

  setCookies(request: SetCookiesRequest): Promise<Cookie[]> {
    return this.#inTurn((context) => writeCookies(context, request));
  }

  storageState(): Promise<StorageState> {
    return this.#inTurn(readStorageState);
  }

  setStorageState(state: StorageState): Promise<StorageState> {
    return this.#inTurn(async (context) => {
      await writeStorageState(context, state);
      return readStorageState(context);
    });
  }

  /** The browser process, when Deckhand launched it. */
  get browserPid(): number | undefined {
    return this.#browser.pid;
  }

  /** The model key from x-model-api-key. Never log or store it elsewhere. */
  get modelApiKey(): string | undefined {
    return this.#modelApiKey;
  }

  navigate(req: NavigateRequest, ctx: OpContext): Promise<NavigateResult | null> {
    const timeoutMs = req.options?.timeout ?? NAVIGATE_TIMEOUT_MS;
    return this.perform('navigate', recordedParameters(req), ctx, timeoutMs, (scope) => navigate(scope, req));
  }

  act(req: ActRequest, ctx: OpContext): Promise<ActResult> {
    boundAct(req);
    this.#secrets.remember(req.options?.variables, 'body.options.variables');
    const timeoutMs = req.options?.timeout ?? this.settings.actTimeoutMs ?? this.settings.defaultTimeoutMs;
    return this.perform('act', recordedParameters(req), ctx, timeoutMs, (scope) => act(scope, req));
  }

  observe(req: ObserveRequest, ctx: OpContext): Promise<Action[]> {
    boundObserve(req);
    this.#secrets.remember(req.options?.variables, 'body.options.variables');
    const timeoutMs = req.options?.timeout ?? this.settings.defaultTimeoutMs;
    return this.perform('observe', recordedParameters(req), ctx, timeoutMs, (scope) => observe(scope, req));
  }

  extract(req: ExtractRequest, ctx: OpContext): Promise<unknown> {
    boundExtract(req);
    // With no schema and no (or a blank) instruction the answer is the page text, and no model is involved.
    const withModel = req.schema !== undefined || Boolean(req.instruction?.trim());
    const timeoutMs = req.options?.timeout ?? this.settings.defaultTimeoutMs;
    return this.perform('extract', recordedParameters(req), ctx, timeoutMs, (scope) => (withModel ? extractWithModel(scope, req) : extractText(scope, req)));
  }

  /**
   * Runs an agent toward an instruction: one operation (one turn, one deadline, one record), checked
   * before it takes the turn (a mode or option this server cannot honour is refused at once).
   */
  agentExecute(req: AgentExecuteRequest, ctx: OpContext, plan: AgentPlan = this.planAgent(req)): Promise<AgentResultDataOutput> {
    this.#secrets.remember(req.executeOptions.variables, 'body.executeOptions.variables');
    return this.perform('agentExecute', recordedAgentParameters(req), ctx, this.#config.agentTimeoutMs, (scope) => runAgent(scope, plan));
  }

  /** A picture of the page, the full page or an element; recorded in replay by its size, not its bytes. */
  async screenshot(req: ScreenshotOptions & { timeout?: number }, ctx: OpContext): Promise<Screenshot> {
    checkScreenshotOptions(req);
    let shot: Screenshot | undefined;
    await this.perform('screenshot', req, ctx, req.timeout ?? this.settings.defaultTimeoutMs, async (scope) => {
      shot = await this.#inPictureSlot(() => takeScreenshot(scope, req));
      return { mediaType: shot.mediaType, bytes: shot.bytes.byteLength, truncated: shot.truncated };
    });
    return shot!;
  }

  /** The page printed to PDF; recorded in replay by its size. */
  async pdf(req: PdfOptions & { timeout?: number }, ctx: OpContext): Promise<Buffer> {
    let pdf: Buffer | undefined;
    await this.perform('pdf', req, ctx, req.timeout ?? this.settings.defaultTimeoutMs, async (scope) => {
      pdf = await this.#inPictureSlot(() => printPdf(scope, req));
      return { mediaType: 'application/pdf', bytes: pdf.byteLength };
    });
    return pdf!;
  }

  /** Every operation's replay picture has its number (a read's is decided after it answered; replay-pictures.ts). */
  picturesNumbered(): Promise<void> {
    return this.#pictures.taken();
  }

  /** The replay's picture number `n` (ReplayAction.picture), live or after the session ended. */
  replayPicture(n: number): Promise<Buffer | undefined> {
    return this.#pictures.read(n);
  }

  /** Deletes what the session keeps after its end (its replay pictures): the server forgot it. */
  forget(): Promise<void> {
    return this.#pictures.dispose().catch(() => undefined);
  }

  /** What an agent request asks, checked against what this server can do: a 4xx here comes before any stream opens. */
  planAgent(req: AgentExecuteRequest): AgentPlan {
    boundAgent(req);
    return planAgent(req, this.settings, this.#config.search);
  }

  /** Runs one tool in a turn of its own (an MCP call is one), recorded under the tool's name. */
  runTool<Input extends z.ZodType, Output>(tool: Tool<Input, Output>, input: z.infer<Input>, ctx: OpContext): Promise<Output> {
    return this.perform(tool.name, input, ctx, this.settings.defaultTimeoutMs, (scope) => tool.handle(input, scope));
  }

  /**
   * What a watcher sees (the live page): the active page's address and title, secrets masked, and how
   * many pages are open. Outside the operation queue and recorded nowhere, so watching never delays work.
   */
  async look(): Promise<{ url: string; title: string; pages: number }> {
    this.#assertLive();
    const page = await this.#pages.current();
    const title = await page.title().catch(() => '');
    return maskSecretsDeep({ url: page.url(), title, pages: this.#pages.count }, this.#secrets.values);
  }

  /** A JPEG of the active page's viewport, for the live page; like look(), outside the queue. */
  async picture(): Promise<Buffer> {
    this.#assertLive();
    this.#watched = true;
    const page = await this.#pages.current();
    return jpeg(page, LIVE_PICTURE_TIMEOUT_MS);
  }

  /** The CDP target id of the active page, for the page-level DevTools relay; like look(), outside the queue. */
  async pageTargetId(): Promise<string> {
    this.#assertLive();
    const page = await this.#pages.current();
    const cdp = await page.context().newCDPSession(page);
    try {
      return (await cdp.send('Target.getTargetInfo')).targetInfo.targetId;
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  }

  /** What the live page shows once the session has ended (undefined while it is live). */
  finalLook(): Promise<FinalLook> | undefined {
    return this.#finalLook;
  }

  /** Masked with the session's secrets as they are now: a value sent as a variable later is masked in earlier records too. */
  replay(): ReplayResult {
    return maskSecretsDeep(this.#history.replay(), this.#secrets.values);
  }

  /**
   * Runs an operation in the session's turn and records it. The extension point for operations
   * built elsewhere (model-driven act, observe, extract, agent): `parameters` must already be free of
   * variable values and keys (see recordedParameters), and the request's variables remembered as
   * secrets. The result, its record, log lines and errors have every secret masked.
   */
  async perform<T>(method: string, parameters: unknown, ctx: OpContext, timeoutMs: number, operation: (scope: OperationScope) => Promise<T>): Promise<T> {
    this.#assertLive();
    // Counted from its call, not its turn: a drain that came while the disk check ran ended the session under it.
    this.#called += 1;
    try {
      await this.#diskRoom?.();
      return await this.#perform(method, parameters, ctx, timeoutMs, operation);
    } finally {
      this.#called -= 1;
    }
  }

  /** Operations called and not yet answered (waiting for their turn included). */
  get operationsCalled(): number {
    return this.#called;
  }

  #perform<T>(method: string, parameters: unknown, ctx: OpContext, timeoutMs: number, operation: (scope: OperationScope) => Promise<T>): Promise<T> {
    const queued = performance.now();
    return this.#queue.run(async (holdTurn) => {
      // Busy from its turn on (a drain waits for busy sessions), the wait for the last picture included.
      this.#assertLive();
      this.#state = 'busy';
      clearTimeout(this.#idleTimer);
      // The last operation's picture shows the page as that operation left it, not as this one changes it;
      // a read changes nothing, so it runs while the picture is taken. Its file is written meanwhile.
      if (!PAGE_READS.has(method)) await this.#pictures.taken();
      this.#assertLive();
      const started = performance.now();
      let outcome = 'success';
      let hungCheck: Promise<void> | undefined;
      // A page that crashed since the last operation was replaced: this one says so (navigate carries on).
      const crashedBefore = this.#pages.takeCrash();
      const page = await this.#pages.current().catch((error: unknown) => {
        // A browser that died since the last operation opens no page: the session is gone (410), not a 500.
        const failure = this.#masked(this.#asOperationError(error));
        if (this.#isLive() && this.#queue.size <= 1) {
          this.#state = 'ready';
          this.#armIdleTimer();
        }
        throw failure;
      });
      const record = this.#history.begin(method, parameters, page.url());
      // The operation's one clock: it starts when the operation takes its turn.
      const deadline = new Deadline(ctx.signal, timeoutMs, method);
      try {
        if (crashedBefore !== undefined) {
          if (method !== 'navigate') throw pageCrashed(crashedBefore);
          ctx.log?.({ category: 'session', message: pageCrashed(crashedBefore).message, level: 1 });
        }
        const scope = this.#scope(ctx, page, record, deadline);
        // A tab no action followed did not take the session's page from under the caller: this operation says it is there.
        const unfollowed = this.#pages.takeUnfollowed();
        if (unfollowed.length > 0) scope.log({ category: 'session', message: unfollowedTabs(unfollowed.map((tab) => tab.url()), page.url()), level: 1 });
        const result = maskSecretsDeep(await deadline.race(operation(scope)), this.#secrets.values);
        // An operation that outlived its page's crash (an act that reports "no element") is answered as the crash.
        const crashedDuring = this.#pages.takeCrash();
        if (crashedDuring !== undefined) throw pageCrashed(crashedDuring);
        // Settling swallows a dying browser's errors; a result from a browser that is gone is not one.
        if (!this.#browser.isConnected()) throw new Error('Browser disconnected');
        const after = await this.#pages.current();
        this.#history.finish(record, result, after.url());
        this.#pictures.capture(after, record, { changesNothing: PAGE_READS.has(method) });
        outcome = outcomeOf(result);
        return result;
      } catch (error) {
        // A renderer that died under the operation can fail it before the page's crash event reaches us:
        // wait for that event (briefly), so the operation is answered as the crash it is.
        if (error instanceof Error && /Target crashed/i.test(error.message) && !page.isClosed()) {
          await page.waitForEvent('crash', { timeout: 1_000 }).catch(() => undefined);
        }
        const failure = this.#masked(this.#asOperationError(error));
        // A page that let an operation time out and no longer runs script would fail every operation after
        // it: it is replaced, this operation stays a timeout, and the next one says so (as of a crash). The
        // timeout answers at once; the check holds the session's turn, so the next operation sees its outcome.
        if (isDeckhandError(failure) && failure.code === 'timeout' && this.#isLive()) {
          hungCheck = pageResponds(page).then((responds) => void (responds || !this.#isLive() || this.#pages.dropHung(page)));
          holdTurn(hungCheck);
        }
        outcome = isDeckhandError(failure) ? failure.code : 'internal_error';
        const recorded = isDeckhandError(failure) ? failure.message : UNEXPECTED_RECORD;
        const after = this.#isLive() ? await this.#pages.current() : undefined;
        this.#history.finish(record, { error: recorded }, after?.url() ?? page.url());
        if (after) this.#pictures.capture(after, record, { changesNothing: PAGE_READS.has(method) });
        throw failure;
      } finally {
        this.#telemetry?.onOperation?.({ kind: method, outcome, queueWaitMs: started - queued, durationMs: performance.now() - started });
        deadline.dispose();
        const ready = () => {
          if (this.#isLive() && this.#queue.size <= 1) {
            this.#state = 'ready';
            this.#armIdleTimer();
          }
        };
        if (hungCheck) void hungCheck.then(ready);
        else ready();
      }
    }, ctx.signal);
  }

  /**
   * Ends the session: it is unreachable at once (later calls get 410); the returned promise settles
   * once its browser is closed (or disconnected from) and its files deleted. Idempotent.
   */
  stop(reason: EndReason): Promise<void> {
    if (this.#closing) return this.#closing;
    this.#state = reason;
    clearTimeout(this.#idleTimer);
    clearTimeout(this.#lifetimeTimer);
    this.#finalLook = this.#lookOnce();
    this.#closing = Promise.all([this.#finalLook, this.#pictures.settled()])
      .then(() => this.#browser.close())
      .catch(() => undefined)
      .then(async () => void (await Promise.all([this.#files.dispose(), this.#relayScope.dispose()]).catch(() => undefined)));
    this.#onStop(this, reason, this.#closing);
    return this.#closing;
  }

  /** Whether the session holds files (downloads, files sent to it), which its end deletes before it answers. */
  get holdsFiles(): boolean {
    return this.#files.held;
  }

  /** Runs `work` on the browser context in the session's turn, outside its history, within the default timeout. */
  async #inTurn<T>(work: (context: OperationScope['context']) => Promise<T>): Promise<T> {
    this.#assertLive();
    return this.#queue.run(async () => {
      this.#assertLive();
      const deadline = new Deadline(new AbortController().signal, this.settings.defaultTimeoutMs, 'Reading or setting cookies');
      try {
        return await deadline.race(work(this.#browser.context));
      } catch (error) {
        throw this.#asOperationError(error);
      } finally {
        deadline.dispose();
        this.#stillUsed();
      }
    });
  }

  /** A call outside the operations (files, cookies) is use too: a client that only downloads keeps its session. */
  #stillUsed(): void {
    if (this.#state === 'ready') this.#armIdleTimer();
  }

  #scope(ctx: OpContext, page: OperationScope['page'], record: OperationScope['record'], deadline: Deadline): OperationScope {
    const context = this.#browser.context;
    return {
      deadline,
      signal: deadline.signal,
      config: this.#config,
      // The request's key wins over the session's; neither is ever logged or recorded.
      modelApiKey: ctx.modelApiKey || this.#modelApiKey,
      navigation: { policy: this.#config.navigationPolicy, proxy: this.#browser.policyProxy },
      cache: this.settings.enableCaching && !ctx.cacheBypass ? { cache: actCacheFor(this.#config), project: this.projectId, onStatus: ctx.onCacheStatus } : undefined,
      onCacheEntry: ctx.onCacheEntry,
      log: (line: LogLine) => {
        if ((line.level ?? 1) > this.settings.verbose) return;
        ctx.log?.({ ...line, message: maskSecrets(line.message, this.#secrets.values), timestamp: line.timestamp ?? new Date().toISOString() });
      },
      context,
      page,
      activate: (other) => this.#pages.activate(other),
      projectDir: this.#relayScope.projectDir,
      shareFile: (path) => this.#relayScope.shareFile(path),
      uploadedFiles: (names) => this.#files.uploadedPaths(names),
      settings: this.settings,
      secrets: this.#secrets.values,
      record,
      frame: (frameId: FrameId | undefined): Promise<Frame> =>
        frameId ? findFrameById(context, frameId) : Promise.resolve(page.mainFrame()),
      frameIdOf,
    };
  }

  /** An error whose message (which may quote the page) shows no secret. */
  /** Unexpected errors reach the server log whole (message, stack, cause): none may carry a secret. */
  #masked(error: unknown): unknown {
    if (!(error instanceof Error)) return error;
    const secrets = this.#secrets.values;
    const whole = `${error.message}\n${error.stack ?? ''}\n${error.cause instanceof Error ? `${error.cause.message}\n${error.cause.stack ?? ''}` : String(error.cause ?? '')}`;
    if (maskSecrets(whole, secrets) === whole) return error;
    const message = maskSecrets(error.message, secrets);
    if (isDeckhandError(error)) return new DeckhandError(error.code, message, error.issues, { retryAfterSeconds: error.retryAfterSeconds });
    const masked = new Error(message);
    masked.stack = maskSecrets(error.stack ?? message, secrets);
    return masked;
  }

  /**
   * The session's last look, taken as it stops while the browser may still be there; a picture only if
   * someone watched. Bounded as a whole: a frozen page (its title needs the page's main thread) gives
   * up its title and picture rather than hold up the end.
   */
  async #lookOnce(): Promise<FinalLook> {
    const page = this.#pages.last;
    const where: FinalLook = maskSecretsDeep({ url: page?.url() ?? '', title: '' }, this.#secrets.values);
    if (!page || !this.#browser.isConnected()) return where;
    const look = (async (): Promise<FinalLook> => {
      const title = await page.title();
      const picture = this.#watched ? await jpeg(page, FINAL_LOOK_TIMEOUT_MS) : undefined;
      return { ...maskSecretsDeep({ url: page.url(), title }, this.#secrets.values), ...(picture ? { picture } : {}) };
    })().catch(() => where);
    let timer: NodeJS.Timeout | undefined;
    const givenUp = new Promise<FinalLook>((resolve) => (timer = setTimeout(() => resolve(where), FINAL_LOOK_TIMEOUT_MS)));
    try {
      return await Promise.race([look, givenUp]);
    } finally {
      clearTimeout(timer);
    }
  }

  #armIdleTimer(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => void this.stop('expired'), this.#config.idleTimeoutMs);
    this.#idleTimer.unref();
  }

  #isLive(): boolean {
    return this.#state === 'ready' || this.#state === 'busy';
  }

  #assertLive(): void {
    if (!this.#isLive()) throw goneError(this.#state as EndReason);
  }

  /**
   * Once the session is gone, whatever the browser threw means "gone"; other errors pass through
   * as they are: one that is not a DeckhandError is unexpected, and the server answers it with a
   * generic 500 and logs its detail, so Playwright's own words never reach the client.
   * The browser's disconnect event may trail the failed call, so the connection is checked here too.
   */
  async #inPictureSlot<T>(take: () => Promise<T>): Promise<T> {
    const release = this.#pictureSlot?.();
    try {
      return await take();
    } finally {
      release?.();
    }
  }

  #asOperationError(error: unknown): unknown {
    if (this.#isLive() && !this.#browser.isConnected()) void this.stop('crashed');
    if (!this.#isLive()) return goneError(this.#state as EndReason);
    // The page died under the operation: it is replaced, and this operation is the one that says so.
    const crashed = isDeckhandError(error) && error.code === 'unprocessable' ? undefined : this.#pages.takeCrash();
    return crashed !== undefined ? pageCrashed(crashed) : pageScriptFailure(error);
  }
}
