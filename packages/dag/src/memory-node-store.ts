import { DagConflictError, DuplicateIdError, InvalidArgumentError } from './errors.js';
import { frozenCopy } from './internal/frozen-copy.js';
import type { Node } from './node.js';
import type { NodeStore, SessionRecord, StoreWrite } from './node-store.js';

const EMPTY: readonly string[] = Object.freeze([]);

/**
 * The in-memory reference {@link NodeStore}. Nodes and records are deep-copied and frozen on write, so neither
 * the writer's objects nor the objects handed out can change stored state. `write` is an atomic
 * compare-and-swap on the session `version`: on mismatch it throws {@link DagConflictError} and stores nothing.
 * Child, callee and root lists are kept sorted by `(seq, id)` (copy-on-write), so every read is O(1) and a write
 * costs O(nodes written × siblings), independent of the store size.
 *
 * @example
 * ```ts
 * const store = new MemoryNodeStore();
 * await createSession(store, 'chat');
 * await appendNode(store, 'chat', { role: 'user', output: 'hello' }, { clock: () => 0 });
 * ```
 */
export class MemoryNodeStore implements NodeStore {
  readonly #nodes = new Map<string, Node>();
  readonly #children = new Map<string, readonly string[]>();
  readonly #callees = new Map<string, readonly string[]>();
  readonly #roots = new Map<string, readonly string[]>();
  readonly #sessions = new Map<string, SessionRecord>();
  #sessionIds: readonly string[] = EMPTY;

  /** The node with that id, frozen; `undefined` if absent. */
  async getNode(id: string): Promise<Node | undefined> {
    return this.#nodes.get(id);
  }

  /** Ids of nodes whose `predecessor` is `id`, sorted by `(seq, id)`; frozen. */
  async childrenOf(id: string): Promise<readonly string[]> {
    return this.#children.get(id) ?? EMPTY;
  }

  /** Ids of nodes whose `caller` is `id`, sorted by `(seq, id)`; frozen. */
  async calleesOf(id: string): Promise<readonly string[]> {
    return this.#callees.get(id) ?? EMPTY;
  }

  /** Ids of root nodes appended by `session`, sorted by `(seq, id)`; frozen. */
  async rootsOf(session: string): Promise<readonly string[]> {
    return this.#roots.get(session) ?? EMPTY;
  }

  /** The session record, frozen; `undefined` if absent. */
  async getSession(id: string): Promise<SessionRecord | undefined> {
    return this.#sessions.get(id);
  }

  /** Every session id, sorted by code unit; frozen. */
  async listSessions(): Promise<readonly string[]> {
    return this.#sessionIds;
  }

  /**
   * Atomically stores `change.nodes` and replaces the session record.
   *
   * @throws {@link DagConflictError} when the stored record's version is not `change.expected`'s (or the session
   *   exists on a create); {@link DuplicateIdError} when a node id is taken; {@link InvalidArgumentError} when
   *   `next` does not follow `expected` (other id, or version not `expected.version + 1`, or not 1 on create).
   */
  async write(change: StoreWrite): Promise<void> {
    const { expected, next } = change;
    const current = this.#sessions.get(next.id);
    if (expected !== null && expected.id !== next.id) throw new InvalidArgumentError({ argument: 'write.next.id', reason: `is ${next.id}, expected ${expected.id}` });
    const want = expected === null ? 1 : expected.version + 1;
    if (next.version !== want) throw new InvalidArgumentError({ argument: 'write.next.version', reason: `is ${next.version}, expected ${want}` });
    if ((current?.version ?? null) !== (expected?.version ?? null)) {
      throw new DagConflictError({ session: next.id, expected: expected?.version ?? null, actual: current?.version ?? null });
    }
    const seen = new Set<string>();
    for (const n of change.nodes) {
      if (this.#nodes.has(n.id) || seen.has(n.id)) throw new DuplicateIdError({ id: n.id });
      seen.add(n.id);
    }
    // Everything is checked: from here on nothing throws, so the write is all or nothing.
    const nodes = change.nodes.map((n) => frozenCopy(n));
    for (const n of nodes) this.#nodes.set(n.id, n);
    for (const n of nodes) {
      if (n.predecessor !== undefined) insert(this.#children, n.predecessor, n, this.#nodes);
      else if (n.caller !== undefined) insert(this.#callees, n.caller, n, this.#nodes);
      else insert(this.#roots, n.session, n, this.#nodes);
    }
    if (current === undefined) this.#sessionIds = Object.freeze([...this.#sessionIds, next.id].sort(compareCodeUnits));
    this.#sessions.set(next.id, frozenCopy(next));
  }
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function insert(index: Map<string, readonly string[]>, key: string, node: Node, nodes: ReadonlyMap<string, Node>): void {
  const list = index.get(key) ?? EMPTY;
  const before = (id: string): boolean => {
    const other = nodes.get(id);
    const seq = other?.seq ?? 0;
    return seq < node.seq || (seq === node.seq && id < node.id);
  };
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(list[mid] ?? '')) lo = mid + 1;
    else hi = mid;
  }
  index.set(key, Object.freeze([...list.slice(0, lo), node.id, ...list.slice(lo)]));
}
