import { componentProblem } from '../git/internal/ref-name.js';

/** Prefix of every ref ctxgit owns and transfers: `refs/ctxgit/`. */
export const CTXGIT_PREFIX = 'refs/ctxgit/';

/** Prefix of every per-session ref: `refs/ctxgit/sessions/<session>/…`. */
export const SESSIONS_PREFIX = `${CTXGIT_PREFIX}sessions/`;

/** Prefix of the import markers: `refs/ctxgit/imports/<session>` exists while an import of that session runs. */
export const IMPORTS_PREFIX = `${CTXGIT_PREFIX}imports/`;

/** The ref `verifyRepo` records its token in. */
export const VERIFIED_REF = `${CTXGIT_PREFIX}verified`;

/** Where sync builds a rebased DAG before the session's DAG ref moves to it (never pushed: outside `refs/ctxgit/`). */
export const SYNC_WORK_PREFIX = 'refs/ctxgit-sync/';

/**
 * A session name as one ref component: the name itself when it is a valid component without `%` (every name
 * `createSession` accepts that has no `%`), else every UTF-8 byte outside `[A-Za-z0-9_-]` written `%XX`. A
 * component holding `%` is always an encoded one, so the mapping is reversible ({@link sessionOfRefComponent}).
 */
export function sessionRefComponent(session: string): string {
  if (!session.includes('%') && !session.includes('/') && !session.startsWith('-') && componentProblem(session) === undefined) return session;
  let out = '';
  for (const byte of Buffer.from(session, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_-]/u.test(c) && !(out === '' && c === '-') ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The session name of a ref component written by {@link sessionRefComponent}. */
export function sessionOfRefComponent(component: string): string {
  if (!component.includes('%')) return component;
  const bytes: number[] = [];
  for (let i = 0; i < component.length; i++) {
    if (component[i] === '%') {
      bytes.push(parseInt(component.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(component.charCodeAt(i));
  }
  return Buffer.from(bytes).toString('utf8');
}

function sessionRef(session: string, leaf: string): string {
  return `${SESSIONS_PREFIX}${sessionRefComponent(session)}/${leaf}`;
}

/** The session's DAG: its record, the nodes it appended (and those it inherited at a fork), its commit index. */
export function dagRef(session: string): string {
  return sessionRef(session, 'dag');
}

/** The latest ContextCommit of a session (the commit of its head when it last committed or checked out). */
export function contextRef(session: string): string {
  return sessionRef(session, 'context');
}

/** The session's configuration commit (model, window, budget): a root commit holding `session.json`. */
export function configRef(session: string): string {
  return sessionRef(session, 'config');
}

/** The session's tool catalogue: a commit whose tree is the catalogue, parent the previous catalogue. */
export function toolsRef(session: string): string {
  return sessionRef(session, 'tools');
}

/** Set on a peer session when a merge took it in: the merge commit. */
export function mergedRef(session: string): string {
  return sessionRef(session, 'merged');
}

/** The session whose `<leaf>` ref this is (`refs/ctxgit/sessions/<component>/<leaf>`), or undefined. */
export function sessionOfRef(ref: string, leaf: string): string | undefined {
  if (!ref.startsWith(SESSIONS_PREFIX) || !ref.endsWith(`/${leaf}`)) return undefined;
  const component = ref.slice(SESSIONS_PREFIX.length, ref.length - leaf.length - 1);
  return component === '' || component.includes('/') ? undefined : sessionOfRefComponent(component);
}

/** The import marker of a session: `refs/ctxgit/imports/<session>`. */
export function importRef(session: string): string {
  return `${IMPORTS_PREFIX}${sessionRefComponent(session)}`;
}

/** Where ctxgit keeps what in a repository: the one description of its refs that the library, the CLI and verify use. */
export interface RefLayout {
  /** Prefix of every ref ctxgit owns and transfers: `refs/ctxgit/`. */
  readonly root: string;
  /** Prefix of every per-session ref: `refs/ctxgit/sessions/`. */
  readonly sessions: string;
  /** Prefix of the import markers: `refs/ctxgit/imports/`. */
  readonly imports: string;
  /** The ref verify records its token in: `refs/ctxgit/verified`. */
  readonly verified: string;
  /** Prefix of sync's temporary work refs, never pushed: `refs/ctxgit-sync/`. */
  readonly syncWork: string;
  /** The session's DAG ref: `refs/ctxgit/sessions/<session>/dag`. */
  dag(session: string): string;
  /** The session's latest ContextCommit: `refs/ctxgit/sessions/<session>/context`. */
  context(session: string): string;
  /** The session's configuration commit: `refs/ctxgit/sessions/<session>/config`. */
  config(session: string): string;
  /** The session's tool catalogue, when it has one: `refs/ctxgit/sessions/<session>/tools`. */
  tools(session: string): string;
  /** Set on a peer session when a merge took it in: `refs/ctxgit/sessions/<session>/merged`. */
  merged(session: string): string;
  /** The marker of a running import of the session: `refs/ctxgit/imports/<session>`. */
  importMarker(session: string): string;
  /** The session whose `<leaf>` ref this is (`refs/ctxgit/sessions/<session>/<leaf>`), or undefined. */
  sessionOf(ref: string, leaf: string): string | undefined;
}

/**
 * The refs of a ctxgit repository. Session names are written as one ref component (a name that is not a valid
 * component, or holds `%`, is percent-encoded), so use these functions rather than building ref names by hand.
 *
 * @example
 * ```ts
 * refLayout.context('chat-42'); // 'refs/ctxgit/sessions/chat-42/context'
 * const oid = await readRef(repo.git, refLayout.dag('chat-42'));
 * refLayout.sessionOf('refs/ctxgit/sessions/chat-42/dag', 'dag'); // 'chat-42'
 * ```
 */
export const refLayout: RefLayout = Object.freeze({
  root: CTXGIT_PREFIX,
  sessions: SESSIONS_PREFIX,
  imports: IMPORTS_PREFIX,
  verified: VERIFIED_REF,
  syncWork: SYNC_WORK_PREFIX,
  dag: dagRef,
  context: contextRef,
  config: configRef,
  tools: toolsRef,
  merged: mergedRef,
  importMarker: importRef,
  sessionOf: sessionOfRef,
});
