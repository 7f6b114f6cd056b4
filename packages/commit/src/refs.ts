/** Prefix of every ref the engine writes: `refs/ctxgit/sessions/<session>/…`. */
export const SESSIONS_PREFIX = 'refs/ctxgit/sessions/';

/** The latest ContextCommit of a session (the commit of its head when it last committed or checked out). */
export function contextRef(session: string): string {
  return `${SESSIONS_PREFIX}${session}/context`;
}

/** The session's configuration commit (model, window, budget): a root commit holding `session.json`. */
export function configRef(session: string): string {
  return `${SESSIONS_PREFIX}${session}/config`;
}

/** Set on a peer session when a merge took it in: the merge commit. */
export function mergedRef(session: string): string {
  return `${SESSIONS_PREFIX}${session}/merged`;
}

/** The shard folder of a node id in the commit index: its first two characters (`.` written `_`). */
export function nodeShard(nodeId: string): string {
  return nodeId.slice(0, 2).padEnd(2, '_').replace(/\./g, '_');
}

/** Index entry: the latest ContextCommit the session made with `nodeId` as head. */
export function nodeCommitRef(session: string, nodeId: string): string {
  return `${SESSIONS_PREFIX}${session}/nodes/${nodeShard(nodeId)}/${nodeId}`;
}
