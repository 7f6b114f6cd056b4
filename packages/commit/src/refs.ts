import { componentProblem } from './git/internal/ref-name.js';

/** Prefix of every per-session ref: `refs/ctxgit/sessions/<session>/…`. */
export const SESSIONS_PREFIX = 'refs/ctxgit/sessions/';

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
