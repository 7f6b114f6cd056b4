import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { GitAuth, HttpClient } from 'isomorphic-git';
import type { GitContext } from '../../git/git-context.js';
import { hasObject } from '../../git/has-object.js';
import type { AuthCallback, ResolvedRemote } from './remote.js';
import { RemoteAuthError, RemoteConflictError, RemoteRejectedError, RemoteUnreachableError } from './remote-errors.js';
import { headShim } from './head-shim.js';
import { TRANSFER_REMOTE, transferFs } from './transfer-fs.js';

/** How a transfer reaches its server. */
export interface Transport {
  readonly remote: ResolvedRemote;
  readonly onAuth: AuthCallback | undefined;
  /** The HTTP client (isomorphic-git's node client unless a test injects one). */
  readonly http: HttpClient;
}

/**
 * isomorphic-git's node HTTP client on agents of this call: Node's global agent closes a socket idle for 5 s, and a
 * server busy checking a large pack can be silent that long, which is no failure.
 */
function patientHttp(): HttpClient {
  const agents = { http: new HttpAgent({ keepAlive: false }), https: new HttpsAgent({ keepAlive: false }) };
  // isomorphic-git is imported on the first transfer, not with the package: most processes never talk to a server
  return { request: async (req) => (await import('isomorphic-git/http/node')).default.request({ ...req, agent: req.url.startsWith('https:') ? agents.https : agents.http }) };
}

/** A transport over isomorphic-git's node HTTP client. */
export function transport(remote: ResolvedRemote, onAuth: AuthCallback | undefined, http: HttpClient = patientHttp()): Transport {
  return { remote, onAuth, http };
}

/** Credentials handed out during one call: kept only in this closure, to be blanked out of any message. */
class Secrets {
  readonly #values: string[] = [];
  add(auth: GitAuth | undefined): void {
    if (auth === undefined) return;
    for (const v of [auth.username, auth.password, ...Object.values(auth.headers ?? {})]) if (typeof v === 'string' && v.length >= 3) this.#values.push(v);
  }
  scrub(text: string): string {
    let out = text;
    for (const v of this.#values) out = out.split(v).join('***');
    return out.replace(/(authorization|cookie)\s*:\s*\S+/giu, '$1: ***');
  }
}

function authHooks(t: Transport, secrets: Secrets): { onAuth?: (url: string) => Promise<GitAuth | undefined> } {
  const { onAuth } = t;
  if (onAuth === undefined) return {};
  return {
    onAuth: async (url) => {
      const got = await onAuth(url);
      const auth: GitAuth | undefined = got === undefined ? undefined : { ...got, ...(got.headers === undefined ? {} : { headers: { ...got.headers } }) };
      secrets.add(auth);
      return auth;
    },
  };
}

function field(err: unknown, key: string): unknown {
  return typeof err === 'object' && err !== null ? (err as Record<string, unknown>)[key] : undefined;
}

/** Turns what isomorphic-git or the network threw into a typed error whose message carries no credential. */
function remoteError(err: unknown, operation: string, ref: string, expected: string | null, secrets: Secrets): Error {
  const code = String(field(err, 'code') ?? '');
  const data = field(err, 'data') as Record<string, unknown> | undefined;
  const message = secrets.scrub(err instanceof Error ? err.message : String(err)).slice(0, 300);
  if (code === 'HttpError') {
    const status = Number(data?.['statusCode'] ?? 0);
    if (status === 401 || status === 403) return new RemoteAuthError(operation, status);
    if (status === 404) return new RemoteRejectedError(ref, `HTTP 404: no repository at this URL`);
    return new RemoteUnreachableError(operation, `HTTP ${status}`);
  }
  if (code === 'UserCanceledError') return new RemoteAuthError(operation, 401);
  if (code === 'PushRejectedError') return new RemoteConflictError(ref, expected, String(data?.['reason'] ?? 'rejected'));
  if (code === 'NotFoundError' && operation === 'push') return new RemoteConflictError(ref, expected, 'the remote moved to a commit this repository does not have');
  if (code === 'GitPushError') {
    const refs = (field(data?.['result'], 'refs') ?? {}) as Record<string, { ok?: boolean; error?: string }>;
    const why = secrets.scrub(Object.values(refs).find((r) => r.ok !== true)?.error ?? message);
    if (/lock|stale|fetch first|non-fast-forward|expected|update ref|already exists/iu.test(why)) return new RemoteConflictError(ref, expected, why);
    return new RemoteRejectedError(ref, why);
  }
  // connection refused or reset, a reply cut short, a CGI that died: the server is (for now) not there
  return new RemoteUnreachableError(operation, code === '' ? message : `${code}: ${message}`);
}

/**
 * The remote's refs under `prefix`, name → oid (one request with protocol v2 and its ref-prefix filter; the
 * whole advertisement, filtered here, from a v1 server).
 */
export async function listRemoteRefs(t: Transport, prefix: string): Promise<Map<string, string>> {
  const { listServerRefs } = await import('isomorphic-git');
  const secrets = new Secrets();
  try {
    const refs = await listServerRefs({ http: t.http, url: t.remote.url, headers: { ...t.remote.headers }, prefix, protocolVersion: 2, ...authHooks(t, secrets) });
    return new Map(refs.filter((r) => r.ref.startsWith(prefix)).map((r) => [r.ref, r.oid]));
  } catch (err) {
    throw remoteError(err, 'list refs', prefix, null, secrets);
  }
}

/**
 * Downloads what `oid` (the remote's value of `ref`) needs and this repository lacks; `have` names a local ref
 * whose commit the server can leave out with its history. Nothing is downloaded when the object is here.
 */
export async function download(ctx: GitContext, t: Transport, ref: string, oid: string, have: string | null): Promise<void> {
  if (await hasObject(ctx, oid)) return;
  const { fetch: gitFetch } = await import('isomorphic-git');
  const secrets = new Secrets();
  try {
    await gitFetch({
      fs: transferFs(ctx),
      http: headShim(t.http, ref),
      gitdir: ctx.gitdir,
      url: t.remote.url,
      headers: { ...t.remote.headers },
      remote: TRANSFER_REMOTE,
      ref: have ?? ref,
      remoteRef: ref,
      singleBranch: true,
      tags: false,
      cache: ctx.cache,
      ...authHooks(t, secrets),
    });
  } catch (err) {
    throw remoteError(err, 'fetch', ref, null, secrets);
  }
  if (!(await hasObject(ctx, oid))) throw new RemoteConflictError(ref, oid, 'the remote moved while it was fetched');
}

/**
 * Pushes the local `ref` to the same name on the remote, never forced: the server's receive-pack checks under its
 * lock that the ref still holds the value it advertised (compare-and-swap), so a lost race is a
 * {@link RemoteConflictError} and changes nothing.
 */
export async function upload(ctx: GitContext, t: Transport, ref: string, expected: string | null): Promise<void> {
  const { push: gitPush } = await import('isomorphic-git');
  const secrets = new Secrets();
  try {
    await gitPush({
      fs: transferFs(ctx),
      http: t.http,
      gitdir: ctx.gitdir,
      url: t.remote.url,
      headers: { ...t.remote.headers },
      remote: TRANSFER_REMOTE,
      ref,
      remoteRef: ref,
      force: false,
      cache: ctx.cache,
      ...authHooks(t, secrets),
    });
  } catch (err) {
    throw remoteError(err, 'push', ref, expected, secrets);
  }
}
