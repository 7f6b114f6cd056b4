import { DagConflictError, DuplicateIdError, InvalidArgumentError, validateNodeId, validateSessionName } from '@ctxgit/dag';
import type { Node, NodeStore, SessionRecord, StoreWrite } from '@ctxgit/dag';
import { canonicalJson } from '../canonical-json.js';
import { compareAndSwapRef } from '../git/compare-and-swap-ref.js';
import { RefConflictError } from '../git/errors.js';
import type { GitContext } from '../git/git-context.js';
import { assertRefName } from '../git/internal/ref-name.js';
import { listTree } from '../git/list-tree.js';
import { readBlob } from '../git/read-blob.js';
import { readCommitObject } from '../git/read-commit-object.js';
import { readPath } from '../git/read-path.js';
import { readRef } from '../git/read-ref.js';
import type { TreeEdit } from '../git/tree-edit.js';
import type { CommitObject } from '../git/commit-object.js';
import { checkCommit, checkIdentity, encodeCommit } from '../git/internal/commit-codec.js';
import { prepareObject, storeObject } from '../git/internal/object-io.js';
import { planTreeEdits, storeTrees } from '../git/internal/plan-tree-edits.js';
import { calleesDir, childrenDir, decodeSessionName, idOfIndexEntry, indexEntryName, nodePath, sessionDir } from './internal/dag-layout.js';
import { deepFreeze } from './internal/deep-freeze.js';
import { inBatches } from '../git/internal/in-batches.js';

/** Options of {@link GitNodeStore}. */
export interface GitNodeStoreOptions {
  /** The ref whose commits hold the DAG. @defaultValue `'refs/ctxgit/dag'` */
  readonly ref?: string;
  /** Milliseconds since the epoch, for the timestamps of the DAG's git commits. @defaultValue `Date.now` */
  readonly clock?: () => number;
  /** Name and e-mail written as author and committer of the DAG's git commits. @defaultValue `ctxgit <ctxgit@localhost>` */
  readonly author?: { readonly name: string; readonly email: string };
  /**
   * How many times a write is tried when writes to other sessions (or a held lock) race with it; the session's own
   * record is re-checked each time. @defaultValue 100
   */
  readonly maxAttempts?: number;
  /** Waits between attempts that met a held lock, in milliseconds. @defaultValue a `setTimeout` promise */
  readonly sleep?: (ms: number) => Promise<void>;
}

const EMPTY: readonly string[] = Object.freeze([]);
const decoder = new TextDecoder();

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
    if (!Number.isSafeInteger(n.seq) || n.seq < 0) throw new InvalidArgumentError({ argument: `write.nodes[${i}].seq`, reason: 'is not a whole number >= 0' });
    for (const edge of ['predecessor', 'caller'] as const) if (n[edge] !== undefined) validateNodeId(n[edge]);
    if (seen.has(n.id)) throw new DuplicateIdError({ id: n.id });
    seen.add(n.id);
  });
}

/**
 * The git-backed {@link NodeStore}: the whole DAG lives in the commits of one ref (`refs/ctxgit/dag`) of the
 * repository, one commit per write. Nodes are canonical JSON blobs under sha1-sharded trees, with child, callee
 * and root indexes beside them, so a write costs a constant number of objects whatever the store's size, and a
 * read walks one path (no scan). A write is a compare-and-swap of the ref (git's lock-file protocol): it is all
 * or nothing, and a crash leaves the previous state.
 *
 * @remarks
 * Writes to different sessions race on the one ref; the loser re-checks its own session record and, when it is
 * unchanged, rebuilds its write on the new state (up to `maxAttempts`). Two writes from the same version of one
 * session: exactly one wins, the other gets `DagConflictError` (`@ctxgit/dag`) and nothing of it is visible.
 * See `/docs/git-layout.md` for every path.
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
  /** The ref holding the DAG. */
  readonly ref: string;
  readonly #clock: () => number;
  readonly #author: { readonly name: string; readonly email: string };
  readonly #maxAttempts: number;
  readonly #sleep: (ms: number) => Promise<void>;
  /** The tree of the last DAG commit read (commits are immutable; a long import's message is not decoded per read). */
  #treeOf: { readonly commit: string; readonly tree: string } | undefined;

  /**
   * @param ctx - the repository, from `openGit`
   * @param options - ref, clock, author, retry policy
   */
  constructor(ctx: GitContext, options: GitNodeStoreOptions = {}) {
    const ref = options.ref ?? 'refs/ctxgit/dag';
    assertRefName(ref);
    const maxAttempts = options.maxAttempts ?? 100;
    if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1) throw new InvalidArgumentError({ argument: 'options.maxAttempts', reason: 'is not a whole number >= 1' });
    const author = options.author ?? { name: 'ctxgit', email: 'ctxgit@localhost' };
    checkIdentity('options.author', { name: author.name, email: author.email, timestamp: 0, timezoneOffset: 0 });
    this.ctx = ctx;
    this.ref = ref;
    this.#clock = options.clock ?? (() => Date.now());
    this.#author = { name: author.name, email: author.email };
    this.#maxAttempts = maxAttempts;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /**
   * The commit the DAG ref points at now (null for an empty store): one commit per write, `git log` lists them.
   *
   * @returns the commit oid, or null
   */
  async head(): Promise<string | null> {
    return readRef(this.ctx, this.ref);
  }

  async #root(): Promise<string | null> {
    return this.#treeAt(await this.head());
  }

  async #treeAt(head: string | null): Promise<string | null> {
    if (head === null) return null;
    if (this.#treeOf?.commit === head) return this.#treeOf.tree;
    const { tree } = await readCommitObject(this.ctx, head);
    this.#treeOf = { commit: head, tree };
    return tree;
  }

  /**
   * The git blob id of a node's canonical JSON (what `git show <dag>:nodes/…/<id>.json` prints), or undefined.
   *
   * @param id - the node id
   * @returns the blob oid
   */
  async nodeObjectId(id: string): Promise<string | undefined> {
    if (!isSafeId(id)) return undefined;
    const root = await this.#root();
    return root === null ? undefined : readPath(this.ctx, root, nodePath(id));
  }

  /** The node with that id, frozen; undefined if absent. */
  async getNode(id: string): Promise<Node | undefined> {
    const oid = await this.nodeObjectId(id);
    return oid === undefined ? undefined : (json(await readBlob(this.ctx, oid)) as Node);
  }

  async #index(dir: string[] | undefined): Promise<readonly string[]> {
    const root = await this.#root();
    if (root === null || dir === undefined) return EMPTY;
    return Object.freeze((await listTree(this.ctx, root, dir)).map((e) => idOfIndexEntry(e.path)));
  }

  /** Ids of nodes whose `predecessor` is `id`, sorted by `(seq, id)`; frozen. */
  async childrenOf(id: string): Promise<readonly string[]> {
    return this.#index(isSafeId(id) ? childrenDir(id) : undefined);
  }

  /** Ids of nodes whose `caller` is `id`, sorted by `(seq, id)`; frozen. */
  async calleesOf(id: string): Promise<readonly string[]> {
    return this.#index(isSafeId(id) ? calleesDir(id) : undefined);
  }

  /** Ids of root nodes appended by `session`, sorted by `(seq, id)`; frozen. */
  async rootsOf(session: string): Promise<readonly string[]> {
    return this.#index(typeof session === 'string' && session !== '' ? [...sessionDir(session), 'roots'] : undefined);
  }

  async #record(root: string | null, session: string): Promise<SessionRecord | undefined> {
    if (root === null) return undefined;
    const oid = await readPath(this.ctx, root, [...sessionDir(session), 'session.json']);
    return oid === undefined ? undefined : (json(await readBlob(this.ctx, oid)) as SessionRecord);
  }

  /** The session record, frozen; undefined if absent. */
  async getSession(id: string): Promise<SessionRecord | undefined> {
    if (typeof id !== 'string' || id === '') return undefined;
    return this.#record(await this.#root(), id);
  }

  /** Every session id, sorted by code unit; frozen. Reads the session index (one tree per shard and session). */
  async listSessions(): Promise<readonly string[]> {
    const root = await this.#root();
    if (root === null) return EMPTY;
    const names: string[] = [];
    for (const shard of await listTree(this.ctx, root, ['sessions'])) {
      for (const entry of await listTree(this.ctx, root, ['sessions', shard.path])) {
        const files = await listTree(this.ctx, root, ['sessions', shard.path, entry.path]);
        if (files.some((f) => f.path === 'session.json')) names.push(decodeSessionName(entry.path));
      }
    }
    return Object.freeze(names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /**
   * Atomically stores `change.nodes` and replaces the session record: one git commit on the DAG ref.
   *
   * @throws `DagConflictError` (`@ctxgit/dag`) when the stored record's version is not `change.expected`'s (or the session
   *   exists on a create); `DuplicateIdError` (`@ctxgit/dag`) when a node id is taken; `InvalidArgumentError` (`@ctxgit/dag`) when
   *   `next` does not follow `expected`; `RefConflictError` (`E_GIT_REF_CONFLICT`) when other writers kept the ref
   *   busy for `maxAttempts` tries, or a crashed writer's lock is left (see `recoverStaleLocks`).
   */
  async write(change: StoreWrite): Promise<void> {
    checkWrite(change);
    const { expected, next, nodes } = change;
    const blobs = nodes.map((n) => prepareObject('blob', Buffer.from(canonicalJson(n), 'utf8')));
    const record = prepareObject('blob', Buffer.from(canonicalJson(next), 'utf8'));
    const staged = new Set([record.oid, ...blobs.map((b) => b.oid)]);
    const edits: TreeEdit[] = [{ path: [...sessionDir(next.id), 'session.json'], oid: record.oid, type: 'blob' }];
    nodes.forEach((n, i) => {
      const oid = blobs[i]?.oid ?? null;
      const dir = n.predecessor !== undefined ? childrenDir(n.predecessor) : n.caller !== undefined ? calleesDir(n.caller) : [...sessionDir(n.session), 'roots'];
      edits.push({ path: nodePath(n.id), oid, type: 'blob' }, { path: [...dir, indexEntryName(n.seq, n.id)], oid, type: 'blob' });
    });
    const message = `dag: ${next.id} v${next.version}${nodes.length > 0 ? ` +${nodes.length} node${nodes.length === 1 ? '' : 's'}` : ''}\n\n${[
      `Session: ${next.id}`,
      `Version: ${next.version}`,
      ...nodes.map((n) => `Node: ${n.id}`),
    ].join('\n')}\n`;
    for (let attempt = 1; ; attempt++) {
      const head = await this.head();
      const root = await this.#treeAt(head);
      const current = await this.#record(root, next.id);
      if ((current?.version ?? null) !== (expected?.version ?? null)) {
        throw new DagConflictError({ session: next.id, expected: expected?.version ?? null, actual: current?.version ?? null });
      }
      if (root !== null) {
        for (const n of nodes) if ((await readPath(this.ctx, root, nodePath(n.id))) !== undefined) throw new DuplicateIdError({ id: n.id });
      }
      const plan = await planTreeEdits(this.ctx, root, edits, staged);
      const now = this.#clock();
      if (!Number.isFinite(now)) throw new InvalidArgumentError({ argument: 'options.clock', reason: `returned ${String(now)}, not milliseconds since the epoch` });
      const timestamp = Math.max(0, Math.floor(now / 1000));
      const who = { ...this.#author, timestamp, timezoneOffset: 0 };
      const commitObject: CommitObject = { tree: plan.root, parents: head === null ? [] : [head], message, author: who };
      checkCommit(commitObject);
      const commit = prepareObject('commit', encodeCommit(commitObject));
      // every object of the write is stored (in bounded batches) before the ref moves
      await inBatches([record, ...blobs, commit], async (o) => storeObject(this.ctx, o));
      await storeTrees(this.ctx, plan.trees);
      try {
        await compareAndSwapRef(this.ctx, this.ref, head, commit.oid);
        return;
      } catch (err) {
        if (!(err instanceof RefConflictError) || attempt >= this.#maxAttempts) throw err;
        if (err.data['reason'] === 'locked') await this.#sleep(Math.min(2 ** attempt, 25));
      }
    }
  }
}
