import { canonicalJson, DagConflictError, DuplicateIdError, InvalidArgumentError, SessionNotFoundError, validateNodeId, validateSessionName } from '@ctxgit/dag';
import type { Node, NodeStore, SessionRecord, StoreWrite } from '@ctxgit/dag';
import { compareAndSwapRef } from '../git/compare-and-swap-ref.js';
import { RefConflictError } from '../git/errors.js';
import type { GitContext } from '../git/git-context.js';
import { listRefs } from '../git/list-refs.js';
import { listTree } from '../git/list-tree.js';
import { readBlob } from '../git/read-blob.js';
import { readCommitObject } from '../git/read-commit-object.js';
import { readPath } from '../git/read-path.js';
import { readRef } from '../git/read-ref.js';
import type { TreeEdit } from '../git/tree-edit.js';
import type { CommitObject } from '../git/commit-object.js';
import { checkCommit, checkIdentity, encodeCommit } from '../git/internal/commit-codec.js';
import { prepareObject, storeObject } from '../git/internal/object-io.js';
import type { PreparedObject } from '../git/internal/object-io.js';
import { planTreeEdits, storeTrees } from '../git/internal/plan-tree-edits.js';
import { inBatches } from '../git/internal/in-batches.js';
import { dagRef, SESSIONS_PREFIX, sessionOfRef } from './refs.js';
import { calleesDir, childrenDir, commitIndexPath, idOfIndexEntry, indexEntryName, nodePath, RECORD_PATH, ROOTS_DIR } from './internal/dag-layout.js';
import { deepFreeze } from './internal/deep-freeze.js';
import { SessionNodeView } from './session-node-view.js';
import type { DagSnapshot, DagState } from './session-node-view.js';

/** Options of {@link GitNodeStore}. */
export interface GitNodeStoreOptions {
  /** Milliseconds since the epoch, for the timestamps of the DAG's git commits. @defaultValue `Date.now` */
  readonly clock?: () => number;
  /** Name and e-mail written as author and committer of the DAG's git commits. @defaultValue `ctxgit <ctxgit@localhost>` */
  readonly author?: { readonly name: string; readonly email: string };
  /**
   * How many times a write is tried when another writer of the same session moved its DAG ref without changing its
   * record (a commit-index write), or held its lock; the record is re-checked each time. @defaultValue 100
   */
  readonly maxAttempts?: number;
  /** Waits between attempts that met a held lock, in milliseconds. @defaultValue a `setTimeout` promise */
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * The ref holding a session's DAG. Sync builds a rebase under a work ref this way, so that the session's own ref
   * moves once, from the old tip to the finished one. @defaultValue `refs/ctxgit/sessions/<session>/dag`
   * @internal
   */
  readonly dagRefOf?: (session: string) => string;
}

/** One entry of the commit index: the latest ContextCommit the session made with `node` as its head. */
export interface CommitIndexEntry {
  readonly node: string;
  readonly commit: string;
  /** The entry's value the write was built on (undefined: none); another value at write time is a conflict. */
  readonly expected?: string;
}

const EMPTY: readonly string[] = Object.freeze([]);
/** How many sessions `getNode` looks in first. */
const RECENT_SESSIONS = 4;
const decoder = new TextDecoder();
const OID = /^[0-9a-f]{40}$/u;

function json(bytes: Uint8Array): unknown {
  return deepFreeze(JSON.parse(decoder.decode(bytes)) as unknown);
}

function isSafeId(id: unknown): id is string {
  try {
    validateNodeId(id);
    return true;
  } catch {
    return false;
  }
}

function checkWrite(change: StoreWrite): void {
  const { expected, next, nodes } = change;
  if (typeof next !== 'object' || next === null) throw new InvalidArgumentError({ argument: 'write.next', reason: 'is not a session record' });
  validateSessionName(next.id);
  if (expected !== null && expected.id !== next.id) throw new InvalidArgumentError({ argument: 'write.next.id', reason: `is ${next.id}, expected ${expected.id}` });
  const want = expected === null ? 1 : expected.version + 1;
  if (next.version !== want) throw new InvalidArgumentError({ argument: 'write.next.version', reason: `is ${next.version}, expected ${want}` });
  if (!Array.isArray(nodes)) throw new InvalidArgumentError({ argument: 'write.nodes', reason: 'is not an array' });
  const seen = new Set<string>();
  nodes.forEach((n: Node, i) => {
    validateNodeId(n.id);
    validateSessionName(n.session);
    if (n.session !== next.id) throw new InvalidArgumentError({ argument: `write.nodes[${i}].session`, reason: `is ${n.session}; a write stores nodes of session ${next.id} only` });
    if (!Number.isSafeInteger(n.seq) || n.seq < 0) throw new InvalidArgumentError({ argument: `write.nodes[${i}].seq`, reason: 'is not a whole number >= 0' });
    for (const edge of ['predecessor', 'caller'] as const) if (n[edge] !== undefined) validateNodeId(n[edge]);
    if (seen.has(n.id)) throw new DuplicateIdError({ id: n.id });
    seen.add(n.id);
  });
}

function checkIndex(entries: readonly CommitIndexEntry[]): void {
  if (!Array.isArray(entries)) throw new InvalidArgumentError({ argument: 'index', reason: 'is not an array' });
  entries.forEach((e, i) => {
    validateNodeId(e.node);
    if (typeof e.commit !== 'string' || !OID.test(e.commit)) throw new InvalidArgumentError({ argument: `index[${i}].commit`, reason: 'is not 40 lowercase hex digits' });
  });
}

/**
 * The git-backed {@link NodeStore}: every session's DAG lives in the commits of its own ref,
 * `refs/ctxgit/sessions/<session>/dag`, one commit per write, so writers of different sessions never contend for a
 * ref. A session's tree holds its record (`session.json`), the nodes it appended (canonical JSON blobs under
 * sha1-sharded trees) with child, callee and root indexes beside them, and its commit index (`commits/`). A forked
 * session starts from the tree of the session it was forked from (its first DAG commit has that session's DAG
 * commit as parent), so its view holds every node it can reach; no node is copied, only trees are shared. A write
 * costs a constant number of objects whatever the store's size, and a read of one session walks one path. A write
 * is a compare-and-swap of the session's ref (git's lock-file protocol): all or nothing, and a crash leaves the
 * previous state.
 *
 * @remarks
 * The `NodeStore` reads without a session (`getNode`, `childrenOf`, `calleesOf`) look in every session's tree
 * (nodes of one session may hang under another's); a {@link Session} reads through {@link GitNodeStore.forSession},
 * which looks in its own tree only. Two writes from the same version of one session: exactly one wins, the other
 * gets `DagConflictError` (`@ctxgit/dag`) and nothing of it is visible. See `/docs/git-layout.md` for every path.
 *
 * @example
 * ```ts
 * const ctx = await openGit({ dir: './ctx.git' });
 * const store = new GitNodeStore(ctx, { clock: () => Date.now() });
 * await createSession(store, 'chat-42');
 * await appendNode(store, 'chat-42', { role: 'user', output: 'hi' });
 * ```
 */
export class GitNodeStore implements NodeStore {
  /** The repository. */
  readonly ctx: GitContext;
  readonly #clock: () => number;
  readonly #author: { readonly name: string; readonly email: string };
  readonly #maxAttempts: number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #refOf: (session: string) => string;
  /** The tree of the last DAG commit read per ref (commits are immutable; a long import's message is not decoded per read). */
  readonly #treeOf = new Map<string, DagState>();
  /** Sessions where `getNode` found its last nodes, most recent first: looked in before the others. */
  readonly #recent: string[] = [];

  /**
   * @param ctx - the repository, from `openGit`
   * @param options - clock, author, retry policy
   */
  constructor(ctx: GitContext, options: GitNodeStoreOptions = {}) {
    const maxAttempts = options.maxAttempts ?? 100;
    if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1) throw new InvalidArgumentError({ argument: 'options.maxAttempts', reason: 'is not a whole number >= 1' });
    const author = options.author ?? { name: 'ctxgit', email: 'ctxgit@localhost' };
    checkIdentity('options.author', { name: author.name, email: author.email, timestamp: 0, timezoneOffset: 0 });
    this.ctx = ctx;
    this.#clock = options.clock ?? (() => Date.now());
    this.#author = { name: author.name, email: author.email };
    this.#maxAttempts = maxAttempts;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#refOf = options.dagRefOf ?? dagRef;
  }

  /**
   * The commit a session's DAG ref points at now (null for a missing session): one commit per write, `git log` lists them.
   *
   * @param session - the session
   * @returns the commit oid, or null
   */
  async head(session: string): Promise<string | null> {
    return readRef(this.ctx, this.#refOf(session));
  }

  /**
   * A {@link NodeStore} that reads one session's DAG: its nodes (and those it inherited at a fork) and the records
   * of every session; nodes of the sessions in `also` are found too (an attach names another session's node).
   * Writes go to this store.
   *
   * @param session - the session
   * @param also - other sessions whose nodes `getNode` may return
   * @param clock - dates the DAG commits of the view's writes (the session's clock) @defaultValue the store's clock
   * @param snapshot - the operation's snapshot (see {@link DagSnapshot}), for every read and write of the view @defaultValue none: each read reads the ref
   * @returns the view
   */
  forSession(session: string, also: readonly string[] = [], clock?: () => number, snapshot?: DagSnapshot): SessionNodeView {
    return new SessionNodeView(this, session, also, clock, snapshot);
  }

  /**
   * Where a session's DAG stands (its ref's commit and tree): the snapshot's state when it holds one (after a write
   * through the snapshot, the state written), else read from the ref and kept in the snapshot; null without a DAG.
   *
   * @param session - the session
   * @param snapshot - the operation's snapshot @defaultValue none: the ref is read
   * @returns the state, or null
   */
  async dagState(session: string, snapshot?: DagSnapshot): Promise<DagState | null> {
    return this.#state(session, snapshot);
  }

  /** The session's DAG state: the snapshot's when it holds one, else read from its ref (and kept in the snapshot). */
  async #state(session: string, snapshot?: DagSnapshot): Promise<DagState | null> {
    const ref = this.#refOf(session);
    const pinned = snapshot?.get(ref);
    if (pinned !== undefined) return pinned;
    const state = await this.#readState(ref);
    snapshot?.set(ref, state);
    return state;
  }

  async #readState(ref: string): Promise<DagState | null> {
    const head = await readRef(this.ctx, ref);
    if (head === null) return null;
    const known = this.#treeOf.get(ref);
    if (known?.head === head) return known;
    const { tree } = await readCommitObject(this.ctx, head);
    const state = { head, tree };
    this.#treeOf.set(ref, state);
    return state;
  }

  async #record(tree: string, session: string): Promise<SessionRecord | undefined> {
    const oid = await readPath(this.ctx, tree, RECORD_PATH);
    if (oid === undefined) return undefined;
    const rec = json(await readBlob(this.ctx, oid)) as SessionRecord;
    return rec.id === session ? rec : undefined;
  }

  /**
   * The session record, frozen; undefined if absent.
   *
   * @param id - the session
   * @param snapshot - the operation's snapshot (see {@link DagSnapshot}) @defaultValue none: the ref is read
   * @returns the record
   */
  async getSession(id: string, snapshot?: DagSnapshot): Promise<SessionRecord | undefined> {
    if (typeof id !== 'string' || id === '') return undefined;
    const state = await this.#state(id, snapshot);
    return state === null ? undefined : this.#record(state.tree, id);
  }

  /** Every session id, sorted by code unit; frozen. Lists the sessions' DAG refs. */
  async listSessions(): Promise<readonly string[]> {
    const names: string[] = [];
    for (const ref of await listRefs(this.ctx, SESSIONS_PREFIX)) {
      const name = sessionOfRef(ref, 'dag');
      if (name !== undefined) names.push(name);
    }
    return Object.freeze(names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /**
   * The git blob id of a node's canonical JSON in one session's DAG (what `git show <dag>:nodes/…/<id>.json`
   * prints), or undefined.
   *
   * @param session - the session whose DAG is read
   * @param id - the node id
   * @param snapshot - the operation's snapshot (see {@link DagSnapshot}) @defaultValue none: the ref is read
   * @returns the blob oid
   */
  async nodeObjectIn(session: string, id: string, snapshot?: DagSnapshot): Promise<string | undefined> {
    if (!isSafeId(id)) return undefined;
    const state = await this.#state(session, snapshot);
    return state === null ? undefined : readPath(this.ctx, state.tree, nodePath(id));
  }

  /**
   * The node with that id in one session's DAG (its own nodes and those it inherited at a fork), frozen.
   *
   * @param session - the session whose DAG is read
   * @param id - the node id
   * @param snapshot - the operation's snapshot (see {@link DagSnapshot}) @defaultValue none: the ref is read
   * @returns the node, or undefined
   */
  async nodeIn(session: string, id: string, snapshot?: DagSnapshot): Promise<Node | undefined> {
    const oid = await this.nodeObjectIn(session, id, snapshot);
    return oid === undefined ? undefined : (json(await readBlob(this.ctx, oid)) as Node);
  }

  /**
   * The node with that id, frozen; undefined if absent. Looks first in the sessions where the last reads found their
   * nodes (a walk along a branch stays in one session), then in every session's DAG (one path read each).
   */
  async getNode(id: string): Promise<Node | undefined> {
    if (!isSafeId(id)) return undefined;
    for (const session of this.#recent) {
      const node = await this.nodeIn(session, id);
      if (node !== undefined) return node;
    }
    for (const session of await this.listSessions()) {
      if (this.#recent.includes(session)) continue;
      const node = await this.nodeIn(session, id);
      if (node === undefined) continue;
      this.#recent.unshift(session);
      this.#recent.length = Math.min(this.#recent.length, RECENT_SESSIONS);
      return node;
    }
    return undefined;
  }

  async #indexIn(session: string, dir: readonly string[], snapshot?: DagSnapshot): Promise<readonly string[]> {
    const state = await this.#state(session, snapshot);
    if (state === null) return EMPTY;
    return (await listTree(this.ctx, state.tree, dir)).map((e) => e.path);
  }

  async #indexEverywhere(dir: readonly string[]): Promise<readonly string[]> {
    const names = new Set<string>();
    for (const session of await this.listSessions()) for (const name of await this.#indexIn(session, dir)) names.add(name);
    return Object.freeze([...names].sort().map(idOfIndexEntry));
  }

  /**
   * Ids of nodes of one session's DAG whose `predecessor` is `id`, sorted by `(seq, id)`; frozen.
   *
   * @param session - the session whose DAG is read
   * @param id - the predecessor
   * @param snapshot - the operation's snapshot (see {@link DagSnapshot}) @defaultValue none: the ref is read
   * @returns the ids
   */
  async childrenIn(session: string, id: string, snapshot?: DagSnapshot): Promise<readonly string[]> {
    return isSafeId(id) ? Object.freeze((await this.#indexIn(session, childrenDir(id), snapshot)).map(idOfIndexEntry)) : EMPTY;
  }

  /**
   * Ids of tool nodes of one session's DAG whose `caller` is `id`, sorted by `(seq, id)`; frozen.
   *
   * @param session - the session whose DAG is read
   * @param id - the caller
   * @param snapshot - the operation's snapshot (see {@link DagSnapshot}) @defaultValue none: the ref is read
   * @returns the ids
   */
  async calleesIn(session: string, id: string, snapshot?: DagSnapshot): Promise<readonly string[]> {
    return isSafeId(id) ? Object.freeze((await this.#indexIn(session, calleesDir(id), snapshot)).map(idOfIndexEntry)) : EMPTY;
  }

  /** Ids of nodes whose `predecessor` is `id`, in every session, sorted by `(seq, id)`; frozen. */
  async childrenOf(id: string): Promise<readonly string[]> {
    return isSafeId(id) ? this.#indexEverywhere(childrenDir(id)) : EMPTY;
  }

  /** Ids of nodes whose `caller` is `id`, in every session, sorted by `(seq, id)`; frozen. */
  async calleesOf(id: string): Promise<readonly string[]> {
    return isSafeId(id) ? this.#indexEverywhere(calleesDir(id)) : EMPTY;
  }

  /**
   * Ids of root nodes appended by `session`, sorted by `(seq, id)`; frozen.
   *
   * @param session - the session
   * @param snapshot - the operation's snapshot (see {@link DagSnapshot}) @defaultValue none: the ref is read
   * @returns the ids
   */
  async rootsOf(session: string, snapshot?: DagSnapshot): Promise<readonly string[]> {
    if (typeof session !== 'string' || session === '') return EMPTY;
    return Object.freeze((await this.#indexIn(session, ROOTS_DIR, snapshot)).map(idOfIndexEntry));
  }

  /**
   * The commit index: the ContextCommit the session (or, before its own first commit there, the session it was
   * forked from) made last with head `nodeId`.
   *
   * @param session - the session
   * @param nodeId - the head node
   * @param snapshot - the operation's snapshot (see {@link DagSnapshot}) @defaultValue none: the ref is read
   * @returns the commit oid, or undefined
   */
  async commitAt(session: string, nodeId: string, snapshot?: DagSnapshot): Promise<string | undefined> {
    if (!isSafeId(nodeId)) return undefined;
    const state = await this.#state(session, snapshot);
    return state === null ? undefined : this.#commitIn(state.tree, nodeId);
  }

  async #commitIn(tree: string, nodeId: string): Promise<string | undefined> {
    const oid = await readPath(this.ctx, tree, commitIndexPath(nodeId));
    return oid === undefined ? undefined : decoder.decode(await readBlob(this.ctx, oid)).trim();
  }

  /**
   * Atomically stores `change.nodes` and replaces the session record: one git commit on the session's DAG ref.
   *
   * @param change - the write
   * @param clock - dates the DAG commit @defaultValue the store's clock
   * @param snapshot - the operation's snapshot (see {@link DagSnapshot}): the write is checked against its state of the session first, and records the state it wrote @defaultValue none: the ref is read
   * @throws `DagConflictError` (`@ctxgit/dag`) when the stored record's version is not `change.expected`'s (or the session
   *   exists on a create); `DuplicateIdError` (`@ctxgit/dag`) when a node id is taken in the session's DAG; `InvalidArgumentError` (`@ctxgit/dag`) when
   *   `next` does not follow `expected` or a node is of another session; `RefConflictError` (`E_GIT_REF_CONFLICT`) when other writers kept the ref
   *   busy for `maxAttempts` tries, or a crashed writer's lock is left (see `recoverStaleLocks`).
   */
  async write(change: StoreWrite, clock?: () => number, snapshot?: DagSnapshot): Promise<void> {
    checkWrite(change);
    await this.#commit(change.next.id, change, [], clock ?? this.#clock, snapshot);
  }

  /**
   * Stores a DAG write and commit index entries in one git commit (one compare-and-swap of the session's DAG ref),
   * or only the index entries when `change` is null. Each indexed ContextCommit becomes a parent of that DAG commit,
   * so every ContextCommit stays reachable from its session's DAG ref.
   *
   * @param session - the session
   * @param change - the DAG write, or null
   * @param index - the commit index entries to set
   * @param clock - dates the DAG commit (the session's clock) @defaultValue the store's clock
   * @param snapshot - the operation's snapshot (see {@link DagSnapshot}): the write is checked against its state of the session first, and records the state it wrote @defaultValue none: the ref is read
   * @throws the errors of {@link GitNodeStore.write}; `SessionNotFoundError` (`@ctxgit/dag`) for an index write to a missing session;
   *   `RefConflictError` (`E_GIT_REF_CONFLICT`) when an entry no longer holds its `expected` value (another writer committed that head)
   */
  async writeWithIndex(session: string, change: StoreWrite | null, index: readonly CommitIndexEntry[], clock?: () => number, snapshot?: DagSnapshot): Promise<void> {
    if (change !== null) {
      checkWrite(change);
      if (change.next.id !== session) throw new InvalidArgumentError({ argument: 'change.next.id', reason: `is ${change.next.id}, not ${session}` });
    }
    checkIndex(index);
    await this.#commit(session, change, index, clock ?? this.#clock, snapshot);
  }

  async #commit(session: string, change: StoreWrite | null, index: readonly CommitIndexEntry[], clock: () => number, snapshot: DagSnapshot | undefined): Promise<void> {
    const nodes = change?.nodes ?? [];
    const blobs = nodes.map((n) => prepareObject('blob', Buffer.from(canonicalJson(n), 'utf8')));
    const record = change === null ? undefined : prepareObject('blob', Buffer.from(canonicalJson(change.next), 'utf8'));
    const pointers = index.map((e) => prepareObject('blob', Buffer.from(`${e.commit}\n`, 'utf8')));
    const objects: PreparedObject[] = [...(record === undefined ? [] : [record]), ...blobs, ...pointers];
    const staged = new Set(objects.map((o) => o.oid));
    const edits: TreeEdit[] = record === undefined ? [] : [{ path: RECORD_PATH, oid: record.oid, type: 'blob' }];
    nodes.forEach((n, i) => {
      const oid = blobs[i]?.oid ?? null;
      const dir = n.predecessor !== undefined ? childrenDir(n.predecessor) : n.caller !== undefined ? calleesDir(n.caller) : ROOTS_DIR;
      edits.push({ path: nodePath(n.id), oid, type: 'blob' }, { path: [...dir, indexEntryName(n.seq, n.id)], oid, type: 'blob' });
    });
    index.forEach((e, i) => edits.push({ path: commitIndexPath(e.node), oid: pointers[i]?.oid ?? null, type: 'blob' }));
    const message = dagMessage(session, change, index);
    const ref = this.#refOf(session);
    for (let attempt = 1; ; attempt++) {
      // the snapshot's state first; after a lost swap, the ref as it is now
      if (attempt > 1) snapshot?.delete(ref);
      const state = await this.#state(session, snapshot);
      const current = state === null ? undefined : await this.#record(state.tree, session);
      if (change === null) {
        if (current === undefined) throw new SessionNotFoundError({ session });
      } else if ((current?.version ?? null) !== (change.expected?.version ?? null)) {
        throw new DagConflictError({ session, expected: change.expected?.version ?? null, actual: current?.version ?? null });
      }
      let base = state;
      const extra: TreeEdit[] = [];
      const forkedFrom = change?.next.forkedFrom;
      if (state === null && forkedFrom !== undefined) {
        // a fork starts from the tree of its source: every node it can reach, none copied; the source's record and roots are not its own
        base = await this.#state(forkedFrom.session, snapshot);
        if (base !== null) extra.push({ path: ROOTS_DIR, oid: null, type: 'tree' });
      }
      if (base !== null) {
        for (const n of nodes) if ((await readPath(this.ctx, base.tree, nodePath(n.id))) !== undefined) throw new DuplicateIdError({ id: n.id });
      }
      for (const e of index) {
        const actual = state === null ? undefined : await this.#commitIn(state.tree, e.node);
        if (actual !== e.expected) throw new RefConflictError(`${ref}:${commitIndexPath(e.node).join('/')}`, 'moved', e.expected ?? null, actual ?? null);
      }
      const plan = await planTreeEdits(this.ctx, base?.tree ?? null, [...extra, ...edits], staged);
      const now = clock();
      if (!Number.isFinite(now)) throw new InvalidArgumentError({ argument: 'options.clock', reason: `returned ${String(now)}, not milliseconds since the epoch` });
      const timestamp = Math.max(0, Math.floor(now / 1000));
      const who = { ...this.#author, timestamp, timezoneOffset: 0 };
      const parents = [...new Set([...(base === null ? [] : [base.head]), ...index.map((e) => e.commit)])];
      const commitObject: CommitObject = { tree: plan.root, parents, message, author: who };
      checkCommit(commitObject);
      const commit = prepareObject('commit', encodeCommit(commitObject));
      // every object of the write is stored (in bounded batches) before the ref moves
      await inBatches([...objects, commit], async (o) => storeObject(this.ctx, o));
      await storeTrees(this.ctx, plan.trees);
      try {
        await compareAndSwapRef(this.ctx, ref, state?.head ?? null, commit.oid);
        const wrote = { head: commit.oid, tree: plan.root };
        this.#treeOf.set(ref, wrote);
        snapshot?.set(ref, wrote);
        return;
      } catch (err) {
        if (!(err instanceof RefConflictError) || attempt >= this.#maxAttempts) throw err;
        if (err.data['reason'] === 'locked') await this.#sleep(Math.min(2 ** attempt, 25));
      }
    }
  }
}

/** `dag: <session> v<version> +<n> nodes`, or `dag: <session> index`, then one trailer per node and indexed commit. */
function dagMessage(session: string, change: StoreWrite | null, index: readonly CommitIndexEntry[]): string {
  const nodes = change?.nodes ?? [];
  const title =
    change === null
      ? `dag: ${session} commit index`
      : `dag: ${session} v${change.next.version}${nodes.length > 0 ? ` +${nodes.length} node${nodes.length === 1 ? '' : 's'}` : ''}`;
  const trailers = [
    `Session: ${session}`,
    ...(change === null ? [] : [`Version: ${change.next.version}`]),
    ...nodes.map((n) => `Node: ${n.id}`),
    ...index.map((e) => `Context-Commit: ${e.commit} ${e.node}`),
  ];
  return `${title}\n\n${trailers.join('\n')}\n`;
}
