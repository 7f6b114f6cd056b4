import type { BatchNodeInput, Node, NodeEdit, NodeInput, SiblingPosition } from '@ctxgit/dag';
import { appendAttach, appendNode, appendNodes, branchView, checkout, copyJson, editNode, retryNode, setAgentRunning, siblingIndex } from '@ctxgit/dag';
import type { CatalogueTool, ToolCallResolution, ToolCatalogue } from '@ctxgit/rules';
import { createToolCatalogue, resolveToolCall } from '@ctxgit/rules';
import type { Occupancy, OccupancyState, Usage } from '@ctxgit/tokenize';
import { createOccupancyState, occupancy, recordUsage } from '@ctxgit/tokenize';
import { appendNew } from '../engine/append-new.js';
import type { AppendNewResult, HistoryEntry } from '../engine/append-new.js';
import { parseCommitMeta, META_FILE } from '../store/commit-meta.js';
import { dagWrite } from '../engine/conflict.js';
import type { ContextCommit } from '../store/context-commit.js';
import { buildLatestCommit, ensureLatestCommit, indexEntry, indexWrite, moveContext } from '../engine/ensure-latest-commit.js';
import { InvalidOptionError, PinCapError, PinStateError, PinTargetError, UnknownCommitError, UnknownSessionError } from '../errors.js';
import { expandSummary } from '../engine/expand-summary.js';
import type { ExpandedSummary } from '../engine/expanded-summary.js';
import { readBlob } from '../git/read-blob.js';
import { readCommitObject } from '../git/read-commit-object.js';
import { readPath } from '../git/read-path.js';
import { readRef } from '../git/read-ref.js';
import { inBatch } from '../git/internal/pack-store.js';
import type { LogEntry } from './log-entry.js';
import { contextRef } from '../store/refs.js';
import type { RepoCore } from '../store/repo-core.js';
import { loadCommit } from '../store/repo-core.js';
import { pendingDag, storedDag } from '../engine/session-dag.js';
import type { SessionSettings } from '../engine/session-settings.js';
import type { CommitRequest } from '../engine/session-request.js';
import { checkCommitRequest } from '../engine/session-request.js';
import type { FoldToolOptions } from '../engine/fold-tools/fold-tool-definitions.js';
import { runFoldTool } from '../engine/fold-tools/run-fold-tool.js';
import type { FoldToolCall, FoldToolResult } from '../engine/fold-tools/run-fold-tool.js';
import { PIN_METADATA, pinRecordInput } from '../engine/pins/pin-record.js';
import { pinCapTokens, pinnedTokens } from '../engine/pins/pinned-mass.js';
import { storeCatalogue } from '../store/tools/store-catalogue.js';
import { readToolsTree } from '../store/tools/tools-ref.js';
import { DeferredWrite } from '../store/deferred-write.js';
import type { SessionNodeView } from '../store/session-node-view.js';
import type { DagSnapshot } from '../store/session-node-view.js';
import { plainOptions } from './plain-options.js';

/** Metadata keys only attach(), merge(), pin() and unpin() may write: the engine acts on nodes carrying them. */
const RESERVED_METADATA: readonly string[] = ['attach', 'merge', PIN_METADATA];

/** Refuses the metadata keys only attach(), merge(), pin() and unpin() may write. */
function refuseReserved(input: unknown, where: string): void {
  const meta: unknown = typeof input === 'object' && input !== null ? (input as { metadata?: unknown }).metadata : undefined;
  for (const key of RESERVED_METADATA) {
    if (typeof meta === 'object' && meta !== null && Object.prototype.hasOwnProperty.call(meta, key)) {
      throw new InvalidOptionError(`${where}.metadata.${key}`, '(reserved)', `no "${key}" key: attach pointers come only from attach() and merge(), pin records from pin() and unpin()`);
    }
  }
}

/** A batch's inputs as read once (see `snapshotInput`), the reserved metadata keys refused (`where[i]` in the error). */
function checkedBatch(inputs: readonly BatchNodeInput[], where: string): BatchNodeInput[] {
  const contents = inputs.map((input) => (snapshotInput(input) as BatchNodeInput | undefined) ?? input);
  contents.forEach((input, i) => refuseReserved(input, `${where}[${i}]`));
  return contents;
}

/** What {@link Session.appendTurn} stored. */
export interface AppendedTurn {
  /** The nodes, in input order. */
  readonly nodes: readonly Node[];
  /** The ContextCommit of the new head. */
  readonly commit: ContextCommit;
}

/** Where {@link Session.attach} takes its context from. */
export interface AttachRequest {
  /** The attached session. */
  readonly session: string;
  /** The ContextCommit to attach. @defaultValue the source session's commit for its head (written if missing) */
  readonly commit?: string;
}

/** Options of {@link Session.checkout}. */
export interface CheckoutOptions {
  /** Also find (or write) the ContextCommit of the new head and move the context ref to it. @defaultValue false */
  readonly commit?: boolean;
}

/** Options of {@link Session.commit}. */
export interface CommitOptions {
  /**
   * The request a new commit is rendered into (the system prompt and tools of this call): the rules hold the window
   * against it. An existing commit of the head is returned as it is. @defaultValue the session's `request` option
   */
  readonly request?: CommitRequest;
}

/** Options of {@link Session.appendNew}. */
export interface AppendNewOptions {
  /**
   * Commit the new head in the same write as the appended nodes (as {@link Session.appendTurn} does), built for
   * `commit.request`; the result's `commit` is it. @defaultValue undefined: no commit (call {@link Session.commit})
   */
  readonly commit?: CommitOptions;
  /**
   * With `commit`: runs with the new head's commit once its objects are written and before the call moves any ref,
   * so that what a caller records of the commit in the same repository (`@ctxgit/commit/git`'s primitives) goes into
   * the turn's pack, one write for both; the caller moves its own refs after the call. Not called when the call
   * appends nothing (the head's commit is then returned as {@link Session.commit} does). When it rejects, nothing
   * moves and the call rejects with its error. @defaultValue undefined
   */
  readonly beforeRefs?: (commit: ContextCommit) => Promise<void>;
}

/** Options of {@link Session.fork}. */
export interface ForkSessionOptions {
  /** The node the new session's head points at. @defaultValue this session's head */
  readonly at?: string;
}

/** Options of {@link Session.log}. */
export interface LogOptions {
  /** At most this many entries. @defaultValue all */
  readonly limit?: number;
  /**
   * Start at this commit (included) instead of the session's latest one: the next page of a paged log starts at
   * the first parent of the previous page's last entry. @defaultValue the session's latest commit
   */
  readonly start?: string;
}

/** Options of {@link Session.expand}. */
export interface ExpandOptions {
  /** Read the summary from this commit. @defaultValue the session's latest commit */
  readonly commit?: string;
}

/** Options of {@link Session.foldTool}. */
export interface FoldToolCallOptions extends FoldToolOptions {
  /** Read the summaries of this commit. @defaultValue the session's latest commit */
  readonly commit?: string;
}

/** What {@link Session.pin} and {@link Session.unpin} return; tokens. */
export interface PinResult {
  /** The pin record node appended to the DAG (a `system` node with `metadata.pin = { key, pinned }`). */
  readonly record: Node;
  /** Tokens of the item. */
  readonly itemTokens: number;
  /** Tokens the pinned items of the context will hold once the next commit applies the record. */
  readonly pinnedTokens: number;
  /** The cap: `maxPinnedShare` of the history budget. */
  readonly capTokens: number;
}

/** One tool call of the model, for {@link Session.resolveToolCall}. */
export interface ToolCall {
  /** The tool name the model called. */
  readonly name: string;
  /** Its arguments: an object, or the JSON text the provider sent. */
  readonly input?: unknown;
}

/** Options of {@link Session.resolveToolCall}. */
export interface ResolveToolCallOptions {
  /** The commit the model was called with. @defaultValue the session's latest commit */
  readonly commit?: string;
}

/** Provider-reported usage for {@link Session.recordUsage}; tokens. `head` defaults to the session's latest commit id. */
export type SessionUsage = Omit<Usage, 'head'> & { readonly head?: string };

/**
 * The operations a session needs from its repository.
 *
 * @internal
 */
export interface SessionHost {
  readonly core: RepoCore;
  /** Resolves the settings of another session with this one's rules, band, clock and ids. */
  settingsFor(session: string): Promise<SessionSettings>;
  /** Forks `from` into a new session and opens it. */
  forkSession(from: SessionSettings, name: string, at: string | undefined): Promise<Session>;
}

/** A branch kept between calls: its nodes from the root to `head`, valid while the session's DAG ref is at `dag`. */
interface KeptBranch {
  readonly dag: string;
  readonly head: string;
  readonly nodes: readonly Node[];
  /** The call's entries, one for each node, when its history began at the branch root (a copy of the caller's list). */
  readonly entries?: readonly HistoryEntry[];
}

/**
 * One conversation of a repository: a named head over the shared DAG, with its ContextCommits.
 * Get one from {@link Repo.createSession} or {@link Repo.openSession}.
 *
 * @remarks
 * Every method reads the current state from the repository, so several `Session` objects (or processes) may work on
 * one session; a lost race throws {@link CommitConflictError} and changes nothing, the call can be retried.
 *
 * @example
 * ```ts
 * const s = await repo.createSession('chat-42', { model: 'anthropic:claude-sonnet-4-5' });
 * await s.append({ role: 'user', output: 'hello' });
 * const c = await s.commit();
 * c.items.length; // 1
 * ```
 */
export class Session {
  readonly #host: SessionHost;
  readonly #settings: SessionSettings;
  #usage: OccupancyState;
  /**
   * The branch the last {@link Session.appendNew} left (its nodes, as long as the history a caller passes), and the
   * DAG state (its ref's commit) it holds for: the next call matches its history against it without reading the
   * branch again, unless another write moved the DAG since (this session's commits carry it over).
   */
  #branch: KeptBranch | undefined;

  /** @internal */
  constructor(host: SessionHost, settings: SessionSettings) {
    this.#host = host;
    this.#settings = settings;
    this.#usage = createOccupancyState({ window: settings.window });
  }

  /** The session's name. */
  get name(): string {
    return this.#settings.name;
  }

  /** `"provider:model"`. */
  get model(): string {
    return this.#settings.model;
  }

  /** The context window, tokens. */
  get window(): number {
    return this.#settings.window;
  }

  /** Tokens the history may occupy (the budget the rules fold against). */
  get historyBudget(): number {
    return this.#settings.historyBudget;
  }

  /** The version string of the session's rule pipeline, e.g. `aging@3+idle@1+fold@14+cap@3`. */
  get rulesVersion(): string {
    return this.#settings.rulesVersion;
  }

  /**
   * The node the session's head points at, or null for an empty session.
   *
   * @returns the node id
   * @example
   * ```ts
   * const id = await s.head();
   * ```
   */
  async head(): Promise<string | null> {
    const rec = await this.#host.core.store.getSession(this.name);
    if (rec === undefined) throw new UnknownSessionError(this.name);
    return rec.head;
  }

  /**
   * Appends a node to the DAG under the head (a `tool` node under its `caller`); durable when the promise resolves.
   *
   * @param input - the node content; see `NodeInput` of `@ctxgit/dag`
   * @returns the stored node
   * @throws {@link CommitConflictError} when another writer appended first (nothing written; retry); {@link InvalidOptionError} for the reserved metadata keys `attach` and `merge`; the validation errors of `appendNode`
   * @example
   * ```ts
   * const q = await s.append({ role: 'user', output: 'list files' });
   * const a = await s.append({ role: 'assistant', output: '' });
   * await s.append({ role: 'tool', name: 'ls', input: { path: '.' }, output: 'a.txt', caller: a.id });
   * ```
   */
  async append(input: NodeInput): Promise<Node> {
    const content = snapshotInput(input);
    refuseReserved(content, 'input');
    return this.#dagBatch(() => dagWrite(this.name, 'append', () => appendNode(this.#view(), this.name, content ?? input, this.#dag())));
  }

  /**
   * One turn in one write: appends the nodes (as {@link Session.append} would, one after the other) and commits the
   * new head. Every object (nodes, items, trees, commits) is written first, then the session's DAG ref and its
   * context ref move, one compare-and-swap each; a failure before leaves nothing visible.
   *
   * @param inputs - the turn's nodes in order, e.g. the assistant's reply, its tool calls' results, the next user
   *   message; a tool input's `caller` may be the index of an assistant input earlier in the list
   * @returns the stored nodes and the commit of the new head
   * @throws {@link CommitConflictError} when another writer changed the session first (nothing written; retry);
   *   {@link InvalidOptionError} for the reserved metadata keys; the validation errors of `appendNodes` (`@ctxgit/dag`)
   * @example
   * ```ts
   * const { nodes, commit } = await s.appendTurn([
   *   { role: 'assistant', output: 'Listing.' },
   *   { role: 'tool', name: 'ls', input: { path: '.' }, output: 'a.txt', caller: 0 },
   * ]);
   * render(commit, { provider: 'openai-chat' });
   * ```
   */
  async appendTurn(inputs: readonly BatchNodeInput[]): Promise<AppendedTurn> {
    const contents = Array.isArray(inputs) ? checkedBatch(inputs, 'inputs') : inputs;
    return inBatch(this.#host.core.git, () => this.#appendTurn(contents, this.#settings));
  }

  async #appendTurn(inputs: readonly BatchNodeInput[], settings: SessionSettings, snapshot: DagSnapshot = new Map(), beforeRefs?: (commit: ContextCommit) => Promise<void>): Promise<AppendedTurn> {
    const core = this.#host.core;
    // one snapshot of the DAG for the turn (the caller's, or its own): its ref is read once, the write swaps it from that state
    const deferred = new DeferredWrite(this.#view(snapshot));
    const nodes = await dagWrite(this.name, 'appendTurn', () => appendNodes(deferred, this.name, inputs, this.#dag()));
    const change = deferred.change;
    if (change === undefined) throw new InvalidOptionError('inputs', '(no write)', 'at least one node input');
    const contextBefore = await readRef(core.git, contextRef(this.name));
    const built = await buildLatestCommit(core, settings, pendingDag(storedDag(core.store, this.name, snapshot), change));
    if (beforeRefs !== undefined) await beforeRefs(built.stored.commit);
    await moveContext(core, this.name, contextBefore, built.stored.commit.id, () =>
      indexWrite(this.name, 'appendTurn', () => core.store.writeWithIndex(this.name, change, built.isNew ? [indexEntry(built)] : [], this.#settings.lastTime, snapshot)),
    );
    return { nodes, commit: built.stored.commit };
  }

  /**
   * Appends what is new in a caller's whole history (what an SDK call passes each time): the leading entries equal
   * to the session's branch (same content, same caller) are kept, the rest is appended in one write; a history
   * trimmed at the front (a sliding window) matches the end of the branch from its first message. A history that
   * leaves the branch after a user, system or assistant message moves the head back there first (the rest becomes a
   * sibling branch, as a retry or edit does). With `options.commit`, the new head is committed in the same write.
   * The session keeps the branch this call leaves, for the next call to match against in memory (it is read again
   * when another write has moved the session's DAG since), and the entries it was given: an entry object passed again
   * at the same place is taken as the node it matched then, its content not compared again, so a caller that keeps its
   * entry objects (as a cache of converted messages does) pays for its new messages only. Give a changed message a new
   * entry object; an entry changed in place is not seen.
   *
   * @param entries - the whole history, oldest first; see {@link HistoryEntry}
   * @param options - see {@link AppendNewOptions}; `commit` (default: none) commits the new head in the same write,
   *   `beforeRefs` (default: none) writes the caller's record of that commit in it too
   * @returns how many entries matched, the nodes appended, and with `options.commit` the commit of the new head
   * @throws {@link HistoryDivergedError} when the first entry differs from the branch root or a stored tool result
   *   differs; the validation errors of {@link Session.append}; with `options.commit`, those of {@link Session.commit}
   *   (then nothing is appended either)
   * @example
   * ```ts
   * await s.appendNew([{ role: 'user', output: 'hi' }]);
   * const r = await s.appendNew([{ role: 'user', output: 'hi' }, { role: 'assistant', output: 'hello' }]);
   * r.matched; // 1, r.appended.length === 1
   * const { commit } = await s.appendNew([...history, { role: 'user', output: 'and?' }], { commit: { request: { format: 'openai-chat' } } });
   * ```
   */
  appendNew(entries: readonly HistoryEntry[], options?: AppendNewOptions & { readonly commit?: undefined }): Promise<AppendNewResult>;
  /** {@link Session.appendNew} that commits the new head in the same write: the result's `commit` is it. */
  appendNew(entries: readonly HistoryEntry[], options: AppendNewOptions & { readonly commit: CommitOptions }): Promise<AppendNewResult & { readonly commit: ContextCommit }>;
  async appendNew(entries: readonly HistoryEntry[], options: AppendNewOptions = {}): Promise<AppendNewResult> {
    const opts = plainOptions<AppendNewOptions>(options, 'opts', '{ commit?, beforeRefs? }');
    const settings = opts.commit === undefined ? undefined : this.#commitSettings(plainOptions<CommitOptions>(opts.commit, 'opts.commit', '{ request? }'), 'opts.commit.request');
    const { beforeRefs } = opts;
    if (beforeRefs !== undefined && (typeof beforeRefs !== 'function' || settings === undefined)) {
      throw new InvalidOptionError('opts.beforeRefs', typeof beforeRefs === 'function' ? '(without opts.commit)' : beforeRefs, 'a function (commit) => Promise<void>, with opts.commit');
    }
    const store = this.#host.core.store;
    // without a commit, a DAG write: its roll-up waits for the batch that commits (see #dagBatch)
    return inBatch(this.#host.core.git, async () => {
      // one snapshot of the DAG for the call: its ref read once, the write swapped from that state
      const snapshot: DagSnapshot = new Map();
      const view = this.#view(snapshot);
      const before = (await store.dagState(this.name, snapshot))?.head;
      const kept = this.#branch !== undefined && this.#branch.dag === before ? this.#branch : undefined;
      let commit: ContextCommit | undefined;
      const appendAll = async (inputs: readonly BatchNodeInput[]): Promise<readonly Node[]> => {
        const contents = checkedBatch(inputs, 'entries');
        if (settings === undefined) return dagWrite(this.name, 'appendNew', () => appendNodes(view, this.name, contents, this.#dag()));
        const turn = await this.#appendTurn(contents, settings, snapshot, beforeRefs);
        commit = turn.commit;
        return turn.nodes;
      };
      const { result, branch } = await appendNew(
        {
          name: this.name,
          head: async () => {
            const rec = await view.getSession(this.name);
            if (rec === undefined) throw new UnknownSessionError(this.name);
            return rec.head;
          },
          branch: async (head) => (kept !== undefined && kept.head === head ? kept.nodes : branchView(view, head)),
          appendAll,
          checkout: async (id) => {
            await this.checkout(id);
            // the checkout moved the DAG: the rest of the call reads it again
            snapshot.clear();
          },
        },
        entries,
        kept?.entries === undefined ? undefined : { entries: kept.entries, nodes: kept.nodes },
      );
      // the branch is kept for the next call while the DAG stays as this call left it
      const dag = (await store.dagState(this.name, snapshot))?.head;
      const head = [...branch].reverse().find((n) => n.role !== 'tool')?.id;
      // the entries too, when each is its node's: a copy, since the caller may change its list
      const aligned = branch.length === entries.length ? { entries: [...entries] } : {};
      this.#branch = dag === undefined || head === undefined ? undefined : { dag, head, nodes: branch, ...aligned };
      // nothing new: the head is committed as commit() does, from the same snapshot, the branch carried over
      if (settings !== undefined) commit ??= await this.#commitKeeping(settings, snapshot);
      return commit === undefined ? result : { ...result, commit };
    }, 0, settings !== undefined);
  }

  /**
   * The ContextCommit of the current head: the existing one when the head has one, else a new commit built from the
   * nearest commit on the head's ancestor chain plus the new nodes, through the rule pipeline. Never rewrites a commit.
   *
   * @param options - see {@link CommitOptions}; `request` (default: the session's) makes the budget the rendered request
   * @returns the commit
   * @throws {@link EmptySessionError} for a session without nodes; {@link CommitConflictError} when another writer moved the session's refs first;
   *   `RulesOverBudgetError` of `@ctxgit/rules` when, with a request, even the latest round cannot fit the window (nothing written)
   * @example
   * ```ts
   * const c = await s.commit();
   * const { id, totalTokens, summary } = c; // the git commit oid, tokens fed, what the rules did
   * const sent = await s.commit({ request: { format: 'openai-chat', tools } }); // never over the window once rendered
   * ```
   */
  async commit(options: CommitOptions = {}): Promise<ContextCommit> {
    const settings = this.#commitSettings(plainOptions<CommitOptions>(options, 'opts', '{ request? }'), 'opts.request');
    return inBatch(this.#host.core.git, () => this.#commitKeeping(settings, new Map()));
  }

  /**
   * The head's commit ({@link ensureLatestCommit} through `snapshot`: the state the commit reads is the one its index
   * write swaps from), with the branch `appendNew` kept carried over the index write when it held for that state.
   */
  async #commitKeeping(settings: SessionSettings, snapshot: DagSnapshot): Promise<ContextCommit> {
    const kept = this.#branch;
    const before = kept === undefined ? undefined : (await this.#host.core.store.dagState(this.name, snapshot))?.head;
    const { commit } = await ensureLatestCommit(this.#host.core, settings, snapshot);
    if (kept !== undefined) this.#branch = kept.dag === before ? await this.#carried(kept, snapshot) : undefined;
    return commit;
  }

  /**
   * The branch `appendNew` kept, still valid after a commit made on the DAG state it holds for: a commit adds an
   * index entry, never a node, so the branch stays and only its DAG state moves to the one the index write made.
   * Undefined when the write was swapped from another state (another writer came between).
   */
  async #carried(kept: KeptBranch, snapshot: DagSnapshot): Promise<KeptBranch | undefined> {
    const after = (await this.#host.core.store.dagState(this.name, snapshot))?.head;
    if (after === kept.dag) return kept;
    if (after === undefined) return undefined;
    return (await readCommitObject(this.#host.core.git, after)).parents[0] === kept.dag ? { ...kept, dag: after } : undefined;
  }

  /** The session's settings for a commit with `opts` (its request checked, named `where` in the error). */
  #commitSettings(opts: CommitOptions, where: string): SessionSettings {
    return opts.request === undefined ? this.#settings : { ...this.#settings, request: checkCommitRequest(opts.request, where) };
  }

  /**
   * Appends a same-content sibling of a node (a retried answer or call); the head moves to it (not for tool nodes).
   *
   * @param nodeId - the node to retry
   * @returns the new sibling
   * @example
   * ```ts
   * const again = await s.retry(answer.id);
   * ```
   */
  async retry(nodeId: string): Promise<Node> {
    return this.#dagBatch(() => dagWrite(this.name, 'retry', () => retryNode(this.#view(), this.name, nodeId, this.#dag())));
  }

  /**
   * Appends an edited sibling of a node; the original stays. A string replaces the output.
   *
   * @param nodeId - the node to edit
   * @param edit - the new output, or the fields to replace
   * @returns the new sibling
   * @example
   * ```ts
   * const fixed = await s.edit(question.id, 'list hidden files too');
   * ```
   */
  async edit(nodeId: string, edit: string | NodeEdit): Promise<Node> {
    const change: NodeEdit = typeof edit === 'string' ? { output: edit } : plainOptions<NodeEdit>(edit, 'edit', 'the new output, or { output?, input?, name?, metadata? }', true);
    return this.#dagBatch(() => dagWrite(this.name, 'edit', () => editNode(this.#view(), this.name, nodeId, change, this.#dag())));
  }

  /**
   * Moves the head to a node (a sibling, another branch). Runs no model and rewrites nothing; with `commit: true` it
   * also finds (or writes, when the node has none) the commit of the new head and moves the context ref to it.
   *
   * @param nodeId - the new head (not a tool node)
   * @param options - see {@link CheckoutOptions}
   * @returns the commit of the new head when `opts.commit`, else undefined
   * @example
   * ```ts
   * const c = await s.checkout(firstAnswer.id, { commit: true });
   * ```
   */
  async checkout(nodeId: string, options: CheckoutOptions = {}): Promise<ContextCommit | undefined> {
    const opts = plainOptions<CheckoutOptions>(options, 'opts', '{ commit? }');
    await this.#dagBatch(() => dagWrite(this.name, 'checkout', () => checkout(this.#view(), this.name, nodeId)));
    return opts.commit === true ? this.commit() : undefined;
  }

  /**
   * The position of a node among its siblings: `< index/total >`.
   *
   * @param nodeId - the node
   * @returns `{ index, total, ids }`, index 1-based
   * @example
   * ```ts
   * const { index, total } = await s.siblings(answer.id);
   * ```
   */
  async siblings(nodeId: string): Promise<SiblingPosition> {
    return siblingIndex(this.#view(), nodeId);
  }

  /**
   * Branches into a new session whose head is `opts.at` (default: this head). No node is copied; the new session's
   * first commit has the nearest commit of the fork point as parent, so both branches show in `git log --graph --all`.
   *
   * @param name - the new session's name (a valid git ref component)
   * @param opts - see {@link ForkSessionOptions}
   * @returns the new session, with this session's model, budget, rules and clock
   * @throws `InvalidNameError`, {@link SessionNameTakenError}, and the errors of `forkSession`; nothing is written then
   * @example
   * ```ts
   * const alt = await s.fork('chat-42-alt', { at: answer.id });
   * ```
   */
  async fork(name: string, opts: ForkSessionOptions = {}): Promise<Session> {
    return this.#host.forkSession(this.#settings, name, plainOptions<ForkSessionOptions>(opts, 'opts', '{ at? }').at);
  }

  /**
   * Appends an attach pointer naming a ContextCommit of another session. Passive: the source's items are expanded
   * into this session's context at the next commit, once (deduplicated by `attachedFrom`), `full` and unlocked.
   *
   * @param request - the session and (optionally) commit to attach
   * @returns the pointer node
   * @throws {@link UnknownSessionError} for a missing session, {@link UnknownCommitError} for a commit that is not a ContextCommit of it; nothing is written then
   * @example
   * ```ts
   * await s.attach({ session: 'research', commit: researchCommit.id });
   * const c = await s.commit(); // holds the research items, marked attachedFrom
   * ```
   */
  async attach(request: AttachRequest): Promise<Node> {
    const source = plainOptions<AttachRequest>(request, 'source', '{ session, commit? }', true);
    return inBatch(this.#host.core.git, () => this.#attach(source));
  }

  async #attach(source: AttachRequest): Promise<Node> {
    const core = this.#host.core;
    const other = await this.#host.settingsFor(source.session);
    let commit: ContextCommit;
    if (source.commit === undefined) {
      commit = (await ensureLatestCommit(core, other)).commit;
    } else {
      commit = (await loadCommit(core, source.commit)).commit;
    }
    return dagWrite(this.name, 'attach', () =>
      appendAttach(core.store.forSession(this.name, [source.session], this.#settings.lastTime), this.name, { session: source.session, head: commit.headNodeId, commit: commit.id }, this.#dag()),
    );
  }

  /**
   * The session's commits, newest first, following first parents from its latest commit (a fork's log continues
   * into the commits of the session it was forked from, like `git log`).
   *
   * @param options - see {@link LogOptions}
   * @returns the entries, without items
   * @throws {@link UnknownCommitError} when `opts.start` (or a commit on its chain) is not a ContextCommit; `ObjectNotFoundError` when it names no object
   * @example
   * ```ts
   * const titles = (await s.log()).map((e) => e.message.split('\n')[0]); // newest first
   * const page = await s.log({ limit: 100 });
   * const next = page.at(-1)?.parentIds[0]; // start of the next page, if any
   * const older = next === undefined ? [] : await s.log({ start: next, limit: 100 });
   * ```
   */
  async log(options: LogOptions = {}): Promise<LogEntry[]> {
    const core = this.#host.core;
    const opts = plainOptions<LogOptions>(options, 'opts', '{ limit? }');
    const limit = opts.limit ?? Infinity;
    const out: LogEntry[] = [];
    let oid = opts.start ?? (await readRef(core.git, contextRef(this.name)));
    while (oid !== null && out.length < limit) {
      const raw = await readCommitObject(core.git, oid);
      const metaOid = await readPath(core.git, raw.tree, [META_FILE]);
      const meta = metaOid === undefined ? 'no meta.json' : parseCommitMeta(new TextDecoder().decode(await readBlob(core.git, metaOid)));
      if (typeof meta === 'string') throw new UnknownCommitError(oid, meta);
      out.push({
        id: oid,
        parentIds: raw.parents,
        session: meta.session,
        turn: meta.turn,
        headNodeId: meta.headNodeId,
        rulesVersion: meta.rulesVersion,
        totalTokens: meta.totalTokens,
        window: meta.window,
        summary: meta.summary,
        createdAt: meta.createdAt,
        message: raw.message,
      });
      oid = raw.parents[0] ?? null;
    }
    return out;
  }

  /**
   * The originals a summary item folded (through the earlier summaries it absorbed), byte for byte from the DAG,
   * each verified against the git object id recorded when it entered the context.
   *
   * @param summaryKey - key of a `summary` item, or of a `summarized` one that a later summary absorbed
   * @param options - see {@link ExpandOptions}
   * @returns the originals
   * @throws {@link UnknownItemError} when the key names no summary; {@link VerificationError} when an original does not hash to its recorded id
   * @example
   * ```ts
   * const summary = c.items.find((it) => it.state === 'summary')!;
   * const { originals } = await s.expand(summary.key);
   * originals[0]?.node.output;
   * ```
   */
  async expand(summaryKey: string, options: ExpandOptions = {}): Promise<ExpandedSummary> {
    const core = this.#host.core;
    const opts = plainOptions<ExpandOptions>(options, 'opts', '{ commit? }');
    if (typeof summaryKey !== 'string') throw new InvalidOptionError('summaryKey', summaryKey, 'the key of a summary item (a string)');
    const id = opts.commit ?? (await readRef(core.git, contextRef(this.name)));
    if (id === null) throw new UnknownCommitError('(none)', `session ${this.name} has no commit yet`);
    return expandSummary(core, await loadCommit(core, id), summaryKey);
  }

  /**
   * Handles a call of one of the fold tools ({@link foldTools}) the model made: `fold_peek` (characters of a summary's
   * originals, by offset and length), `fold_expand` (every original of a summary, byte for byte, each verified by its
   * git object id as {@link Session.expand} does) or `fold_search` (words in the originals of every summary, at most
   * 20 hits). Reads only; writes nothing.
   *
   * @param call - the tool's name and its arguments (JSON text, or the parsed object)
   * @param opts - see {@link FoldToolCallOptions}; `maxChars` (default 16,000) bounds one result
   * @returns the text to append as the tool result; `isError` and a typed {@link FoldToolError} when the call was wrong (unknown tool or summary, bad arguments, offset out of range, over `maxChars`)
   * @throws {@link VerificationError} when an original does not hash to its recorded id; {@link UnknownCommitError} when the session has no commit
   * @example
   * ```ts
   * // the model answered with a call { id: 'call_1', name: 'fold_search', arguments: '{"query":"ORD-1003"}' }
   * const a = await s.append({ role: 'assistant', output: '' });
   * const r = await s.foldTool({ name: 'fold_search', arguments: '{"query":"ORD-1003"}' });
   * await s.append({ role: 'tool', name: 'fold_search', input: { query: 'ORD-1003' }, output: r.output, caller: a.id, metadata: { callId: 'call_1', isError: r.isError } });
   * ```
   */
  async foldTool(call: FoldToolCall, opts: FoldToolCallOptions = {}): Promise<FoldToolResult> {
    const core = this.#host.core;
    const id = opts.commit ?? (await readRef(core.git, contextRef(this.name)));
    if (id === null) throw new UnknownCommitError('(none)', `session ${this.name} has no commit yet`);
    const stored = await loadCommit(core, id);
    return runFoldTool({ commit: stored.commit, expand: (key) => expandSummary(core, stored, key) }, call, opts);
  }

  /**
   * Pins an item of the context after the fact: from the next commit on it stays `full` (no aging, clearing, cutting
   * or folding) until {@link Session.unpin}. Recorded append-only in the DAG as a `system` node under the head
   * (`metadata.pin = { key, pinned: true }`, HEAD advances to it) that the next commit applies and never turns into an
   * item; so the pin survives a restart, is inherited by a fork taken after it, and is absent from a sibling branch
   * (retry, edit) that starts before it. The head's context is committed first (as {@link Session.commit} does) so the
   * check sees every node of the branch. Pinned items may hold at most `maxPinnedShare` of the history budget.
   *
   * @param nodeId - the node to pin: an item key of the context (a node id of the branch, `<pointer>~<key>` for an attached item)
   * @returns the record node and the pinned mass after it, in tokens
   * @throws {@link PinTargetError} when no item of the context has this key; {@link PinStateError} when the item is not `full` or is pinned already; {@link PinCapError} over the cap; nothing is written then (but the head's commit)
   * @example
   * ```ts
   * const spec = await s.append({ role: 'user', output: 'The API key format is ak_<32 hex>.' });
   * await s.pin(spec.id); // { record, itemTokens, pinnedTokens, capTokens }
   * const c = await s.commit();
   * c.items.find((it) => it.key === spec.id)?.pinned; // true
   * ```
   */
  async pin(nodeId: string): Promise<PinResult> {
    return this.#setPin(nodeId, true);
  }

  /**
   * Releases a pin: from the next commit on the item ages and folds like any other. Recorded like {@link Session.pin}
   * (`metadata.pin = { key, pinned: false }`); it also releases an item pinned through its node's `metadata.pinned`.
   *
   * @param nodeId - the pinned item's key (its node id)
   * @returns the record node and the pinned mass after it, in tokens
   * @throws {@link PinTargetError} when no item of the context has this key; {@link PinStateError} when it is not pinned; nothing is written then (but the head's commit)
   * @example
   * ```ts
   * await s.unpin(spec.id);
   * (await s.commit()).items.find((it) => it.key === spec.id)?.pinned; // undefined
   * ```
   */
  async unpin(nodeId: string): Promise<PinResult> {
    return this.#setPin(nodeId, false);
  }

  /**
   * Records the input usage a provider reported for a call made with a commit of this session (kept in memory).
   *
   * @param usage - tokens reported; `head` defaults to the session's latest commit id
   * @example
   * ```ts
   * s.recordUsage({ inputTokens: 1_200, cacheReadTokens: 30_000 });
   * ```
   */
  async recordUsage(usage: SessionUsage): Promise<void> {
    const head = usage.head ?? (await readRef(this.#host.core.git, contextRef(this.name)));
    if (head === null) throw new UnknownCommitError('(none)', `session ${this.name} has no commit to record usage for`);
    this.#usage = recordUsage(this.#usage, { ...usage, head });
  }

  /**
   * How full the context of the latest commit is: measured when usage was recorded for that commit, else our count.
   *
   * @returns `{ window, total_used, basis, estimated, calibration? }` in tokens
   * @example
   * ```ts
   * const o = await s.occupancy(); // { window: 200000, total_used: 1234, basis: 'estimated', estimated: 1234 }
   * ```
   */
  async occupancy(): Promise<Occupancy> {
    const core = this.#host.core;
    const id = await readRef(core.git, contextRef(this.name));
    if (id === null) return occupancy(this.#usage, { head: `session:${this.name}`, estimated: 0 });
    return occupancy(this.#usage, { head: id, estimated: (await loadCommit(core, id)).commit.totalTokens });
  }

  /**
   * Takes (`true`) or releases (`false`) the agent-running lock; while held, retry, edit and checkout are refused.
   *
   * @param running - take or release
   * @example
   * ```ts
   * await s.setAgentRunning(true);
   * try { await s.append({ role: 'assistant', output: '…' }); } finally { await s.setAgentRunning(false); }
   * ```
   */
  async setAgentRunning(running: boolean): Promise<void> {
    await this.#dagBatch(() => dagWrite(this.name, 'setAgentRunning', () => setAgentRunning(this.#view(), this.name, running)));
  }

  /** A DAG write without a commit, as one batch: the roll-up waits for the batch that commits (the turn's end). */
  #dagBatch<T>(fn: () => Promise<T>): Promise<T> {
    return inBatch(this.#host.core.git, fn, 0, false);
  }

  #view(snapshot?: DagSnapshot): SessionNodeView {
    return this.#host.core.store.forSession(this.name, [], this.#settings.lastTime, snapshot);
  }

  async #setPin(key: string, pinned: boolean): Promise<PinResult> {
    if (typeof key !== 'string' || key === '') throw new InvalidOptionError('nodeId', key, "the id of a node of this session's branch");
    const stored = await ensureLatestCommit(this.#host.core, this.#settings);
    const item = stored.entries.get(key)?.item;
    if (item === undefined) throw new PinTargetError(key, this.name, stored.commit.id);
    const wanted = pinned ? 'pin' : 'unpin';
    if ((item.pinned === true) === pinned || (pinned && item.state !== 'full')) throw new PinStateError(key, item.state, item.pinned === true, wanted);
    const capTokens = pinCapTokens(this.historyBudget, this.#settings.maxPinnedShare);
    const before = pinnedTokens(stored.commit.items);
    if (pinned && before + item.tokens > capTokens) throw new PinCapError(key, item.tokens, before, capTokens);
    const record = await this.#dagBatch(() => dagWrite(this.name, wanted, () => appendNode(this.#view(), this.name, pinRecordInput(key, pinned), this.#dag())));
    return { record, itemTokens: item.tokens, pinnedTokens: pinned ? before + item.tokens : before - item.tokens, capTokens };
  }

  /**
   * Sets the session's tool catalogue: validated, then stored in git as a tree of groups with one blob per tool (the
   * session's `tools` ref; unchanged tools keep their blobs). From the next commit on, each commit advertises a
   * bounded, navigable view of it plus the navigation tool `open_tools`, and `render` emits exactly those. The view of
   * existing commits never changes.
   *
   * @param tools - the tools, e.g. `{ path: 'security/scan/port_scan', description, parameters }`; `[]` removes the catalogue from the next commit on
   * @returns the validated catalogue
   * @throws `ToolCatalogueError` of `@ctxgit/rules` naming the faulty tool (duplicate name, invalid JSON Schema, a name a provider refuses); nothing is written then. {@link CommitConflictError} when another writer set the tools first
   * @example
   * ```ts
   * await s.setTools([{ path: 'files/read_file', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }]);
   * (await s.commit()).tools?.advertised.map((t) => t.name); // ['read_file', 'open_tools'] once a request mentions files
   * ```
   */
  async setTools(tools: readonly CatalogueTool[]): Promise<ToolCatalogue> {
    const catalogue = createToolCatalogue(tools);
    await storeCatalogue(this.#host.core, this.name, catalogue, this.#settings.clock(), this.#settings.catalogues);
    return catalogue;
  }

  /**
   * The session's tool catalogue, or undefined when it has none.
   *
   * @returns the catalogue (tools in path order)
   * @example
   * ```ts
   * (await s.tools())?.byName('port_scan')?.path; // 'security/scan/port_scan'
   * ```
   */
  async tools(): Promise<ToolCatalogue | undefined> {
    const ref = await readToolsTree(this.#host.core.git, this.name);
    return ref === undefined ? undefined : this.#settings.catalogues.get(this.#host.core.git, ref.tree);
  }

  /**
   * Says what to do with one tool call the model made with a commit: an `open_tools` call gets its result text (the
   * view changes at the next commit); an advertised tool runs; a catalogue tool that was not advertised, called by its
   * exact name, runs too, in the same round, and its group opens at the next commit (`kind: 'opened'`); any other name
   * is `unknown`. Append the call's tool node as usual: the next commit reads the view's changes from it.
   *
   * @param call - the tool name and arguments
   * @param opts - see {@link ResolveToolCallOptions}
   * @returns the resolution; see `ToolCallResolution` of `@ctxgit/rules`
   * @example
   * ```ts
   * const r = await s.resolveToolCall({ name: 'open_tools', input: { open: 'security/scan' } });
   * if (r.kind === 'navigation') await s.append({ role: 'tool', name: 'open_tools', input: { open: 'security/scan' }, output: r.output, caller: a.id });
   * ```
   */
  async resolveToolCall(call: ToolCall, opts: ResolveToolCallOptions = {}): Promise<ToolCallResolution> {
    if (typeof call !== 'object' || call === null || typeof call.name !== 'string') throw new InvalidOptionError('call', call, '{ name, input? }');
    const core = this.#host.core;
    const id = opts.commit ?? (await readRef(core.git, contextRef(this.name)));
    const commit = id === null ? undefined : (await loadCommit(core, id)).commit;
    const catalogue =
      commit?.tools !== undefined ? await this.#settings.catalogues.get(core.git, commit.tools.catalogue) : ((await this.tools()) ?? createToolCatalogue([]));
    return resolveToolCall(catalogue, commit?.tools?.view, call, this.#settings.toolView);
  }

  #dag(): { clock: () => number; ids?: (session: string, seq: number) => string } {
    return { clock: this.#settings.clock, ...(this.#settings.ids === undefined ? {} : { ids: this.#settings.ids }) };
  }
}

/**
 * A plain snapshot of an append's input (each field read once, `metadata` deep-copied while checked as JSON), so the
 * reserved-key check sees what is written; undefined when `input` is not an object (appendNode refuses it).
 */
function snapshotInput(input: unknown): NodeInput | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const out: Record<string, unknown> = {};
  try {
    if (Array.isArray(input)) return undefined;
    for (const key of Object.keys(input)) out[key] = (input as Record<string, unknown>)[key];
  } catch {
    throw new InvalidOptionError('input', '(unreadable)', 'a plain NodeInput object (reading its fields threw: a getter or a proxy)');
  }
  if (out['metadata'] !== undefined) out['metadata'] = copyJson(out['metadata'], 'metadata');
  return out as unknown as NodeInput;
}
