import type { Node, NodeStore, SessionRecord, StoreWrite } from '@ctxgit/dag';

/** Where a session's DAG stands: its ref's commit and that commit's tree. */
export interface DagState {
  readonly head: string;
  readonly tree: string;
}

/**
 * The DAG states one operation has read, by ref (null: no such ref): the operation's later reads of a session use
 * its state instead of reading the ref again, so the operation sees one consistent snapshot of each session and reads
 * each ref once. A write still compare-and-swaps the ref from the state it checked (a snapshot another writer has
 * overtaken fails the swap and is read again) and records the state it wrote. Owned by the caller: one per
 * operation (`new Map()`), never kept across operations.
 */
export type DagSnapshot = Map<string, DagState | null>;

/** What a {@link SessionNodeView} reads from its store (a `GitNodeStore`). */
export interface PerSessionReads extends Pick<NodeStore, 'listSessions'> {
  write(change: StoreWrite, clock?: () => number, snapshot?: DagSnapshot): Promise<void>;
  getSession(id: string, snapshot?: DagSnapshot): Promise<SessionRecord | undefined>;
  rootsOf(session: string, snapshot?: DagSnapshot): Promise<readonly string[]>;
  nodeIn(session: string, id: string, snapshot?: DagSnapshot): Promise<Node | undefined>;
  childrenIn(session: string, id: string, snapshot?: DagSnapshot): Promise<readonly string[]>;
  calleesIn(session: string, id: string, snapshot?: DagSnapshot): Promise<readonly string[]>;
}

/**
 * One session's view of a `GitNodeStore`: node reads look in the session's own DAG tree (its nodes and those it
 * inherited at a fork), then in the trees of the sessions named in `also`; children and callees are those of the
 * session's tree; records and writes go to the store. Every read costs one path in one or a few trees, whatever the
 * number of sessions. Writes are dated by the view's clock (the session's). With a snapshot (one operation's, see
 * `DagSnapshot`), each session's ref is read once for all the view's reads and writes. Get one from
 * `GitNodeStore.forSession`.
 *
 * @example
 * ```ts
 * const view = repo.store.forSession('chat-42');
 * await appendNode(view, 'chat-42', { role: 'user', output: 'hi' });
 * ```
 */
export class SessionNodeView implements NodeStore {
  readonly #store: PerSessionReads;
  /** The session whose DAG is read. */
  readonly session: string;
  readonly #also: readonly string[];
  readonly #clock: (() => number) | undefined;
  readonly #snapshot: DagSnapshot | undefined;

  /** @internal */
  constructor(store: PerSessionReads, session: string, also: readonly string[], clock?: () => number, snapshot?: DagSnapshot) {
    this.#store = store;
    this.session = session;
    this.#also = also;
    this.#clock = clock;
    this.#snapshot = snapshot;
  }

  /** The node, from the session's tree or one of `also`; undefined if absent. */
  async getNode(id: string): Promise<Node | undefined> {
    for (const s of [this.session, ...this.#also]) {
      const node = await this.#store.nodeIn(s, id, this.#snapshot);
      if (node !== undefined) return node;
    }
    return undefined;
  }

  /** Ids of the session's nodes (own and inherited) whose predecessor is `id`, in `(seq, id)` order. */
  async childrenOf(id: string): Promise<readonly string[]> {
    return this.#store.childrenIn(this.session, id, this.#snapshot);
  }

  /** Ids of the session's tool nodes (own and inherited) whose caller is `id`, in `(seq, id)` order. */
  async calleesOf(id: string): Promise<readonly string[]> {
    return this.#store.calleesIn(this.session, id, this.#snapshot);
  }

  /** Ids of the root nodes `session` appended. */
  async rootsOf(session: string): Promise<readonly string[]> {
    return this.#store.rootsOf(session, this.#snapshot);
  }

  /** Any session's record. */
  async getSession(id: string): Promise<SessionRecord | undefined> {
    return this.#store.getSession(id, this.#snapshot);
  }

  /** Every session id. */
  async listSessions(): Promise<readonly string[]> {
    return this.#store.listSessions();
  }

  /** Writes through the store; the DAG commit is dated by the view's clock when it has one. */
  async write(change: StoreWrite): Promise<void> {
    return this.#store.write(change, this.#clock, this.#snapshot);
  }
}
