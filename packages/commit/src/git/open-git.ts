import { resolve } from 'node:path';
import * as nodeFs from 'node:fs';
import { GitArgumentError, NotARepositoryError } from './errors.js';
import type { FsLike } from './fs-like.js';
import type { GitContext } from './git-context.js';
import type { LockIdentity } from './lock-identity.js';
import { memoryFs } from './memory-fs.js';
import { ensureDir, errnoOf, io, pathExists, unlinkQuietly } from './internal/fs-ops.js';
import { DEFAULT_STALE_LOCK_MS, stateOf } from './internal/state.js';

/** Settings shared by both ways of opening a repository. */
export interface OpenGitCommonOptions {
  /**
   * Flush every object and ref file to stable storage (fsync) before it is renamed into place, so a power cut
   * cannot leave a ref naming an object that was never written to disk. Without it a process crash is still safe.
   * @defaultValue `true`
   */
  readonly fsync?: boolean;
  /**
   * Suffix of temporary object file names (`objects/xx/tmp_obj_<suffix>`); must differ between calls.
   * @defaultValue a random prefix per context followed by a counter
   */
  readonly tempSuffix?: () => string;
  /**
   * A ref's `.lock` file names its owner (host, pid). A lock whose owner is a dead process of this host is taken over
   * by the next writer at once, and one of a live process never is. A lock that names no owner of this host (another
   * host sharing the directory, git itself, an older ctxgit) is taken for a dead writer's once older than this, in
   * milliseconds by its mtime (a live writer holds one for milliseconds). `Infinity`: never by age.
   * @defaultValue 30000
   */
  readonly staleLockMs?: number;
  /**
   * Automatic maintenance: after each batch of writes (a turn), pack the loose objects once a few hundred were
   * written and roll small packs up geometrically (as `git maintenance` does), so the repository stays close to
   * what `git gc` makes of it without anyone running anything. It runs in the background: the batch resolves once
   * its own writes are durable, and the next flush waits for the roll-up. `false` leaves packing to `gc`.
   * @defaultValue `true`
   */
  readonly maintenance?: boolean;
  /**
   * The writer's host and pid as written into its locks, and how to tell whether a pid of this host runs.
   * @defaultValue this process (`os.hostname()`, `process.pid`, `process.kill(pid, 0)`)
   */
  readonly identity?: LockIdentity;
  /**
   * Called with the oid of every object read from storage (loose or packed; not for objects served from the
   * context's cache): what a caller counts to see how much of the repository an operation touched.
   * @defaultValue none
   */
  readonly onObjectRead?: (oid: string) => void;
}

/** Open (or create) a bare repository in a directory; `fs` defaults to `node:fs`. */
export interface OpenGitDirOptions extends OpenGitCommonOptions {
  readonly dir: string;
  readonly fs?: FsLike;
}

/** Open (or create) a bare repository at `/ctxgit.git` in memory; `fs` defaults to a fresh {@link memoryFs}. */
export interface OpenGitMemoryOptions extends OpenGitCommonOptions {
  readonly memory: true;
  readonly fs?: FsLike;
}

/** How to open a repository: {@link OpenGitDirOptions} or {@link OpenGitMemoryOptions}. */
export type OpenGitOptions = OpenGitDirOptions | OpenGitMemoryOptions;

/** What `git init --bare` creates and ctxgit may find half-created after a crash. */
const INIT_ENTRIES = new Set(['HEAD', 'config', 'objects', 'refs', 'description', 'hooks', 'info', 'branches', 'packed-refs']);
const CONFIG = '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n';

async function writeIfMissing(ctx: GitContext, path: string, text: string): Promise<void> {
  if (await pathExists(ctx, path)) return;
  const temp = `${path}.tmp_init`;
  try {
    await ctx.fs.promises.writeFile(temp, text);
    await ctx.fs.promises.rename(temp, path);
  } catch (err) {
    await unlinkQuietly(ctx, temp);
    throw err;
  }
}

async function initBare(ctx: GitContext): Promise<void> {
  await ensureDir(ctx, `${ctx.gitdir}/objects/info`);
  await ensureDir(ctx, `${ctx.gitdir}/objects/pack`);
  await ensureDir(ctx, `${ctx.gitdir}/refs/heads`);
  await ensureDir(ctx, `${ctx.gitdir}/refs/tags`);
  await io('init', ctx.gitdir, async () => {
    await writeIfMissing(ctx, `${ctx.gitdir}/HEAD`, 'ref: refs/heads/main\n');
    await writeIfMissing(ctx, `${ctx.gitdir}/config`, CONFIG);
  });
}

async function listDir(ctx: GitContext, dir: string): Promise<string[] | null> {
  try {
    return (await ctx.fs.promises.readdir(dir)).map(String);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return null;
    if (errnoOf(err) === 'ENOTDIR') throw new NotARepositoryError(dir, 'it is a file');
    return io('readdir', dir, () => Promise.reject(err));
  }
}

/**
 * Opens the bare git repository in `dir` (or in memory), creating it when the directory is missing or empty, or
 * finishing a creation a crash interrupted.
 *
 * @param opts - where the repository lives and how to write to it
 * @returns the context every git primitive takes
 * @throws {@link NotARepositoryError} when the directory holds something other than a bare repository
 * @example
 * ```ts
 * const ctx = await openGit({ dir: '/tmp/ctx.git' });
 * const mem = await openGit({ memory: true });
 * ```
 */
function readHook(opts: OpenGitCommonOptions): { onObjectRead?: (oid: string) => void } {
  const hook = opts.onObjectRead;
  if (hook !== undefined && typeof hook !== 'function') throw new GitArgumentError('opts.onObjectRead', 'expected a function');
  return hook === undefined ? {} : { onObjectRead: hook };
}

export async function openGit(opts: OpenGitOptions): Promise<GitContext> {
  if (typeof opts !== 'object' || opts === null) throw new GitArgumentError('opts', 'expected { dir } or { memory: true }');
  let ctx: GitContext;
  if ('memory' in opts) {
    if (opts.memory !== true) throw new GitArgumentError('opts.memory', 'must be true');
    ctx = { fs: opts.fs ?? (await memoryFs()), gitdir: '/ctxgit.git', cache: {}, ...readHook(opts) };
  } else {
    if (typeof opts.dir !== 'string' || opts.dir === '') throw new GitArgumentError('opts.dir', 'expected a directory path');
    ctx = { fs: opts.fs ?? nodeFs, gitdir: resolve(opts.dir).replace(/\\/gu, '/').replace(/(?<=.)\/+$/u, ''), cache: {}, ...readHook(opts) };
  }
  if (opts.fsync !== undefined && typeof opts.fsync !== 'boolean') throw new GitArgumentError('opts.fsync', 'expected a boolean');
  if (opts.tempSuffix !== undefined && typeof opts.tempSuffix !== 'function') throw new GitArgumentError('opts.tempSuffix', 'expected a function');
  if (opts.staleLockMs !== undefined && (typeof opts.staleLockMs !== 'number' || Number.isNaN(opts.staleLockMs) || opts.staleLockMs < 0)) {
    throw new GitArgumentError('opts.staleLockMs', 'expected milliseconds >= 0 (or Infinity)');
  }
  const { identity } = opts;
  if (identity !== undefined && (typeof identity !== 'object' || identity === null || typeof identity.host !== 'string' || !Number.isSafeInteger(identity.pid) || typeof identity.isAlive !== 'function')) {
    throw new GitArgumentError('opts.identity', 'expected { host: string, pid: integer, isAlive(pid) }');
  }
  const state = stateOf(ctx);
  if (identity !== undefined) state.identity = identity;
  state.fsync = opts.fsync ?? true;
  state.staleLockMs = opts.staleLockMs ?? DEFAULT_STALE_LOCK_MS;
  if (opts.tempSuffix !== undefined) state.tempSuffix = opts.tempSuffix;
  if (opts.maintenance !== undefined && typeof opts.maintenance !== 'boolean') throw new GitArgumentError('opts.maintenance', 'expected a boolean');
  state.maintenance = opts.maintenance ?? true;
  const entries = await listDir(ctx, ctx.gitdir);
  const complete = entries !== null && entries.includes('HEAD') && entries.includes('config') && entries.includes('objects') && entries.includes('refs');
  if (!complete) {
    const stray = (entries ?? []).filter((name) => !INIT_ENTRIES.has(name) && !name.endsWith('.tmp_init'));
    if (stray.length > 0) throw new NotARepositoryError(ctx.gitdir, `it holds ${stray.slice(0, 3).join(', ')} but no HEAD, config, objects and refs`);
    await initBare(ctx);
  }
  return ctx;
}
