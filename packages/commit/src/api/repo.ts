import type { Clock } from '@ctxgit/dag';
import type { SessionClock } from './session-clock.js';
import { trackClock } from './session-clock.js';
import { createSession as createDagSession, forkSession as forkDagSession, writeTranscript } from '@ctxgit/dag';
import type { Transcript } from '@ctxgit/dag';
import { createToolCatalogue, defaultRules, pipelineVersion, resolveToolViewOptions, RulesCache } from '@ctxgit/rules';
import type { ToolCatalogue } from '@ctxgit/rules';
import type { TokenizerEncoding, TokenizerLoader } from '@ctxgit/tokenize';
import { createTokenizerLoader } from '@ctxgit/tokenize';
import { dagWrite } from '../engine/conflict.js';
import { FoldCache } from '../engine/fold-cache.js';
import type { ContextCommit } from '../store/context-commit.js';
import { InvalidOptionError, SessionNameTakenError, UnknownSessionError } from '../errors.js';
import type { GitContext } from '../git/git-context.js';
import { readRef } from '../git/read-ref.js';
import { inBatch, maintain, settled } from '../git/internal/pack-store.js';
import { validateRefComponent } from '../git/validate-ref-name.js';
import type { CommitDiff } from '../engine/diff-commits.js';
import { diffStoredCommits } from '../engine/diff-stored-commits.js';
import { mergeSessions } from '../engine/merge-sessions.js';
import type { MergeOptions } from '../engine/merge-sessions.js';
import { configRef, toolsRef } from '../store/refs.js';
import type { RepoCore } from '../store/repo-core.js';
import { loadCommit } from '../store/repo-core.js';
import { Session } from './session.js';
import type { SessionHost } from './session.js';
import type { CreateSessionOptions, SessionOptions } from '../engine/session-options.js';
import { readSessionConfig, resolveSizes, writeSessionConfig } from '../store/session-config.js';
import { checkCommitRequest } from '../engine/session-request.js';
import type { SessionConfig } from '../store/session-config.js';
import type { SessionSettings } from '../engine/session-settings.js';
import type { GitNodeStore } from '../store/git-node-store.js';
import { swapRef } from '../store/swap-ref.js';
import { checkSummarizer } from '../engine/summarizer/check-summarizer.js';
import type { SessionSummarizer } from '../engine/summarizer/session-summarizer.js';
import { CatalogueCache } from '../store/tools/catalogue-cache.js';
import { storeCatalogue } from '../store/tools/store-catalogue.js';
import { readToolsTree } from '../store/tools/tools-ref.js';
import { plainOptions } from './plain-options.js';

/** What {@link Repo.gc} did. */
export interface GcResult {
  /** Packs rolled into the new pack. */
  readonly packsMerged: number;
  /** Loose objects moved into it (and removed). */
  readonly looseMerged: number;
  /** Objects of the new pack, or 0 when the repository was one pack already. */
  readonly objects: number;
  /** Packs after the run. */
  readonly packs: number;
}

import { fetchSessions } from '../engine/remote/fetch-sessions.js';
import type { FetchResult } from '../engine/remote/fetch-sessions.js';
import { pushSessions } from '../engine/remote/push-sessions.js';
import type { PushResult } from '../engine/remote/push-sessions.js';
import { resolveRemote } from '../engine/remote/remote.js';
import type { AuthCallback, Remote } from '../engine/remote/remote.js';
import { syncSession } from '../engine/remote/sync-session.js';
import type { SyncResult } from '../engine/remote/sync-session.js';
import type { SyncOptions, TransferOptions } from '../engine/remote/transfer-options.js';
import { transport } from '../engine/remote/transport.js';

/** The remote a repository fetches a session from when it is opened there first. */
export interface Origin {
  readonly remote: Remote;
  readonly onAuth?: AuthCallback;
}

function defaultBackoff(attempt: number): number {
  return Math.min(2000, 25 * 2 ** attempt) * (0.5 + Math.random());
}

/**
 * An open ctxgit repository: many sessions, their DAG and their ContextCommits, in one bare git repository.
 * Get one from {@link openRepo}.
 *
 * @example
 * ```ts
 * const repo = await openRepo({ memory: true });
 * const s = await repo.createSession('chat', { model: 'openai:gpt-4o' });
 * await repo.listSessions(); // ['chat']
 * ```
 */
export class Repo {
  readonly #core: RepoCore;
  readonly #clock: Clock;
  readonly #host: SessionHost;
  readonly #summarizer: SessionSummarizer | undefined;
  readonly #tokenizers: TokenizerLoader;
  readonly #catalogues = new CatalogueCache();
  readonly #origin: Origin | undefined;
  /** The clock each session was created or opened with here: its merges and forks keep to it when given none. */
  readonly #clocks = new Map<string, SessionClock>();

  /** @internal */
  constructor(core: RepoCore, clock: Clock, summarizer?: SessionSummarizer, origin?: Origin, tokenizers: TokenizerLoader = createTokenizerLoader()) {
    this.#core = core;
    this.#clock = clock;
    this.#summarizer = summarizer;
    this.#tokenizers = tokenizers;
    this.#origin = origin;
    this.#host = {
      core,
      settingsFor: (session) => this.#open(session, {}),
      forkSession: (from, name, at) => this.#fork(from, name, at),
    };
  }

  /**
   * The tokenizers of this repository's sessions: loaded on first use (a session that never counts never builds one)
   * and kept with the repository — given to {@link openRepo} as `tokenizers`, else its own.
   *
   * @example
   * ```ts
   * const tok = await repo.tokenizers.load('o200k_base');
   * tok.count('hello world'); // 2
   * ```
   */
  get tokenizers(): TokenizerLoader {
    return this.#tokenizers;
  }

  /** The git repository (for the git primitives of this package). */
  get git(): GitContext {
    return this.#core.git;
  }

  /** The git-backed DAG store (usable with every function of `@ctxgit/dag`). */
  get store(): GitNodeStore {
    return this.#core.store;
  }

  /**
   * Creates an empty session (or adopts a session of the DAG store that has no ctxgit configuration yet).
   *
   * @param name - a valid git ref component (no `/`, `..`, control characters, …)
   * @param options - model, sizes and behaviour; see {@link CreateSessionOptions}
   * @returns the session
   * @throws `InvalidNameError`, {@link SessionNameTakenError}, {@link UnknownModelError} (unknown model without `window`), {@link InvalidOptionError}, `ToolCatalogueError` of `@ctxgit/rules` (a bad `tools` catalogue); nothing is written then
   * @example
   * ```ts
   * const s = await repo.createSession('chat-42', { model: 'anthropic:claude-sonnet-4-5', clock: () => 1_700_000_000_000 });
   * ```
   */
  async createSession(name: string, options: CreateSessionOptions): Promise<Session> {
    return inBatch(this.#core.git, () => this.#create(name, options));
  }

  async #create(name: string, options: CreateSessionOptions): Promise<Session> {
    validateRefComponent(name, 'session');
    const opts = plainOptions<CreateSessionOptions>(options, 'opts', '{ model, … }', true);
    const config = this.#config(name, opts, this.#clockOf(name, opts.clock).now);
    const settings = await this.#settings(config, opts);
    const tools = opts.tools === undefined ? undefined : createToolCatalogue(opts.tools);
    if ((await this.#core.store.getSession(name)) !== undefined) {
      // a DAG session without a config (written by @ctxgit/dag directly, or a crash between the two writes) is adopted
      if ((await readRef(this.#core.git, configRef(name))) !== null) throw new SessionNameTakenError(name);
    } else {
      await this.#assertNameFree(name);
      await dagWrite(name, 'createSession', () => createDagSession(this.#core.store.forSession(name, [], settings.lastTime), name));
    }
    await this.#writeConfig(config);
    await this.#writeTools(name, tools, config.createdAt);
    return new Session(this.#host, settings);
  }

  /**
   * Creates a session holding a whole transcript (an importer's result of `@ctxgit/dag`) in one atomic DAG write;
   * no commit is written until {@link Session.commit}.
   *
   * @param name - a valid git ref component
   * @param transcript - e.g. `importSweAgentTraj(text)`
   * @param options - as for {@link Repo.createSession}
   * @returns the session, its head at the transcript's head
   * @throws the errors of {@link Repo.createSession} and of `writeTranscript`; nothing is written then
   * @example
   * ```ts
   * const s = await repo.importSession('swe-1', importSweAgentTraj(text), { model: 'openai:gpt-4o' });
   * const c = await s.commit();
   * ```
   */
  async importSession(name: string, transcript: Transcript, options: CreateSessionOptions): Promise<Session> {
    return inBatch(this.#core.git, () => this.#import(name, transcript, options));
  }

  async #import(name: string, transcript: Transcript, options: CreateSessionOptions): Promise<Session> {
    validateRefComponent(name, 'session');
    const opts = plainOptions<CreateSessionOptions>(options, 'opts', '{ model, … }', true);
    const clock = this.#clockOf(name, opts.clock).now;
    const config = this.#config(name, opts, clock);
    const settings = await this.#settings(config, opts);
    const tools = opts.tools === undefined ? undefined : createToolCatalogue(opts.tools);
    await this.#assertNameFree(name);
    await dagWrite(name, 'importSession', () => writeTranscript(this.#core.store.forSession(name, [], this.#clockOf(name, opts.clock).last), name, transcript, { clock, ...(opts.ids === undefined ? {} : { ids: opts.ids }) }));
    await this.#writeConfig(config);
    await this.#writeTools(name, tools, config.createdAt);
    return new Session(this.#host, settings);
  }

  /**
   * Opens an existing session with its stored model and sizes.
   *
   * @param name - the session
   * @param opts - behaviour (rules, clock, …); see {@link SessionOptions}
   * @returns the session
   * @throws {@link UnknownSessionError}
   * @example
   * ```ts
   * const s = await repo.openSession('chat-42', { rules });
   * ```
   */
  async openSession(name: string, opts: SessionOptions = {}): Promise<Session> {
    const origin = this.#origin;
    if (origin !== undefined && (await this.#core.store.getSession(name)) === undefined) {
      await this.fetch(origin.remote, { sessions: [name], ...(origin.onAuth === undefined ? {} : { onAuth: origin.onAuth }) });
    }
    return new Session(this.#host, await this.#open(name, plainOptions<SessionOptions>(opts, 'opts', '{ rules?, clock?, … }')));
  }

  /**
   * Pushes sessions to a git server through smart HTTP: each session's DAG ref first (with its commit index), then its
   * config and other refs, last its context ref, each a compare-and-swap on the server (never forced). A turn is acknowledged once its push
   * returned. Only refs the remote lacks or holds at an older commit are sent, with the objects it lacks.
   *
   * @param remote - the server, `{ url, headers?, name? }`
   * @param opts - `sessions` (default: every session of this repository) and `onAuth`
   * @returns the refs pushed, and those left alone because the remote holds a newer ContextCommit there
   * @throws `RemoteConflictError` (retryable: another backend pushed first; call {@link Repo.sync}),
   * `RemoteUnreachableError` (retryable: local work is kept), `RemoteAuthError`, `RemoteRejectedError`, `InvalidRemoteError`
   * @example
   * ```ts
   * await repo.push({ url: 'https://git.example.com/ctx.git' }, { sessions: ['chat-42'], onAuth: () => ({ username: 'bot', password: token }) });
   * ```
   */
  async push(remote: Remote, opts: TransferOptions = {}): Promise<PushResult> {
    const t = transport(resolveRemote(remote), opts.onAuth);
    return pushSessions(this.#core, t, opts.sessions ?? (await this.listSessions()));
  }

  /**
   * Fetches sessions from a git server: only the refs of those sessions and the objects this repository lacks.
   * Local DAG writes the remote lacks are kept: a session the remote moved meanwhile gets its pending nodes
   * re-appended after the remote's head (same ids and content, new seqs; an id the remote took for another node is
   * renamed and reported in `renamed`), and its next `commit()` re-commits them.
   *
   * @param remote - the server
   * @param opts - `sessions` (default: every session the remote holds) and `onAuth`
   * @returns the sessions fetched, those re-applied, the local refs that moved
   * @throws `RemoteUnknownSessionError`, `RemoteUnreachableError`, `RemoteAuthError`, `InvalidRemoteError`, `CommitConflictError` (a local writer raced; retry)
   * @example
   * ```ts
   * const { sessions } = await repo.fetch({ url: 'https://git.example.com/ctx.git' }, { sessions: ['chat-42'] });
   * ```
   */
  async fetch(remote: Remote, opts: TransferOptions = {}): Promise<FetchResult> {
    const t = transport(resolveRemote(remote), opts.onAuth);
    return fetchSessions(this.#core, t, opts.sessions, this.#clock);
  }

  /**
   * Makes a session's pending turn reach the remote, whoever else writes it: fetch, re-apply the pending nodes on top
   * of the remote's (the DAG is append-only, so nothing is lost or doubled), re-commit, push; again after a typed
   * conflict, up to `maxAttempts` rounds. When it returns, the turn is acknowledged. Re-applying is exact when each
   * backend's node ids are its own (`ids`, e.g. `(s, seq) => backend + '-' + seq`): the nodes keep their ids and
   * content, only their `seq` and the first one's predecessor change. With the default ids (from session and seq) two
   * backends that raced wrote the same id, and the loser's nodes are renamed (`renamed`). A sync that dies mid-rebase
   * leaves the session's DAG ref at its local tip: the next sync starts over.
   *
   * @param remote - the server
   * @param opts - the session, `onAuth`, `maxAttempts` (50), `backoff`, `sleep`, and the session options used to re-commit
   * @returns what was pushed, the rounds it took and the conflicts met
   * @throws `SyncExhaustedError` (retryable) after `maxAttempts` lost rounds; the errors of {@link Repo.push} but conflicts
   * @example
   * ```ts
   * await s.append({ role: 'assistant', output: reply });
   * const { conflicts } = await repo.sync(remote, { session: 'chat-42' });
   * ```
   */
  async sync(remote: Remote, opts: SyncOptions): Promise<SyncResult> {
    validateRefComponent(opts.session, 'session');
    const t = transport(resolveRemote(remote), opts.onAuth);
    const maxAttempts = opts.maxAttempts ?? 50;
    if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1) throw new InvalidOptionError('maxAttempts', maxAttempts, 'a whole number >= 1');
    const policy = {
      maxAttempts,
      backoff: opts.backoff ?? defaultBackoff,
      sleep: opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
    };
    return syncSession(this.#core, t, opts.session, policy, this.#clock, opts.ids, async (name) => {
      await (await this.openSession(name, opts)).commit();
    });
  }

  /**
   * Names of every session of the repository, sorted.
   *
   * @returns the names
   * @example
   * ```ts
   * await repo.listSessions(); // ['chat-42', 'chat-42-alt']
   * ```
   */
  async listSessions(): Promise<string[]> {
    return [...(await this.#core.store.listSessions())].sort();
  }

  /**
   * Reads a ContextCommit by its git oid.
   *
   * @param id - the commit oid (40 hex digits)
   * @returns the commit with its items
   * @throws {@link UnknownCommitError} when no ContextCommit has this id
   * @example
   * ```ts
   * const c = await repo.readCommit(id);
   * ```
   */
  async readCommit(id: string): Promise<ContextCommit> {
    return (await loadCommit(this.#core, id)).commit;
  }

  /**
   * Compares two ContextCommits item by item, as {@link diffCommits} does, and also places the items of `older` that
   * the newer commit folded into a summary which a later summary of it absorbed (read from the summaries' trees).
   *
   * @param older - oid of the older commit (40 hex digits)
   * @param newer - oid of the newer commit; the two can be of any sessions
   * @returns the changes, in the newer commit's item order, then the items of `older` it lacks
   * @throws {@link UnknownCommitError} when either id names no ContextCommit
   * @example
   * ```ts
   * const d = await repo.diff(before.id, after.id);
   * d.changes.filter((c) => c.reason === 'folded').length; // items the newer commit summarized
   * ```
   */
  async diff(older: string, newer: string): Promise<CommitDiff> {
    return diffStoredCommits(this.#core, await loadCommit(this.#core, older), await loadCommit(this.#core, newer));
  }

  /**
   * Merges peer sessions into a target: one attach pointer per peer after the target's head, then the instruction,
   * then a commit whose git parents are the target's previous commit and each peer's terminal commit. The base
   * peer's block is locked; each peer's `merged` ref is set to the merge commit.
   *
   * @param options - see {@link MergeOptions}
   * @returns the merge commit
   * @throws {@link SelfMergeError}, {@link InvalidMergeError}, {@link UnknownSessionError}, {@link EmptySessionError}; nothing is written then
   * @example
   * ```ts
   * const m = await repo.merge({ target: 'chat-42', peers: ['a', 'b'], instruction: 'Combine both findings.' });
   * m.parentIds.length; // 3
   * ```
   */
  async merge(options: MergeOptions): Promise<ContextCommit> {
    const opts = plainOptions<MergeOptions>(options, 'opts', '{ target, peers, instruction?, base? }', true);
    return inBatch(this.#core.git, () => mergeSessions(this.#core, opts, (name) => this.#open(name, opts)));
  }

  /**
   * Packs the repository: every loose object and every pack into one pack (deltas included), as `git gc` would;
   * the repository stays readable by plain git throughout. Writes also pack themselves as they go (one pack per
   * write, rolled up geometrically), so this is only needed to reach the smallest size at once. Every object is held
   * in memory during the delta search (about 2 GB for a 10,000-turn session).
   *
   * @returns what was packed: packs merged, loose objects packed, objects in the new pack, packs left
   * @example
   * ```ts
   * const r = await repo.gc();
   * r.packs; // 1
   * ```
   */
  async gc(): Promise<GcResult> {
    return maintain(this.#core.git, true);
  }

  /**
   * Resolves once the background work in flight is done: the roll-up of small packs that automatic maintenance
   * starts after a write that commits (the write itself is durable when its own promise resolves; the roll-up runs on
   * while the caller goes on, and the next write waits for it; a lone append leaves it to the commit that follows, or
   * to the 16th such write in a row). Await it before copying the repository's files, before
   * `process.exit`, or to time a write without the maintenance that follows it.
   *
   * @example
   * ```ts
   * await session.appendTurn(turn);
   * await repo.settled(); // the packs are rolled up
   * ```
   */
  async settled(): Promise<void> {
    await settled(this.#core.git);
  }

  #config(name: string, opts: CreateSessionOptions, clock: Clock): SessionConfig {
    return {
      format: 1,
      session: name,
      model: opts.model,
      ...(opts.window === undefined ? {} : { window: opts.window }),
      ...(opts.budget === undefined ? {} : { budget: opts.budget }),
      ...(opts.outputReserve === undefined ? {} : { outputReserve: opts.outputReserve }),
      createdAt: clock(),
    };
  }

  async #settings(config: SessionConfig, opts: SessionOptions): Promise<SessionSettings> {
    const sizes = resolveSizes(config, opts.models);
    checkSummarizer('summarizer', opts.summarizer);
    const share = opts.maxPinnedShare;
    if (share !== undefined && (typeof share !== 'number' || !(share > 0 && share <= 1))) throw new InvalidOptionError('maxPinnedShare', share, 'a share of the history budget in (0, 1]');
    const summarizer = opts.summarizer ?? this.#summarizer;
    // a fold below the marks pays at the prices of the session's model
    const rules = opts.rules ?? defaultRules({ cacheRead: sizes.cache.read, cacheWrite: sizes.cache.write });
    return {
      name: config.session,
      model: config.model,
      window: sizes.window,
      historyBudget: sizes.historyBudget,
      outputReserve: sizes.outputReserve,
      ...(opts.request === undefined ? {} : { request: checkCommitRequest(opts.request, 'request') }),
      // built on first use, by the repository's loader: a session that never counts (a cold start that finds its
      // latest commit up to date) never builds the rank tables
      loadTokenizer: () => this.#tokenizers.load(sizes.encoding as TokenizerEncoding),
      rules,
      rulesVersion: pipelineVersion(rules),
      rulesCache: new RulesCache(),
      foldCache: new FoldCache(),
      ...(opts.band === undefined ? {} : { band: opts.band }),
      clock: this.#clockOf(config.session, opts.clock).now,
      lastTime: this.#clockOf(config.session, opts.clock).last,
      ...(opts.ids === undefined ? {} : { ids: opts.ids }),
      ...(summarizer === undefined ? {} : { summarizer }),
      ...(share === undefined ? {} : { maxPinnedShare: share }),
      toolView: resolveToolViewOptions(opts.toolView),
      catalogues: this.#catalogues,
    };
  }

  /** The clock given now (remembered for the session), else the one it was given last here, else the repository's. */
  #clockOf(session: string, given: Clock | undefined): SessionClock {
    const known = this.#clocks.get(session);
    if (known !== undefined && (given === undefined || given === known.source)) return known;
    const tracked = trackClock(given ?? this.#clock);
    this.#clocks.set(session, tracked);
    return tracked;
  }

  async #writeTools(name: string, tools: ToolCatalogue | undefined, now: number): Promise<void> {
    if (tools !== undefined) await storeCatalogue(this.#core, name, tools, now, this.#catalogues);
  }

  async #writeConfig(config: SessionConfig): Promise<void> {
    const ref = configRef(config.session);
    const before = await readRef(this.#core.git, ref);
    const oid = await writeSessionConfig(this.#core.git, config);
    await swapRef(this.#core, config.session, ref, before, oid);
  }

  /** Refuses a name that is taken, or that differs from a taken one only by case (their refs would merge on a case-insensitive file system). */
  async #assertNameFree(name: string): Promise<void> {
    if ((await this.#core.store.getSession(name)) !== undefined) throw new SessionNameTakenError(name);
    const folded = name.toLowerCase();
    const clash = (await this.#core.store.listSessions()).find((other) => other.toLowerCase() === folded);
    if (clash !== undefined) throw new SessionNameTakenError(name, clash);
  }

  async #open(name: string, opts: SessionOptions): Promise<SessionSettings> {
    validateRefComponent(name, 'session');
    const rec = await this.#core.store.getSession(name);
    const oid = await readRef(this.#core.git, configRef(name));
    if (rec === undefined || oid === null) throw new UnknownSessionError(name);
    return this.#settings(await readSessionConfig(this.#core.git, oid), opts);
  }

  async #fork(from: SessionSettings, name: string, at: string | undefined): Promise<Session> {
    return inBatch(this.#core.git, () => this.#forkNow(from, name, at));
  }

  async #forkNow(from: SessionSettings, name: string, at: string | undefined): Promise<Session> {
    validateRefComponent(name, 'session');
    await this.#assertNameFree(name);
    const rec = await this.#core.store.getSession(from.name);
    const source = await readRef(this.#core.git, configRef(from.name));
    if (rec === undefined || source === null) throw new UnknownSessionError(from.name);
    const point = at ?? rec.head;
    if (point === null) throw new InvalidOptionError('at', at ?? null, `a node id: session ${from.name} is empty`);
    const view = this.#core.store.forSession(from.name, [], from.lastTime);
    const node = await view.getNode(point);
    if (node === undefined || node.role === 'tool') throw new InvalidOptionError('at', point, 'a stored node that is not a tool node');
    const config: SessionConfig = { ...(await readSessionConfig(this.#core.git, source)), session: name, createdAt: from.clock() };
    await dagWrite(name, 'fork', () => forkDagSession(view, from.name, name, { at: point }));
    await this.#writeConfig(config);
    const tools = await readToolsTree(this.#core.git, from.name);
    if (tools !== undefined) await swapRef(this.#core, name, toolsRef(name), null, tools.commit); // the fork starts with the same catalogue
    this.#clocks.set(name, { now: from.clock, last: from.lastTime, source: from.clock });
    return new Session(this.#host, { ...from, name });
  }
}
