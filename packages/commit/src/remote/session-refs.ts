import { SESSIONS_PREFIX } from '../refs.js';

/** The DAG ref of today's layout: one ref, shared by every session. */
const DAG_REF = 'refs/ctxgit/dag';

/**
 * Which refs a session needs, for transfer: the only place that knows which refs belong to a session (push, fetch,
 * clone and sync select refs through it, never by name).
 *
 * @remarks
 * Today the DAG of every session lives in one shared ref, so fetching one session also downloads the DAG history of
 * the others (their nodes, not their ContextCommits). Once the DAG is stored per session, `dag` names that session's
 * ref and nothing of another session is transferred.
 */
export interface SessionRefs {
  /** The ref holding the session's DAG (today shared by every session). */
  readonly dag: string;
  /** Whether {@link SessionRefs.dag} holds other sessions too (then a push of one session also pushes their pending DAG writes). */
  readonly dagShared: boolean;
  /** Prefix of the refs only this session has: its config, context, merge mark and commit index. */
  readonly own: string;
  /** The session's latest ContextCommit, the last of its refs to be pushed. */
  readonly context: string;
}

/** The refs of session `session`. */
export function sessionRefs(session: string): SessionRefs {
  const own = `${SESSIONS_PREFIX}${session}/`;
  return { dag: DAG_REF, dagShared: true, own, context: `${own}context` };
}

/** Prefix under which every transferable ref lies (what a listing of the remote asks for). */
export const TRANSFER_PREFIX = 'refs/ctxgit/';

/** The session a session-owned ref belongs to, or undefined for a shared ref. */
export function sessionOfRef(ref: string): string | undefined {
  if (!ref.startsWith(SESSIONS_PREFIX)) return undefined;
  const rest = ref.slice(SESSIONS_PREFIX.length);
  const slash = rest.indexOf('/');
  return slash <= 0 ? undefined : rest.slice(0, slash);
}

/** The node id of a commit-index ref of `session`, or undefined for its other refs. */
export function indexedNodeOf(session: string, ref: string): string | undefined {
  const prefix = `${sessionRefs(session).own}nodes/`;
  if (!ref.startsWith(prefix)) return undefined;
  const rest = ref.slice(prefix.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? undefined : rest.slice(slash + 1);
}
