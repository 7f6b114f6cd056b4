import type { PromiseFsClient } from 'isomorphic-git';
import type { GitContext } from '../../git/git-context.js';

/** The remote name isomorphic-git is told; what it would write under it is dropped (ctxgit keeps its own tracking refs). */
export const TRANSFER_REMOTE = 'ctxgit-transfer';

const CONFIG = `[core]\n\trepositoryformatversion = 0\n\tbare = true\n[remote "${TRANSFER_REMOTE}"]\n\tfetch = +refs/*:refs/${TRANSFER_REMOTE}/*\n`;

type AnyFn = (...args: unknown[]) => Promise<unknown>;

/**
 * The repository's file system as isomorphic-git sees it during a transfer: its config is a fixed one (no URL or
 * credential is ever written to the repository's config), the refs it would write for its own remote tracking are
 * dropped (ctxgit moves refs itself, by compare-and-swap), and pack files land whole (temp file, then rename), so a
 * crash never leaves a half-written pack index that readers would trip on.
 */
export function transferFs(ctx: GitContext): PromiseFsClient {
  const real = ctx.fs.promises as unknown as Record<string, AnyFn | undefined>;
  const config = `${ctx.gitdir}/config`;
  const sinks = [`${ctx.gitdir}/refs/${TRANSFER_REMOTE}/`, `${ctx.gitdir}/refs/remotes/${TRANSFER_REMOTE}/`];
  const packs = `${ctx.gitdir}/objects/pack/`;
  const call = (name: string, args: unknown[]): Promise<unknown> => {
    const fn = real[name];
    if (fn === undefined) return Promise.reject(Object.assign(new Error(`fs.promises.${name} is not available`), { code: 'ENOSYS' }));
    return fn.apply(ctx.fs.promises, args);
  };
  const promises: Record<string, AnyFn> = {};
  for (const name of ['mkdir', 'rmdir', 'unlink', 'stat', 'lstat', 'readdir', 'readlink', 'symlink', 'rename', 'rm']) {
    promises[name] = (...args) => call(name, args);
  }
  promises['readFile'] = async (...args) => {
    const [path, options] = args as [unknown, { encoding?: string } | string | undefined];
    if (path !== config) return call('readFile', args);
    const encoding = typeof options === 'string' ? options : options?.encoding;
    return encoding === undefined ? Buffer.from(CONFIG, 'utf8') : CONFIG;
  };
  promises['writeFile'] = async (...args) => {
    const [path, data, options] = args as [string, unknown, unknown];
    if (typeof path === 'string' && sinks.some((s) => path.startsWith(s))) return undefined;
    if (typeof path === 'string' && path.startsWith(packs)) {
      const temp = `${path}.tmp_transfer`;
      await call('writeFile', [temp, data, options]);
      return call('rename', [temp, path]);
    }
    return call('writeFile', args);
  };
  return { promises: promises as unknown as PromiseFsClient['promises'] };
}
