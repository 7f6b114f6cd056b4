import type { Node, SessionRecord, StoreWrite } from '@ctxgit/dag';
import type { GitNodeStore } from '../store/git-node-store.js';
import type { DagSnapshot } from '../store/session-node-view.js';

/** What the engine reads of one session's DAG to find or build the commit of its head. */
export interface SessionDag {
  readonly session: string;
  getSession(): Promise<SessionRecord | undefined>;
  getNode(id: string): Promise<Node | undefined>;
  calleesOf(id: string): Promise<readonly string[]>;
  /** The commit index: the latest ContextCommit the session's view holds for head `nodeId`. */
  commitAt(nodeId: string): Promise<string | undefined>;
}

/** The session's DAG as stored (as `snapshot` holds it, when given: see `DagSnapshot`). */
export function storedDag(store: GitNodeStore, session: string, snapshot?: DagSnapshot): SessionDag {
  const view = store.forSession(session, [], undefined, snapshot);
  return {
    session,
    getSession: () => view.getSession(session),
    getNode: (id) => view.getNode(id),
    calleesOf: (id) => view.calleesOf(id),
    commitAt: (nodeId) => store.commitAt(session, nodeId, snapshot),
  };
}

/** The session's DAG as it will be once `change` is written: its record and nodes over the stored ones. */
export function pendingDag(stored: SessionDag, change: StoreWrite): SessionDag {
  const added = new Map(change.nodes.map((n) => [n.id, n]));
  return {
    session: stored.session,
    getSession: async () => change.next,
    getNode: async (id) => added.get(id) ?? (await stored.getNode(id)),
    calleesOf: async (id) => {
      // new nodes take seqs after every stored one, so they follow the stored callees in (seq, id) order
      const mine = change.nodes.filter((n) => n.caller === id).sort((a, b) => a.seq - b.seq || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const before = await stored.calleesOf(id);
      return mine.length === 0 ? before : [...before, ...mine.map((n) => n.id)];
    },
    commitAt: async (nodeId) => (added.has(nodeId) ? undefined : stored.commitAt(nodeId)),
  };
}
