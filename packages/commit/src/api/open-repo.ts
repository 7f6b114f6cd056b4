import type { Clock } from '@ctxgit/dag';
import type { TokenizerLoader } from '@ctxgit/tokenize';
import { InvalidOptionError, NotCtxgitRepoError } from '../errors.js';
import type { GitContext } from '../git/git-context.js';
import { GitIoError, NotARepositoryError } from '../git/errors.js';
import { listRefs } from '../git/list-refs.js';
import { openGit } from '../git/open-git.js';
import { recoverStaleLocks } from '../git/recover-stale-locks.js';
import { removeTempObjects } from '../git/remove-temp-objects.js';
import type { OpenGitOptions } from '../git/open-git.js';
import { Repo } from './repo.js';
import type { AuthCallback, Remote } from '../engine/remote/remote.js';
import { resolveRemote } from '../engine/remote/remote.js';
import { sweepWorkRefs } from '../engine/remote/sync-work-ref.js';
import { GitNodeStore } from '../store/git-node-store.js';
import { checkSummarizer } from '../engine/summarizer/check-summarizer.js';
import type { SessionSummarizer } from '../engine/summarizer/session-summarizer.js';

/** Options of {@link openRepo}: where the repository lives (see `OpenGitOptions`), plus the clock. */
export type OpenRepoOptions = OpenGitOptions & {
  /** Milliseconds since the epoch, for the DAG's commits and as the sessions' default clock. @defaultValue `Date.now` */
  readonly clock?: Clock;
  /**
   * When set, opening runs `recoverStaleLocks` (locks of dead processes of this host, any age; locks naming no owner
   * of this host older than this many milliseconds) and `removeTempObjects` (dead writers' temporary objects). A live
   * writer's lock is never removed. Writers take over a dead writer's lock on the ref they update by themselves, so
   * this only tidies up. @defaultValue no sweep
   */
  readonly recoverLocksOlderThanMs?: number;
  /** The summarizer of every session opened through this repository, unless its options name another. @defaultValue none: summaries are the deterministic brief */
  readonly summarizer?: SessionSummarizer;
  /**
   * Loads the sessions' tokenizers (each encoding once, on first use) and keeps them: share one between repositories
   * to build the rank tables once. @defaultValue a new `createTokenizerLoader()` of this repository
   */
  readonly tokenizers?: TokenizerLoader;
  /** A git server: `openSession` of a session this repository lacks fetches it from there first. @defaultValue none */
  readonly remote?: Remote;
  /** Credentials for `remote`, asked when the server wants some. @defaultValue none */
  readonly onAuth?: AuthCallback;
};

/** Name of the marker file in the git directory that makes it a ctxgit repository. */
const MARKER = 'ctxgit.json';
const MARKER_TEXT = '{"format":1}\n';

async function ensureMarker(ctx: GitContext, location: string): Promise<void> {
  const path = `${ctx.gitdir}/${MARKER}`;
  let text: string | undefined;
  try {
    text = String(await ctx.fs.promises.readFile(path));
  } catch (err) {
    const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
    if (code !== 'ENOENT') throw new GitIoError('read', path, err);
  }
  if (text !== undefined) {
    if (text !== MARKER_TEXT) throw new NotCtxgitRepoError(location, `${MARKER} holds ${JSON.stringify(text.slice(0, 40))}, not format 1`);
    return;
  }
  const refs = await listRefs(ctx, 'refs/');
  if (refs.length > 0) throw new NotCtxgitRepoError(location, `it is a git repository with refs (${refs[0] ?? ''}) but no ${MARKER}`);
  try {
    await ctx.fs.promises.writeFile(`${path}.tmp`, MARKER_TEXT);
    await ctx.fs.promises.rename(`${path}.tmp`, path);
  } catch (err) {
    throw new GitIoError('write', path, err);
  }
}

/**
 * Opens the ctxgit repository in a directory (node's fs unless `fs` is given) or in memory (`memoryFs()` of
 * `@ctxgit/commit/git`; a memfs volume given as `fs` works too, but memfs's own rename holds on to every file it
 * replaces), creating a bare repository when the directory is missing or empty.
 *
 * @param opts - `{ dir }` or `{ memory: true }`, plus `fs`, `fsync` (default true), `staleLockMs` (default 30000), `clock`, `recoverLocksOlderThanMs`, `summarizer`, `tokenizers` (default: the repository's own loader), and `remote` with `onAuth` (a session opened first here is fetched from there)
 * @returns the repository
 * @remarks
 * After a crash a writer may have left a `<ref>.lock` (for instance on a session's `refs/ctxgit/sessions/<s>/dag`).
 * The lock names its owner (host, pid): the next writer of that ref takes it over at once when that process is dead,
 * and a lock of another host (or of git) once older than `staleLockMs` (30 s by default). A live writer's lock is
 * never removed: its competitors get a retryable `RefConflictError` (reason `locked`) naming it. A sync that
 * died in the middle of a rebase left its work ref under `refs/ctxgit-sync/` (the session's DAG ref still at its
 * local tip): opening removes those of dead processes of this host.
 * @throws {@link NotCtxgitRepoError} when the directory holds something else (another git repository, other files); `GitIoError` when the file system fails
 * @example
 * ```ts
 * const repo = await openRepo({ dir: './ctx.git' });
 * const mem = await openRepo({ memory: true, clock: () => 1_700_000_000_000 });
 * const backend = await openRepo({ dir: './ctx.git', remote: { url: 'https://git.example.com/ctx.git' } });
 * const chat = await backend.openSession('chat-42'); // fetched from the server on first open
 * ```
 */
export async function openRepo(opts: OpenRepoOptions): Promise<Repo> {
  if (opts?.remote !== undefined) resolveRemote(opts.remote);
  const location = typeof opts === 'object' && opts !== null && 'dir' in opts ? String(opts.dir) : '(memory)';
  checkSummarizer('summarizer', opts?.summarizer);
  let git: GitContext;
  try {
    git = await openGit(opts);
  } catch (err) {
    if (err instanceof NotARepositoryError) throw new NotCtxgitRepoError(location, String(err.data['reason']));
    throw err;
  }
  await ensureMarker(git, location);
  const clock = opts.clock ?? Date.now;
  if (opts.recoverLocksOlderThanMs !== undefined) {
    await recoverStaleLocks(git, { olderThanMs: opts.recoverLocksOlderThanMs });
    await removeTempObjects(git, { olderThanMs: opts.recoverLocksOlderThanMs });
  }
  await sweepWorkRefs(git);
  const store = new GitNodeStore(git, { clock });
  const origin = opts.remote === undefined ? undefined : { remote: opts.remote, ...(opts.onAuth === undefined ? {} : { onAuth: opts.onAuth }) };
  if (opts.tokenizers !== undefined && (typeof opts.tokenizers !== 'object' || opts.tokenizers === null || typeof opts.tokenizers.load !== 'function')) {
    throw new InvalidOptionError('tokenizers', opts.tokenizers, 'a TokenizerLoader (createTokenizerLoader())');
  }
  return new Repo({ git, store, location, commits: new Map() }, clock, opts.summarizer, origin, opts.tokenizers);
}

/** Options of {@link cloneRepo}: where the new repository lives, the server, which sessions, credentials. */
export type CloneRepoOptions = OpenRepoOptions & {
  readonly remote: Remote;
  /** The sessions to fetch. @defaultValue every session of the remote */
  readonly sessions?: readonly string[];
};

/**
 * Creates a repository from a git server: opens (or creates) it like {@link openRepo}, then fetches the sessions.
 *
 * @param opts - as for {@link openRepo}, plus `remote` (required) and `sessions`
 * @returns the repository, with the server as its origin
 * @throws the errors of {@link openRepo} and of `Repo.fetch`
 * @example
 * ```ts
 * const repo = await cloneRepo({ dir: './ctx.git', remote: { url: 'https://git.example.com/ctx.git' }, sessions: ['chat-42'] });
 * ```
 */
export async function cloneRepo(opts: CloneRepoOptions): Promise<Repo> {
  const repo = await openRepo(opts);
  await repo.fetch(opts.remote, { ...(opts.sessions === undefined ? {} : { sessions: opts.sessions }), ...(opts.onAuth === undefined ? {} : { onAuth: opts.onAuth }) });
  return repo;
}
