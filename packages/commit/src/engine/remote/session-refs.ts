import { contextRef, CTXGIT_PREFIX, dagRef, SESSIONS_PREFIX, sessionOfRefComponent, sessionRefComponent } from '../../store/refs.js';

/**
 * Which refs a session needs, for transfer: the only place that knows which refs belong to a session (push, fetch,
 * clone and sync select refs through it, never by name).
 *
 * @remarks
 * Each session's DAG (its nodes, record and commit index) lives in its own ref, so fetching or pushing one session
 * transfers nothing of another (but the DAG commits of a session it was forked from, which its DAG descends from).
 */
export interface SessionRefs {
  /** The ref holding the session's DAG: `refs/ctxgit/sessions/<s>/dag`. */
  readonly dag: string;
  /** Whether {@link SessionRefs.dag} holds other sessions too: false, each session has its own DAG ref. */
  readonly dagShared: boolean;
  /** Prefix of the refs only this session has: its DAG, config, context, tools and merge mark. */
  readonly own: string;
  /** The session's latest ContextCommit, the last of its refs to be pushed. */
  readonly context: string;
}

/** The refs of session `session`. */
export function sessionRefs(session: string): SessionRefs {
  return { dag: dagRef(session), dagShared: false, own: `${SESSIONS_PREFIX}${sessionRefComponent(session)}/`, context: contextRef(session) };
}

/** Prefix under which every transferable ref lies (what a listing of the remote asks for). */
export const TRANSFER_PREFIX = CTXGIT_PREFIX;

/** The session a session-owned ref belongs to, or undefined for a shared ref. */
export function sessionOfRef(ref: string): string | undefined {
  if (!ref.startsWith(SESSIONS_PREFIX)) return undefined;
  const rest = ref.slice(SESSIONS_PREFIX.length);
  const slash = rest.indexOf('/');
  return slash <= 0 ? undefined : sessionOfRefComponent(rest.slice(0, slash));
}
