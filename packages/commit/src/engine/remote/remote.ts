import { InvalidRemoteError } from './remote-errors.js';

/** What {@link AuthCallback} returns: a user and password (or token), or headers such as `Authorization`. */
export interface RemoteCredentials {
  readonly username?: string;
  readonly password?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Give up instead of sending a request. */
  readonly cancel?: boolean;
}

/**
 * Asked for credentials when the server answers 401; they are sent, never stored, logged or put in an error.
 * `undefined` sends no credentials.
 */
export type AuthCallback = (url: string) => RemoteCredentials | undefined | Promise<RemoteCredentials | undefined>;

/**
 * A git server reached over smart HTTP (GitHub, GitLab, Gitea, `git http-backend`, …).
 *
 * @example
 * ```ts
 * const remote: Remote = { url: 'https://git.example.com/ctx.git' };
 * ```
 */
export interface Remote {
  /** `http://` or `https://` URL of the repository, without credentials (pass those through `onAuth`). */
  readonly url: string;
  /** Extra headers sent with every request (not credentials: use `onAuth`). @defaultValue none */
  readonly headers?: Readonly<Record<string, string>>;
  /** The local name of the remote: its last known refs are kept under `refs/remotes/<name>/`. @defaultValue `'origin'` */
  readonly name?: string;
}

/** A checked remote with its defaults. */
export interface ResolvedRemote {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly name: string;
}

/** Checks a remote before anything is sent; a URL carrying credentials is refused without repeating them. */
export function resolveRemote(remote: Remote): ResolvedRemote {
  if (typeof remote !== 'object' || remote === null) throw new InvalidRemoteError('remote', 'expected { url }');
  if (typeof remote.url !== 'string') throw new InvalidRemoteError('url', 'expected a string');
  let parsed: URL;
  try {
    parsed = new URL(remote.url);
  } catch {
    throw new InvalidRemoteError('url', 'not a URL; expected http(s)://host/path');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new InvalidRemoteError('url', `protocol ${parsed.protocol} is not supported; use http:// or https://`);
  if (parsed.username !== '' || parsed.password !== '') throw new InvalidRemoteError('url', 'it carries credentials; remove them from the URL and pass onAuth instead');
  const headers = remote.headers ?? {};
  if (typeof headers !== 'object' || headers === null) throw new InvalidRemoteError('headers', 'expected an object of strings');
  for (const [k, v] of Object.entries(headers)) {
    if (typeof v !== 'string') throw new InvalidRemoteError('headers', `header ${JSON.stringify(k)} is not a string`);
    if (/^(authorization|cookie)$/iu.test(k)) throw new InvalidRemoteError('headers', `header ${k} carries credentials; pass onAuth instead`);
  }
  const name = remote.name ?? 'origin';
  if (typeof name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/u.test(name)) throw new InvalidRemoteError('name', 'expected letters, digits, "-" or "_" (at most 64)');
  return { url: parsed.toString(), headers: { ...headers }, name };
}

/** Where the last known value of a remote's ref is kept locally: `refs/remotes/<name>/<ref without refs/>`. */
export function trackingRef(remote: ResolvedRemote, ref: string): string {
  return `refs/remotes/${remote.name}/${ref.slice('refs/'.length)}`;
}
