import type { Node } from './node.js';

/** The stored state of one session: a named HEAD over the shared node DAG. */
export interface SessionRecord {
  readonly id: string;
  /** The node HEAD points at; `null` for an empty session. */
  readonly head: string | null;
  /** The `seq` the next appended node gets. */
  readonly nextSeq: number;
  /** True while an agent run is active; retry and edit are refused meanwhile. */
  readonly agentRunning: boolean;
  /** Set when the session was forked from a node of another session. */
  readonly forkedFrom?: { readonly session: string; readonly node: string };
  /** Bumped on every write of the record; the compare-and-swap token. */
  readonly version: number;
}

/** One atomic write: new nodes plus the session record that follows from them. */
export interface StoreWrite {
  /** The session record as read before the change; `null` when the session is created. */
  readonly expected: SessionRecord | null;
  /** The record after the change; `version` must be `expected.version + 1` (or 1 on create). */
  readonly next: SessionRecord;
  /** Nodes to add; every id must be new to the store. */
  readonly nodes: readonly Node[];
}

/**
 * Storage contract for the DAG. Every implementation runs the conformance suite of `@ctxgit/dag`.
 * `write` is all or nothing: on a version mismatch it throws `DagConflictError` and stores nothing.
 */
export interface NodeStore {
  /** The node with that id, or `undefined`. Changing the returned object must not change what is stored. */
  getNode(id: string): Promise<Node | undefined>;
  /** Ids of nodes whose `predecessor` is `id`, in `seq` order (equal seqs, from different sessions, by id); `[]` if none. */
  childrenOf(id: string): Promise<readonly string[]>;
  /** Ids of nodes whose `caller` is `id`, in `seq` order (equal seqs by id); `[]` if none. */
  calleesOf(id: string): Promise<readonly string[]>;
  /** Ids of root nodes (no predecessor, no caller) appended by `session`, in `seq` order (equal seqs by id). */
  rootsOf(session: string): Promise<readonly string[]>;
  /** The session record, or `undefined`. */
  getSession(id: string): Promise<SessionRecord | undefined>;
  /** Every session id, sorted by UTF-16 code unit. */
  listSessions(): Promise<readonly string[]>;
  /**
   * Stores `change.nodes` and `change.next` atomically. Throws `DagConflictError` when the stored record is not
   * `change.expected` (compared by version; a create expects no record), `DuplicateIdError` when a node id is
   * already stored or repeated in the write; stores nothing when it throws.
   */
  write(change: StoreWrite): Promise<void>;
}
